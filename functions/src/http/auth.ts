// POST token/ and token/refresh/ (SPEC 7), and the bearer-token middleware for everything else.
import { createMiddleware } from "hono/factory";
import * as z from "zod";
import { authenticate, login, refreshAccess } from "../domain/auth";
import { Unauthorized } from "../domain/errors";
import { tokensSchema } from "../schemas/answers";
import type { AppEnv } from "./env";

export type { ClientAddressOf } from "./env";
import { routeApp } from "./openapi-routes";
import { declareRoute, json, jsonBody } from "../routes/declare";

export const loginSchema = z.object({
  email: z.string("email: укажите логин").max(320, "email: слишком длинный логин"),
  password: z.string("password: укажите пароль").max(1024, "password: слишком длинный пароль"),
  guardant_code: z.optional(z.nullable(z.string("guardant_code: ожидается строка"))),
});

export const refreshSchema = z
  .object({
    token: z.optional(z.string("token: ожидается строка")),
    refresh: z.optional(z.string("refresh: ожидается строка")),
  })
  .refine((b) => Boolean(b.token ?? b.refresh), "token: укажите refresh-токен");

const loginRoute = declareRoute(
  {
    operationId: "login",
    summary: "Sign in: access and refresh tokens",
    description: "401 carries `code`: bad_credentials or guardant_required.",
    tag: "auth",
    auth: "public",
    isolation: { scope: "public" },
    errors: [400, 401, 429],
  },
  { method: "post", path: "/", request: { body: jsonBody(loginSchema) }, responses: { 200: json(tokensSchema, "Tokens") } },
);

const refreshRoute = declareRoute(
  {
    operationId: "refresh",
    summary: "A new access token and the next refresh token (rotation) from a refresh token",
    description:
      "`{access, refresh}`: the refresh token sent is retired. Sent again within 30 s (a second tab): `{access}` only; later: the session is revoked (401).",
    tag: "auth",
    auth: "public",
    isolation: { scope: "public" },
    errors: [400, 401],
  },
  { method: "post", path: "/refresh", request: { body: jsonBody(refreshSchema) }, responses: { 200: json(tokensSchema, "Tokens") } },
);

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
