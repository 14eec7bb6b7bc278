// Direct admin uploads and playback on the Lambda host: API Gateway v2 events into the real app on
// an in-memory dynalite, with the real S3 blob store. S3 is what aws-sdk-client-mock stands in for
// (head, ranged GET, delete); presigning runs for real and needs no network.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { apiHandler, ORIGIN_VERIFY_HEADER } from "@server/lambda/api";
import { configFromEnv } from "@server/config";
import { systemClock, type Deps } from "@server/domain/context";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { createCompany, createUser } from "@server/domain/company/users";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { apiGatewayEvent } from "./api-gateway-event";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const s3 = mockClient(S3Client);
afterEach(() => s3.reset());
// The infra files share their worker's modules: the next file gets the SDK's send() back.
afterAll(() => s3.restore());

const BUCKET = "docs-bucket";
const origin = "origin-" + randomBytes(8).toString("hex");
let storage: OpenStorage;
let handler: ReturnType<typeof apiHandler>;
let access: string;

const headers = () => ({ [ORIGIN_VERIFY_HEADER]: origin, authorization: `Bearer ${access}` });
const call = async (path: string, json?: unknown, method?: string) => {
  const res = await handler(apiGatewayEvent({ path, json, method, headers: headers() }));
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
};

/** A ranged GET's answer: the first bytes of the "uploaded" object. */
const head = (bytes: Uint8Array) =>
  ({
    transformToWebStream: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
  }) as never;

beforeAll(async () => {
  storage = await openMemoryStorage();
  const client = new S3Client({ region: "eu-central-1", credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } });
  const deps: Deps = {
    repos: storage.repos,
    blobs: s3BlobStore(client, { documents: BUCKET, media: BUCKET }),
    clock: systemClock,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: inProcessSpreadsheets(() => deps),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
  };
  const company = await createCompany(deps, { name: "Оператор" });
  await createUser(deps, { companyId: company.id, email: "op@example.com", password: "operator-password", role: "admin" });
  handler = apiHandler(deps, { originVerify: origin });
  const login = await handler(
    apiGatewayEvent({
      path: "/api/token/",
      headers: { [ORIGIN_VERIFY_HEADER]: origin },
      json: { email: "op@example.com", password: "operator-password", guardant_code: "" },
    }),
  );
  access = (JSON.parse(login.body) as { access: string }).access;
});
afterAll(() => storage?.close());

describe("a settings video in AWS", () => {
  let key: string;
  let uploadId: string;

  it("grants an S3 presigned PUT of a fresh key; nothing passes through the function", async () => {
    const grant = await call("/api/v1/admin/media/upload-url/", {
      kind: "instruction",
      content_type: "video/mp4",
      size: 400 * 1024 * 1024,
      name: "Инструкция.mp4",
    });
    expect(grant.status).toBe(200);
    const url = new URL(grant.body.url as string);
    expect(url.origin).toBe(`https://${BUCKET}.s3.eu-central-1.amazonaws.com`);
    key = url.pathname.slice(1);
    expect(key).toMatch(/^media\/instruction\/[0-9a-f-]{36}$/);
    // Its declared size is signed too: S3 takes no body of another length.
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host;if-none-match;x-amz-tagging");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("3600");
    // The object is created tagged upload=pending: the bucket expires it unless completion untags it.
    expect(grant.body.headers).toEqual({ "Content-Type": "video/mp4", "If-None-Match": "*", "x-amz-tagging": "upload=pending" });
    uploadId = grant.body.upload_id as string;
    expect(s3.calls()).toHaveLength(0);
  });

  it("completes by a head and a 64-byte ranged GET, untags the object, then plays from a presigned inline GET", async () => {
    const first = new Uint8Array(64);
    first.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
    s3.on(HeadObjectCommand).resolves({ ContentLength: 400 * 1024 * 1024, ContentType: "video/mp4" });
    s3.on(GetObjectCommand).resolves({ Body: head(first) });
    s3.on(PutObjectTaggingCommand).resolves({});
    const done = await call("/api/v1/admin/media/complete/", { upload_id: uploadId });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(s3.commandCalls(HeadObjectCommand)[0].args[0].input).toEqual({ Bucket: BUCKET, Key: key });
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: BUCKET, Key: key, Range: "bytes=0-63" }]);
    // The pending tag goes once the object passed its checks, so the lifecycle rule keeps it.
    expect(s3.commandCalls(PutObjectTaggingCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: BUCKET, Key: key, Tagging: { TagSet: [] } },
    ]);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
    const play = new URL(done.body.url as string);
    expect(play.origin).toBe(`https://${BUCKET}.s3.eu-central-1.amazonaws.com`);
    expect(play.pathname).toBe(`/${key}`);
    expect(play.searchParams.get("response-content-disposition")).toMatch(/^inline; /);
    expect(done.body).toMatchObject({ kind: "instruction", content_type: "video/mp4", size: 400 * 1024 * 1024 });
  });

  it("refuses and deletes an object that is not the declared video", async () => {
    const grant = await call("/api/v1/admin/media/upload-url/", { kind: "presentation", content_type: "video/mp4", size: 1000 });
    const refusedKey = new URL(grant.body.url as string).pathname.slice(1);
    s3.on(HeadObjectCommand).resolves({ ContentLength: 1000, ContentType: "video/mp4" });
    s3.on(GetObjectCommand).resolves({ Body: head(new TextEncoder().encode("MZ this is a Windows program, not a video at all......")) });
    s3.on(DeleteObjectCommand).resolves({});
    const done = await call("/api/v1/admin/media/complete/", { upload_id: grant.body.upload_id });
    expect(done.status).toBe(415);
    // Deleted at once, not left to expire; never untagged.
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: BUCKET, Key: refusedKey }]);
    expect(s3.commandCalls(PutObjectTaggingCommand)).toHaveLength(0);
  });

  it("answers 404 on the local upload route: in AWS the file goes to S3", async () => {
    const grant = await call("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 1000 });
    const res = await handler(
      apiGatewayEvent({
        path: "/api/v1/uploads/",
        query: `token=${grant.body.upload_id as string}`,
        method: "PUT",
        headers: { [ORIGIN_VERIFY_HEADER]: origin, "content-type": "application/pdf", "content-length": "0" },
      }),
    );
    expect(res.statusCode).toBe(404);
  });
});
