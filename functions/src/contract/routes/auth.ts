// POST token/ and token/refresh/ (docs/api.md), declared: sign in and refresh. Served by http/auth.ts.
import * as z from "zod";
import { tokensSchema } from "../schemas/answers";
import { access, json, route } from "./declare";
import { LIMITS } from "../schemas/limits";

export const loginSchema = z.object({
  email: z.string("укажите логин").max(LIMITS.email, "слишком длинный логин"),
  password: z.string("укажите пароль").max(LIMITS.password.max, "слишком длинный пароль"),
  guardant_code: z.optional(z.nullable(z.string("ожидается строка"))),
});

export const refreshSchema = z
  .object({
    token: z.optional(z.string("ожидается строка")),
    refresh: z.optional(z.string("ожидается строка")),
  })
  .refine((b) => Boolean(b.token ?? b.refresh), "укажите refresh-токен");

const signIn = access("auth", "public", { scope: "public" });

export const loginRoute = route(
  signIn("login", "Sign in: access and refresh tokens", [400, 401, 429], "401 carries `code`: bad_credentials or guardant_required."),
  { post: "/", cost: "light", body: loginSchema, 200: json(tokensSchema, "Tokens") },
);

export const refreshRoute = route(
  signIn(
    "refresh",
    "A new access token and the next refresh token (rotation) from a refresh token",
    [400, 401],
    "`{access, refresh}`: the refresh token sent is retired. Sent again within 30 s (a second tab): `{access}` only; later: the session is revoked (401).",
  ),
  { post: "/refresh", cost: "light", body: refreshSchema, 200: json(tokensSchema, "Tokens") },
);

/** Every route of token/ above, in the order http/auth.ts serves them. */
export const TOKEN_ROUTES = [loginRoute, refreshRoute] as const;
