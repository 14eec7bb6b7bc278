// what the platform answers as accepted is stored once, with its latest value, whatever
// the gateway and the host do around it. A seeded scenario on the local server as `npm start` runs it:
// readings of 14 meters at random batch boundaries (1 to 6 000 lines), shuffled, 3 % sent twice, pushed
// four at a time without waiting for the consumer; the server killed (SIGKILL) with pushes in flight and
// started again on its folder; the pushes never answered sent again, some answered ones sent again (a
// gateway's redelivery), then corrections (another value for a stored instant). After each step every
// acknowledged reading is stored once with its latest value, nothing is stored that was never sent, each
// batch's counters add up to its lines and the batches' `accepted` to the readings stored. The AWS host's
// consumer (SQS batches, partial batch responses, redeliveries, two deliveries at once) is held to the
// same in tests/infra/readings-queue-aws.test.ts. `npm run bench -- readings-soak` runs the verifier's shape.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { bySize } from "../support/depth";
import { DEMO, signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";
import {
  acknowledgedModel,
  appliedCounts,
  cut,
  differences,
  everyBatchApplied,
  meteredFacility,
  type Pushed,
  pushAll,
  type Reading,
  seeded,
  shuffle,
  storedReadings,
  strays,
  verifierShape,
} from "../support/readings-shape";

const DAYS = bySize(3, 12);
const START = Date.UTC(2026, 9, 1);
const END = START + DAYS * 86_400_000;
const CODES = Array.from({ length: 14 }, (_, i) => `К-${i + 1}`);
const dataDir = mkdtempSync(join(tmpdir(), "readings-invariant-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it(
  "stores every acknowledged reading once with its latest value across random batches, a SIGKILL, redeliveries and corrections",
  async () => {
    const random = seeded(9_500);
    const first = await startServerProcess(dataDir);
    const token = (await signInAsDemo(first.url)).access;
    const mine = await meteredFacility(first.url, token, CODES);
    const { readings, sent } = verifierShape({ codes: CODES, days: DAYS, start: START, random });
    const batches = cut(sent, 6000, random);

    // Killed once a third of the batches were answered, with pushes on their way.
    const killAfter = Math.floor(batches.length / 3);
    const before: Pushed[] = batches.map((r) => ({ readings: r }));
    let next = 0;
    let killed: Promise<void> | undefined;
    const pusher = async () => {
      while (next < batches.length && !killed) {
        const index = next++;
        const [pushed] = await pushAll(first.url, mine.key, [batches[index]]);
        before[index] = pushed;
        if (!killed && before.filter((p) => p.batch).length >= killAfter)
          killed = new Promise<void>((done) => {
            first.child.once("exit", () => done());
            first.child.kill("SIGKILL");
          });
      }
    };
    await Promise.all([pusher(), pusher(), pusher(), pusher()]);
    await killed;
    const answered = before.filter((p) => p.batch);
    expect(answered.length).toBeGreaterThanOrEqual(killAfter);
    expect(answered.length).toBeLessThan(batches.length);

    const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
    try {
      const again = (await signInAsDemo(server.url)).access;
      /** Holds the platform to everything answered so far, `pushes` in the order answered. */
      const holds = async (pushes: readonly Pushed[]) => {
        await everyBatchApplied(server.deps);
        const { stored, twice } = await storedReadings(server.deps, mine.company, mine.sensors, START, END);
        expect(differences(acknowledgedModel(pushes), stored)).toEqual({ missing: 0, changed: 0, first: [] });
        expect(twice).toBe(0);
        expect(strays(allSent, stored)).toBe(0);
        await appliedCounts(server.url, again, pushes);
        // Each reading stored was counted accepted once, by whichever batch stored it first (a batch the
        // killed server stored but never answered included).
        const listed = await server.deps.repos.monitoring.batchesOfFacility(mine.company, mine.facility, 10_000);
        expect(listed.every((b) => b.state === "done")).toBe(true);
        expect(listed.reduce((n, b) => n + b.accepted, 0)).toBe([...stored.values()].reduce((n, m) => n + m.size, 0));
      };
      const allSent: Pushed[] = [...before];

      // The restarted server applies what the killed one answered; the gateway sends again what was never
      // answered, and sends a tenth of what was answered once more.
      const unanswered = before.filter((p) => !p.batch).map((p) => p.readings);
      const redelivered = shuffle(
        answered.map((p) => p.readings),
        random,
      ).slice(0, Math.ceil(answered.length / 10));
      const retried = await pushAll(server.url, mine.key, shuffle([...unanswered, ...redelivered], random), 4);
      expect(retried.every((p) => p.batch)).toBe(true);
      allSent.push(...retried);
      await holds([...answered, ...retried]);
      expect(
        [...(await storedReadings(server.deps, mine.company, mine.sensors, START, END)).stored.values()].reduce((n, m) => n + m.size, 0),
      ).toBe(readings.length);

      // Corrections: another value for 1 % of the stored instants, in batches of their own, with some
      // readings unchanged beside them.
      const corrections: Reading[] = [];
      for (const [code, t, value] of readings) {
        const roll = random();
        if (roll < 0.01) corrections.push([code, t, Math.round((value + 0.5) * 1000) / 1000]);
        else if (roll < 0.012) corrections.push([code, t, value]);
      }
      const corrected = await pushAll(server.url, mine.key, cut(shuffle(corrections, random), 2000, random), 4);
      allSent.push(...corrected);
      await holds([...answered, ...retried, ...corrected]);
    } finally {
      await server.close();
    }
  },
  bySize(240_000, 900_000),
);
