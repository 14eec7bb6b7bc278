// Access and refresh JWTs (HS256, jose). The token type is a claim, so a refresh token can never
// be used as an access token and vice versa.
import { SignJWT, errors } from "jose";
import { verifySigned, type SigningKeys } from "./signed-tokens";
import { Unauthorized } from "./errors";

export interface TokenSettings {
  keys: SigningKeys;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export interface TokenClaims {
  userId: string;
  companyId: string;
}

type TokenType = "access" | "refresh";
const ISSUER = "fugitive-emissions";

export async function signToken(settings: TokenSettings, type: TokenType, claims: TokenClaims, now: Date) {
  const iat = Math.floor(now.getTime() / 1000);
  const ttl = type === "access" ? settings.accessTtlSeconds : settings.refreshTtlSeconds;
  return new SignJWT({ typ: type, cid: claims.companyId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + ttl)
    .setJti(crypto.randomUUID())
    .sign(settings.keys.jwtSecret);
}

export async function verifyToken(
  settings: TokenSettings,
  type: TokenType,
  token: string,
  now: Date,
): Promise<TokenClaims> {
  try {
    const payload = await verifySigned(settings.keys, token, {
      algorithms: ["HS256"],
      issuer: ISSUER,
      currentDate: now,
      requiredClaims: ["sub", "exp", "iat", "nbf"],
    });
    if (payload.typ !== type || typeof payload.sub !== "string" || typeof payload.cid !== "string") {
      throw new Unauthorized("Неверный тип токена", "token_not_valid");
    }
    return { userId: payload.sub, companyId: payload.cid };
  } catch (error) {
    if (error instanceof Unauthorized) throw error;
    if (error instanceof errors.JWTExpired) throw new Unauthorized("Срок действия токена истек", "token_not_valid");
    throw new Unauthorized("Токен недействителен", "token_not_valid");
  }
}
