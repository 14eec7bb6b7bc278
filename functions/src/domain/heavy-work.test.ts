// A queued job keeps its heavy-work slots however long it waits (docs/security.md, «Export jobs»):
// the budgets are sliding windows of 10 minutes, so a slot taken once lapses; the job queue carries
// a waiting job's slots into the current window every minute, and the user's third job stays refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import { clockAt, memoryDomain } from "../../../tests/support/memory-domain";
import { carryHeavySlots, companyTurns, HEAVY_PER_USER, heavyWork, reserveHeavyWork } from "./heavy-work";
import { TooManyRequests } from "./errors";

afterEach(() => {
  vi.useRealTimers();
});

describe("a queued job's heavy-work slots", () => {
  it("keep counting for as long as it waits when carried, and lapse when not", async () => {
    const { deps, actor } = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
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

describe("heavy work of one process", () => {
  it("refuses past a budget without writing to it, while the slots it holds are held", async () => {
    const { deps, actor } = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    const user = await actor();
    let finish = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    const holding = Array.from({ length: HEAVY_PER_USER }, () => heavyWork(deps, user, () => held));
    // The slots are taken (their writes made) before the next is asked for.
    await vi.waitFor(() => expect(heavyWork(deps, user, async () => "third")).rejects.toBeInstanceOf(TooManyRequests));
    const reserve = vi.spyOn(deps.repos.attempts, "reserve");
    await expect(heavyWork(deps, user, async () => "third")).rejects.toThrow(/у пользователя не более 2/);
    expect(reserve).not.toHaveBeenCalled();
    finish();
    await Promise.all(holding);
    // Given back, in this process and in the budget.
    await expect(heavyWork(deps, user, async () => "after")).resolves.toBe("after");
    expect(reserve).toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it("runs each company's work at most its limit at a time, the rest in the order they came", async () => {
    const turns = companyTurns(1);
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const work = (company: string, name: string, fails = false) =>
      turns.run(company, async () => {
        log.push(`start ${name}`);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        log.push(`end ${name}`);
        if (fails) throw new Error(name);
        return name;
      });
    const a1 = work("a", "a1", true);
    const a2 = work("a", "a2");
    const a3 = work("a", "a3");
    const b1 = work("b", "b1");
    await vi.waitFor(() => expect(log).toEqual(["start a1", "start b1"]));
    expect(turns.running("a")).toBe(1);
    gates.get("b1")!();
    await expect(b1).resolves.toBe("b1");
    // A failed work passes the turn on as well.
    gates.get("a1")!();
    await expect(a1).rejects.toThrow("a1");
    await vi.waitFor(() => expect(log.at(-1)).toBe("start a2"));
    gates.get("a2")!();
    await vi.waitFor(() => expect(log.at(-1)).toBe("start a3"));
    gates.get("a3")!();
    await expect(Promise.all([a2, a3])).resolves.toEqual(["a2", "a3"]);
    expect(log).toEqual(["start a1", "start b1", "end b1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
    expect(turns.running("a")).toBe(0);
  });
});

describe("a refusal's wait", () => {
  it("is the oldest held slot's expected end here, by the longest of the last holds given back", async () => {
    const { deps, actor } = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-11-25T10:00:00Z");
    vi.setSystemTime(start);
    const user = await actor();
    // Two holds given back, of 12 s and 5 s.
    await heavyWork(deps, user, async () => vi.setSystemTime(start + 12_000));
    await heavyWork(deps, user, async () => vi.setSystemTime(start + 17_000));
    // The user's both slots taken at 20 s and 23 s; asked again at 27 s, the first is expected back
    // at 20 + 12 = 32 s.
    const finish: Array<() => void> = [];
    const holding: Promise<unknown>[] = [];
    for (const at of [20_000, 23_000]) {
      vi.setSystemTime(start + at);
      holding.push(heavyWork(deps, user, () => new Promise<void>((resolve) => finish.push(resolve))));
      // Taken at this instant (vi.waitFor would move the faked clock on).
      while (finish.length < holding.length) await new Promise((resolve) => setImmediate(resolve));
    }
    vi.setSystemTime(start + 27_000);
    const refused = await heavyWork(deps, user, async () => "third").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect((refused as TooManyRequests).retryAfterSeconds).toBe(5);
    expect((refused as TooManyRequests).message).toMatch(/у пользователя не более 2\. Повторите через 5 с$/);
    for (const done of finish) done();
    await Promise.all(holding);
  });

  it("is the budget's window where the slots are held by no request here", async () => {
    const { deps, actor } = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    vi.useFakeTimers({ toFake: ["Date"] });
    // Left by a stop (or another instance's): reserved at 10:00, asked for at 10:03.
    vi.setSystemTime(new Date("2026-11-25T10:00:00Z"));
    const user = await actor();
    await Promise.all(Array.from({ length: HEAVY_PER_USER }, () => reserveHeavyWork(deps, user)));
    vi.setSystemTime(new Date("2026-11-25T10:03:00Z"));
    const refused = await heavyWork(deps, user, async () => "third").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequests);
    // The window of 10 minutes lets one of the two go once half of the next has passed: 10:15.
    expect((refused as TooManyRequests).retryAfterSeconds).toBe(12 * 60);
    expect((refused as TooManyRequests).message).toMatch(/Повторите через 12 мин$/);
    vi.setSystemTime(new Date("2026-11-25T10:15:00Z"));
    await expect(heavyWork(deps, user, async () => "after")).resolves.toBe("after");
  });
});
