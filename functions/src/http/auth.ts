// POST token/ and token/refresh/ (docs/api.md) served (the declarations are in routes/auth.ts), and the
// bearer-token middleware for everything else.
import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import { authenticateWithFirstRead, login, refreshAccess } from "../domain/company/auth";
import { checkedActor, type PendingActor } from "../domain/context";
import { TooManyRequests, Unauthorized } from "../domain/errors";
import type { AppEnv } from "./env";
import { errorResponse } from "./errors";
import { isCalculationType } from "@core/registry";

import { routeApp } from "./openapi-routes";
import { loginRoute, refreshRoute } from "../contract/routes/auth";

export const tokenRoutes = routeApp()
  .openapi(loginRoute, async (c) => {
    const body = c.req.valid("json");
    const tokens = await login(c.get("deps"), {
      email: body.email,
      password: body.password,
      guardant_code: body.guardant_code ?? undefined,
      clientAddress: c.get("clientAddressOf")(c),
    });
    return c.json(tokens, 200);
  })
  .openapi(refreshRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json(await refreshAccess(c.get("deps"), (body.token ?? body.refresh)!), 200);
  });

/** an address past its refusals is answered 429 before its credential is looked at (no
 *  signature checked, no key hashed, nothing read); otherwise one refusal is taken ahead of the check
 *  and the answer gives it back, to be called once the credential holds (http/request-pace.ts). */
export async function takeRefusal(c: Context<AppEnv>): Promise<() => void> {
  const taken = await c.get("refusals")?.take(c.get("clientAddressOf")(c));
  if (taken && taken.wait > 0) {
    throw new TooManyRequests(
      `Слишком много запросов без действительного токена с этого адреса. Повторите через ${taken.wait} с`,
      taken.wait,
    );
  }
  return taken?.giveBack ?? (() => undefined);
}

/** A bearer token checked as every signed-in request's is: its address's refusal taken first, given
 *  back once it holds, then the request waits its turn in the line of the user the token was signed
 *  for (no forged token stands in another user's line). requireUser, and the readings' push. */
export async function pacedBearer(c: Context<AppEnv>, token: string, giveBack: () => void): Promise<PendingActor> {
  const pending = await authenticateWithFirstRead(c.get("deps"), token);
  giveBack();
  await c.get("pace")?.take(`${pending.company}/${pending.id}`);
  return pending;
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const giveBack = await takeRefusal(c);
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new Unauthorized("Учетные данные не были предоставлены", "not_authenticated");
  const pending = await pacedBearer(c, match[1], giveBack);
  if (!readsUserWithItsOwn(c)) {
    c.set("actor", await pending.actor());
    return next();
  }
  c.set("pendingActor", pending);
  await next();
  // Whatever the route answered before its first read (its body refused, say), a user the checks
  // refuse gets their answer, as if the user had been read here; one they let through is the
  // request's actor for its log line (http/request-log.ts).
  try {
    c.set("actor", await pending.actor());
  } catch (error) {
    c.res = undefined;
    c.res = errorResponse(error as Error, c);
  }
});

/** The acting user of a route that reads it beside its own first reads (requireUser), or the one
 *  requireUser read. */
export const pendingActorOf = (c: Context<AppEnv>): PendingActor => c.get("pendingActor") ?? checkedActor(c.get("actor"));

/**
 * A calculation's create and its edit or archive (a JSON body, not a preview) read the user beside
 * the project or the calculation the request names. A form takes its heavy-work slot, which counts
 * per user, before its body is read, so it reads the user here first.
 */
function readsUserWithItsOwn(c: Context<AppEnv>): boolean {
  if ((c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) return false;
  const [, type, id] = /^\/api\/v1\/([^/]+)(?:\/([^/]+))?\/?$/.exec(c.req.path) ?? [];
  if (!type || !isCalculationType(type)) return false;
  if (c.req.method === "POST") return id === undefined && c.req.query("dry_run") === undefined;
  return c.req.method === "PATCH" && id !== undefined;
}
