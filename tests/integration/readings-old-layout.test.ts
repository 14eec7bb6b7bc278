// a data folder written before an earlier release minute items (each push merged into its sensors'
// day items: consumer.ts mergeDay and the repository's putDay, the path a closed day's late readings
// still take) opened by the local server as `npm start` runs it: a past day and yesterday's day are read
// as they were, a push to yesterday (still open) goes to its facility's minute and is read over the old
// day, a redelivered push counts nothing twice, the compaction moves the open day over, and the local
// server removes the compacted minutes once they expire, compacting first a day its stop left
// uncompacted past the compaction's look back. The items the code before wrote (raw arrays,
// minutes without an expiry) are read to the bit, and such minutes deleted at the compaction.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import * as keys from "@server/adapters/dynamodb/keys";
import { startLocalServer } from "@server/local/server";
import { LOCAL_TABLE } from "@server/local/storage";
import { mergeDay } from "@server/domain/monitoring/minutes/consumer";
import { compactDay } from "@server/domain/monitoring/minutes/minutes";
import { emptyDay, readingsBetween } from "@server/domain/monitoring/ingest/stored-readings";
import { DEMO, signInAsDemo } from "../support/server";
import { createFreshHarness } from "../support/harness";
import { appliedCounts, everyBatchApplied, meteredFacility, pushAll } from "../support/readings-shape";
import { DAY_MS } from "@core/dates";

const MINUTE = 60_000;
const dataDir = mkdtempSync(join(tmpdir(), "readings-old-layout-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("reads the old layout's days as before, a push beside them counted once, and compacts the open day over them", async () => {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const yesterday = today - DAY_MS;
  const past = today - 20 * DAY_MS;
  const name = (t: number) => new Date(t).toISOString().slice(0, 10);
  const first = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  let mine: Awaited<ReturnType<typeof meteredFacility>>;
  try {
    const token = (await signInAsDemo(first.url)).access;
    mine = await meteredFacility(first.url, token, ["О-1"]);
    // The old layout's days, as its consumer wrote them.
    const sensor = mine.sensors.get("О-1")!;
    for (const start of [past, yesterday]) {
      const empty = emptyDay(mine.company, sensor, name(start));
      const day = mergeDay(empty, "old-batch", { times: [start + 60 * MINUTE, start + 61 * MINUTE], values: [0.2, 0.25] }).day;
      expect(await first.deps.repos.monitoring.putDay(day, 0)).toBe(true);
    }
  } finally {
    await first.close();
  }

  const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  try {
    const token = (await signInAsDemo(server.url)).access;
    const at = { id: mine.sensors.get("О-1")!, facility: mine.facility };
    const read = async (start: number) => {
      const r = await readingsBetween(server.deps, mine.company, at, start, start + DAY_MS);
      return [...r.times].map((t, i) => [(t - start) / MINUTE, r.values[i]]);
    };
    const old = [
      [60, 0.2],
      [61, 0.25],
    ];
    expect(await read(past)).toEqual(old);
    // Yesterday's day moved into its minutes by the start (the upgrade), read the same.
    const moved = async () => (await server.deps.repos.monitoring.getDay(mine.company, at.id, name(yesterday)))?.offsets.length === 0;
    for (let i = 0; i < 100 && !(await moved()); i++) await new Promise((done) => setTimeout(done, 100));
    expect(await read(yesterday)).toEqual(old);

    // A push to yesterday, sent twice: one new reading and one the old day holds.
    const batch = [["О-1", yesterday + 62 * MINUTE, 0.3] as const, ["О-1", yesterday + 61 * MINUTE, 0.25] as const];
    const pushed = await pushAll(server.url, mine.key, [batch, batch]);
    await everyBatchApplied(server.deps);
    expect(await appliedCounts(server.url, token, pushed)).toBe(1);
    const minutes = await server.deps.repos.monitoring.minutesOf(mine.company, mine.facility, name(yesterday));
    expect(minutes.map((m) => m.minute)).toEqual(["01:00", "01:01", "01:02"]);
    const merged = [...old, [62, 0.3]];
    expect(await read(yesterday)).toEqual(merged);
    // An empty window (a gassing's id from a day to come reads [t, t)) reads nothing: its minutes' Query
    // from 01:02 to 01:01 was refused by storage, answered 500.
    const empty = await readingsBetween(server.deps, mine.company, at, yesterday + 62 * MINUTE, yesterday + 62 * MINUTE);
    expect([...empty.times]).toEqual([]);

    // Settled: the minutes folded into the old day, marked compacted, and left to their expiry.
    expect(await compactDay(server.deps, mine.company, mine.facility, name(yesterday))).toBe(3);
    expect(await server.deps.repos.monitoring.getDay(mine.company, at.id, name(yesterday))).toMatchObject({ compacted: true });
    expect(await server.deps.repos.monitoring.hasMinutes(mine.company, mine.facility, name(yesterday))).toBe(false);
    expect(await read(yesterday)).toEqual(merged);
    expect(await read(past)).toEqual(old);

    // Today's reading, left in its minute: the server is stopped before the day is compacted.
    await pushAll(server.url, mine.key, [[["О-1", today + 5 * MINUTE, 0.5] as const]]);
    await everyBatchApplied(server.deps);
    expect(await read(today)).toEqual([[5, 0.5]]);
  } finally {
    await server.close();
  }

  // Twelve days on, past their expiry: dynalite has no TTL, the local server's start removes them.
  const later = Date.now() + 12 * DAY_MS;
  const third = await startLocalServer({ dataDir, port: 0, demo: DEMO, clock: { now: () => new Date(later) } });
  try {
    const minutes = () => third.deps.repos.monitoring.minutesOf(mine.company, mine.facility, name(yesterday));
    for (let i = 0; i < 100 && (await minutes()).length > 0; i++) await new Promise((done) => setTimeout(done, 100));
    expect(await minutes()).toEqual([]);
    const r = await readingsBetween(third.deps, mine.company, { id: mine.sensors.get("О-1")!, facility: mine.facility }, yesterday, today);
    expect(r.values.length).toBe(3);
    // Today's minutes, never compacted and past their expiry when the server starts again twelve days
    // on, beyond the compaction's look back: compacted into the sensor's day before they are removed.
    const slept = () => third.deps.repos.monitoring.minutesOf(mine.company, mine.facility, name(today));
    for (let i = 0; i < 100 && (await slept()).length > 0; i++) await new Promise((done) => setTimeout(done, 100));
    expect(await slept()).toEqual([]);
    const kept = await readingsBetween(
      third.deps,
      mine.company,
      { id: mine.sensors.get("О-1")!, facility: mine.facility },
      today,
      today + DAY_MS,
    );
    expect([...kept.values]).toEqual([0.5]);
  } finally {
    await third.close();
  }
}, 120_000);

it("reads a minute and a day the code before wrote (raw arrays) to the bit on the local engine, and deletes such minutes at the compaction, having no expiry", async () => {
  const h = await createFreshHarness();
  try {
    const doc = h.doc!;
    const raw = (a: Uint16Array | Uint32Array | Float64Array) => new Uint8Array(a.buffer);
    const [company, facility, sensor, day] = ["c-old", "f-old", "0192f0c4-8a3e-7c4b-9d2f-1a2b3c4d5e6f", "2026-11-20"];
    const values = Float64Array.from([0.1 + 0.2, -0, 1e308]);
    await doc.send(
      new PutCommand({
        TableName: LOCAL_TABLE,
        Item: {
          ...keys.facilityMinute(company, facility, day, "00:01"),
          company,
          facility,
          day,
          minute: "00:01",
          sensors: [sensor],
          s: raw(Uint16Array.from([0, 0, 0])),
          t: raw(Uint16Array.from([0, 20_000, 40_000])),
          v: raw(values),
          b: raw(Uint16Array.from([0, 0, 0])),
          batches: [{ key: "2026-11-20T00:02:00.000Z#b1", counts: [3, 0, 0] }],
          corrections: [],
          version: 1,
        },
      }),
    );
    await doc.send(
      new PutCommand({
        TableName: LOCAL_TABLE,
        Item: {
          ...keys.sensorDay(company, sensor, day),
          company,
          sensor,
          day,
          count: 3,
          t: raw(Uint32Array.from([60_000, 80_000, 100_000])),
          v: raw(values),
          applied: {},
          corrections: [],
          version: 1,
        },
      }),
    );
    const bits = (a: Float64Array) => [...new Uint8Array(a.buffer, a.byteOffset, a.byteLength)];
    const [minute] = await h.deps.repos.monitoring.minutesOf(company, facility, day);
    expect([...minute.offsets]).toEqual([0, 20_000, 40_000]);
    expect(bits(minute.values)).toEqual(bits(values));
    const stored = await h.deps.repos.monitoring.getDay(company, sensor, day);
    expect([...stored!.offsets]).toEqual([60_000, 80_000, 100_000]);
    expect(bits(stored!.values)).toEqual(bits(values));
    // Written again, packed, it reads the same.
    expect(await h.deps.repos.monitoring.putDay(stored!, 1)).toBe(true);
    expect(bits((await h.deps.repos.monitoring.getDay(company, sensor, day))!.values)).toEqual(bits(values));

    expect(await h.deps.repos.monitoring.hasMinutes(company, facility, day)).toBe(true);
    await h.deps.repos.monitoring.removeMinutes(company, facility, day, ["00:01"]);
    expect(await h.deps.repos.monitoring.minutesOf(company, facility, day)).toEqual([]);
    expect(await h.deps.repos.monitoring.hasMinutes(company, facility, day)).toBe(false);
  } finally {
    await h.close();
  }
});
