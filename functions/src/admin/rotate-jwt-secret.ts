// `npm run admin -- rotate-jwt-secret`: a new JWT signing secret on demand (docs/security.md).
// Tokens signed with the old one stay valid until the overlap ends (by default the refresh-token
// lifetime, so nobody is signed out mid-session); new tokens are signed with the new one.
import { LambdaClient, UpdateFunctionConfigurationCommand } from "@aws-sdk/client-lambda";
import { rotateAppJwtSecret, SecretsManagerClient } from "../lambda/secrets";
import { newJwtSecret, rotateLocalJwtSecret } from "../local/storage";

export type RotationTarget =
  | { kind: "local"; dataDir: string }
  | { kind: "aws"; secrets: SecretsManagerClient; secretArn: string; lambda?: LambdaClient; apiFunctionName?: string };

export interface RotationResult {
  previousValidUntil: Date;
  /** In AWS: whether the API's running instances were replaced (they read the secret at start). */
  apiRestarted?: boolean;
}

export async function rotateJwtSecret(target: RotationTarget, overlapSeconds: number, now: Date): Promise<RotationResult> {
  const previousValidUntil = new Date(now.getTime() + overlapSeconds * 1000);
  if (target.kind === "local") {
    rotateLocalJwtSecret(target.dataDir, previousValidUntil);
    return { previousValidUntil };
  }
  await rotateAppJwtSecret(target.secrets, target.secretArn, newJwtSecret(), previousValidUntil);
  if (!target.apiFunctionName || !target.lambda) return { previousValidUntil, apiRestarted: false };
  // Running instances keep the secrets they read at their cold start; a configuration change
  // replaces them, so every instance signs with the new secret and accepts both.
  await target.lambda.send(
    new UpdateFunctionConfigurationCommand({
      FunctionName: target.apiFunctionName,
      Description: `Hono API under /api/ (JWT secret rotated ${now.toISOString()})`,
    }),
  );
  return { previousValidUntil, apiRestarted: true };
}

export { LambdaClient, SecretsManagerClient };
