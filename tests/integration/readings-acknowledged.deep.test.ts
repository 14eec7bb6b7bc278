// the verifier's run as a new user would make it (the deep tier: about 40 s, its shape whole;
// readings-invariant.test.ts holds the same invariant in every run): the local server as `npm start` runs it (its
// store on disk, the consumer in its thread), 14 meters over 12 days of minutes (some minutes with two
// readings), 3 % sent twice, shuffled, in batches of 8 000 pushed back to back without waiting for the
// consumer: 253 746 readings, 261 246 lines. Every reading answered 202 is stored once with its value
// and the batches' `accepted` add up to the distinct readings. Before the fix 8 runs of 8 lost 41–615
// readings of 1–6 sensor-days (classic-level's LevelDB 1.20 made a rewritten day's older value readable
// again after a compaction; the store is SQLite since an earlier release: docs/architecture.md).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { DEMO, signInAsDemo } from "../support/server";
import {
  acknowledgedModel,
  appliedCounts,
  cut,
  differences,
  meteredFacility,
  pushAll,
  seeded,
  storedReadings,
  verifierShape,
} from "../support/readings-shape";

const DAYS = 12;
const START = Date.UTC(2026, 9, 1);
const CODES = Array.from({ length: 14 }, (_, i) => `К-${i + 1}`);
const dataDir = mkdtempSync(join(tmpdir(), "acknowledged-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("keeps every acknowledged reading of 14 meters over 12 days pushed shuffled and duplicated, once, with its value", async () => {
  const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  try {
    const token = (await signInAsDemo(server.url)).access;
    const mine = await meteredFacility(server.url, token, CODES);
    const { readings, sent } = verifierShape({ codes: CODES, days: DAYS, start: START, random: seeded(95) });
    const pushed = await pushAll(server.url, mine.key, cut(sent, 8000));
    expect(pushed.every((p) => p.batch)).toBe(true);
    await monitoringIdle(server.deps);

    const { stored, twice } = await storedReadings(server.deps, mine.company, mine.sensors, START, START + DAYS * 86_400_000);
    expect(differences(acknowledgedModel(pushed), stored)).toEqual({ missing: 0, changed: 0, first: [] });
    expect(twice).toBe(0);
    expect([...stored.values()].reduce((n, m) => n + m.size, 0)).toBe(readings.length);
    expect(await appliedCounts(server.url, token, pushed)).toBe(readings.length);
  } finally {
    await server.close();
  }
}, 300_000);
