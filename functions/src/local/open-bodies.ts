// A signed-in user's bodies in flight are capped (LIMITS.bodies.openPerUser, a browser's own connections to
// one server): a user who opens many slow uploads at once held as many connections, each until its
// deadline (body-deadline.ts), and the memory and disk their parts take. A request counts from its arrival
// until its body has come whole (or its answer is made, or its connection closed): a request whose body is
// in, working in the app, counts no more. Past the cap the next request with a body is answered 429 before
// its body is read, naming the figure; the connection closes lingering (lingering-close.ts).
// The user is the access token's subject, read here unverified: a forged token counts only until the app
// refuses it (401, its body unread), so it cannot hold another user's places. In AWS API Gateway takes a
// body whole before the function runs: there is no body in flight to count.
import type { IncomingMessage, RequestListener } from "node:http";
import { LIMITS } from "../contract/schemas/limits";

/** The subject of the request's bearer token (unverified), or undefined. */
export function bearerSubject(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+[\w-]+\.([\w-]+)\.[\w-]+$/i.exec(request.headers.authorization ?? "");
  // The header is bounded by the server's (Node's maxHeaderSize): no bound of its own here.
  if (!match) return undefined;
  try {
    const sub = (JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as { sub?: unknown }).sub;
    return typeof sub === "string" && sub.length > 0 && sub.length <= LIMITS.id ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** `listener`, each signed-in user's bodies in flight held to `max`. */
export function openBodiesCap(listener: RequestListener, max: number = LIMITS.bodies.openPerUser): RequestListener {
  const open = new Map<string, number>();
  return (request, response) => {
    const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
    const user = hasBody ? bearerSubject(request) : undefined;
    if (user === undefined) return listener(request, response);
    const count = open.get(user) ?? 0;
    if (count >= max) {
      const body = JSON.stringify({
        detail: `У вас уже ${max} запросов с телом в пути (загрузки, сохранения): дождитесь их окончания и повторите`,
      });
      response.writeHead(429, {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Retry-After": String(LIMITS.bodies.minSeconds),
        Connection: "close",
        "Content-Length": Buffer.byteLength(body),
      });
      response.end(body);
      return;
    }
    open.set(user, count + 1);
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      const left = (open.get(user) ?? 1) - 1;
      if (left > 0) open.set(user, left);
      else open.delete(user);
    };
    request.once("end", done);
    request.once("close", done);
    response.once("close", done);
    listener(request, response);
  };
}
