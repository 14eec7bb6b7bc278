// The S3 blob store's direct-transfer abilities (functions/src/http/UPLOADS.md): the presigned PUT
// the browser uploads an admin file with, presigned GETs (download and inline playback), and the
// ranged read and head that completion checks an upload with. Presigning needs no network: the URLs
// are checked by their query. Reads go through aws-sdk-client-mock.
import { hostRuntime } from "@server/events/runtime";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectTaggingCommand, S3Client } from "@aws-sdk/client-s3";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { inspectStored } from "@server/domain/files/direct-uploads";
import { forecastUploadUrl, withForecastUpload } from "@server/domain/forecast/uploads";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import type { Deps } from "@server/domain/context";
import { memoryStorage } from "@server/adapters/memory/storage";

const KEY = "media/instruction/0199a0a0-0000-7000-8000-000000000001";
const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" };
const buckets = { media: "docs-bucket", documents: "docs-bucket", "forecast-uploads": "docs-bucket" };

describe("presigned URLs", () => {
  const store = s3BlobStore(new S3Client({ region: "eu-central-1", credentials }), buckets);

  it("presigns a PUT of the key with Content-Type, If-None-Match and the pending tag signed and no SDK checksum", async () => {
    const upload = await store.uploadUrl!(KEY, "video/mp4", 500 * 1024 * 1024, 3600);
    expect(upload.method).toBe("PUT");
    // The browser sends these as given (web/src/api/client.ts putFile): the tag is a signed header,
    // so an upload without it is refused by S3 and every direct upload is created tagged.
    expect(upload.headers).toEqual({ "Content-Type": "video/mp4", "If-None-Match": "*", "x-amz-tagging": "upload=pending" });
    const url = new URL(upload.url);
    // The bucket's regional domain: the origin the CloudFront CSP and the bucket's CORS rule name.
    expect(url.origin).toBe("https://docs-bucket.s3.eu-central-1.amazonaws.com");
    expect(url.pathname).toBe(`/${KEY}`);
    const q = url.searchParams;
    expect(q.get("x-id")).toBe("PutObject");
    expect(q.get("X-Amz-Expires")).toBe("3600");
    expect(q.get("X-Amz-SignedHeaders")!.split(";")).toEqual(["content-type", "host", "if-none-match", "x-amz-tagging"]);
    // Not hoisted into the query, where S3 may ignore it and the browser could leave it out.
    expect([...q.keys()].filter((k) => /tagging/i.test(k))).toEqual([]);
    expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    // A browser sends no checksum: a signed CRC32 of the empty body would make S3 refuse the file.
    expect([...q.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });

  it("signs the exact Content-Length of a forecast's history, so S3 refuses a body of any other size", async () => {
    const key = "forecast-uploads/c1/0199a0a0-0000-7000-8000-000000000003.csv";
    const upload = await store.uploadUrl!(key, "text/csv", 8_013_488, 900, { contentLength: 8_013_488 });
    // The browser sets Content-Length from the body itself (a script may not), so it is not answered.
    expect(upload.headers).toEqual({ "Content-Type": "text/csv", "If-None-Match": "*", "x-amz-tagging": "upload=pending" });
    const url = new URL(upload.url);
    expect(url.origin).toBe("https://docs-bucket.s3.eu-central-1.amazonaws.com");
    expect(url.pathname).toBe(`/${key}`);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")!.split(";")).toEqual([
      "content-length",
      "content-type",
      "host",
      "if-none-match",
      "x-amz-tagging",
    ]);
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    // Another size gives another signature: the length is part of what S3 checks.
    const other = new URL((await store.uploadUrl!(key, "text/csv", 100, 900, { contentLength: 100 })).url);
    expect(other.searchParams.get("X-Amz-Signature")).not.toBe(url.searchParams.get("X-Amz-Signature"));
  });

  it("presigns GETs: attachment by default, inline for <video src>", async () => {
    const download = new URL(await store.downloadUrl!("documents/0199a0a0-0000-7000-8000-000000000002", "296-ФЗ.pdf", 300));
    expect(download.origin).toBe("https://docs-bucket.s3.eu-central-1.amazonaws.com");
    expect(download.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="296-__.pdf"; filename*=UTF-8''${encodeURIComponent("296-ФЗ.pdf")}`,
    );
    const play = new URL(await store.downloadUrl!(KEY, "Инструкция.mp4", 600, "inline"));
    expect(play.pathname).toBe(`/${KEY}`);
    expect(play.searchParams.get("X-Amz-Expires")).toBe("600");
    expect(play.searchParams.get("response-content-disposition")).toMatch(/^inline; filename="/);
    expect([...play.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });

  it("refuses keys outside the areas, for uploads too", async () => {
    await expect(store.uploadUrl!("uploads/../media/x", "video/mp4", 1, 60)).rejects.toThrow(/invalid blob key/);
    await expect(store.uploadUrl!("exports/x", "video/mp4", 1, 60)).rejects.toThrow(/invalid blob key/);
  });
});

describe("ranged reads", () => {
  const s3 = mockClient(S3Client);
  afterEach(() => s3.reset());
  // The infra files share their worker's modules: the next file gets the SDK's send() back.
  afterAll(() => s3.restore());
  const store = s3BlobStore(new S3Client({ region: "eu-central-1", credentials }), buckets);
  const body = (bytes: number[]) =>
    ({
      transformToWebStream: () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array(bytes));
            controller.close();
          },
        }),
      transformToByteArray: async () => {
        throw new Error("a ranged read must not read the whole object");
      },
    }) as never;

  it("reads a byte range as a stream with a Range header", async () => {
    s3.on(GetObjectCommand).resolves({ Body: body([3, 4, 5]), ContentType: "video/mp4" });
    const stream = await store.getRange!(KEY, 2, 4);
    const chunks: number[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(...chunk);
    expect(chunks).toEqual([3, 4, 5]);
    expect(s3.commandCalls(GetObjectCommand)[0].args[0].input).toEqual({ Bucket: "docs-bucket", Key: KEY, Range: "bytes=2-4" });
  });

  it("heads an object for its size and type; a missing key is undefined", async () => {
    s3.on(HeadObjectCommand, { Key: KEY }).resolves({ ContentLength: 123_456, ContentType: "video/mp4" });
    s3.on(HeadObjectCommand, { Key: `${KEY}0` }).rejects(new NotFound({ message: "Not Found", $metadata: { httpStatusCode: 404 } }));
    s3.on(GetObjectCommand, { Key: `${KEY}0` }).rejects(new NoSuchKey({ message: "no", $metadata: { httpStatusCode: 404 } }));
    expect(await store.stat!(KEY)).toEqual({ size: 123_456, contentType: "video/mp4" });
    expect(await store.stat!(`${KEY}0`)).toBeUndefined();
    expect(await store.getRange!(`${KEY}0`, 0, 1)).toBeUndefined();
  });

  it("confirms an upload by replacing its tags with none (PutObjectTagging: the one tagging action the API has)", async () => {
    s3.on(PutObjectTaggingCommand).resolves({});
    await store.confirmUpload!(KEY);
    expect(s3.commandCalls(PutObjectTaggingCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: "docs-bucket", Key: KEY, Tagging: { TagSet: [] } },
    ]);
    expect(s3.calls()).toHaveLength(1);
    await expect(store.confirmUpload!("exports/x")).rejects.toThrow(/invalid blob key/);
  });

  it("grants a forecast's history as a presigned PUT of its exact size for 15 minutes, then reads and deletes the object once used", async () => {
    const clock = { now: () => new Date("2026-03-01T08:00:00Z") };
    const config = { uploadUrlTtlSeconds: 3600, jwtSecret: new TextEncoder().encode("s".repeat(64)) };
    const deps = {
      blobs: store,
      clock,
      config,
      repos: memoryStorage().repos,
      runtime: hostRuntime({ subscribers: [], deps: () => ({}) }),
    } as unknown as Deps;
    const actor = { id: "u1", company: "c1", email: "a@b.ru", role: "staff" } as never;
    const grant = await forecastUploadUrl(deps, actor, { content_type: "text/csv", size: 9, name: "год.csv" });
    expect(grant.file_upload).toMatch(/^forecast-uploads\/c1\/u1\/20513\/[0-9a-f-]{36}\.csv$/);
    const url = new URL(grant.url);
    expect(url.origin).toBe("https://docs-bucket.s3.eu-central-1.amazonaws.com");
    expect(url.pathname).toBe(`/${grant.file_upload}`);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toContain("content-length");
    expect(grant.expires_at).toBe("2026-03-01T08:15:00.000Z");
    expect(s3.calls()).toHaveLength(0);

    const bytes = new TextEncoder().encode("x1;y\n1;2\n");
    s3.on(HeadObjectCommand).resolves({ ContentLength: bytes.byteLength, ContentType: "text/csv" });
    s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => bytes } as never, ContentType: "text/csv" });
    s3.on(DeleteObjectCommand).resolves({});
    const read = await withForecastUpload(deps, actor, grant.file_upload, "год.csv", async (file) => file);
    // The file names its stored upload, the key a preview's columns are kept under for the save.
    expect(read).toEqual({ name: "год.csv", bytes, upload: grant.file_upload });
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: "docs-bucket", Key: grant.file_upload }]);
    // Another company's key is never read.
    s3.resetHistory();
    await expect(
      withForecastUpload(deps, actor, grant.file_upload.replace("/c1/", "/c2/"), undefined, async () => 1),
    ).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(s3.calls()).toHaveLength(0);
  });

  it("lets completion read the first 64 bytes of a 500 MB upload, never the whole of it", async () => {
    const size = 500 * 1024 * 1024;
    s3.on(HeadObjectCommand).resolves({ ContentLength: size, ContentType: "video/mp4" });
    s3.on(GetObjectCommand).resolves({ Body: body(Array.from({ length: 64 }, (_, i) => i)) });
    const head = await inspectStored({ blobs: store } as Deps, KEY);
    expect(head).toEqual({ size, head: new Uint8Array(Array.from({ length: 64 }, (_, i) => i)) });
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Range)).toEqual(["bytes=0-63"]);
  });
});
