// Issue 98: a data folder written by the layout before minute items (each push merged into its sensors'
// day items: consumer.ts mergeDay and the repository's putDay, the path a closed day's late readings
// still take) opened by the local server as `npm start` runs it: a past day and yesterday's day are read
// as they were, a push to yesterday (still open) goes to its facility's minute and is read over the old
// day, a redelivered push counts nothing twice, and the compaction moves the open day over.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { mergeDay } from "@server/domain/monitoring/days/consumer";
import { compactDay } from "@server/domain/monitoring/days/minutes";
import { emptyDay, readingsBetween } from "@server/domain/monitoring/ingest/stored-days";
import { DEMO, signInAsDemo } from "../support/server";
import { appliedCounts, everyBatchApplied, meteredFacility, pushAll } from "../support/readings-shape";

const DAY_MS = 86_400_000;
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
      expect(await first.deps.repos.telemetry.putDay(day, 0)).toBe(true);
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
    const moved = async () => (await server.deps.repos.telemetry.getDay(mine.company, at.id, name(yesterday)))?.offsets.length === 0;
    for (let i = 0; i < 100 && !(await moved()); i++) await new Promise((done) => setTimeout(done, 100));
    expect(await read(yesterday)).toEqual(old);

    // A push to yesterday, sent twice: one new reading and one the old day holds.
    const batch = [["О-1", yesterday + 62 * MINUTE, 0.3] as const, ["О-1", yesterday + 61 * MINUTE, 0.25] as const];
    const pushed = await pushAll(server.url, mine.key, [batch, batch]);
    await everyBatchApplied(server.deps);
    expect(await appliedCounts(server.url, token, pushed)).toBe(1);
    const minutes = await server.deps.repos.telemetry.minutesOf(mine.company, mine.facility, name(yesterday));
    expect(minutes.map((m) => m.minute)).toEqual(["01:00", "01:01", "01:02"]);
    const merged = [...old, [62, 0.3]];
    expect(await read(yesterday)).toEqual(merged);
    // An empty window (a gassing's id from a day to come reads [t, t)) reads nothing: its minutes' Query
    // from 01:02 to 01:01 was refused by storage, answered 500.
    const empty = await readingsBetween(server.deps, mine.company, at, yesterday + 62 * MINUTE, yesterday + 62 * MINUTE);
    expect([...empty.times]).toEqual([]);

    // Settled: the minutes folded into the old day, marked compacted, and left to their expiry.
    expect(await compactDay(server.deps, mine.company, mine.facility, name(yesterday))).toBe(3);
    expect(await server.deps.repos.telemetry.getDay(mine.company, at.id, name(yesterday))).toMatchObject({ compacted: true });
    expect(await server.deps.repos.telemetry.hasMinutes(mine.company, mine.facility, name(yesterday))).toBe(false);
    expect(await read(yesterday)).toEqual(merged);
    expect(await read(past)).toEqual(old);
  } finally {
    await server.close();
  }

  // Twelve days on, past their expiry: dynalite has no TTL, the local server's start removes them.
  const later = Date.now() + 12 * DAY_MS;
  const third = await startLocalServer({ dataDir, port: 0, demo: DEMO, clock: { now: () => new Date(later) } });
  try {
    const minutes = () => third.deps.repos.telemetry.minutesOf(mine.company, mine.facility, name(yesterday));
    for (let i = 0; i < 100 && (await minutes()).length > 0; i++) await new Promise((done) => setTimeout(done, 100));
    expect(await minutes()).toEqual([]);
    const r = await readingsBetween(third.deps, mine.company, { id: mine.sensors.get("О-1")!, facility: mine.facility }, yesterday, today);
    expect(r.values.length).toBe(3);
  } finally {
    await third.close();
  }
}, 120_000);
