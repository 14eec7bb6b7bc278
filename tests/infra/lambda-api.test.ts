// The API's Lambda host end to end: API Gateway v2 events through hono/aws-lambda into the real
// app on an in-memory dynalite. Only Secrets Manager is mocked (what only AWS has); the DynamoDB
// client is the real one, pointed at dynalite.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { S3Client } from "@aws-sdk/client-s3";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { Hono } from "hono";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { apiHandler, clientAddress, ORIGIN_VERIFY_HEADER } from "@server/lambda/api";
import { configFromEnv } from "@server/config";
import { systemClock, type Deps } from "@server/domain/context";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { createCompany, createUser } from "@server/domain/company/users";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { REFERENCE_DICTIONARIES } from "@server/dictionaries/reference-data";
import { LOCAL_TABLE, openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { apiGatewayEvent } from "./api-gateway-event";
import { LIVE_STREAM_ABSENT } from "@server/http/monitoring";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";
import { apiLambdaEnv } from "../support/lambda-env";

const sm = mockClient(SecretsManagerClient);
afterEach(() => sm.reset());
// The infra files share their worker's modules: the next file gets the SDK's send() back.
afterAll(() => sm.restore());

describe("client address", () => {
  const probe = (trust: boolean) => {
    const app = new Hono();
    app.get("/", (c) => c.text(clientAddress(trust)(c as never)));
    return (headers: Record<string, string>) =>
      Promise.resolve(app.request("/", { headers }, { event: { requestContext: { http: { sourceIp: "130.176.1.10" } } } })).then((r) =>
        r.text(),
      );
  };

  it("takes the viewer from CloudFront-Viewer-Address when the origin check is on", async () => {
    expect(await probe(true)({ "cloudfront-viewer-address": "198.51.100.7:51432" })).toBe("198.51.100.7");
    expect(await probe(true)({ "cloudfront-viewer-address": "2001:db8::7:51432" })).toBe("2001:db8::7");
  });

  it("uses the request context's source address otherwise", async () => {
    expect(await probe(false)({ "cloudfront-viewer-address": "198.51.100.7:51432" })).toBe("130.176.1.10");
    expect(await probe(true)({})).toBe("130.176.1.10");
  });
});

describe("API through an API Gateway v2 event", () => {
  let storage: OpenStorage;
  let deps: Deps;
  let handler: ReturnType<typeof apiHandler>;
  const origin = "origin-" + randomBytes(8).toString("hex");

  beforeAll(async () => {
    storage = await openMemoryStorage();
    deps = {
      repos: storage.repos,
      blobs: s3BlobStore(new S3Client({ region: "eu-central-1" }), {}),
      clock: systemClock,
      config: configFromEnv(randomBytes(32)),
      spreadsheets: inProcessSpreadsheets(() => deps),
      signer: ephemeralSigner(),
      runtime: localRuntime(() => deps),
    };
    await seedDictionaries(deps);
    const company = await createCompany(deps, { name: "ООО Шахта" });
    await createUser(deps, { companyId: company.id, email: "anna@example.com", password: "correct-horse", first_name: "Анна" });
    handler = apiHandler(deps, { originVerify: origin });
  });
  afterAll(() => storage?.close());

  it("signs in with POST /api/token/ and reads GET /api/v1/users/get_me/", async () => {
    const login = await handler(
      apiGatewayEvent({
        path: "/api/token/",
        headers: { [ORIGIN_VERIFY_HEADER]: origin },
        json: { email: "anna@example.com", password: "correct-horse", guardant_code: "" },
      }),
    );
    expect(login.statusCode).toBe(200);
    const { access } = JSON.parse(login.body) as { access: string };

    const me = await handler(
      apiGatewayEvent({ path: "/api/v1/users/get_me/", headers: { [ORIGIN_VERIFY_HEADER]: origin, authorization: `Bearer ${access}` } }),
    );
    expect(me.statusCode).toBe(200);
    expect(me.headers?.["content-type"]).toMatch(/application\/json/);
    expect(JSON.parse(me.body)).toMatchObject({ email: "anna@example.com", company: { name: "ООО Шахта" } });
  });

  it("answers the live stream 404 and the tiles with an ETag, 304 when unchanged (the AWS screen polls)", async () => {
    const login = await handler(
      apiGatewayEvent({
        path: "/api/token/",
        headers: { [ORIGIN_VERIFY_HEADER]: origin },
        json: { email: "anna@example.com", password: "correct-horse", guardant_code: "" },
      }),
    );
    const headers = { [ORIGIN_VERIFY_HEADER]: origin, authorization: `Bearer ${(JSON.parse(login.body) as { access: string }).access}` };
    const made = await handler(
      apiGatewayEvent({ path: "/api/v1/facilities/", headers, json: { name: "Шахта «Облако»", kind: "underground_mine" } }),
    );
    expect(made.statusCode).toBe(201);
    const facility = (JSON.parse(made.body) as { id: string }).id;
    const stream = await handler(apiGatewayEvent({ path: "/api/v1/telemetry/live/stream/", query: `facility=${facility}`, headers }));
    expect(stream.statusCode).toBe(404);
    expect(JSON.parse(stream.body)).toMatchObject({ detail: LIVE_STREAM_ABSENT });
    const live = await handler(apiGatewayEvent({ path: "/api/v1/telemetry/live/", query: `facility=${facility}`, headers }));
    expect(live.statusCode).toBe(200);
    const etag = live.headers?.etag;
    expect(etag).toBe((JSON.parse(live.body) as { etag: string }).etag);
    const again = await handler(
      apiGatewayEvent({
        path: "/api/v1/telemetry/live/",
        query: `facility=${facility}`,
        headers: { ...headers, "if-none-match": String(etag) },
      }),
    );
    expect(again.statusCode).toBe(304);
  });

  it("answers 403 to a request that did not come through CloudFront", async () => {
    for (const value of [undefined, "wrong"]) {
      const res = await handler(apiGatewayEvent({ path: "/api/v1/users/get_me/", headers: { [ORIGIN_VERIFY_HEADER]: value } }));
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body)).toEqual({ detail: "Доступ запрещен" });
    }
  });

  it("answers JSON 401 and 404 like the local host", async () => {
    const me = await handler(apiGatewayEvent({ path: "/api/v1/users/get_me/", headers: { [ORIGIN_VERIFY_HEADER]: origin } }));
    expect(me.statusCode).toBe(401);
    const missing = await handler(apiGatewayEvent({ path: "/api/nothing/", headers: { [ORIGIN_VERIFY_HEADER]: origin } }));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toHaveProperty("detail");
  });
});

describe("lambda.ts cold start", () => {
  let storage: OpenStorage;
  beforeAll(async () => {
    // An empty dynalite table: the cold start must seed the dictionaries itself.
    storage = await openMemoryStorage();
    const env = {
      ...apiLambdaEnv(LOCAL_TABLE),
      ORIGIN_VERIFY_SECRET_ARN: "arn:aws:secretsmanager:eu-central-1:123456789012:secret:origin",
      // The SDK's per-service endpoint override points the real client code at dynalite.
      AWS_ENDPOINT_URL_DYNAMODB: storage.endpoint!,
    };
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await storage?.close();
  });

  it("reads each secret once per cold start, not per request, and seeds the dictionaries", async () => {
    sm.on(GetSecretValueCommand, { SecretId: process.env.APP_SECRET_ARN }).resolves({
      SecretString: JSON.stringify({ jwt_secret: "j".repeat(64) }),
    });
    sm.on(GetSecretValueCommand, { SecretId: process.env.ORIGIN_VERIFY_SECRET_ARN }).resolves({ SecretString: "cf-origin" });
    vi.resetModules();
    const { handler } = await import("@server/lambda");
    for (let i = 0; i < 3; i++) {
      const res = await handler(apiGatewayEvent({ path: "/api/v1/users/get_me/", headers: { [ORIGIN_VERIFY_HEADER]: "cf-origin" } }));
      expect(res.statusCode).toBe(401);
    }
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    for (const dictionary of REFERENCE_DICTIONARIES.filter((d) => !d.sameItemsAs)) {
      expect((await storage.repos.dictionaries.list(dictionary.name)).length, dictionary.name).toBe(dictionary.items.length);
    }

    vi.resetModules();
    await import("@server/lambda");
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(4);
  });
});
