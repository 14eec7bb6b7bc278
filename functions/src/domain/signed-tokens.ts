// Every JWT the API verifies (sign-in tokens, media URLs, direct-upload grants) is checked against
// the current signing secret and, for a while after a rotation (`npm run admin -- rotate-jwt-secret`),
// against the previous one, so that rotating the secret signs nobody out.
import { errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from "jose";

export interface SigningKeys {
  jwtSecret: Uint8Array;
  /** The secret before the last rotation, accepted (never used to sign) until `validUntil`. */
  previousJwtSecret?: { secret: Uint8Array; validUntil: Date };
}

/** jose's jwtVerify over the current key, then the previous one while it is still accepted.
 *  `options.currentDate` is the moment of the check. */
export async function verifySigned(keys: SigningKeys, token: string, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, keys.jwtSecret, options)).payload;
  } catch (error) {
    const previous = keys.previousJwtSecret;
    const now = options.currentDate ?? new Date();
    if (!(error instanceof errors.JWSSignatureVerificationFailed) || !previous || now >= previous.validUntil) throw error;
    return (await jwtVerify(token, previous.secret, options)).payload;
  }
}
