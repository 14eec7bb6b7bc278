// rotate-jwt-secret against AWS (Secrets Manager and Lambda stand in through aws-sdk-client-mock):
// the app secret keeps guardant_code, gains the previous secret with its end, and the API's
// instances are replaced; the API then accepts tokens of both secrets until that end.
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { LambdaClient, UpdateFunctionConfigurationCommand } from "@aws-sdk/client-lambda";
import { mockClient } from "aws-sdk-client-mock";
import { SignJWT } from "jose";
import { describe, expect, it, onTestFinished } from "vitest";
import { rotateJwtSecret } from "@server/admin/rotate-jwt-secret";
import { readSecrets } from "@server/lambda/secrets";
import { verifySigned } from "@server/domain/signed-tokens";

const ARN = "arn:aws:secretsmanager:eu-central-1:123456789012:secret:app";
const OLD = "o".repeat(64);

describe("rotate-jwt-secret in AWS", () => {
  it("writes the new secret beside the previous one and restarts the API", async () => {
    const secrets = mockClient(SecretsManagerClient);
    let stored = JSON.stringify({ jwt_secret: OLD, guardant_code: "1234" });
    secrets.on(GetSecretValueCommand).callsFake(() => ({ SecretString: stored }));
    secrets.on(PutSecretValueCommand).callsFake((input: { SecretString: string }) => {
      stored = input.SecretString;
      return {};
    });
    const lambda = mockClient(LambdaClient);
    // The infra files share their worker's modules: the next file gets the SDK's send() back.
    onTestFinished(() => {
      secrets.restore();
      lambda.restore();
    });
    lambda.on(UpdateFunctionConfigurationCommand).resolves({});

    const now = new Date("2026-11-22T10:00:00Z");
    const result = await rotateJwtSecret(
      { kind: "aws", secrets: new SecretsManagerClient({}), secretArn: ARN, lambda: new LambdaClient({}), apiFunctionName: "Api" },
      3600,
      now,
    );
    expect(result).toEqual({ previousValidUntil: new Date("2026-11-22T11:00:00Z"), apiRestarted: true });
    const written = JSON.parse(stored);
    expect(written).toMatchObject({ guardant_code: "1234", previous_jwt_secret: OLD, previous_valid_until: "2026-11-22T11:00:00.000Z" });
    expect(written.jwt_secret).toHaveLength(64);
    expect(written.jwt_secret).not.toBe(OLD);
    expect(lambda.commandCalls(UpdateFunctionConfigurationCommand)[0].args[0].input.FunctionName).toBe("Api");

    // What the API reads at its next cold start: tokens of the old secret pass until the end.
    const keys = await readSecrets(new SecretsManagerClient({}), { app: ARN });
    expect(keys.guardantCode).toBe("1234");
    const oldToken = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuedAt().sign(new TextEncoder().encode(OLD));
    const options = { algorithms: ["HS256"] };
    await expect(verifySigned(keys, oldToken, { ...options, currentDate: new Date("2026-11-22T10:30:00Z") })).resolves.toBeDefined();
    await expect(verifySigned(keys, oldToken, { ...options, currentDate: new Date("2026-11-22T11:00:00Z") })).rejects.toThrow();
    const newToken = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuedAt().sign(keys.jwtSecret);
    await expect(verifySigned(keys, newToken, { ...options, currentDate: new Date("2026-11-23T10:30:00Z") })).resolves.toBeDefined();
  });
});
