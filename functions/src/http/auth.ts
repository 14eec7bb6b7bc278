// POST token/ and token/refresh/ (docs/api.md) served (the declarations are in routes/auth.ts), and the
// bearer-token middleware for everything else.
import { createMiddleware } from "hono/factory";
import { authenticate, login, refreshAccess } from "../domain/auth";
import { Unauthorized } from "../domain/errors";
import type { AppEnv } from "./env";

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

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new Unauthorized("Учетные данные не были предоставлены", "not_authenticated");
  c.set("actor", await authenticate(c.get("deps"), match[1]));
  await next();
});
