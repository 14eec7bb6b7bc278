// The API Lambda checks a climate period's КЭП although its Node runtime has no openssl (an earlier round item
// 5): lambda/deps.ts gives it the TypeScript check unless OPENSSL_BIN names an openssl a layer brings.
// Secrets Manager stands in through aws-sdk-client-mock; no other AWS call is made building the deps.
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { lambdaDepsFromEnv } from "@server/lambda/deps";
import { type GostSigner, dropSigner, gostCertificate, requireGostEngine, signDetached } from "../support/gost";
import { apiLambdaEnv } from "../support/lambda-env";

const ENV = apiLambdaEnv("table");

const FILE = new TextEncoder().encode('{"files":[]}\n');
let signer: GostSigner;
const sm = mockClient(SecretsManagerClient);

beforeAll(() => {
  requireGostEngine();
  signer = gostCertificate({ subject: "/CN=Исполнитель/O=Шахта" });
  sm.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ jwt_secret: "j".repeat(64) }) });
  for (const [name, value] of Object.entries(ENV)) vi.stubEnv(name, value);
});
afterEach(() => vi.stubEnv("OPENSSL_BIN", undefined));
afterAll(() => {
  // The infra files share their worker's modules: the next file gets the SDK's send() back.
  sm.restore();
  vi.unstubAllEnvs();
  dropSigner(signer);
});

describe("the API Lambda's КЭП check", () => {
  it("without OPENSSL_BIN (as the stack deploys it) checks a GOST signature in TypeScript, with no openssl on the PATH", async () => {
    vi.stubEnv("OPENSSL_BIN", "");
    const { deps } = await lambdaDepsFromEnv();
    expect(deps.gostCms).toBeDefined();
    const signature = signDetached(signer, FILE);
    // Lambda's runtime has no openssl: a check that ran one would answer «unavailable» here.
    const path = process.env.PATH;
    vi.stubEnv("PATH", "/nonexistent");
    const good = await deps.gostCms!.verify({ signature, content: FILE, roots: [], at: new Date() });
    const other = await deps.gostCms!.verify({ signature, content: new TextEncoder().encode("{}"), roots: [], at: new Date() });
    vi.stubEnv("PATH", path);
    expect(good).toMatchObject({ ok: true, algorithm: "gost2012_256", signer: { common_name: "Исполнитель", organization: "Шахта" } });
    expect(other).toMatchObject({ ok: false, reason: "content" });
  });

  it("with OPENSSL_BIN runs that openssl (a missing one: unavailable, the API's 503)", async () => {
    vi.stubEnv("OPENSSL_BIN", "/opt/bin/no-such-openssl");
    const { deps } = await lambdaDepsFromEnv();
    const check = await deps.gostCms!.verify({ signature: signDetached(signer, FILE), content: FILE, roots: [], at: new Date() });
    expect(check).toMatchObject({ ok: false, reason: "unavailable" });
  });
});
