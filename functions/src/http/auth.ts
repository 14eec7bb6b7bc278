// POST token/ and token/refresh/ (SPEC 7), and the bearer-token middleware for everything else.
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import * as z from "zod/mini";
import { authenticate, login, refreshAccess } from "../domain/auth";
import { Unauthorized } from "../domain/errors";
import type { AppEnv } from "./env";
import { validate } from "./validate";

export const loginSchema = z.object({
  email: z.string("email: укажите логин").check(z.maxLength(320, "email: слишком длинный логин")),
  password: z.string("password: укажите пароль").check(z.maxLength(1024, "password: слишком длинный пароль")),
  guardant_code: z.optional(z.nullable(z.string("guardant_code: ожидается строка"))),
});

export const refreshSchema = z
  .object({
    token: z.optional(z.string("token: ожидается строка")),
    refresh: z.optional(z.string("refresh: ожидается строка")),
  })
  .check(z.refine((b) => Boolean(b.token ?? b.refresh), "token: укажите refresh-токен"));

/** How the host tells the app who is calling (socket address locally, source IP in Lambda). */
export type ClientAddressOf = (c: Context) => string;

export function tokenRoutes(clientAddressOf: ClientAddressOf) {
  return new Hono<AppEnv>({ strict: false })
    .post("/", validate("json", loginSchema), async (c) => {
      const body = c.req.valid("json");
      const tokens = await login(c.get("deps"), {
        email: body.email,
        password: body.password,
        guardant_code: body.guardant_code ?? undefined,
        clientAddress: clientAddressOf(c),
      });
      return c.json(tokens, 200);
    })
    .post("/refresh", validate("json", refreshSchema), async (c) => {
      const body = c.req.valid("json");
      return c.json(await refreshAccess(c.get("deps"), (body.token ?? body.refresh)!), 200);
    });
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new Unauthorized("Учетные данные не были предоставлены", "not_authenticated");
  c.set("actor", await authenticate(c.get("deps"), match[1]));
  await next();
});
