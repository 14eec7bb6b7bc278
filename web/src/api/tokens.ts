// Where the session lives between page loads (docs/user-guide.md: local storage keys token, refreshToken)
// and how we decide whether an access token is still usable without asking the server.
import { decodeJwt } from "jose";

export const ACCESS_KEY = "token";
export const REFRESH_KEY = "refreshToken";

export class InvalidTokenError extends Error {
  constructor() {
    super("invalid token");
    this.name = "InvalidTokenError";
  }
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The `exp` claim (seconds since epoch) of a JWT. The signature is the server's business, not ours. */
export function tokenExpiry(token: string): number {
  let exp: unknown;
  try {
    exp = decodeJwt(token).exp;
  } catch {
    throw new InvalidTokenError();
  }
  if (typeof exp !== "number" || !Number.isFinite(exp)) throw new InvalidTokenError();
  return exp;
}

/**
 * docs/user-guide.md: a token whose expiry, compared in seconds, is in the future is valid. `marginSeconds`
 * lets a caller treat an about-to-expire token as expired, so a request does not die in flight.
 * A malformed token is simply not valid.
 */
export function isTokenValid(token: string | null, now = nowSeconds(), marginSeconds = 0): boolean {
  if (!token) return false;
  try {
    return tokenExpiry(token) > now + marginSeconds;
  } catch {
    return false;
  }
}

export function readAccessToken(): string | null {
  return localStorage.getItem(ACCESS_KEY);
}

export function readRefreshToken(): string | null {
  return localStorage.getItem(REFRESH_KEY);
}

export function storeTokens(access: string, refresh?: string): void {
  localStorage.setItem(ACCESS_KEY, access);
  if (refresh !== undefined) localStorage.setItem(REFRESH_KEY, refresh);
}
