// The readings' consumer draining the table's queue as the local server does: the companies
// take turns a slice at a time (a pushed batch, a part of a file), so one company's file or backlog
// holds another's batch for one slice; each facility's batches in a lane of their own, a few facilities
// at once, every facility's tiles told before any's slower subscribers; a batch that fails is tried again after its back-off (1, 2, 4,
// 8 s on the domain's clock), counted as each attempt begins, then set aside as failed with its reason
// and the readings it could store, and never taken up again by a drain.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { encodeLegacy } from "../../../../../tests/support/legacy-encoding";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { NotFound } from "../../errors";
import { newId } from "../../ids";
import type { ReadingsBatch } from "../../../ports";
import { LANES_AT_ONCE, RETRIES, SLICE_WRITES, drainReadings } from "./consumer";
import { changeBus } from "../../../events/runtime";
import { monitoringIdle } from "../live/forecaster";
import { importReadingsFile, readingsFileKey } from "../ingest/files";
import { listBatches, storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

let d: MemoryDomain;
/** The domain's clock: moved by the tests only. */
let now = Date.UTC(2026, 2, 10, 12, 0);
const iso = (t: number) => new Date(t).toISOString();
const DAY = Date.UTC(2026, 2, 1);

interface Company {
  actor: Actor;
  facility: string;
  sensors: Record<string, string>;
}
let a: Company;
let b: Company;
const CODES = ["М-1", "М-2", "М-3", "М-4", "М-5", "М-6", "М-7", "М-8", "М-9", "М-10"];

async function company(name: string): Promise<Company> {
  return mine(await d.actor(name));
}

/** A mine of the actor's company with a methane meter of each code. */
async function mine(actor: Actor, name = "Шахта"): Promise<Company> {
  const facility = (await d.facility(actor, { name, kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, actor, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  const sensors: Record<string, string> = {};
  for (const code of CODES)
    sensors[code] = (
      await d.write(() => createSensor(d.deps, actor, facility, parseWith(sensorCreateSchema, { code, kind: "methane", point })))
    ).id;
  return { actor, facility, sensors };
}

/** A push stored as the route stores it, queued after the ones before (the queue is by its instant). */
async function push(c: Company, readings: { sensor: string; t: number; value: number }[]): Promise<ReadingsBatch> {
  now += 1;
  return storeBatch(d.deps, c.actor.company, c.facility, { json: { readings: readings.map((r) => ({ ...r, t: iso(r.t) })) } });
}

/** A dispatch file of `days` days, a column per sensor, a reading a minute: a part per day (14 400 readings). */
async function file(c: Company, days: number): Promise<ReadingsBatch> {
  const p = (n: number) => String(n).padStart(2, "0");
  const lines = [`Время;${CODES.join(";")}`];
  for (let m = 0; m < days * 1440; m++) {
    // The file's wall clock is the company's (UTC+7): 07:00 there is 00:00 UTC.
    const t = new Date(DAY + 7 * 3_600_000 + m * 60_000);
    const wall = `${p(t.getUTCDate())}.${p(t.getUTCMonth() + 1)}.${t.getUTCFullYear()} ${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:00`;
    lines.push(`${wall};${CODES.map(() => "0,5").join(";")}`);
  }
  const key = readingsFileKey(c.actor.company, c.facility, newId());
  await d.deps.blobs.put(key, encodeLegacy(lines.join("\r\n"), "windows-1251"), "text/csv");
  now += 1;
  return importReadingsFile(d.deps, c.actor, { facility: c.facility, file_upload: key, name: "АГК.csv" });
}

/** One drain run to its end, its console.error lines kept. */
async function drained(): Promise<{ retryAt?: number; logged: string[] }> {
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
  try {
    const outcome = await drainReadings(d.deps);
    await monitoringIdle(d.deps);
    return { ...outcome, logged };
  } finally {
    console.error = error;
  }
}

/** A write answered on the next turn of the event loop, as the engine's thread answers the consumer's
 *  (the memory tables answer at once, so one lane's writes would never let another's reads in). */
const engineTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The sensor-days written while `run` runs, in order, as "A" or "B" by company; with `parts`, a run of
 *  writes of one company's day (a part of a file: a day of its 10 sensors) counted once. */
async function writesDuring(run: () => Promise<unknown>, { parts }: { parts: boolean }): Promise<string[]> {
  const monitoring = d.deps.repos.monitoring;
  const putDay = monitoring.putDay;
  const seen: { who: string; day: string }[] = [];
  monitoring.putDay = async (day, version) => {
    await engineTurn();
    const written = await putDay(day, version);
    seen.push({ who: day.company === a.actor.company ? "A" : "B", day: day.day });
    return written;
  };
  try {
    await run();
  } finally {
    monitoring.putDay = putDay;
  }
  return (parts ? seen.filter((w, i) => i === 0 || w.who !== seen[i - 1].who || w.day !== seen[i - 1].day) : seen).map((w) => w.who);
}

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  a = await company("ООО «Большой файл»");
  b = await company("ООО «Соседи»");
});

beforeEach(async () => {
  // Nothing of one test left queued for the next.
  expect(await d.deps.repos.monitoring.queued(10)).toEqual([]);
});

describe("companies take turns", () => {
  it("another company's push queued behind a year's file is applied after the file's first part, not its last", async () => {
    // Three days stand for the year: a part each, the neighbour's turn due after the first.
    const year = await file(a, 3);
    const neighbour = await push(b, [{ sensor: "М-1", t: DAY + 5 * 60_000, value: 0.4 }]);
    const order = await writesDuring(drained, { parts: true });
    // The file's three parts, the neighbour's batch before its second (before its first when the first
    // is still being read as the neighbour's turn comes).
    expect(order.filter((o) => o === "A")).toHaveLength(3);
    expect(order.indexOf("B")).toBeLessThanOrEqual(1);
    expect(await d.deps.repos.monitoring.getBatch(a.actor.company, year.batch)).toMatchObject({ state: "done", accepted: 3 * 1440 * 10 });
    expect(await d.deps.repos.monitoring.getBatch(b.actor.company, neighbour.batch)).toMatchObject({ state: "done", accepted: 1 });
  });

  it("one company's backlog of pushes holds another's batch for one turn, a round of them at most", async () => {
    const pushes: ReadingsBatch[] = [];
    for (let i = 0; i < 30; i++) pushes.push(await push(a, [{ sensor: "М-2", t: DAY + 86_400_000 + i * 60_000, value: 0.5 }]));
    const neighbour = await push(b, [{ sensor: "М-2", t: DAY + 86_400_000, value: 0.4 }]);
    const order = await writesDuring(drained, { parts: false });
    // At most one turn of the other's: a round of its pushes (25, fewer than 10 000 readings), not all
    // 30; the round's pushes, a minute each of the same sensor-day, written to it once together.
    expect(order.indexOf("B")).toBeLessThanOrEqual(1);
    expect(order).toHaveLength(3);
    // Each push's reading counted once, in its own mark (the first test's file wrote the same values there).
    for (const p of pushes) {
      const done = await d.deps.repos.monitoring.getBatch(a.actor.company, p.batch);
      expect(done?.state).toBe("done");
      expect((done?.accepted ?? 0) + (done?.duplicate ?? 0)).toBe(1);
    }
    expect(await d.deps.repos.monitoring.getBatch(b.actor.company, neighbour.batch)).toMatchObject({ state: "done" });
    const day = await d.deps.repos.monitoring.getDay(a.actor.company, a.sensors["М-2"], "2026-03-02");
    expect(pushes.every((p) => day?.applied[p.batch] !== undefined)).toBe(true);
  });

  it("a company queued while another's file is applied joins the drain within a part", async () => {
    await file(a, 2);
    let neighbour: ReadingsBatch | undefined;
    // The neighbour pushes while the file's first part is written, a few seconds into the drain.
    const monitoring = d.deps.repos.monitoring;
    const { putDay, updateBatch } = monitoring;
    // Once: the file's days are written WRITES_AT_ONCE at a time, so the next writes come before it is stored.
    let pushed = false;
    let fileDays = 0;
    monitoring.putDay = async (day, version) => {
      if (!pushed) {
        pushed = true;
        neighbour = await push(b, [{ sensor: "М-3", t: DAY + 60_000, value: 0.4 }]);
        now += 5_000;
      }
      const written = await putDay(day, version);
      if (day.company === a.actor.company) fileDays++;
      return written;
    };
    // The file's days written when the neighbour's application began (its attempt counted).
    let begunAfter: number | undefined;
    monitoring.updateBatch = async (batch) => {
      if (batch.company === b.actor.company) begunAfter ??= fileDays;
      return updateBatch(batch);
    };
    let order: string[];
    try {
      order = await writesDuring(drained, { parts: true });
    } finally {
      Object.assign(monitoring, { putDay, updateBatch });
    }
    // Taken up within the file's first part (a part reads the queue again every 10 000 readings: its day
    // of 10 sensors), in a lane of its own beside the file's.
    expect(begunAfter).toBeLessThan(10);
    expect(order.filter((o) => o === "A").length).toBeGreaterThanOrEqual(2);
    expect(order.indexOf("B")).toBeGreaterThanOrEqual(0);
    expect(await d.deps.repos.monitoring.getBatch(b.actor.company, neighbour!.batch)).toMatchObject({ state: "done", accepted: 1 });
  });
});

describe("facilities in lanes", () => {
  it("tells every facility's tiles of its minute before any facility's slower subscribers end, the forecaster before the detector", async () => {
    const holding = await d.actor("ООО «Холдинг»");
    const mines: Company[] = [];
    for (let i = 0; i < LANES_AT_ONCE + 2; i++) mines.push(await mine(holding, `Шахта ${i + 1}`));
    const pushes: ReadingsBatch[] = [];
    for (const m of mines) pushes.push(await push(m, [{ sensor: "М-1", t: now - 60_000, value: 0.5 }]));
    // The host's table stood in for: the tiles prompt, the forecaster and the detector slow.
    const heard: string[] = [];
    const slow = (name: string) => async (_deps: unknown, change: { facility: string }) => {
      heard.push(`${name} ${change.facility}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      heard.push(`${name} done ${change.facility}`);
    };
    const runtime = d.deps.runtime;
    const changes = runtime.changes;
    runtime.changes = changeBus(
      [
        {
          name: "tiles",
          prompt: true,
          hears: ["ReadingsWritten"],
          run: (_deps: unknown, change: { facility: string }) => void heard.push(`tiles ${change.facility}`),
        },
        { name: "forecaster", hears: ["ReadingsWritten"], run: slow("forecaster") },
        { name: "detector", hears: ["ReadingsWritten"], run: slow("detector") },
      ],
      () => d.deps,
    );
    try {
      await drained();
    } finally {
      runtime.changes = changes;
    }
    const at = (line: string) => heard.indexOf(line);
    const firstDone = heard.findIndex((line) => line.includes(" done "));
    for (const m of mines) {
      expect(at(`tiles ${m.facility}`)).toBeGreaterThanOrEqual(0);
      expect(at(`tiles ${m.facility}`)).toBeLessThan(firstDone);
      expect(at(`forecaster done ${m.facility}`)).toBeLessThan(at(`detector ${m.facility}`));
    }
    for (const p of pushes)
      expect(await d.deps.repos.monitoring.getBatch(holding.company, p.batch)).toMatchObject({ state: "done", accepted: 1 });
  });
});

describe("the work one batch may cause", () => {
  it("a reading two months before today's makes the detector read the days the batch touches, not the two months between", async () => {
    const today = Date.UTC(2026, 2, 10, 6, 0);
    const batch = await push(a, [
      { sensor: "М-7", t: today - 60 * 86_400_000, value: 0.5 },
      { sensor: "М-7", t: today, value: 0.6 },
    ]);
    const monitoring = d.deps.repos.monitoring;
    const getDays = monitoring.getDays;
    const read = new Set<string>();
    monitoring.getDays = async (company, sensor, days) => {
      if (sensor === a.sensors["М-7"]) for (const day of days) read.add(day);
      return getDays(company, sensor, days);
    };
    try {
      await drained();
    } finally {
      monitoring.getDays = getDays;
    }
    expect(await monitoring.getBatch(a.actor.company, batch.batch)).toMatchObject({ state: "done", accepted: 2 });
    // Each reading's day and the days before it the detector looks back on: a handful, not 61.
    expect(read.size).toBeGreaterThan(1);
    expect(read.size).toBeLessThan(10);
  });

  it("writes a push's days and hands them to the day consumers SLICE_WRITES at a time, another company's batch not held behind them", async () => {
    // 1 500 sensor-days of one company's push: two slices of writes, then the day consumers.
    const readings = Array.from({ length: 1_500 }, (_, i) => ({
      sensor: CODES[i % 10],
      t: DAY - (5 + Math.floor(i / 10)) * 86_400_000,
      value: 0.5,
    }));
    const wide = await push(a, readings);
    const neighbour = await push(b, [{ sensor: "М-8", t: DAY, value: 0.4 }]);
    const order: string[] = [];
    const monitoring = d.deps.repos.monitoring;
    const putDay = monitoring.putDay;
    monitoring.putDay = async (day, version) => {
      await engineTurn();
      order.push(day.company === b.actor.company ? "B" : "A");
      return putDay(day, version);
    };
    try {
      await drained();
    } finally {
      monitoring.putDay = putDay;
    }
    expect(await monitoring.getBatch(a.actor.company, wide.batch)).toMatchObject({ state: "done", accepted: 1_500 });
    expect(await monitoring.getBatch(b.actor.company, neighbour.batch)).toMatchObject({ state: "done", accepted: 1 });
    // The neighbour's day written beside the push's first 1 000 days (a lane of its own), not after its 1 500.
    expect(order.indexOf("B")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("B")).toBeLessThanOrEqual(SLICE_WRITES);
  });
});

describe("a batch that fails", () => {
  it("is tried again after 1, 2, 4 and 8 s, then set aside with its reason and the readings it could store, never taken up again", async () => {
    const day = "2026-03-05";
    const t = Date.parse(`${day}T02:00:00Z`);
    const poison = await push(a, [
      { sensor: "М-4", t, value: 0.5 },
      { sensor: "М-5", t, value: 0.6 },
      { sensor: "М-5", t: t + 60_000, value: 0.7 },
    ]);
    // Storage refuses М-4's day whatever is written to it (an item too large, a value it cannot hold).
    const monitoring = d.deps.repos.monitoring;
    const putDay = monitoring.putDay;
    let refusedWrites = 0;
    monitoring.putDay = async (stored, version) => {
      if (stored.sensor === a.sensors["М-4"]) {
        refusedWrites++;
        throw new Error("Item size has exceeded the maximum allowed size");
      }
      return putDay(stored, version);
    };
    try {
      const waits: number[] = [];
      const logs: string[] = [];
      for (let attempt = 1; attempt <= RETRIES.attempts; attempt++) {
        const { retryAt, logged } = await drained();
        logs.push(...logged);
        expect(refusedWrites).toBe(attempt);
        const stored = await monitoring.getBatch(a.actor.company, poison.batch);
        if (attempt < RETRIES.attempts) {
          expect(stored).toMatchObject({ state: "queued", attempts: attempt });
          waits.push(retryAt! - now);
          // Asked again before its back-off ends, the drain passes it over.
          await drained();
          expect(refusedWrites).toBe(attempt);
          now = retryAt!;
        } else expect(retryAt).toBeUndefined();
      }
      expect(waits).toEqual([1000, 2000, 4000, 8000]);
      const failed = await monitoring.getBatch(a.actor.company, poison.batch);
      expect(failed).toMatchObject({
        state: "failed",
        attempts: 5,
        accepted: 2,
        failure: "хранилище не приняло показания датчика «М-4» за 05.03.2026 (Item size has exceeded the maximum allowed size)",
      });
      expect(await monitoring.queued(10)).toEqual([]);
      // The facility's list of loads («Загрузки АГК») shows it first, set aside with its reason and its
      // good readings counted, without its refused lines; another company's user is told no such facility.
      const [listed] = await listBatches(d.deps, a.actor, a.facility);
      expect(listed).toMatchObject({
        batch: poison.batch,
        state: "failed",
        accepted: 2,
        lines: 3,
        refused_count: 0,
        failure: failed!.failure,
      });
      expect(listed).not.toHaveProperty("refused");
      await expect(listBatches(d.deps, b.actor, a.facility)).rejects.toThrow(NotFound);
      // Its good readings are stored: М-5's day.
      expect([...(await monitoring.getDay(a.actor.company, a.sensors["М-5"], day))!.values]).toEqual([0.6, 0.7]);
      // In the log: each retry, then the batch set aside.
      expect(logs.filter((l) => l.includes("readings_batch_retry"))).toHaveLength(4);
      expect(logs.filter((l) => l.includes("readings_batch_failed") && l.includes(poison.batch))).toHaveLength(1);
      // Later drains never take it up again.
      now += 60_000;
      await push(b, [{ sensor: "М-4", t, value: 0.3 }]);
      await drained();
      await drained();
      expect(refusedWrites).toBe(RETRIES.attempts);
    } finally {
      monitoring.putDay = putDay;
    }
  });

  it("written in a round with others, fails alone: the others' readings of the same sensor-day are stored and done", async () => {
    const day = "2026-03-06";
    const t = Date.parse(`${day}T03:00:00Z`);
    const good = await push(a, [{ sensor: "М-6", t, value: 0.5 }]);
    const poison = await push(a, [{ sensor: "М-6", t: t + 60_000, value: 0.999 }]);
    const after = await push(a, [{ sensor: "М-6", t: t + 120_000, value: 0.7 }]);
    // Storage refuses a day holding the poison's value: the round's one write of the day is refused,
    // then each push's readings are written on their own.
    const monitoring = d.deps.repos.monitoring;
    const putDay = monitoring.putDay;
    monitoring.putDay = async (stored, version) => {
      if (stored.values.includes(0.999)) throw new Error("Item size has exceeded the maximum allowed size");
      return putDay(stored, version);
    };
    try {
      await drained();
      expect(await monitoring.getBatch(a.actor.company, good.batch)).toMatchObject({ state: "done", accepted: 1 });
      expect(await monitoring.getBatch(a.actor.company, after.batch)).toMatchObject({ state: "done", accepted: 1 });
      expect(await monitoring.getBatch(a.actor.company, poison.batch)).toMatchObject({
        state: "queued",
        attempts: 1,
        failure: "хранилище не приняло показания датчика «М-6» за 06.03.2026 (Item size has exceeded the maximum allowed size)",
      });
      expect([...(await monitoring.getDay(a.actor.company, a.sensors["М-6"], day))!.values]).toEqual([0.5, 0.7]);
      // Its attempts spent, it is set aside; the queue is left empty for the next test.
      for (let attempt = 2; attempt <= RETRIES.attempts; attempt++) {
        now += 60_000;
        await drained();
      }
      expect(await monitoring.getBatch(a.actor.company, poison.batch)).toMatchObject({ state: "failed", attempts: RETRIES.attempts });
    } finally {
      monitoring.putDay = putDay;
    }
  });

  it("counts an attempt as it begins: one whose thread died is set aside once its attempts are spent, never retried forever", async () => {
    const batch = await push(b, [{ sensor: "М-6", t: DAY, value: 0.5 }]);
    // Its application began five times and never ended (the consumer's thread died of its memory cap).
    const seen: (ReadingsBatch | undefined)[] = [];
    const { monitoring } = d.deps.repos;
    const readingsOf = monitoring.batchReadings;
    monitoring.batchReadings = async (company, id) => {
      if (id === batch.batch) seen.push(await monitoring.getBatch(b.actor.company, batch.batch));
      return readingsOf(company, id);
    };
    try {
      await d.deps.repos.monitoring.updateBatch({ ...batch, attempts: 4 });
      await drained();
    } finally {
      monitoring.batchReadings = readingsOf;
    }
    // Counted before its readings were read: a death there would have left the count.
    expect(seen[0]).toMatchObject({ state: "queued", attempts: 5, failure: expect.stringContaining("обработка прервана") });
    expect(await d.deps.repos.monitoring.getBatch(b.actor.company, batch.batch)).toMatchObject({ state: "done", accepted: 1 });
    expect((await d.deps.repos.monitoring.getBatch(b.actor.company, batch.batch))?.failure).toBeUndefined();

    const died = await push(b, [{ sensor: "М-6", t: DAY + 60_000, value: 0.5 }]);
    await d.deps.repos.monitoring.updateBatch({
      ...died,
      attempts: 5,
      failure: "обработка прервана: поток обработки остановлен (нехватка памяти) или сервер перезапущен",
    });
    await drained();
    expect(await d.deps.repos.monitoring.getBatch(b.actor.company, died.batch)).toMatchObject({
      state: "failed",
      failure: "обработка прервана: поток обработки остановлен (нехватка памяти) или сервер перезапущен",
    });
    expect(await d.deps.repos.monitoring.queued(10)).toEqual([]);
  });
});
