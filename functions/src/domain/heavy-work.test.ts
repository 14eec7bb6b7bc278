// A queued job keeps its heavy-work slots however long it waits (docs/security.md, «Export jobs»):
// the budgets are sliding windows of 10 minutes, so a slot taken once lapses; the job queue carries
// a waiting job's slots into the current window every minute, and the user's third job stays refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryDomain } from "../../../tests/support/memory-domain";
import { carryHeavySlots, HEAVY_PER_USER, reserveHeavyWork } from "./heavy-work";
import { TooManyRequests } from "./errors";

afterEach(() => {
  vi.useRealTimers();
});

describe("a queued job's heavy-work slots", () => {
  it("keep counting for as long as it waits when carried, and lapse when not", async () => {
    const { deps, actor } = await memoryDomain();
    for (const carried of [true, false]) {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-11-25T10:00:00Z"));
      const user = await actor();
      const jobs = await Promise.all(Array.from({ length: HEAVY_PER_USER }, () => reserveHeavyWork(deps, user)));
      // Half an hour queued, the queue carrying the slots every minute.
      for (let minute = 1; minute <= 30; minute++) {
        vi.setSystemTime(new Date(Date.parse("2026-11-25T10:00:00Z") + minute * 60_000));
        if (carried) for (const job of jobs) await carryHeavySlots(deps, job.reservations);
      }
      const third = reserveHeavyWork(deps, user);
      if (carried) {
        await expect(third).rejects.toBeInstanceOf(TooManyRequests);
        // Ended, the jobs give back the slots as carried: the user has room again.
        for (const job of jobs) await job();
        await expect(reserveHeavyWork(deps, user)).resolves.toBeTypeOf("function");
      } else await expect(third).resolves.toBeTypeOf("function");
      vi.useRealTimers();
    }
  });
});
