// The Lambda's secrets, read from Secrets Manager once per cold start: the stack generates them,
// so no secret value is ever in the template, the environment or the code.
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { SigningKeys } from "../domain/signed-tokens";

export interface AppSecrets extends SigningKeys {
  /** Set when the operator added `guardant_code` to the app secret (docs/deployment.md). */
  guardantCode?: string;
  /** The value CloudFront sends in x-origin-verify; only CloudFront knows it. */
  originVerify?: string;
}

export interface SecretIds {
  /** JSON `{"jwt_secret": "...", "guardant_code"?: "...", "previous_jwt_secret"?: "...",
   *  "previous_valid_until"?: ISO time}` (the last two written by rotateAppJwtSecret). */
  app: string;
  /** A plain generated string. */
  originVerify?: string;
}

async function secretString(client: SecretsManagerClient, id: string): Promise<string> {
  const out = await client.send(new GetSecretValueCommand({ SecretId: id }));
  if (!out.SecretString) throw new Error(`secret ${id} has no string value`);
  return out.SecretString;
}

export async function readSecrets(client: SecretsManagerClient, ids: SecretIds): Promise<AppSecrets> {
  const [app, originVerify] = await Promise.all([
    secretString(client, ids.app),
    ids.originVerify ? secretString(client, ids.originVerify) : undefined,
  ]);
  const parsed = parseAppSecret(app, ids.app);
  const guardant = typeof parsed.guardant_code === "string" ? parsed.guardant_code.trim() : "";
  const validUntil = typeof parsed.previous_valid_until === "string" ? new Date(parsed.previous_valid_until) : undefined;
  return {
    jwtSecret: new TextEncoder().encode(parsed.jwt_secret),
    previousJwtSecret:
      typeof parsed.previous_jwt_secret === "string" && validUntil && !Number.isNaN(validUntil.getTime())
        ? { secret: new TextEncoder().encode(parsed.previous_jwt_secret), validUntil }
        : undefined,
    guardantCode: guardant || undefined,
    originVerify: originVerify?.trim() || undefined,
  };
}

function parseAppSecret(value: string, id: string): Record<string, unknown> & { jwt_secret: string } {
  const parsed = JSON.parse(value) as Record<string, unknown>;
  // The generated value is 64 characters; anything much shorter is a hand edit gone wrong.
  if (typeof parsed.jwt_secret !== "string" || parsed.jwt_secret.length < 32) {
    throw new Error(`secret ${id}: jwt_secret missing or shorter than 32 characters`);
  }
  return parsed as Record<string, unknown> & { jwt_secret: string };
}

/** Puts a new jwt_secret into the app secret, keeping the old one as previous_jwt_secret until
 *  `validUntil` and every other field (guardant_code) as it was. */
export async function rotateAppJwtSecret(client: SecretsManagerClient, id: string, newSecret: string, validUntil: Date): Promise<void> {
  const current = parseAppSecret(await secretString(client, id), id);
  const next = {
    ...current,
    jwt_secret: newSecret,
    previous_jwt_secret: current.jwt_secret,
    previous_valid_until: validUntil.toISOString(),
  };
  await client.send(new PutSecretValueCommand({ SecretId: id, SecretString: JSON.stringify(next) }));
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the CDK stack sets it)`);
  return value;
}

export { SecretsManagerClient };
