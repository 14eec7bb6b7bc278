// The mine's readings in AWS: the API stores a push (its readings in S3, its item and queue
// mark in the table) and announces it on SQS before its 202; the readings' function consumes SQS
// messages with partial batch failures (a message that fails is named, the others applied), and a
// dispatch export dropped into the uploads bucket under its facility's prefix comes as the bucket's
// notification and is applied as a batch of that facility. The API and the handler run for real on
// dynalite with the real S3 blob store; aws-sdk-client-mock stands in for S3 (an object map) and SQS
// only.
import { localRuntime } from "@server/local/subscribers";
import { READINGS_SUBSCRIBERS, readingsRuntime } from "@server/lambda/readings-consumer";
import { LOCAL_SUBSCRIBERS } from "@server/local/subscribers";
import { MINUTE_SUBSCRIBERS } from "@server/lambda/monitoring-minute";
import { SUBSCRIBERS } from "@server/events/subscribers";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { sqsReadingsQueue } from "@server/adapters/queue/sqs-readings-queue";
import { configFromEnv } from "@server/config";
import { systemClock, type Deps } from "@server/domain/context";
import { createCompany, createUser } from "@server/domain/company/users";
import { readingsBetween, reannounceQueued } from "@server/domain/monitoring/minutes/consumer";
import { consumeReadingsMessages } from "@server/events/readings-queue";
import { encodeS3Key } from "@server/events/upload-check";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { apiHandler } from "@server/lambda/api";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";
import { encodeLegacy } from "../support/legacy-encoding";
import { apiGatewayEvent } from "./api-gateway-event";
import {
  acknowledgedModel,
  type BatchStatus,
  cut,
  differences,
  type Pushed,
  type Reading,
  seeded,
  shuffle,
  storedReadings,
  verifierShape,
} from "../support/readings-shape";

const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);
afterEach(() => sqs.resetHistory());
// The infra files share their worker's modules: the next file gets the SDK's send() back.
afterAll(() => {
  s3.restore();
  sqs.restore();
});

const QUEUE_URL = "https://sqs.eu-central-1.amazonaws.com/123456789012/TelemetryQueue";
const UPLOADS = "uploads-bucket";
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** S3 as an object map: PutObject, HeadObject, GetObject (whole or by Range); `failing` keys answer 503. */
const objects = new Map<string, { body: Uint8Array; type: string }>();
const failing = new Set<string>();
const stream = (bytes: Uint8Array) => ({
  transformToByteArray: async () => bytes,
  transformToWebStream: () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
});
function fakeS3() {
  s3.on(PutObjectCommand).callsFake(async (input) => {
    const body = input.Body as Uint8Array;
    objects.set(`${input.Bucket}/${input.Key}`, { body: new Uint8Array(body), type: input.ContentType ?? "" });
    return {};
  });
  const found = (input: { Bucket?: string; Key?: string }) => {
    const key = `${input.Bucket}/${input.Key}`;
    if (failing.has(input.Key ?? "")) throw Object.assign(new Error("SlowDown"), { name: "SlowDown", $metadata: { httpStatusCode: 503 } });
    const object = objects.get(key);
    if (!object) throw new NoSuchKey({ message: "NoSuchKey", $metadata: { httpStatusCode: 404 } });
    return object;
  };
  s3.on(HeadObjectCommand).callsFake(async (input) => {
    const object = found(input);
    return { ContentLength: object.body.byteLength, ContentType: object.type };
  });
  s3.on(GetObjectCommand).callsFake(async (input) => {
    const object = found(input);
    const range = /^bytes=(\d+)-(\d+)$/.exec(input.Range ?? "");
    const body = range ? object.body.subarray(+range[1], +range[2] + 1) : object.body;
    return { Body: stream(body) as never, ContentType: object.type };
  });
}

let storage: OpenStorage;
let handler: ReturnType<typeof apiHandler>;
let consumerDeps: Parameters<typeof consumeReadingsMessages>[1];
let token: string;
let company: string;
let facility: string;
let gatewayKey: string;
const sensors: Record<string, string> = {};

const call = async (path: string, json?: unknown, headers: Record<string, string> = { authorization: `Bearer ${token}` }) => {
  const res = await handler(apiGatewayEvent({ path, json, headers }));
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
};
const sent = () => sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input);
const message = (id: string, body: unknown) => ({ messageId: id, body: JSON.stringify(body) });
const batchOf = async (id: string) => (await call(`/api/v1/telemetry/batches/${id}/`)).body;

beforeAll(async () => {
  fakeS3();
  sqs.on(SendMessageCommand).resolves({ MessageId: "m" });
  storage = await openMemoryStorage();
  const client = new S3Client({ region: "eu-central-1", credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } });
  const blobs = s3BlobStore(client, { telemetry: UPLOADS, "telemetry-uploads": "docs-bucket" });
  const deps: Deps = {
    repos: storage.repos,
    blobs,
    clock: systemClock,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: inProcessSpreadsheets(() => deps),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
    readingsQueue: sqsReadingsQueue(new SQSClient({ region: "eu-central-1" }), QUEUE_URL),
  };
  // A push's readings unreadable (`failing`), wherever they are kept: the table, or a large push's blob.
  const monitoring = storage.repos.monitoring;
  const readingsDeps: typeof consumerDeps = {
    repos: {
      ...storage.repos,
      monitoring: {
        ...monitoring,
        batchReadings: async (id, batch) => {
          if (failing.has(`telemetry/batches/${id}/${batch}.json`))
            throw Object.assign(new Error("SlowDown"), { name: "SlowDown", $metadata: { httpStatusCode: 503 } });
          return monitoring.batchReadings(id, batch);
        },
      },
    },
    blobs,
    clock: systemClock,
    runtime: readingsRuntime(() => readingsDeps),
  };
  consumerDeps = readingsDeps;
  const made = await createCompany(deps, { name: "ООО «Шахта в облаке»" });
  company = made.id;
  await createUser(deps, { companyId: company, email: "agk@example.com", password: "correct-horse" });
  handler = apiHandler(deps);
  const login = await handler(
    apiGatewayEvent({ path: "/api/token/", json: { email: "agk@example.com", password: "correct-horse", guardant_code: "" } }),
  );
  token = (JSON.parse(login.body) as { access: string }).access;
  facility = String((await call("/api/v1/facilities/", { name: "Шахта «Облако»", kind: "underground_mine" })).body.id);
  const point = String((await call(`/api/v1/facilities/${facility}/points/`, { name: "Ствол", kind: "ventilation_shaft" })).body.id);
  for (const [code, kind] of [
    ["М-12", "methane"],
    ["Q-1", "flow"],
  ])
    sensors[code] = String((await call(`/api/v1/facilities/${facility}/sensors/`, { code, kind, point })).body.id);
  gatewayKey = String((await call(`/api/v1/facilities/${facility}/gateway-keys/`, { label: "Шлюз" })).body.key);
}, 60_000);
afterAll(() => storage?.close());

const push = (minutes: number[], value = 0.4) =>
  call(
    "/api/v1/telemetry/readings/",
    { readings: minutes.map((m) => ({ sensor: "М-12", t: new Date(Date.UTC(2026, 2, 1, 3, m)).toISOString(), value })) },
    { authorization: `Gateway ${gatewayKey}` },
  );

describe("the readings' function's subscribers", () => {
  it("are the local host's lines but the live tiles, in their order: both hosts' tables come from the one table", () => {
    const local = LOCAL_SUBSCRIBERS.filter((s) => s.name !== "live tiles");
    expect(READINGS_SUBSCRIBERS.map((s) => s.name)).toEqual(local.map((s) => s.name));
    expect(READINGS_SUBSCRIBERS.map((s) => s.run)).toEqual(local.map((s) => s.run));
    expect(READINGS_SUBSCRIBERS.map((s) => s.hears)).toEqual(local.map((s) => s.hears));
  });

  it("of the minute function are lines of the one table that AWS runs, hearing what they hear there", () => {
    for (const line of MINUTE_SUBSCRIBERS) {
      const there = SUBSCRIBERS.find((s) => s.name === line.name);
      expect(there, line.name).toMatchObject({ aws: true, hears: line.hears });
    }
  });
});

describe("a push in AWS", () => {
  let announced: string;

  it("is stored in the table (its readings too; no mark in the table's queue: SQS holds it) and announced on SQS before its 202, not applied by the API", async () => {
    const res = await push([0, 1, 2]);
    expect(res.status).toBe(202);
    const batch = String(res.body.batch);
    announced = batch;
    // Its company as the message's group: the fair queue's tenant, whose backlog waits behind the others'.
    expect(sent()).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: JSON.stringify({ company, batch }), MessageGroupId: company }]);
    // A gateway's few readings kept in the table, packed: no S3 PUT.
    expect(objects.has(`${UPLOADS}/telemetry/batches/${company}/${batch}.json`)).toBe(false);
    expect(await storage.repos.monitoring.batchReadings(company, batch)).toEqual(
      [0, 1, 2].map((m) => [sensors["М-12"], Date.UTC(2026, 2, 1, 3, m), 0.4]),
    );
    expect(await batchOf(batch)).toMatchObject({ state: "queued", accepted: 0 });
    expect((await storage.repos.monitoring.queued(100)).map((q) => q.batch)).not.toContain(batch);
  });

  it("whose announcement fails is marked in the table's queue for the minute's sweep, and the sweep removes the mark once it is done", async () => {
    sqs.on(SendMessageCommand).rejects(new Error("SQS unreachable"));
    const failed = await push([90]);
    sqs.on(SendMessageCommand).resolves({ MessageId: "m" });
    expect(failed.status).toBe(500);
    const [mark] = (await storage.repos.monitoring.queued(100)).filter((q) => q.company === company);
    expect(mark).toBeDefined();
    const answer = await consumeReadingsMessages({ Records: [message("f1", { company, batch: mark.batch })] }, consumerDeps, quiet);
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await batchOf(mark.batch)).toMatchObject({ state: "done", accepted: 1 });
    const sweepDeps = {
      repos: storage.repos,
      clock: systemClock,
      readingsQueue: sqsReadingsQueue(new SQSClient({ region: "eu-central-1" }), QUEUE_URL),
    };
    expect(await reannounceQueued(sweepDeps)).toBe(0);
    expect((await storage.repos.monitoring.queued(100)).filter((q) => q.company === company)).toEqual([]);
  });

  it("is applied by the readings' function; a message that fails is named and the others are applied, and its redelivery counts once", async () => {
    const ids = [];
    for (const minutes of [[0, 1, 2], [10, 11], [20]]) ids.push(String((await push(minutes)).body.batch));
    // S3 cannot give the second batch's readings this time.
    failing.add(`telemetry/batches/${company}/${ids[1]}.json`);
    const messages = [
      message("m0", { company, batch: announced }),
      ...ids.map((batch, i) => message(`m${i + 1}`, { company, batch })),
      // Never a message of ours: dropped, not retried.
      { messageId: "junk", body: "{not json" },
    ];
    const first = await consumeReadingsMessages({ Records: messages }, consumerDeps, quiet);
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: "m2" }] });
    expect(await batchOf(announced)).toMatchObject({ state: "done", accepted: 3 });
    expect(await batchOf(ids[0])).toMatchObject({ state: "done", accepted: 0, duplicate: 3 });
    expect(await batchOf(ids[1])).toMatchObject({ state: "queued" });
    expect(await batchOf(ids[2])).toMatchObject({ state: "done", accepted: 1 });
    // SQS delivers the failed one again (and, once more, one already applied).
    failing.clear();
    const again = await consumeReadingsMessages({ Records: [messages[2], messages[3]] }, consumerDeps, quiet);
    expect(again).toEqual({ batchItemFailures: [] });
    expect(await batchOf(ids[1])).toMatchObject({ state: "done", accepted: 2 });
    expect(await batchOf(ids[2])).toMatchObject({ state: "done", accepted: 1 });
    const stored = await readingsBetween(consumerDeps, company, sensors["М-12"], Date.UTC(2026, 2, 1, 3, 0), Date.UTC(2026, 2, 1, 4, 0));
    expect([...stored.times].map((t) => (t - Date.UTC(2026, 2, 1, 3, 0)) / 60_000)).toEqual([0, 1, 2, 10, 11, 20]);
  });
});

describe("a dispatch export dropped into the uploads bucket", () => {
  const text = [
    "Время;М-12;Q-1",
    "02.03.2026 10:00:00;0,44;12 000",
    "02.03.2026 10:01:00;обрыв;12 100",
    "02.03.2026 10:02:00;0,46;12 050",
  ].join("\r\n");
  const notification = (key: string, eTag: string) => ({
    Records: [{ eventName: "ObjectCreated:Put", s3: { bucket: { name: UPLOADS }, object: { key: encodeS3Key(key), size: 10, eTag } } }],
  });

  it("under its facility's prefix becomes a batch of that facility, applied once however often it is notified", async () => {
    const key = `telemetry/files/${company}/${facility}/agk_2026-03-02.csv`;
    objects.set(`${UPLOADS}/${key}`, { body: encodeLegacy(text, "windows-1251"), type: "text/csv" });
    const note = notification(key, '"etag-1"');
    const first = await consumeReadingsMessages({ Records: [message("s1", note), message("s2", note)] }, consumerDeps, quiet);
    expect(first).toEqual({ batchItemFailures: [] });
    const batches = (await storage.repos.monitoring.queued(100)).length;
    expect(batches).toBe(0);
    const day = Date.UTC(2026, 2, 2, 3, 0);
    const methane = await readingsBetween(consumerDeps, company, sensors["М-12"], day, day + 3_600_000);
    expect([...methane.values]).toEqual([0.44, 0.46]);
    const flow = await readingsBetween(consumerDeps, company, sensors["Q-1"], day, day + 3_600_000);
    expect([...flow.values]).toEqual([12000, 12100, 12050]);
    const stored = (await storage.repos.monitoring.getDay(company, sensors["Q-1"], "2026-03-02"))!;
    // One batch, applied once: the second notification found it done.
    expect(Object.keys(stored.applied)).toHaveLength(1);
    const [applied] = Object.keys(stored.applied);
    const batch = await batchOf(applied.split("#")[0]);
    expect(batch).toMatchObject({
      state: "done",
      lines: 3,
      accepted: 5,
      file_name: "agk_2026-03-02.csv",
      refused: [{ line: 3, reason: "«М-12»: значение «обрыв» не число" }],
    });
  });

  it("ignores a drop under no facility of the company, a name storage keys cannot take, S3's test event and other prefixes, failing none", async () => {
    const stray = `telemetry/files/${company}/no-such-facility/a.csv`;
    objects.set(`${UPLOADS}/${stray}`, { body: new TextEncoder().encode(text), type: "text/csv" });
    const answer = await consumeReadingsMessages(
      {
        Records: [
          message("x1", notification(stray, '"e"')),
          message("x2", { Service: "Amazon S3", Event: "s3:TestEvent" }),
          message("x4", notification(`telemetry/files/${company}/${facility}/АГК март.csv`, '"e"')),
          message("x3", notification(`uploads/${company}/a.csv`, '"e"')),
        ],
      },
      consumerDeps,
      quiet,
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await storage.repos.monitoring.queued(100)).toEqual([]);
  });
});

describe("what the readings' function acknowledged", () => {
  it("stores every reading once with its latest value across shuffled batches, failed and repeated deliveries, two at once, and corrections", async () => {
    const random = seeded(77);
    const start = Date.UTC(2026, 2, 5);
    const codes = ["М-12", "Q-1"];
    const { readings, sent } = verifierShape({ codes, days: 1, start, random });
    /** Pushes `batches` through the API (stored and announced, not applied) and delivers their messages as
     *  SQS would: shuffled, up to 10 a call, two calls at once, a fifth of the batches' readings unreadable
     *  the first time (named in the answer and delivered again), and a third of them delivered once more
     *  after they were applied. */
    const deliver = async (batches: readonly (readonly Reading[])[]) => {
      const pushed: Pushed[] = [];
      for (const readingsOf of batches) {
        const res = await call(
          "/api/v1/telemetry/readings/",
          { readings: readingsOf.map(([sensor, t, value]) => ({ sensor, t: new Date(t).toISOString(), value })) },
          { authorization: `Gateway ${gatewayKey}` },
        );
        expect(res.status).toBe(202);
        pushed.push({ readings: readingsOf, batch: String(res.body.batch) });
      }
      const messages = pushed.map((p, i) => ({
        ...message(`ack-${p.batch}-${i}`, { company, batch: p.batch }),
        attributes: { ApproximateReceiveCount: "1" },
      }));
      for (const p of pushed) if (random() < 0.2) failing.add(`telemetry/batches/${company}/${p.batch}.json`);
      let pending = shuffle([...messages], random);
      for (let round = 0; pending.length > 0; round++) {
        expect(round).toBeLessThan(3);
        const calls = cut(pending, 10, random);
        const failed: typeof messages = [];
        for (let i = 0; i < calls.length; i += 2) {
          const answers = await Promise.all(
            calls.slice(i, i + 2).map((records) => consumeReadingsMessages({ Records: records }, consumerDeps, quiet)),
          );
          for (const answer of answers)
            for (const f of answer.batchItemFailures) failed.push(messages.find((m) => m.messageId === f.itemIdentifier)!);
        }
        failing.clear();
        pending = failed.map((m) => ({ ...m, attributes: { ApproximateReceiveCount: String(round + 2) } }));
      }
      const repeated = shuffle([...messages], random).slice(0, Math.ceil(messages.length / 3));
      await Promise.all(cut(repeated, 10).map((records) => consumeReadingsMessages({ Records: records }, consumerDeps, quiet)));
      return pushed;
    };
    const holds = async (pushes: readonly Pushed[]) => {
      const ids = new Map(codes.map((code) => [code, sensors[code]]));
      const { stored, twice } = await storedReadings(consumerDeps, company, ids, start, start + 86_400_000);
      expect(differences(acknowledgedModel(pushes), stored)).toEqual({ missing: 0, changed: 0, first: [] });
      expect(twice).toBe(0);
      let accepted = 0;
      for (const p of pushes) {
        const status = (await batchOf(String(p.batch))) as unknown as BatchStatus;
        expect(status.state).toBe("done");
        expect(status.accepted + status.duplicate + status.corrected + status.refused.length).toBe(status.lines);
        accepted += status.accepted;
      }
      expect(accepted).toBe([...stored.values()].reduce((n, m) => n + m.size, 0));
    };
    const first = await deliver(cut(sent, 400, random));
    await holds(first);
    const corrections: Reading[] = readings
      .filter(() => random() < 0.02)
      .map(([code, t, value]) => [code, t, Math.round((value + 0.25) * 1000) / 1000]);
    const second = await deliver(cut(shuffle(corrections, random), 40, random));
    await holds([...first, ...second]);
    expect(acknowledgedModel([...first, ...second]).get("М-12")?.size).toBe(readings.filter(([code]) => code === "М-12").length);
  }, 120_000);
});
