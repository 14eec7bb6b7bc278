// The event-driven Lambda entry points and the AWS adapters, with aws-sdk-client-mock standing in
// for what only AWS has (S3 object heads and deletes, the audit writes, Secrets Manager).
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { ConditionalCheckFailedException, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { checkUploads, s3UploadStores, SNIFF_BYTES, type S3UploadEvent } from "@server/events/upload-check";
import { BLOB_AREAS, EXPORTS_AREA } from "@server/adapters/blob/areas";
import { MAX_FORECAST_UPLOAD_BYTES, MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { EVIDENCE_MAX_BYTES } from "@server/contract/schemas/evidence";
import { auditChanges, statisticsChange, type StreamEvent } from "@server/events/table-changes";
import { readSecrets } from "@server/lambda/secrets";
import { JOB_FILE_DAYS } from "@server/domain/heavy-work";

// One mock per client class for the whole file: each stubs the class's send(), whatever instance
// the code under test creates.
const s3 = mockClient(S3Client);
const ddb = mockClient(DynamoDBDocumentClient);
const sm = mockClient(SecretsManagerClient);
afterEach(() => {
  s3.reset();
  ddb.reset();
  sm.reset();
});
// The infra files share their worker's modules: the next file (one on dynalite among them) gets the
// SDK's send() back.
afterAll(() => {
  s3.restore();
  ddb.restore();
  sm.restore();
});

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const ZIP_HEAD = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const CSV_HEAD = new TextEncoder().encode("year;value\n2020;1\n");
/** A ranged GET answering `bytes` (what the check reads to compare content with type). */
const body = (bytes: Uint8Array) => ({
  Body: { transformToWebStream: () => new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }) } as never,
});

function uploadEvent(...keys: string[]): S3UploadEvent {
  return {
    Records: keys.map((key) => ({
      eventName: "ObjectCreated:Put",
      s3: { bucket: { name: "uploads-bucket" }, object: { key, size: 10 } },
    })),
  };
}

describe("S3 upload check", () => {
  it("keeps an allowed spreadsheet and deletes nothing", async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 2048, ContentType: XLSX });
    s3.on(GetObjectCommand).resolves(body(ZIP_HEAD));
    const verdicts = await checkUploads(uploadEvent("uploads/c1/data.xlsx"), s3UploadStores(new S3Client({})), quiet);
    expect(verdicts).toEqual([{ bucket: "uploads-bucket", key: "uploads/c1/data.xlsx", accepted: true, reason: undefined }]);
    expect(s3.commandCalls(HeadObjectCommand)[0].args[0].input).toEqual({ Bucket: "uploads-bucket", Key: "uploads/c1/data.xlsx" });
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it("deletes and logs an object of a refused content type", async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 2048, ContentType: "application/x-msdownload" });
    const warn = vi.fn();
    const [verdict] = await checkUploads(uploadEvent("uploads/c1/setup.exe"), s3UploadStores(new S3Client({})), { info: () => {}, warn });
    expect(verdict.accepted).toBe(false);
    expect(s3.commandCalls(DeleteObjectCommand)[0].args[0].input).toEqual({ Bucket: "uploads-bucket", Key: "uploads/c1/setup.exe" });
    expect(JSON.parse(warn.mock.calls[0][0])).toMatchObject({ upload: "refused", key: "uploads/c1/setup.exe" });
  });

  it("deletes an object over the size limit and an empty one", async () => {
    s3.on(HeadObjectCommand, { Key: "uploads/big.csv" }).resolves({
      ContentLength: MAX_FORECAST_UPLOAD_BYTES + 1,
      ContentType: "text/csv",
    });
    s3.on(HeadObjectCommand, { Key: "uploads/empty.csv" }).resolves({ ContentLength: 0, ContentType: "text/csv" });
    const verdicts = await checkUploads(uploadEvent("uploads/big.csv", "uploads/empty.csv"), s3UploadStores(new S3Client({})), quiet);
    expect(verdicts.map((v) => v.accepted)).toEqual([false, false]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual(["uploads/big.csv", "uploads/empty.csv"]);
  });

  it("accepts a content type with parameters and decodes the notification's key", async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 10, ContentType: "text/csv; charset=utf-8" });
    s3.on(GetObjectCommand).resolves(body(CSV_HEAD));
    const [verdict] = await checkUploads(
      uploadEvent("uploads/c1/%D0%B4%D0%B0%D0%BD%D0%BD%D1%8B%D0%B5+2024.csv"),
      s3UploadStores(new S3Client({})),
      quiet,
    );
    expect(verdict).toMatchObject({ key: "uploads/c1/данные 2024.csv", accepted: true });
  });

  it("reads at most the first bytes by range and deletes content that is not what its type says", async () => {
    s3.on(HeadObjectCommand, { Key: "uploads/c1/fake.xlsx" }).resolves({ ContentLength: MAX_TABULAR_UPLOAD_BYTES, ContentType: XLSX });
    s3.on(HeadObjectCommand, { Key: "uploads/c1/binary.csv" }).resolves({ ContentLength: 6, ContentType: "text/csv" });
    s3.on(HeadObjectCommand, { Key: "uploads/c1/ok.xlsx" }).resolves({ ContentLength: 6, ContentType: XLSX });
    s3.on(GetObjectCommand, { Key: "uploads/c1/fake.xlsx" }).resolves(body(CSV_HEAD));
    s3.on(GetObjectCommand, { Key: "uploads/c1/binary.csv" }).resolves(body(new Uint8Array([0x31, 0x3b, 0x00, 0x32, 0x0a, 0x0a])));
    s3.on(GetObjectCommand, { Key: "uploads/c1/ok.xlsx" }).resolves(body(ZIP_HEAD));
    const verdicts = await checkUploads(
      uploadEvent("uploads/c1/fake.xlsx", "uploads/c1/binary.csv", "uploads/c1/ok.xlsx"),
      s3UploadStores(new S3Client({})),
      quiet,
    );
    expect(verdicts.map((v) => [v.key, v.accepted, v.reason])).toEqual([
      ["uploads/c1/fake.xlsx", false, "not an .xlsx workbook (no ZIP signature)"],
      ["uploads/c1/binary.csv", false, "not a text file (NUL bytes)"],
      ["uploads/c1/ok.xlsx", true, undefined],
    ]);
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Range)).toEqual([
      `bytes=0-${SNIFF_BYTES - 1}`,
      "bytes=0-5",
      "bytes=0-5",
    ]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual(["uploads/c1/fake.xlsx", "uploads/c1/binary.csv"]);
  });

  it("keeps an evidence file of a custom coefficient (PDF, picture ≤ 10 MB) and deletes one that is not what its type says", async () => {
    s3.on(HeadObjectCommand, { Key: "uploads/c1/k/e1.pdf" }).resolves({
      ContentLength: EVIDENCE_MAX_BYTES,
      ContentType: "application/pdf",
    });
    s3.on(HeadObjectCommand, { Key: "uploads/c1/k/e2.png" }).resolves({ ContentLength: 6, ContentType: "image/png" });
    s3.on(HeadObjectCommand, { Key: "uploads/c1/k/e3.pdf" }).resolves({
      ContentLength: EVIDENCE_MAX_BYTES + 1,
      ContentType: "application/pdf",
    });
    s3.on(GetObjectCommand, { Key: "uploads/c1/k/e1.pdf" }).resolves(body(new TextEncoder().encode("%PDF-1.7\n")));
    s3.on(GetObjectCommand, { Key: "uploads/c1/k/e2.png" }).resolves(body(CSV_HEAD));
    const verdicts = await checkUploads(
      uploadEvent("uploads/c1/k/e1.pdf", "uploads/c1/k/e2.png", "uploads/c1/k/e3.pdf"),
      s3UploadStores(new S3Client({})),
      quiet,
    );
    expect(verdicts.map((v) => [v.key, v.accepted])).toEqual([
      ["uploads/c1/k/e1.pdf", true],
      ["uploads/c1/k/e2.png", false],
      ["uploads/c1/k/e3.pdf", false],
    ]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual(["uploads/c1/k/e2.png", "uploads/c1/k/e3.pdf"]);
  });

  it("skips an object that is already gone and events other than creation", async () => {
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: "Not Found", $metadata: {} }));
    const event = uploadEvent("uploads/gone.csv");
    event.Records.push({ eventName: "ObjectRemoved:Delete", s3: { bucket: { name: "uploads-bucket" }, object: { key: "uploads/x.csv" } } });
    expect(await checkUploads(event, s3UploadStores(new S3Client({})), quiet)).toEqual([]);
    expect(s3.commandCalls(HeadObjectCommand)).toHaveLength(1);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});

describe("S3 blob store", () => {
  const store = s3BlobStore(new S3Client({}), { uploads: "up-bucket", exports: "ex-bucket" });

  it("puts an object in the bucket of its area, keeping the key", async () => {
    await store.put("exports/c1/report.xlsx", new Uint8Array([1, 2]), XLSX);
    expect(s3.commandCalls(PutObjectCommand)[0].args[0].input).toMatchObject({
      Bucket: "ex-bucket",
      Key: "exports/c1/report.xlsx",
      ContentType: XLSX,
    });
  });

  it("reads bytes and type back, and a missing key as undefined", async () => {
    s3.on(GetObjectCommand, { Key: "uploads/a.csv" }).resolves({
      ContentType: "text/csv",
      Body: { transformToByteArray: async () => new Uint8Array([7]) } as never,
    });
    s3.on(GetObjectCommand, { Key: "uploads/missing.csv" }).rejects(new NoSuchKey({ message: "no", $metadata: {} }));
    expect(await store.get("uploads/a.csv")).toEqual({ body: new Uint8Array([7]), contentType: "text/csv" });
    expect(await store.get("uploads/missing.csv")).toBeUndefined();
  });

  it("refuses keys that could leave their area", async () => {
    for (const key of [
      "uploads",
      "/uploads/a",
      "uploads//a",
      "uploads/../exports/a",
      "uploads/./a",
      "other/a",
      "constructor/a",
      "uploads/a b",
      "../a",
    ]) {
      await expect(store.put(key, new Uint8Array(), "text/plain"), key).rejects.toThrow(/invalid blob key/);
    }
    expect(s3.calls()).toHaveLength(0);
  });
});

describe("nightly orphan sweep", () => {
  it("lists uploads/ and forecasts/ page by page and deletes the day-old keys no calculation names", async () => {
    vi.stubEnv("TABLE_NAME", "table");
    vi.stubEnv(BLOB_AREAS.uploads.bucket, "uploads-bucket");
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    const named = "forecasts/c1/k1/named.json";
    s3.on(ListObjectsV2Command, { Prefix: "uploads/" })
      .resolvesOnce({
        Contents: [{ Key: "uploads/c1/k2/orphan.csv", LastModified: old }],
        IsTruncated: true,
        NextContinuationToken: "next",
      })
      .resolvesOnce({
        Contents: [
          { Key: "uploads/c1/k3/fresh.csv", LastModified: new Date() },
          { Key: "uploads/c1/v1/certificate.pdf", LastModified: old },
        ],
        IsTruncated: false,
      });
    s3.on(ListObjectsV2Command, { Prefix: "forecasts/" }).resolves({
      Contents: [
        { Key: named, LastModified: old },
        { Key: "forecasts/c2/k9/orphan.json", LastModified: old },
      ],
    });
    s3.on(DeleteObjectCommand).resolves({});
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ":pk": "COMPANY#c1", ":sk": "CALC#" } }).resolves({
      Items: [{ file: { key: "uploads/c1/k1/x.csv" }, results: { data_key: named } }, { results: {} }],
    });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ":pk": "COMPANY#c2", ":sk": "CALC#" } }).resolves({ Items: [] });
    // A sensor verification's certificate scan is named by the verification, not a calculation.
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ":pk": "COMPANY#c1", ":sk": "SVERIF#" } }).resolves({
      Items: [{ certificate_file: { key: "uploads/c1/v1/certificate.pdf" } }],
    });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ":pk": "COMPANY#c2", ":sk": "SVERIF#" } }).resolves({ Items: [] });
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const { handler } = await import("@server/lambda/orphan-sweep");
      expect(await handler()).toEqual({ deleted: 2 });
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    const deletes = s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input);
    expect(deletes).toEqual([
      { Bucket: "uploads-bucket", Key: "uploads/c1/k2/orphan.csv" },
      { Bucket: "uploads-bucket", Key: "forecasts/c2/k9/orphan.json" },
    ]);
    // Two pages of uploads/ (the second asked for with the first's continuation token), one of forecasts/.
    const lists = s3.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input);
    expect(lists.map((input) => input.Prefix)).toEqual(["uploads/", "uploads/", "forecasts/"]);
    expect(lists[1].ContinuationToken).toBe("next");
    // One read of a company's calculations and one of its verifications per run, however many of its files are looked at.
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(4);
  });
});

describe("DynamoDB stream audit", () => {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: "eu-central-1" }));

  const event: StreamEvent = {
    Records: [
      {
        eventID: "e1",
        eventName: "MODIFY",
        dynamodb: {
          Keys: { PK: { S: "COMPANY#c1" }, SK: { S: "PROJECT#p1" } },
          OldImage: { PK: { S: "COMPANY#c1" }, SK: { S: "PROJECT#p1" }, company: { S: "c1" }, name: { S: "A" }, version: { N: "1" } },
          NewImage: { PK: { S: "COMPANY#c1" }, SK: { S: "PROJECT#p1" }, company: { S: "c1" }, name: { S: "B" }, version: { N: "2" } },
          ApproximateCreationDateTime: 1763715600,
        },
      },
      {
        eventID: "e2",
        eventName: "INSERT",
        dynamodb: {
          Keys: { PK: { S: "ATTEMPTS#login" }, SK: { S: "WINDOW#1" } },
          NewImage: { PK: { S: "ATTEMPTS#login" }, SK: { S: "WINDOW#1" }, attempts: { N: "1" } },
        },
      },
      {
        eventID: "e3",
        eventName: "INSERT",
        dynamodb: {
          Keys: { PK: { S: "AUDIT#2025-11-21" }, SK: { S: "x" } },
          NewImage: { PK: { S: "AUDIT#2025-11-21" }, SK: { S: "x" } },
        },
      },
      {
        eventID: "e4",
        eventName: "REMOVE",
        dynamodb: {
          Keys: { PK: { S: "EMAIL#a@b.ru" }, SK: { S: "EMAIL" } },
          OldImage: { PK: { S: "EMAIL#a@b.ru" }, SK: { S: "EMAIL" }, company: { S: "c1" }, user: { S: "u1" } },
          ApproximateCreationDateTime: 1763715601,
        },
      },
    ],
  };

  it("writes one audit entry per business item, skipping its own and the login counters", async () => {
    ddb.on(PutCommand).resolves({});
    expect(await auditChanges(event, { doc, tableName: "T", log: quiet })).toBe(2);
    const puts = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(puts).toHaveLength(2);
    expect(puts[0]).toEqual({
      TableName: "T",
      ConditionExpression: "attribute_not_exists(PK)",
      Item: {
        PK: "AUDIT#2025-11-21",
        SK: "2025-11-21T09:00:00.000Z#e1",
        event: "MODIFY",
        item_pk: "COMPANY#c1",
        item_sk: "PROJECT#p1",
        company: "c1",
        old_version: 1,
        new_version: 2,
        changed: ["name", "version"],
        at: "2025-11-21T09:00:00.000Z",
      },
    });
    expect(puts[1].Item).toMatchObject({ event: "REMOVE", item_pk: "EMAIL#a@b.ru", company: "c1", new_version: undefined });
    expect(puts[1].Item!.changed).toEqual(["PK", "SK", "company", "user"]);
  });

  it("treats an entry already written by an earlier delivery as done", async () => {
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: "exists", $metadata: {} }));
    await expect(auditChanges(event, { doc, tableName: "T", log: quiet })).resolves.toBe(0);
  });

  it("fails the batch when a write fails, so Lambda retries it", async () => {
    ddb.on(PutCommand).rejects(new Error("throttled"));
    await expect(auditChanges(event, { doc, tableName: "T", log: quiet })).rejects.toThrow("throttled");
  });

  const change = (pk: string, sk: string): StreamEvent["Records"][number] => ({
    eventID: `${pk}/${sk}`,
    eventName: "MODIFY",
    dynamodb: {
      Keys: { PK: { S: pk }, SK: { S: sk } },
      NewImage: { PK: { S: pk }, SK: { S: sk } },
      OldImage: { PK: { S: pk }, SK: { S: sk } },
    },
  });

  it("turns a record of a project or calculation into the differences it makes to its company's year and its list", () => {
    // A whole calculation: one without its name or inputs is of the wrong shape, which the sums
    // only mark (`x:`) and count nowhere (domain/calculation-shape.ts).
    const calc = (deleted: boolean, volume: number, project = "p1") => ({
      PK: { S: "COMPANY#c2" },
      SK: { S: "CALC#open_mining_co2#k1" },
      id: { S: "k1" },
      name: { S: "Разрез" },
      project: { S: project },
      type: { S: "open_mining_co2" },
      is_deleted: { BOOL: deleted },
      created_at: { S: "2024-05-01T00:00:00.000Z" },
      inputs: { M: {} },
      results: { M: { res_co2: { N: String(volume) } } },
    });
    const record = (
      pk: string,
      sk: string,
      OldImage?: Record<string, unknown>,
      NewImage?: Record<string, unknown>,
    ): StreamEvent["Records"][number] => ({
      eventID: "e",
      eventName: "MODIFY",
      dynamodb: { Keys: { PK: { S: pk }, SK: { S: sk } }, OldImage: OldImage as never, NewImage: NewImage as never, SequenceNumber: "123" },
    });
    expect(statisticsChange(record("COMPANY#c2", "CALC#open_mining_co2#k1", undefined, calc(false, 5)))).toEqual({
      company: "c2",
      source: "CALC#open_mining_co2#k1",
      sequence: "123".padStart(40, "0"),
      deltas: [
        {
          year: "2024",
          projects_active: 0,
          projects_archived: 0,
          calculations: { open_mining_co2: 1 },
          total_co2e: 5,
          // D18: what counts, per project: the primary calculations and their CO2e.
          counting: { "primary:p1": 1, "t:p1": 5 },
        },
      ],
      lists: [{ project: "p1", type: "open_mining_co2", active: 1, archived: 0 }],
      // The inventory's sums of the project (docs/architecture.md): the CO2 line and its count, in mg,
      // and (D19) one calculation of the machinery's fuel covering its project's dates.
      inventory: [
        {
          project: "p1",
          sums: { "c:18|1.A.1.c.ii|CO2": 1, "t:18|1.A.1.c.ii|CO2": 5_000_000_000, "d0:#open_mining_co2:|1.A.1.c.ii|CO2": 1 },
        },
      ],
      // Not a write that took a number from the inventory's write counter: none is counted applied.
      write: false,
    });
    // Deleting takes the calculation and its CO2e away, and moves it to its list's archive; a
    // change that moves no figure is nothing.
    const archived = statisticsChange(record("COMPANY#c2", "CALC#open_mining_co2#k1", calc(false, 5), calc(true, 5)));
    expect(archived?.deltas).toEqual([
      {
        year: "2024",
        projects_active: 0,
        projects_archived: 0,
        calculations: { open_mining_co2: -1 },
        total_co2e: -5,
        counting: { "primary:p1": -1, "t:p1": -5 },
      },
    ]);
    expect(archived?.lists).toEqual([{ project: "p1", type: "open_mining_co2", active: -1, archived: 1 }]);
    expect(statisticsChange(record("COMPANY#c2", "CALC#open_mining_co2#k1", calc(false, 5), calc(false, 5)))).toBeUndefined();
    // A change of a calculation's result alone moves its year's CO2e, not its list.
    expect(statisticsChange(record("COMPANY#c2", "CALC#open_mining_co2#k1", calc(false, 5), calc(false, 7)))?.lists).toEqual([]);
    for (const [pk, sk] of [
      ["COMPANY#c3", "USER#u1"],
      ["COMPANY#c4", "STATISTICS#YEAR#2024"],
      ["DICT#gwp", "ITEM#000001"],
    ]) {
      expect(statisticsChange(record(pk, sk, undefined, { PK: { S: pk }, SK: { S: sk }, is_deleted: { BOOL: false } }))).toBeUndefined();
    }
  });

  it("leaves the statistics items out of the audit trail (they are derived, and change on every change)", async () => {
    ddb.on(PutCommand).resolves({});
    const records = [
      change("COMPANY#c4", "STATISTICS"),
      change("COMPANY#c4", "STATISTICS#YEAR#2024"),
      change("STATSEQ#COMPANY#c4", "CALC#x#1"),
    ];
    expect(await auditChanges({ Records: records }, { doc, tableName: "T", log: quiet })).toBe(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe("secrets", () => {
  it("reads the JWT secret, the optional Guardant code and the origin token", async () => {
    sm.on(GetSecretValueCommand, { SecretId: "app" }).resolves({
      SecretString: JSON.stringify({ jwt_secret: "s".repeat(64), guardant_code: " 1234 " }),
    });
    sm.on(GetSecretValueCommand, { SecretId: "origin" }).resolves({ SecretString: "origin-token" });
    const secrets = await readSecrets(new SecretsManagerClient({}), { app: "app", originVerify: "origin" });
    expect(new TextDecoder().decode(secrets.jwtSecret)).toBe("s".repeat(64));
    expect(secrets.guardantCode).toBe("1234");
    expect(secrets.originVerify).toBe("origin-token");
  });

  it("refuses an app secret without a usable jwt_secret", async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ jwt_secret: "short" }) });
    await expect(readSecrets(new SecretsManagerClient({}), { app: "app" })).rejects.toThrow(/jwt_secret/);
  });
});

describe("blob areas in AWS", () => {
  it("route every area the API writes to a bucket named by the stack's environment", () => {
    // exports/ is the spreadsheet worker's (EXPORTS_AREA): the API renders no files.
    expect(Object.keys(BLOB_AREAS).sort()).toEqual([
      "climate",
      "documents",
      "forecast-uploads",
      "forecasts",
      "inventory",
      "media",
      "models",
      "telemetry",
      "telemetry-uploads",
      "training",
      "uploads",
    ]);
    expect(EXPORTS_AREA).toEqual({ area: "exports", bucket: "EXPORTS_BUCKET", days: JOB_FILE_DAYS });
    const store = s3BlobStore(new S3Client({}), Object.fromEntries(Object.keys(BLOB_AREAS).map((a) => [a, `${a}-bucket`])));
    return expect(store.put("forecasts/c1/calc/x.json", new Uint8Array([1]), "application/json")).resolves.toBeUndefined();
  });
});

describe("S3 blob store download URL", () => {
  it("presigns a GET of the key in its bucket that saves under the given name", async () => {
    const client = new S3Client({ region: "eu-central-1", credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } });
    const store = s3BlobStore(client, { exports: "ex-bucket" });
    const url = new URL(await store.downloadUrl!("exports/c1/p1/abc.xlsx", "Отчет.xlsx", 300));
    expect(url.hostname).toBe("ex-bucket.s3.eu-central-1.amazonaws.com");
    expect(url.pathname).toBe("/exports/c1/p1/abc.xlsx");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="_____.xlsx"; filename*=UTF-8''${encodeURIComponent("Отчет.xlsx")}`,
    );
    await expect(store.downloadUrl!("../etc/passwd", "x", 300)).rejects.toThrow(/invalid blob key/);
    expect(s3.calls()).toHaveLength(0);
  });
});
