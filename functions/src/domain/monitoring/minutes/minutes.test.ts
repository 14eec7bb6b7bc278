// an open day's readings are written to their facility's minute items as they arrive, counted
// once, the later batch's value kept for an instant whatever the order they are applied in; a settled day
// is compacted into its sensors' day items, which a late reading then goes to; a day the old layout
// wrote (a sensor's day item rewritten by each push) is read as before and moved over by the compaction.
import { beforeAll, describe, expect, it } from "vitest";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { ReadingsBatch } from "../../../ports";
import { drainReadings, mergeDay } from "./consumer";
import { DEMO_BATCH, emptyDay, readingsBetween } from "../ingest/stored-readings";
import { compactSettledDays, emptyMinute, mergeMinute } from "./minutes";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

const MINUTE = 60_000;
const DAY = Date.UTC(2026, 2, 10);
let now = DAY + 12 * 3_600_000;
const iso = (t: number) => new Date(t).toISOString();
let d: MemoryDomain;
let actor: Actor;
let facility: string;
const sensors: Record<string, string> = {};

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  actor = await d.actor("ООО «Минуты»");
  facility = (await d.facility(actor, { name: "Шахта", kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, actor, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  for (const code of ["М-1", "М-2", "М-3"])
    sensors[code] = (
      await d.write(() => createSensor(d.deps, actor, facility, parseWith(sensorCreateSchema, { code, kind: "methane", point })))
    ).id;
});

async function pushed(readings: { sensor: string; t: number; value: number }[]): Promise<ReadingsBatch> {
  now += 1;
  const batch = await storeBatch(d.deps, actor.company, facility, { json: { readings: readings.map((r) => ({ ...r, t: iso(r.t) })) } });
  await drainReadings(d.deps);
  await monitoringIdle(d.deps);
  return (await d.deps.repos.monitoring.getBatch(actor.company, batch.batch))!;
}

const stored = async (code: string, from = DAY, to = DAY + 86_400_000) => {
  const r = await readingsBetween(d.deps, actor.company, { id: sensors[code], facility }, from, to);
  return [...r.times].map((t, i) => [(t - DAY) / MINUTE, r.values[i]]);
};

describe("minute items", () => {
  it("hold a push of an open day, one item for the facility's minute, counted once however often it comes", async () => {
    const minute = DAY + 11 * 60 * MINUTE;
    const first = await pushed(["М-1", "М-2", "М-3"].map((sensor, i) => ({ sensor, t: minute, value: 0.3 + i / 10 })));
    expect(first).toMatchObject({ state: "done", accepted: 3, duplicate: 0, corrected: 0 });
    expect(await d.deps.repos.monitoring.getDay(actor.company, sensors["М-1"], "2026-03-10")).toBeUndefined();
    const items = await d.deps.repos.monitoring.minutesOf(actor.company, facility, "2026-03-10");
    expect(items.map((m) => [m.minute, m.values.length])).toEqual([["11:00", 3]]);
    // The same readings again: duplicates, nothing accepted twice.
    const again = await pushed(["М-1", "М-2", "М-3"].map((sensor, i) => ({ sensor, t: minute, value: 0.3 + i / 10 })));
    expect(again).toMatchObject({ accepted: 0, duplicate: 3, corrected: 0 });
    expect(await stored("М-3")).toEqual([[660, 0.5]]);
  });

  it("keep the later batch's value of an instant in whichever order the batches are applied, and count a batch applied again as before", () => {
    const t = DAY + 11 * 60 * MINUTE + 30_000;
    const early = "2026-03-10T11:00:01.000Z#b1";
    const late = "2026-03-10T11:00:02.000Z#b2";
    for (const order of [
      [early, late],
      [late, early],
    ]) {
      let m = emptyMinute(actor.company, facility, "2026-03-10", "11:00");
      const counts: number[][] = [];
      for (const key of order) {
        const merged = mergeMinute(m, key, [{ sensor: "s", times: [t], values: [key === late ? 0.7 : 0.5] }]);
        m = merged.minute;
        counts.push(merged.counts);
      }
      expect([...m.values]).toEqual([0.7]);
      expect(counts).toEqual([
        [1, 0, 0],
        [0, 0, 1],
      ]);
      const again = mergeMinute(m, order[0], [{ sensor: "s", times: [t], values: [0.1] }]);
      expect(again.minute).toBe(m);
      expect(again.counts).toEqual(counts[0]);
    }
  });

  it("are compacted into the sensors' days once the day is settled, and a late reading goes to the day", async () => {
    await pushed([{ sensor: "М-1", t: DAY + 11 * 60 * MINUTE + 1, value: 0.9 }]);
    const before = await stored("М-1");
    // Two days and an hour on: the day is settled.
    now = DAY + 2 * 86_400_000 + 2 * 3_600_000;
    expect(await compactSettledDays(d.deps)).toBe(1);
    // Marked compacted, its minute left to its expiry: not compacted twice.
    expect(await d.deps.repos.monitoring.hasMinutes(actor.company, facility, "2026-03-10")).toBe(false);
    expect(await compactSettledDays(d.deps)).toBe(0);
    const day = await d.deps.repos.monitoring.getDay(actor.company, sensors["М-1"], "2026-03-10");
    expect(day).toMatchObject({ compacted: true });
    expect(await stored("М-1")).toEqual(before);
    // Late: one new reading and one already stored.
    const late = await pushed([
      { sensor: "М-1", t: DAY + 12 * 60 * MINUTE, value: 0.4 },
      { sensor: "М-1", t: DAY + 11 * 60 * MINUTE, value: 0.3 },
    ]);
    expect(late).toMatchObject({ accepted: 1, duplicate: 1, corrected: 0 });
    expect(await stored("М-1")).toEqual([...before, [720, 0.4]]);
    expect(await d.deps.repos.monitoring.hasMinutes(actor.company, facility, "2026-03-10")).toBe(false);
  });

  it("read a day the old layout wrote as before, a push after the upgrade beside it, and move it over when settled", async () => {
    // The old layout: the sensor's day item, rewritten by each push, with its batch marks; of a day the
    // new layout has not touched (the compaction above looked at the days open then).
    now = DAY + 5 * 86_400_000 + 12 * 3_600_000;
    const today = now;
    const name = iso(today).slice(0, 10);
    const start = Date.parse(`${name}T00:00:00Z`);
    const empty = emptyDay(actor.company, sensors["М-2"], name);
    const old = mergeDay(empty, "old-batch", { times: [start + 60 * MINUTE, start + 61 * MINUTE], values: [0.2, 0.25] }).day;
    expect(await d.deps.repos.monitoring.putDay(old, 0)).toBe(true);
    const read = async () => {
      const r = await readingsBetween(d.deps, actor.company, { id: sensors["М-2"], facility }, start, start + 86_400_000);
      return [...r.times].map((t, i) => [(t - start) / MINUTE, r.values[i]]);
    };
    expect(await read()).toEqual([
      [60, 0.2],
      [61, 0.25],
    ]);
    // A push of a reading the old day holds, before any compaction moved the day: a duplicate, not
    // accepted again.
    const after = await pushed([
      { sensor: "М-2", t: start + 61 * MINUTE, value: 0.25 },
      { sensor: "М-2", t: start + 62 * MINUTE, value: 0.3 },
    ]);
    expect(after).toMatchObject({ accepted: 1, duplicate: 1, corrected: 0 });
    expect(await read()).toEqual([
      [60, 0.2],
      [61, 0.25],
      [62, 0.3],
    ]);
    now = start + 2 * 86_400_000 + 2 * 3_600_000;
    await compactSettledDays(d.deps);
    expect(await d.deps.repos.monitoring.getDay(actor.company, sensors["М-2"], name)).toMatchObject({ compacted: true });
    expect(await read()).toEqual([
      [60, 0.2],
      [61, 0.25],
      [62, 0.3],
    ]);
  });

  it("read an open day moved over from its minutes alone, its day items not read, a demo's day still the demo's", async () => {
    now = DAY + 10 * 86_400_000 + 12 * 3_600_000;
    const name = iso(now).slice(0, 10);
    const start = Date.parse(`${name}T00:00:00Z`);
    // The old layout's day of the demo's simulator, moved over by the push after it.
    const empty = emptyDay(actor.company, sensors["М-3"], name);
    const old = mergeDay(empty, `${DEMO_BATCH}-old`, { times: [start + 60 * MINUTE], values: [0.2] }).day;
    expect(await d.deps.repos.monitoring.putDay(old, 0)).toBe(true);
    await pushed([{ sensor: "М-3", t: start + 61 * MINUTE, value: 0.3 }]);
    let dayReads = 0;
    const { monitoring } = d.deps.repos;
    const counted = {
      ...d.deps,
      repos: {
        ...d.deps.repos,
        monitoring: { ...monitoring, getDays: (...a: Parameters<typeof monitoring.getDays>) => (dayReads++, monitoring.getDays(...a)) },
      },
    };
    const r = await readingsBetween(counted, actor.company, { id: sensors["М-3"], facility }, start, start + 86_400_000);
    expect([...r.times].map((t, i) => [(t - start) / MINUTE, r.values[i]])).toEqual([
      [60, 0.2],
      [61, 0.3],
    ]);
    expect(r.demo).toBe(true);
    expect(dayReads).toBe(0);
  });
});
