// The Lambda's secrets, read from Secrets Manager once per cold start: the stack generates them,
// so no secret value is ever in the template, the environment or the code.
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

export interface AppSecrets {
  jwtSecret: Uint8Array;
  /** Set when the operator added `guardant_code` to the app secret (README, Deployment). */
  guardantCode?: string;
  /** The value CloudFront sends in x-origin-verify; only CloudFront knows it. */
  originVerify?: string;
}

export interface SecretIds {
  /** JSON `{"jwt_secret": "...", "guardant_code"?: "..."}`. */
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
  const parsed = JSON.parse(app) as { jwt_secret?: unknown; guardant_code?: unknown };
  // The generated value is 64 characters; anything much shorter is a hand edit gone wrong.
  if (typeof parsed.jwt_secret !== "string" || parsed.jwt_secret.length < 32) {
    throw new Error(`secret ${ids.app}: jwt_secret missing or shorter than 32 characters`);
  }
  const guardant = typeof parsed.guardant_code === "string" ? parsed.guardant_code.trim() : "";
  return {
    jwtSecret: new TextEncoder().encode(parsed.jwt_secret),
    guardantCode: guardant || undefined,
    originVerify: originVerify?.trim() || undefined,
  };
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the CDK stack sets it)`);
  return value;
}

export { SecretsManagerClient };
