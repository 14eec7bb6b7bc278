// Access and refresh JWTs (signed-tokens.ts). The token type is a claim, so a refresh token can never
// be used as an access token and vice versa.
import { errors } from "jose";
import type { Runtime } from "../context";
import { signJwt, verifyJwt, type SigningKeys } from "../signed-tokens";
import { Unauthorized } from "../errors";

export interface TokenSettings {
  keys: SigningKeys;
  /** Where the imported signing keys are kept (the host's runtime). */
  runtime?: Runtime;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export interface TokenClaims {
  userId: string;
  companyId: string;
  /** The user's session generation when the token was issued (see User.session_generation). */
  generation: number;
  /** Refresh tokens: the session (chain of refresh tokens) the token belongs to. */
  sessionId?: string;
}

export interface SignedToken {
  token: string;
  jti: string;
  expiresAt: number;
}

type TokenType = "access" | "refresh";

export async function signToken(settings: TokenSettings, type: TokenType, claims: TokenClaims, now: Date): Promise<SignedToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const ttl = type === "access" ? settings.accessTtlSeconds : settings.refreshTtlSeconds;
  const jti = crypto.randomUUID();
  const token = await signJwt(
    settings.keys,
    {
      claims: {
        typ: type,
        cid: claims.companyId,
        gen: claims.generation,
        ...(claims.sessionId ? { fam: claims.sessionId } : {}),
      },
      subject: claims.userId,
      issuedAt: iat,
      notBefore: iat,
      expiresAt: iat + ttl,
      jti,
    },
    settings.runtime,
  );
  return { token, jti, expiresAt: iat + ttl };
}

export interface VerifiedClaims extends TokenClaims {
  jti: string;
}

export async function verifyToken(settings: TokenSettings, type: TokenType, token: string, now: Date): Promise<VerifiedClaims> {
  try {
    const payload = await verifyJwt(settings.keys, token, { now, requiredClaims: ["sub", "exp", "iat", "nbf", "jti"] }, settings.runtime);
    if (payload.typ !== type || typeof payload.sub !== "string" || typeof payload.cid !== "string" || typeof payload.jti !== "string") {
      throw new Unauthorized("Неверный тип токена", "token_not_valid");
    }
    return {
      userId: payload.sub,
      companyId: payload.cid,
      // Tokens issued before generations existed are generation 0, like their users.
      generation: typeof payload.gen === "number" ? payload.gen : 0,
      sessionId: typeof payload.fam === "string" ? payload.fam : undefined,
      jti: payload.jti,
    };
  } catch (error) {
    if (error instanceof Unauthorized) throw error;
    if (error instanceof errors.JWTExpired) throw new Unauthorized("Срок действия токена истек", "token_not_valid");
    throw new Unauthorized("Токен недействителен", "token_not_valid");
  }
}
