// The one schedule of periodic work (events/schedule.ts): which lines the minute function runs at a
// given minute, and how the local server runs its lines on its runtime's timers.
import { beforeEach, describe, expect, it } from "vitest";
import type { Timers } from "../ports";
import { memoryDomain, type MemoryDomain } from "../../../tests/support/memory-domain";
import { handTimers } from "../../../tests/support/hand-timers";
import { MINUTE_FUNCTION_EVERY_MS, runDue, SCHEDULE, startSchedule, type ScheduleDeps } from "./schedule";

const AT_10_05 = Date.UTC(2026, 2, 2, 10, 5, 20);
let now = AT_10_05;
let d: MemoryDomain;
let drained: number;
let expired: number;

beforeEach(async () => {
  now = AT_10_05;
  d = await memoryDomain({ now: () => new Date(now) });
  drained = 0;
  expired = 0;
});

function scheduleDeps(timers: Timers, drain = async () => void drained++): ScheduleDeps {
  return {
    ...d.deps,
    runtime: { ...d.deps.runtime, timers },
    webhooks: { drain },
    expireMinutes: async () => void expired++,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the minute function's run", () => {
  it("is started every minute, its most frequent line's period", () => {
    expect(MINUTE_FUNCTION_EVERY_MS).toBe(60_000);
  });

  it("runs every AWS line each minute, and the compaction in the hour's fifth minute alone", async () => {
    const deps = scheduleDeps(handTimers(() => now).timers);
    expect(Object.keys(await runDue(deps, { stopped: false }))).toEqual(["stale_sweep", "webhooks", "reannounce", "compaction"]);
    expect([drained, expired]).toEqual([1, 1]);
    for (const minute of [0, 4, 6, 35]) {
      now = Date.UTC(2026, 2, 2, 11, minute, 20);
      expect(Object.keys(await runDue(deps, { stopped: false }))).toEqual(["stale_sweep", "webhooks", "reannounce"]);
    }
    expect([drained, expired]).toEqual([5, 1]);
  });
});

describe("the local server's schedule", () => {
  it("runs its lines on the runtime's timers: the webhooks and the compaction at its start, no reannouncing", async () => {
    const hand = handTimers(() => now);
    const schedule = startSchedule(scheduleDeps(hand.timers), () => {});
    expect(SCHEDULE.filter((w) => w.hosts.includes("local")).map((w) => w.name)).toEqual([
      "stale_sweep",
      "webhooks",
      "compaction",
      "upload_sweep",
      "demo_feed",
      "backup",
    ]);
    expect(hand.periods()).toEqual([60_000, 5_000, 3_600_000, 3_600_000, 15_000]);
    await settle();
    expect([drained, expired]).toEqual([1, 1]);
    now += 5_000;
    hand.fire();
    await settle();
    expect([drained, expired]).toEqual([2, 1]);
    await schedule.stop();
    expect(hand.periods()).toEqual([]);
  });

  it("logs a line that fails and runs it again next period; one still running is not started twice", async () => {
    const hand = handTimers(() => now);
    const failed: string[] = [];
    let finish = () => {};
    const drains = [
      () => Promise.reject(new Error("receiver down")),
      () => new Promise<void>((resolve) => (finish = resolve)).then(() => void drained++),
    ];
    const schedule = startSchedule(
      scheduleDeps(hand.timers, () => (drains.shift() ?? (async () => void drained++))()),
      (work) => failed.push(work),
    );
    await settle();
    expect(failed).toEqual(["webhooks"]);
    now += 5_000;
    hand.fire();
    now += 5_000;
    hand.fire();
    await settle();
    expect(drained).toBe(0);
    finish();
    const stopped = schedule.stop();
    await stopped;
    expect(drained).toBe(1);
  });

  it("starts once the uploads' first sweep is done, and sweeps them hourly", async () => {
    const hand = handTimers(() => now);
    let sweeps = 0;
    let finish = () => {};
    const schedule = startSchedule(
      {
        ...scheduleDeps(hand.timers),
        sweepUploads: () => new Promise<number>((resolve) => (finish = () => resolve(++sweeps))),
      },
      () => {},
    );
    let started = false;
    void schedule.started.then(() => (started = true));
    await settle();
    expect(started).toBe(false);
    finish();
    await settle();
    expect([started, sweeps]).toEqual([true, 1]);
    now += 3_600_000;
    hand.fire();
    finish();
    await settle();
    expect(sweeps).toBe(2);
    await schedule.stop();
  });

  it("feeds the demo mine's readings at its start and each quarter-minute, where the host runs the feed", async () => {
    const hand = handTimers(() => now);
    let rounds = 0;
    const schedule = startSchedule({ ...scheduleDeps(hand.timers), feedDemo: async () => ++rounds }, () => {});
    await settle();
    expect(rounds).toBe(1);
    now += 15_000;
    hand.fire();
    await settle();
    expect(rounds).toBe(2);
    await schedule.stop();
  });

  it("times a timed line by its job: when it says, asked again after each run, knowing a run failed", async () => {
    const hand = handTimers(() => now);
    const asked: [number, boolean][] = [];
    const failed: string[] = [];
    let runs = 0;
    const schedule = startSchedule(
      {
        ...scheduleDeps(hand.timers),
        backups: {
          next: async (at, lastFailed) => {
            asked.push([at - AT_10_05, lastFailed]);
            return at + (lastFailed ? 600_000 : 86_400_000);
          },
          run: async () => {
            runs++;
            if (runs === 2) throw new Error("диск заполнен");
            return 1;
          },
        },
      },
      (work) => failed.push(work),
    );
    await settle();
    expect(asked).toEqual([[0, false]]);
    expect(hand.waits()).toEqual([AT_10_05 + 86_400_000]);
    now += 86_399_000;
    hand.fire();
    expect(runs).toBe(0);
    now += 1_000;
    hand.fire();
    await settle();
    expect(runs).toBe(1);
    expect(asked).toEqual([
      [0, false],
      [86_400_000, false],
    ]);
    now += 86_400_000;
    hand.fire();
    await settle();
    expect([runs, failed]).toEqual([2, ["backup"]]);
    expect(asked.at(-1)).toEqual([2 * 86_400_000, true]);
    expect(hand.waits()).toEqual([now + 600_000]);
    await schedule.stop();
    expect(hand.waits()).toEqual([]);
  });

  it("leaves a timed line its host gives no job to (no BACKUP_DIR) untimed", async () => {
    const hand = handTimers(() => now);
    const schedule = startSchedule(scheduleDeps(hand.timers), () => {});
    await settle();
    expect(hand.waits()).toEqual([]);
    await schedule.stop();
  });
});
