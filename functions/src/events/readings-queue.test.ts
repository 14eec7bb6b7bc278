// The readings' SQS consumer (events/readings-queue.ts) on the in-memory repositories: the API's
// `{company, batch}` messages applied and each redelivery counting nothing twice; a message whose batch
// cannot be read named in batchItemFailures while the others are applied, and applied on its next
// delivery; a body that is not JSON dropped, not retried; S3's test event and other buckets' events
// passed over; a dispatch export dropped under its facility's prefix (cp1251, the company's clock)
// applied once however often it is notified, and a key of no company's facility logged, not failed.
// A bound working's forecast is stored before the function answers (the forecaster runs in it).
// With S3 and SQS in AWS (aws-sdk-client-mock): tests/infra/readings-queue-aws.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { encodeLegacy } from "../../../tests/support/legacy-encoding";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../tests/support/memory-domain";
import { pointCreateSchema } from "../contract/schemas/facility";
import { sensorCreateSchema } from "../contract/schemas/sensor";
import { parseWith } from "../http/validate";
import { createPoint } from "../domain/company/emission-points";
import type { Actor, Deps } from "../domain/context";
import { readingsBetween } from "../domain/monitoring/minutes/consumer";
import { storeBatch } from "../domain/monitoring/ingest/readings";
import { droppedFileBatch } from "../domain/monitoring/ingest/files";
import { createSensor } from "../domain/monitoring/ingest/register";
import { bindLiveModel } from "../domain/monitoring/live/live";
import { consumeReadingsMessages } from "./readings-queue";
import { encodeS3Key } from "./upload-check";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let methane: string;
let deps: Pick<Deps, "repos" | "blobs" | "clock" | "runtime">;
/** Keys the blob store cannot read this time (S3 answering 503). */
const failing = new Set<string>();

/** What the consumer logged, one parsed line per call. */
function recorder() {
  const lines: { level: string; entry: Record<string, unknown> }[] = [];
  const at = (level: string) => (line: string) => lines.push({ level, entry: JSON.parse(line) });
  return { lines, log: { info: at("info"), warn: at("warn"), error: at("error") } };
}

const message = (messageId: string, body: unknown) => ({ messageId, body: JSON.stringify(body) });
/** 01.03.2026 03:00 UTC = 10:00 in Kemerovo (UTC+7), plus `m` minutes. */
const minute = (m: number) => Date.UTC(2026, 2, 1, 3, m);
const push = (minutes: number[], value = 0.4) =>
  storeBatch(d.deps, staff.company, facility, {
    json: { readings: minutes.map((m) => ({ sensor: "М-12", t: new Date(minute(m)).toISOString(), value })) },
  });
const stored = async () => {
  const { times } = await readingsBetween(deps, staff.company, methane, minute(0), minute(24 * 60 + 120));
  return [...times].map((t) => (t - minute(0)) / 60_000);
};
const batch = (id: string) => d.deps.repos.monitoring.getBatch(staff.company, id);

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Очередь показаний»");
  facility = (await d.facility(staff, { name: "Шахта «Очередь»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  methane = (
    await d.write(() =>
      createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code: "М-12", kind: "methane", point: point.id })),
    )
  ).id;
  const blobs = d.deps.blobs;
  const monitoring = d.deps.repos.monitoring;
  // A push's readings unreadable, wherever they are kept (the table, or a large push's blob).
  deps = {
    repos: {
      ...d.deps.repos,
      monitoring: {
        ...monitoring,
        batchReadings: async (company, batch) => {
          if (failing.has(`telemetry/batches/${company}/${batch}.json`)) throw Object.assign(new Error("SlowDown"), { name: "SlowDown" });
          return monitoring.batchReadings(company, batch);
        },
      },
    },
    clock: d.deps.clock,
    runtime: d.deps.runtime,
    blobs: {
      ...blobs,
      get: async (key) => {
        if (failing.has(key)) throw Object.assign(new Error("SlowDown"), { name: "SlowDown" });
        return blobs.get(key);
      },
    },
  };
});

describe("the API's messages", () => {
  it("applies each batch; one that cannot be read is named and applied on its next delivery, once", async () => {
    const [first, second, third] = [await push([0, 1, 2]), await push([10, 11]), await push([20])];
    failing.add(`telemetry/batches/${staff.company}/${second.batch}.json`);
    const messages = [
      message("m1", { company: staff.company, batch: first.batch }),
      message("m2", { company: staff.company, batch: second.batch }),
      message("m3", { company: staff.company, batch: third.batch }),
      // Never a message of ours: dropped, not retried.
      { messageId: "junk", body: "{not json" },
    ];
    const { lines, log } = recorder();
    expect(await consumeReadingsMessages({ Records: messages }, deps, log)).toEqual({ batchItemFailures: [{ itemIdentifier: "m2" }] });
    expect(await batch(first.batch)).toMatchObject({ state: "done", accepted: 3 });
    expect(await batch(second.batch)).toMatchObject({ state: "queued", accepted: 0 });
    expect(await batch(third.batch)).toMatchObject({ state: "done", accepted: 1 });
    expect(lines.map((l) => [l.level, l.entry.event, l.entry.messageId ?? l.entry.accepted])).toEqual([
      ["info", "readings_batch", 3],
      ["error", "readings_message_failed", "m2"],
      ["info", "readings_batch", 1],
      ["warn", "readings_message_ignored", "junk"],
    ]);
    expect(lines[1].entry.error).toContain("SlowDown");
    expect(await stored()).toEqual([0, 1, 2, 20]);

    // SQS delivers the failed one again, and once more one already applied.
    failing.clear();
    const again = recorder();
    expect(await consumeReadingsMessages({ Records: [messages[1], messages[2]] }, deps, again.log)).toEqual({ batchItemFailures: [] });
    expect(await batch(second.batch)).toMatchObject({ state: "done", accepted: 2 });
    expect(await batch(third.batch)).toMatchObject({ state: "done", accepted: 1 });
    expect(await stored()).toEqual([0, 1, 2, 10, 11, 20]);
  });

  it("sets aside a batch that fails on its last receive, failed with its reason, and does not fail the message", async () => {
    const poison = await push([30, 31]);
    failing.add(`telemetry/batches/${staff.company}/${poison.batch}.json`);
    const received = (n: number) => ({
      ...message(`p${n}`, { company: staff.company, batch: poison.batch }),
      attributes: { ApproximateReceiveCount: String(n) },
    });
    const error = console.error;
    console.error = () => undefined;
    try {
      expect(await consumeReadingsMessages({ Records: [received(4)] }, deps, recorder().log)).toEqual({
        batchItemFailures: [{ itemIdentifier: "p4" }],
      });
      expect(await batch(poison.batch)).toMatchObject({ state: "queued" });
      const { lines, log } = recorder();
      expect(await consumeReadingsMessages({ Records: [received(5)] }, deps, log)).toEqual({ batchItemFailures: [] });
      expect(lines.map((l) => [l.entry.event, l.entry.state])).toEqual([["readings_batch", "failed"]]);
    } finally {
      console.error = error;
      failing.clear();
    }
    expect(await batch(poison.batch)).toMatchObject({ state: "failed", attempts: 5, failure: "ошибка обработки (SlowDown)" });
    expect((await d.deps.repos.monitoring.queued(100)).map((q) => q.batch)).not.toContain(poison.batch);
  });

  it("answers a batch it does not hold as missing, without failing the message", async () => {
    const { lines, log } = recorder();
    const answer = await consumeReadingsMessages(
      { Records: [message("gone", { company: staff.company, batch: "00000000-0000-4000-8000-000000000000" })] },
      deps,
      log,
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(lines).toEqual([{ level: "info", entry: expect.objectContaining({ event: "readings_batch", state: "missing", accepted: 0 }) }]);
  });
});

describe("the forecaster in the readings' function", () => {
  it("has the bound working's forecast of the batch's last minute stored before it answers", async () => {
    const mine = (await d.facility(staff, { name: "Шахта «Прогноз в очереди»", kind: "underground_mine" })).id;
    const point = await d.write(() =>
      createPoint(d.deps, staff, mine, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
    );
    const body = parseWith(sensorCreateSchema, {
      code: "М-30",
      kind: "methane",
      point: point.id,
      working: "Лава 30",
      warning: 1,
      alarm: 1.5,
    });
    await d.write(() => createSensor(d.deps, staff, mine, body));
    await bindLiveModel(d.deps, staff, { facility: mine, working: "Лава 30", horizon: 60, model: "xgboost-h60" });
    const last = Math.floor(d.deps.clock.now().getTime() / 60_000) * 60_000 - 60_000;
    const readings = Array.from({ length: 90 }, (_, k) => ({
      sensor: "М-30",
      t: new Date(last - (89 - k) * 60_000).toISOString(),
      value: 0.5,
    }));
    const pushed = await storeBatch(d.deps, staff.company, mine, { json: { readings } });
    // The Lambda's deps: no scoring threads, the models scored in its own process.
    const answer = await consumeReadingsMessages(
      { Records: [message("f1", { company: staff.company, batch: pushed.batch })] },
      deps,
      recorder().log,
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    const [forecast] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, mine);
    expect(forecast).toMatchObject({ working: "Лава 30", horizon: 60, issued: last });
    expect(typeof forecast.forecast.result).toBe("number");
  });
});

describe("the uploads bucket's notifications", () => {
  const text = ["Время;М-12", "02.03.2026 10:00:00;0,44", "02.03.2026 10:01:00;обрыв", "02.03.2026 10:02:00;0,46"].join("\r\n");
  const notification = (key: string, eTag: string, eventName = "ObjectCreated:Put") => ({
    Records: [{ eventName, s3: { bucket: { name: "uploads" }, object: { key: encodeS3Key(key), size: 10, eTag } } }],
  });

  it("applies a dispatch export dropped under its facility's prefix once, however often it is notified", async () => {
    const key = `telemetry/files/${staff.company}/${facility}/agk_2026-03-02.csv`;
    await d.deps.blobs.put(key, encodeLegacy(text, "windows-1251"), "text/csv");
    const note = notification(key, '"etag-1"');
    const { lines, log } = recorder();
    expect(await consumeReadingsMessages({ Records: [message("s1", note), message("s2", note)] }, deps, log)).toEqual({
      batchItemFailures: [],
    });
    // 10:00 and 10:02 on 02.03.2026 in Kemerovo are 03:00 and 03:02 UTC; «обрыв» is refused.
    expect((await stored()).filter((m) => m >= 24 * 60)).toEqual([24 * 60, 24 * 60 + 2]);
    const entries = lines.map((l) => l.entry);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ event: "readings_batch", state: "done", accepted: 2 });
    expect(entries[1]).toMatchObject({ event: "readings_batch", state: "done", batch: entries[0].batch });
    const file = await batch(String(entries[0].batch));
    expect(file).toMatchObject({ file_name: "agk_2026-03-02.csv", lines: 3, accepted: 2, refused_count: 1 });
    expect(file?.refused[0]).toMatchObject({ line: 3 });
  });

  it("lists a dropped file in its facility's loads as its notification is read, before it is applied, once however often", async () => {
    const key = `telemetry/files/${staff.company}/${facility}/agk_2026-03-03.csv`;
    await d.deps.blobs.put(key, encodeLegacy(text, "windows-1251"), "text/csv");
    const first = await droppedFileBatch(d.deps, key, '"etag-2"');
    const again = await droppedFileBatch(d.deps, key, '"etag-2"');
    expect(again?.batch).toBe(first?.batch);
    const listed = await d.deps.repos.monitoring.batchesOfFacility(staff.company, facility, 100);
    expect(listed.filter((b) => b.batch === first?.batch)).toEqual([
      expect.objectContaining({ state: "queued", file_name: "agk_2026-03-03.csv" }),
    ]);
  });

  it("passes over S3's test event, other events and keys, and logs a key of no company's facility", async () => {
    const { lines, log } = recorder();
    const stranger = `telemetry/files/${staff.company}/no-such-facility/agk.csv`;
    const answer = await consumeReadingsMessages(
      {
        Records: [
          message("test", { Service: "Amazon S3", Event: "s3:TestEvent" }),
          message("removed", notification(`telemetry/files/${staff.company}/${facility}/old.csv`, '"e"', "ObjectRemoved:Delete")),
          message("other", notification(`documents/${staff.company}/x.pdf`, '"e"')),
          message("stranger", notification(stranger, '"e"')),
        ],
      },
      deps,
      log,
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(lines).toEqual([
      { level: "warn", entry: { event: "readings_drop_ignored", key: stranger, reason: "no such company's facility" } },
    ]);
  });
});
