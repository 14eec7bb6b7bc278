// A signed-in user's requests with a body in flight are capped (LIMITS.bodies.openPerUser): a user who
// opens many slow uploads at once held as many connections, each with its body's deadline
// (local/body-deadline.ts), and the disk and memory their parts take. Past the cap the next one is
// answered 429 before its body is read, naming the figure. A request counts from its arrival past the
// user's check until its answer is made (its body read and its work done, or refused).
import type { MiddlewareHandler } from "hono";
import { LIMITS } from "../contract/schemas/limits";
import { TooManyRequests } from "../domain/errors";
import type { AppEnv } from "./env";

/** The middleware, with its own count per user (one per app: no state at the module's top). */
export function openBodies(max: number = LIMITS.bodies.openPerUser): MiddlewareHandler<AppEnv> {
  const open = new Map<string, number>();
  return async (c, next) => {
    // A body of its declared length, or one without a length (chunked); a declared 0 is none.
    const hasBody = c.req.raw.body !== null && c.req.header("content-length") !== "0";
    const user = c.get("actor") ?? c.get("pendingActor");
    if (!hasBody || !user) return next();
    const key = `${user.company}/${user.id}`;
    const count = open.get(key) ?? 0;
    if (count >= max) {
      throw new TooManyRequests(
        `У вас уже ${max} запроса с телом в пути (загрузки, сохранения): дождитесь их окончания и повторите`,
        LIMITS.bodies.minSeconds,
      );
    }
    open.set(key, count + 1);
    try {
      await next();
    } finally {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    }
  };
}
