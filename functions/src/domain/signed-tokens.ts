// Every JWT the API issues (sign-in tokens, media URLs, direct-upload grants): HS256 with the API's
// secret, issuer pinned, and checked against the current signing secret and, for a while after a
// rotation (`npm run admin -- rotate-jwt-secret`), against the previous one, so that rotating the
// secret signs nobody out. What the claims mean is the business of each kind of token.
import { createHmac, timingSafeEqual } from "node:crypto";
import { errors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyOptions } from "jose";
import { keptState, type Runtime } from "../ports/runtime";

export interface SigningKeys {
  jwtSecret: Uint8Array;
  /** The secret before the last rotation, accepted (never used to sign) until `validUntil`. */
  previousJwtSecret?: { secret: Uint8Array; validUntil: Date };
}

const ISSUER = "fugitive-emissions";

export interface JwtContent {
  /** The token's own claims; `typ` among them keeps one kind of token from passing for another. */
  claims: JWTPayload;
  subject: string;
  /** Who the token is for ("media", "upload"); sign-in tokens have none. */
  audience?: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  notBefore?: number;
  expiresAt: number;
  jti?: string;
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Each secret imported once as a WebCrypto key, by the secret. */
const signingKeys = keptState("signing keys", () => new Map<Uint8Array, Promise<HmacKey>>());

/** Each secret as a WebCrypto key, imported once per host (its runtime keeps them: a secret or two):
 *  given the bytes, jose imports them again for every token it signs or checks, which more than doubled
 *  a check's CPU (about 130 µs against 60 µs). Without a runtime (a tool, a test), imported each time. */
function hmacKey(secret: Uint8Array, runtime?: Runtime): Promise<HmacKey> {
  const keys = runtime?.kept(signingKeys);
  let key = keys?.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new Uint8Array(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys?.set(secret, key);
  }
  return key;
}

/** Signs with the current secret (never the previous one). */
export function signJwt(keys: SigningKeys, content: JwtContent, runtime?: Runtime): Promise<string> {
  const jwt = new SignJWT(content.claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(content.subject).setIssuer(ISSUER);
  if (content.audience !== undefined) jwt.setAudience(content.audience);
  jwt.setIssuedAt(content.issuedAt);
  if (content.notBefore !== undefined) jwt.setNotBefore(content.notBefore);
  jwt.setExpirationTime(content.expiresAt);
  if (content.jti !== undefined) jwt.setJti(content.jti);
  return hmacKey(keys.jwtSecret, runtime).then((key) => jwt.sign(key));
}

/** The payload of a token signJwt issued, checked at `now` (algorithm, issuer, audience, expiry,
 *  the required claims); jose's errors otherwise (errors.JWTExpired for an expired one). */
export function verifyJwt(
  keys: SigningKeys,
  token: string,
  check: { audience?: string; now: Date; requiredClaims: string[] },
  runtime?: Runtime,
): Promise<JWTPayload> {
  return verifySigned(
    keys,
    token,
    {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: check.audience,
      currentDate: check.now,
      requiredClaims: check.requiredClaims,
    },
    runtime,
  );
}

/** A grant the platform signed for `audience` (a direct upload, a video's link), checked at the host's
 *  time with the claims every grant carries; jose's errors otherwise (errors.JWTExpired when expired). */
export function verifyGrant(
  host: { config: SigningKeys; clock: { now(): Date }; runtime?: Runtime },
  token: string,
  audience: string,
): Promise<JWTPayload> {
  return verifyJwt(host.config, token, { audience, now: host.clock.now(), requiredClaims: ["sub", "exp", "iat"] }, host.runtime);
}

/** Tokens checked by the current secret, with what they were checked for: a signed-in user's every
 *  request checked its token's HMAC through WebCrypto's job queue, about 7 % of a create's CPU
 *. A token asked again, for the same checks, with the same secret and inside its time
 *  claims, is the same token: its payload is answered without the HMAC. Whether its session still
 *  stands is the caller's check, every time (domain/company/tokens.ts). The host keeps them (its
 *  runtime); without one (a tool, a test) every token is checked. */
const CHECKED_TOKENS = 2_000;

/** The tokens checked lately, by the token and its checks. */
const checkedTokens = keptState("checked tokens", () => new Map<string, { secret: Uint8Array; payload: JWTPayload }>());

const checksOf = (token: string, options: JWTVerifyOptions) =>
  JSON.stringify([token, options.algorithms, options.issuer, options.audience, options.requiredClaims]);

/** Whether the payload's time claims hold at `now` as jose checks them (no clock tolerance). */
function inTime(payload: JWTPayload, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  return (payload.exp === undefined || seconds < payload.exp) && (payload.nbf === undefined || payload.nbf <= seconds);
}

/** jose's jwtVerify over the current key, then the previous one while it is still accepted.
 *  `options.currentDate` is the moment of the check, on the caller's clock. */
export async function verifySigned(
  keys: SigningKeys,
  token: string,
  options: JWTVerifyOptions & { currentDate: Date },
  runtime?: Runtime,
): Promise<JWTPayload> {
  const checks = checksOf(token, options);
  const checked = runtime?.kept(checkedTokens);
  const known = checked?.get(checks);
  if (known && known.secret === keys.jwtSecret && inTime(known.payload, options.currentDate)) return known.payload;
  try {
    const { payload } = await jwtVerify(token, await hmacKey(keys.jwtSecret, runtime), options);
    if (checked) {
      checked.delete(checks);
      checked.set(checks, { secret: keys.jwtSecret, payload: Object.freeze(payload) });
      // The oldest given up past the bound.
      if (checked.size > CHECKED_TOKENS) checked.delete(checked.keys().next().value!);
    }
    return payload;
  } catch (error) {
    const previous = keys.previousJwtSecret;
    if (!(error instanceof errors.JWSSignatureVerificationFailed) || !previous || options.currentDate >= previous.validUntil) throw error;
    return (await jwtVerify(token, await hmacKey(previous.secret, runtime), options)).payload;
  }
}

const hmacOf = (secret: Uint8Array, parts: readonly string[]) =>
  createHmac("sha256", secret).update(parts.join("\n")).digest("base64url").slice(0, 22);

/** A short signature of `parts` (an export job's purpose, company and UUID) for an id a client
 *  holds: HMAC-SHA256 with the current secret, cut to 128 bits. */
export const signParts = (keys: SigningKeys, parts: readonly string[]): string => hmacOf(keys.jwtSecret, parts);

/** Whether `signature` is signParts' for `parts`, by the current secret or, while it is still
 *  accepted at `now`, the previous one: a rotation keeps the ids issued before it, as it keeps tokens. */
export function partsSigned(keys: SigningKeys, parts: readonly string[], signature: string, now: Date): boolean {
  const matches = (secret: Uint8Array) => {
    const expected = Buffer.from(hmacOf(secret, parts));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const previous = keys.previousJwtSecret;
  return matches(keys.jwtSecret) || (!!previous && now < previous.validUntil && matches(previous.secret));
}
