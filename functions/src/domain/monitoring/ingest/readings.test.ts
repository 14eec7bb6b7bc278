// D57 on the in-memory repositories: a push read line by line against the facility's register and
// stored before it is answered, then applied by the one consumer into each sensor's day — the same push
// again all duplicates, a new value for a stored minute a correction kept with the old one, a batch
// applied twice counted once, readings reversed giving the same minutes; bad lines refused with their
// numbers and Russian reasons while the good ones are kept; an empty file, another encoding and a CSV
// without its header refused as a whole. Section 12's ventilation hour with a gap, pushed and read
// back, gives its 3 252 m³ of CH4 and 2,172336 t. Over HTTP, with gateway keys and other companies:
// tests/integration/readings-push.test.ts.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { pointVolume, sensorMinutes } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import vectors from "../../../../../tests/fixtures/monitoring/methodology-section-12.json";
import { encodeLegacy } from "../../../../../tests/support/legacy-encoding";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { SensorDay, ReadingsBatch } from "../../../ports";
import { MAX_BATCH_MARKS, RETRIES, applyBatch, drainReadings, mergeDay, readingsBetween, utcDay } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { newId } from "../../ids";
import { createSensor, retireSensor } from "./register";
import { UNTERMINATED_QUOTE } from "./dispatch-file";
import {
  CSV_HEADER_MESSAGE,
  EMPTY_MESSAGE,
  batchBlobKey,
  batchReadings,
  bodyFingerprint,
  listBatches,
  readReadings,
  storeBatch,
  type ReadBody,
} from "./readings";
import { LIMITS } from "../../../contract/schemas/limits";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let second: string;
const sensors: Record<string, string> = {};

const HOUR = Date.UTC(2026, 2, 1, 3, 0); // 01.03.2026 10:00 in Kemerovo
/** The test's clock (a retry's back-off passes on it). */
const NOW = Date.parse("2026-11-16T03:00:00Z");
let now = NOW;
const iso = (t: number) => new Date(t).toISOString();

/** A push as the route makes it: stored, then the consumer kicked; the batch once it applied it. */
async function applied(body: ReadBody, target = facility, restrictTo?: { facility: string }): Promise<ReadingsBatch> {
  const stored = await storeBatch(d.deps, staff.company, target, body, restrictTo);
  expect(stored).toMatchObject({ state: "queued", accepted: 0 });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  const batch = await d.deps.repos.monitoring.getBatch(staff.company, stored.batch);
  return batch!;
}

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  staff = await d.actor("ООО «АГК»");
  facility = (await d.facility(staff, { name: "Шахта «Телеметрия»", kind: "underground_mine" })).id;
  second = (await d.facility(staff, { name: "Шахта «Соседняя»", kind: "underground_mine" })).id;
  const point = (f: string) =>
    d.write(() => createPoint(d.deps, staff, f, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })));
  const shaft = (await point(facility)).id;
  const near = (await point(second)).id;
  const sensor = (f: string, body: Record<string, unknown>) =>
    d.write(() => createSensor(d.deps, staff, f, parseWith(sensorCreateSchema, body)));
  for (const [code, kind] of [
    ["М-1", "methane"],
    ["Q-1", "flow"],
    ["М-2", "methane"],
  ] as const) {
    sensors[code] = (await sensor(facility, { code, kind, point: shaft })).id;
  }
  await sensor(second, { code: "С-9", kind: "methane", point: near });
  for (const [code, extra] of [
    ["М-7", {}],
    ["М-8", { in_service_from: "2026-06-01", in_service_to: "2026-12-31" }],
  ] as const) {
    sensors[code] = (await sensor(facility, { code, kind: "methane", point: shaft, ...extra })).id;
  }
  retire = () => d.write(() => retireSensor(d.deps, staff, facility, sensors["М-7"]));
});
let retire: () => Promise<unknown>;
const sensorsOf = () => d.deps.repos.sensors.listOfFacility(staff.company, facility);

describe("the ventilation hour of section 12, pushed", () => {
  const v = vectors.ventilation_hour_with_gap;
  const readings = () => {
    const out: { sensor: string; t: string; value: number }[] = [];
    for (let m = 0; m < v.minutes; m++) {
      out.push({ sensor: "Q-1", t: iso(HOUR + m * MINUTE_MS), value: v.flow_m3_min });
      const part = v.ch4.find((p) => m >= p.from && m <= p.to);
      if (part) out.push({ sensor: "М-1", t: iso(HOUR + m * MINUTE_MS), value: part.value });
    }
    return out;
  };

  it("is stored and applied: 110 readings accepted, none refused", async () => {
    const batch = await applied({ json: { readings: readings() } });
    expect(batch).toMatchObject({ state: "done", lines: 110, accepted: 110, duplicate: 0, corrected: 0, refused: [], refused_count: 0 });
    expect(batch.readings_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads back as 3 252 m³ of CH4, 2,172336 t, 10 minutes substituted", async () => {
    const minutesOf = async (code: string, kind: "methane" | "flow") => {
      const r = await readingsBetween(d.deps, staff.company, sensors[code], HOUR, HOUR + v.minutes * MINUTE_MS);
      return sensorMinutes(kind, r.times, r.values, HOUR, v.minutes);
    };
    const methane = await readingsBetween(d.deps, staff.company, sensors["М-1"], HOUR, HOUR + v.minutes * MINUTE_MS);
    expect(methane.times).toHaveLength(50);
    const result = pointVolume({ flow: await minutesOf("Q-1", "flow"), ch4: await minutesOf("М-1", "methane") });
    expect(result.ch4_m3).toBeCloseTo(v.ch4_m3, 9);
    expect(Number(result.ch4_t.toFixed(6))).toBe(v.ch4_t.value);
    expect(result.minutes).toEqual({ expected: 60, valid: v.valid, substituted: v.substituted, missing: 0 });
  });

  it("stores once when pushed again: every reading a duplicate", async () => {
    const batch = await applied({ json: { readings: readings() } });
    expect(batch).toMatchObject({ accepted: 0, duplicate: 110, corrected: 0 });
  });

  it("counts a new value for a stored minute as a correction, kept with the old value", async () => {
    const t = iso(HOUR + 5 * MINUTE_MS);
    const batch = await applied({ json: { readings: [{ sensor: "М-1", t, value: 0.5 }] } });
    expect(batch).toMatchObject({ accepted: 0, duplicate: 0, corrected: 1 });
    const day = await d.deps.repos.monitoring.getDay(staff.company, sensors["М-1"], "2026-03-01");
    expect(day?.corrections).toEqual([{ t: Date.parse(t), old: 0.44, value: 0.5, batch: batch.batch }]);
  });
});

describe("order and idempotence", () => {
  it("a batch applied again (a crash, a redelivery) counts nothing twice", async () => {
    const stored = await storeBatch(d.deps, staff.company, facility, {
      json: { readings: [0, 1, 2].map((m) => ({ sensor: "Q-1", t: iso(Date.UTC(2026, 2, 9) + m * MINUTE_MS), value: 100 + m })) },
    });
    // Killed after its day was written, before the batch was marked done: the day keeps its counts.
    const monitoring = d.deps.repos.monitoring;
    const finishBatch = monitoring.finishBatch;
    monitoring.finishBatch = async () => {
      throw new Error("killed");
    };
    try {
      await expect(applyBatch(d.deps, staff.company, stored.batch)).rejects.toThrow("killed");
    } finally {
      monitoring.finishBatch = finishBatch;
    }
    expect((await monitoring.getBatch(staff.company, stored.batch))?.state).toBe("queued");
    const again = await applyBatch(d.deps, staff.company, stored.batch);
    expect(again).toMatchObject({ state: "done", accepted: 3, duplicate: 0, corrected: 0 });
    // Its item done: applied once more it is answered as it was.
    expect(await applyBatch(d.deps, staff.company, stored.batch)).toEqual(again);
    expect(await applyBatch(d.deps, staff.company, "no-such-batch")).toBeUndefined();
    const day = await d.deps.repos.monitoring.getDay(staff.company, sensors["Q-1"], "2026-03-09");
    expect([...day!.values]).toEqual([100, 101, 102]);
  });

  it("a batch that cannot be applied stays queued for its retry and does not hold up the batches after it", async () => {
    const push = (day: number) =>
      storeBatch(d.deps, staff.company, facility, {
        json: { readings: [0, 1].map((m) => ({ sensor: "М-2", t: iso(Date.UTC(2026, 2, day) + m * MINUTE_MS), value: 0.5 + m / 10 })) },
      });
    const broken = await push(20);
    const after = await push(21);
    // The first batch's stored readings unreadable (a fault, a damaged item): its apply throws.
    const { monitoring } = d.deps.repos;
    const readingsOf = monitoring.batchReadings;
    monitoring.batchReadings = async (company, id) => {
      if (id === broken.batch) throw new SyntaxError("unreadable readings");
      return readingsOf(company, id);
    };
    const logged: unknown[][] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      void drainReadings(d.deps);
      await monitoringIdle(d.deps);
    } finally {
      console.error = error;
    }
    expect((await d.deps.repos.monitoring.getBatch(staff.company, after.batch))?.state).toBe("done");
    expect((await d.deps.repos.monitoring.getBatch(staff.company, broken.batch))?.state).toBe("queued");
    expect(await d.deps.repos.monitoring.queued(10)).toEqual([{ company: staff.company, batch: broken.batch, facility }]);
    expect(String(logged[0]?.[0])).toContain(`batch ${broken.batch}`);
    expect(await d.deps.repos.monitoring.getBatch(staff.company, broken.batch)).toMatchObject({ attempts: 1, failure: expect.any(String) });
    // Readable again, the next drain after its back-off applies it (drain.test.ts: the retries).
    now += RETRIES.firstMs;
    monitoring.batchReadings = readingsOf;
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    expect(await d.deps.repos.monitoring.getBatch(staff.company, broken.batch)).toMatchObject({ state: "done", accepted: 2 });
    expect(await d.deps.repos.monitoring.queued(10)).toEqual([]);
  });

  it("keeps a gateway's push in the table and a large push as a blob, each read back to the bit, and a batch stored before from its blob", async () => {
    const odd = [0.1 + 0.2, -0, 1e-300, 1.234567890123, 0.31, 99.99999999999999, 1 / 3];
    const small = await storeBatch(d.deps, staff.company, facility, {
      json: {
        readings: odd.map((value, i) => ({ sensor: i % 2 ? "М-1" : "М-2", t: iso(Date.UTC(2025, 11, 1) + (i % 3) * 20_000), value })),
      },
    });
    expect(small.readings_in).toBe("table");
    expect(await d.deps.blobs.get(batchBlobKey(staff.company, small.batch))).toBeUndefined();
    const kept = (await batchReadings(d.deps, small))!;
    expect(kept.map(([sensor]) => sensor)).toEqual(odd.map((_, i) => sensors[i % 2 ? "М-1" : "М-2"]));
    expect(kept.map(([, t]) => t)).toEqual(odd.map((_, i) => Date.UTC(2025, 11, 1) + (i % 3) * 20_000));
    expect(kept.every(([, , value], i) => Object.is(value, odd[i]))).toBe(true);
    // Its SHA-256 is of the readings' JSON, as a blob's bytes are.
    expect(small.readings_sha256).toBe(createHash("sha256").update(JSON.stringify(kept)).digest("hex"));

    // 4 000 readings of many values pack past what a few write units hold: a blob, as before.
    const many = Array.from({ length: 4_000 }, (_, i) => ({
      sensor: "М-1",
      t: iso(Date.UTC(2025, 11, 2) + i * 1_000),
      value: Math.sqrt(i),
    }));
    const large = await storeBatch(d.deps, staff.company, facility, { json: { readings: many } });
    expect(large.readings_in).toBeUndefined();
    expect((await batchReadings(d.deps, large))?.map(([, , value]) => value)).toEqual(many.map((r) => r.value));

    // A batch stored before its readings were kept in the table: its readings only in its blob.
    const before = { company: staff.company, batch: "before-0000" };
    await d.deps.blobs.put(
      batchBlobKey(staff.company, before.batch),
      new TextEncoder().encode(JSON.stringify([[sensors["М-1"], 5, 0.5]])),
      "application/json",
    );
    expect(await batchReadings(d.deps, before)).toEqual([[sensors["М-1"], 5, 0.5]]);
  });

  it("gives the same minutes whether the readings come forward or reversed", async () => {
    const start = Date.UTC(2026, 2, 2, 0, 0);
    const rows = Array.from({ length: 600 }, (_, i) => ({ t: start + i * 20_000, value: 0.3 + ((i * 37) % 11) / 100 }));
    const push = async (code: string, list: typeof rows) => {
      for (let i = 0; i < list.length; i += 250) {
        await applied({ json: { readings: list.slice(i, i + 250).map((r) => ({ sensor: code, t: iso(r.t), value: r.value })) } });
      }
    };
    await push("М-1", rows);
    await push("М-2", [...rows].reverse());
    const minutesOf = async (code: string) => {
      const r = await readingsBetween(d.deps, staff.company, sensors[code], start, start + 200 * MINUTE_MS);
      return sensorMinutes("methane", r.times, r.values, start, 200);
    };
    const forward = await minutesOf("М-1");
    expect(forward.valid).toBe(200);
    expect([...(await minutesOf("М-2")).values]).toEqual([...forward.values]);
  });

  it("merges a day by its instants: a duplicate, a correction and a new reading", () => {
    const stored = {
      company: "c",
      sensor: "s",
      day: "2026-03-01",
      offsets: Uint32Array.from([0, 60_000]),
      values: Float64Array.from([1, 2]),
      applied: {},
      corrections: [],
      version: 3,
    };
    const t0 = Date.parse("2026-03-01T00:00:00Z");
    const { day, counts } = mergeDay(stored, "b", {
      times: [t0 + 120_000, t0, t0 + 60_000],
      values: [3, 1, 2.5],
    });
    expect(counts).toEqual([1, 1, 1]);
    expect([...day.offsets]).toEqual([0, 60_000, 120_000]);
    expect([...day.values]).toEqual([1, 2.5, 3]);
    expect(day.corrections).toEqual([{ t: t0 + 60_000, old: 2, value: 2.5, batch: "b" }]);
    expect(day.applied).toEqual({ b: [1, 1, 1] });
    expect(utcDay(t0 + 86_399_999)).toBe("2026-03-01");
  });
});

describe("a body's fingerprint", () => {
  const csv = (text: string) => ({ csv: new TextEncoder().encode(text) });
  it("is the same for the same lines sent again and differs for any other sensor, instant or value", () => {
    const lines = "sensor;t;value\nМ-1;2026-03-01T03:00:00Z;0,99\nМ-1;2026-03-01T03:01:00Z;0,99\n";
    expect(bodyFingerprint(csv(lines))).toBe(bodyFingerprint(csv(lines.replaceAll("\n", "\r\n"))));
    expect(bodyFingerprint(csv(lines))).not.toBe(bodyFingerprint(csv(lines.replace("03:01", "03:02"))));
    expect(bodyFingerprint(csv(lines))).not.toBe(bodyFingerprint(csv(lines.replace("0,99\n", "0,98\n"))));
    expect(bodyFingerprint(csv(lines))).not.toBe(bodyFingerprint(csv(lines.replaceAll("М-1", "М-2"))));
    const json = { readings: [{ sensor: "М-1", t: "2026-03-01T03:00:00Z", value: 0.99 }] };
    expect(bodyFingerprint({ json })).toBe(
      bodyFingerprint({ json: { readings: [{ value: 0.99, t: "2026-03-01T03:00:00Z", sensor: "М-1" }] } }),
    );
    expect(bodyFingerprint({ json })).not.toBe(bodyFingerprint({ json: { readings: [...json.readings, ...json.readings] } }));
  });
});

describe("the facility's list of loads («Загрузки АГК»)", () => {
  it("lists the facility's own batches newest first, at most the listed number, each with its counts and no refused lines", async () => {
    // Each answered 202 (listed) before the consumer took it.
    const listedOnce = async (batch: ReadingsBatch) => {
      await d.deps.repos.monitoring.listBatch(batch);
      return batch;
    };
    const other = await listedOnce(
      await storeBatch(d.deps, staff.company, second, { json: { readings: [{ sensor: "С-9", t: iso(HOUR), value: 0.3 }] } }),
    );
    const pushed: string[] = [];
    // Pushed in one millisecond or several, they list in the order pushed (their ids sort by time).
    for (let i = 0; i <= LIMITS.monitoring.batchesListed; i++) {
      const body = {
        json: {
          readings: [
            { sensor: "М-1", t: iso(HOUR + 9 * 86_400_000 + i * 60_000), value: 0.4 },
            { sensor: "Ж-0", t: iso(HOUR), value: 1 },
          ],
        },
      };
      pushed.push((await listedOnce(await storeBatch(d.deps, staff.company, facility, body))).batch);
    }
    const listed = await listBatches(d.deps, staff, facility);
    expect(listed.map((b) => b.batch)).toEqual(pushed.reverse().slice(0, LIMITS.monitoring.batchesListed));
    expect(listed.map((b) => b.batch)).not.toContain(other.batch);
    expect(listed[0]).toMatchObject({ facility, state: "queued", lines: 2, refused_count: 1 });
    expect(listed[0]).not.toHaveProperty("refused");
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    expect((await listBatches(d.deps, staff, facility))[0]).toMatchObject({ state: "done", accepted: 1, refused_count: 1 });
  });
});

describe("a day's batch marks", () => {
  it("keeps the marks of the latest 2 000 batches, by their ids, however the stored map is ordered", () => {
    const empty: SensorDay = {
      company: "c",
      sensor: "s",
      day: "2026-03-01",
      offsets: new Uint32Array(0),
      values: new Float64Array(0),
      applied: {},
      corrections: [],
      version: 1,
    };
    const t0 = Date.parse("2026-03-01T00:00:00Z");
    const ids = Array.from({ length: MAX_BATCH_MARKS + 500 }, () => newId());
    // Stored in the reverse order: DynamoDB gives a map's keys back in no particular order.
    const stored = {
      ...empty,
      applied: Object.fromEntries(
        ids
          .slice(0, -1)
          .reverse()
          .map((id) => [id, [1, 0, 0] as [number, number, number]]),
      ),
    };
    const { day, counts } = mergeDay(stored, ids.at(-1)!, { times: [t0], values: [0.5] });
    expect(counts).toEqual([1, 0, 0]);
    expect(Object.keys(day.applied).sort()).toEqual(ids.slice(-MAX_BATCH_MARKS));
    // A day with fewer marks keeps them all.
    expect(Object.keys(mergeDay(empty, ids[0], { times: [t0], values: [0.5] }).day.applied)).toEqual([ids[0]]);
  });
});

describe("bad lines and files", () => {
  it("refuses letters, an unknown sensor, a time ahead of the clock and a time without a zone by line, keeping the good lines", async () => {
    const ahead = iso(now + 10 * MINUTE_MS);
    const batch = await applied({
      json: {
        readings: [
          { sensor: "М-1", t: "2026-03-03T00:00:00Z", value: 0.4 },
          { sensor: "М-1", t: "2026-03-03T00:01:00Z", value: "abc" },
          { sensor: "С-9", t: "2026-03-03T00:02:00Z", value: 0.4 },
          { sensor: "М-1", t: ahead, value: 0.4 },
          { sensor: "М-1", t: "2026-03-03 00:04", value: 0.4 },
          { sensor: "Q-1", t: "2026-03-03T00:05:00+07:00", value: 9000 },
          { sensor: " ", t: "2026-03-03T00:06:00Z", value: 1 },
          { sensor: "М-1", t: "2026-03-03T00:07:00Z", value: null },
        ],
      },
    });
    expect(batch).toMatchObject({ lines: 8, accepted: 2, refused_count: 6 });
    expect(batch.refused).toEqual([
      { line: 2, reason: "значение «abc» не число" },
      { line: 3, reason: "датчик «С-9» не найден в реестре датчиков площадки" },
      { line: 4, reason: `время ${ahead} позже текущего более чем на 5 минут` },
      { line: 5, reason: "время «2026-03-03 00:04» не в формате ISO 8601 с часовым поясом (2026-03-01T05:00:00Z)" },
      { line: 7, reason: "не указан код датчика" },
      { line: 8, reason: "значение не число" },
    ]);
  });

  it("reads a CSV in Windows-1251 with «;» and decimal commas, numbering refusals by the file's lines", async () => {
    const text = "sensor;t;value\r\nМ-1;2026-03-04T00:00:00Z;0,42\r\nМ-1;2026-03-04T00:01:00Z;ноль\r\nМ-1;2026-03-04T00:02:00Z;0,43\r\n";
    const batch = await applied({ csv: encodeLegacy(text, "windows-1251") });
    expect(batch).toMatchObject({ lines: 3, accepted: 2, refused: [{ line: 3, reason: "значение «ноль» не число" }] });
    const r = await readingsBetween(d.deps, staff.company, sensors["М-1"], Date.UTC(2026, 2, 4), Date.UTC(2026, 2, 5));
    expect([...r.values]).toEqual([0.42, 0.43]);
  });

  it("refuses a line whose bytes are in no encoding it reads by its number, keeping the lines around it", async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    const csv = new Uint8Array([
      ...enc("sensor;t;value\nМ-1;2026-03-06T00:00:00Z;0,41\nМ-1;"),
      0x98,
      ...enc(";0,5\nМ-1;2026-03-06T00:02:00Z;0,43\n"),
    ]);
    const batch = await applied({ csv });
    expect(batch).toMatchObject({
      lines: 3,
      accepted: 2,
      refused: [{ line: 3, reason: "байты строки не в кодировке UTF-8 и не в Windows-1251: строка не прочитана" }],
    });
  });

  it("refuses an empty push, an empty file, a file in another encoding and a CSV without its header as a whole, storing nothing", async () => {
    const before = await d.deps.repos.monitoring.queued(1000);
    const store = (body: ReadBody) => storeBatch(d.deps, staff.company, facility, body);
    await expect(store({ json: { readings: [] } })).rejects.toThrow(EMPTY_MESSAGE);
    await expect(store({ json: { rows: [] } })).rejects.toThrow("Показания: ожидается список показаний");
    await expect(store({ csv: new Uint8Array(0) })).rejects.toThrow("Строка 1: файл пустой (0 байт)");
    await expect(store({ csv: new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode("s\0e\0")]) })).rejects.toThrow(
      "Строка 1 (заголовок): не удалось прочитать: его кодировка не UTF-8 и не Windows-1251",
    );
    await expect(store({ csv: new TextEncoder().encode("код;время\nМ-1;x\n") })).rejects.toThrow(CSV_HEADER_MESSAGE);
    expect(() => readReadings({ json: { readings: Array.from({ length: 10_001 }, () => ({})) } }, [], now)).toThrow(
      "Слишком много показаний: не более 10\u00a0000 за запрос",
    );
    expect(await d.deps.repos.monitoring.queued(1000)).toEqual(before);
  });

  it("refuses a value no meter of the kind sends (1e308 % of methane) by line, storing the good readings beside it", async () => {
    const batch = await applied({
      json: {
        readings: [
          { sensor: "М-1", t: "2026-03-07T00:00:00Z", value: 1e308 },
          { sensor: "М-1", t: "2026-03-07T00:01:00Z", value: 0.42 },
          { sensor: "М-1", t: "2026-03-07T00:02:00Z", value: -1e308 },
          // Past a 0–4 % meter's span, below zero: a fault D58 flags, stored.
          { sensor: "М-1", t: "2026-03-07T00:03:00Z", value: 4.5 },
          { sensor: "М-1", t: "2026-03-07T00:04:00Z", value: -0.05 },
          { sensor: "Q-1", t: "2026-03-07T00:05:00Z", value: 12_000 },
        ],
      },
    });
    expect(batch).toMatchObject({ state: "done", lines: 6, accepted: 4, refused_count: 2 });
    expect(batch.refused).toEqual([
      { line: 1, reason: "значение 1e+308 невозможно для датчика «М-1» (% об.): допустимо от -100 до 200" },
      { line: 3, reason: "значение -1e+308 невозможно для датчика «М-1» (% об.): допустимо от -100 до 200" },
    ]);
    const r = await readingsBetween(d.deps, staff.company, sensors["М-1"], Date.UTC(2026, 2, 7), Date.UTC(2026, 2, 8));
    expect([...r.values]).toEqual([0.42, 4.5, -0.05]);
    expect(
      readReadings({ json: { readings: [{ sensor: "Q-1", t: "2026-03-07T00:05:00Z", value: 1.5e6 }] } }, await sensorsOf(), now).refused,
    ).toEqual([
      {
        line: 1,
        reason: "значение 1500000 невозможно для датчика «Q-1» (м³/мин): допустимо от -1\u00a0000\u00a0000 до 1\u00a0000\u00a0000",
      },
    ]);
  });

  it("refuses a reading older than the horizon (a 1970 one) by line, storing the current one", async () => {
    const current = iso(now - MINUTE_MS);
    const batch = await applied({
      json: {
        readings: [
          { sensor: "М-2", t: "1970-01-01T00:00:00Z", value: 0.4 },
          { sensor: "М-2", t: current, value: 0.41 },
        ],
      },
    });
    expect(batch).toMatchObject({ state: "done", lines: 2, accepted: 1, refused_count: 1 });
    expect(batch.refused[0].line).toBe(1);
    expect(batch.refused[0].reason).toMatch(
      /^время 1970-01-01T00:00:00Z раньше \d\d\.\d\d\.\d{4}: показания старше 24 мес\. не принимаются$/,
    );
    const r = await readingsBetween(d.deps, staff.company, sensors["М-2"], Date.parse(current), Date.parse(current) + 1);
    expect([...r.values]).toEqual([0.41]);
  });

  it("refuses the readings of a retired sensor after its retirement, and before a sensor's time in service, by line", async () => {
    const before = iso(now - 2 * MINUTE_MS);
    await retire();
    const after = iso(now + 1000);
    const batch = await applied({
      json: {
        readings: [
          { sensor: "М-7", t: after, value: 0.4 },
          // Sent late, from before the retirement: the sensor was in service then.
          { sensor: "М-7", t: before, value: 0.41 },
          // In service from 01.06.2026 on the company's clock (Kemerovo, UTC+7): 31.05 23:00 there is
          // before, 01.06 01:00 there is in (both 31.05 in UTC).
          { sensor: "М-8", t: "2026-05-31T16:00:00Z", value: 0.42 },
          { sensor: "М-8", t: "2026-05-31T18:00:00Z", value: 0.43 },
        ],
      },
    });
    expect(batch).toMatchObject({ lines: 4, accepted: 2, refused_count: 2 });
    expect(batch.refused).toEqual([
      { line: 1, reason: expect.stringMatching(/^датчик «М-7» выведен из эксплуатации \d\d\.\d\d\.\d{4}: его показания не принимаются$/) },
      { line: 3, reason: "датчик «М-8» введен в эксплуатацию 01.06.2026: показание от 31.05.2026 раньше" },
    ]);
  });

  it("refuses a CSV line whose quote is never closed by its number (was a 500), keeping the lines after it", async () => {
    const text = 'sensor;t;value\nМ-1;2026-03-08T00:00:00Z;0,41\nМ-1;"2026-03-08T00:01:00Z;0,42\nМ-1;2026-03-08T00:02:00Z;0,43\n';
    const batch = await applied({ csv: new TextEncoder().encode(text) });
    expect(batch).toMatchObject({ lines: 3, accepted: 2, refused: [{ line: 3, reason: UNTERMINATED_QUOTE }] });
    const r = await readingsBetween(d.deps, staff.company, sensors["М-1"], Date.UTC(2026, 2, 8), Date.UTC(2026, 2, 9));
    expect([...r.values]).toEqual([0.41, 0.43]);
  });

  it("a gateway key's push goes only to its facility", async () => {
    await expect(
      storeBatch(
        d.deps,
        staff.company,
        second,
        { json: { readings: [{ sensor: "С-9", t: "2026-03-05T00:00:00Z", value: 0.4 }] } },
        {
          facility,
        },
      ),
    ).rejects.toThrow("Ключ шлюза выдан для другой площадки");
    const batch = await applied({ json: { readings: [{ sensor: "С-9", t: "2026-03-05T00:00:00Z", value: 0.4 }] } }, second, {
      facility: second,
    });
    expect(batch).toMatchObject({ facility: second, accepted: 1 });
  });
});
