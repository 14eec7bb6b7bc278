// A user's requests paced (request-pace.ts): the burst at once, then the pace, the rest in the
// order they came, another user behind none of them; on a clock the test moves.
// tests/integration/request-pace.test.ts shows it on the server.
import { describe, expect, it } from "vitest";
import { requestPace } from "./request-pace";
import { manualClock } from "../../../tests/support/manual-clock";

/** Whether a promise has settled once the callbacks queued before this one have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("a user's paced requests", () => {
  it("start the burst at once and the rest at the pace, in the order they came", async () => {
    const clock = manualClock();
    const pace = requestPace({ burst: 3, perSecond: 2 }, clock);
    await Promise.all([pace.take("a"), pace.take("a"), pace.take("a")]);
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => pace.take("a").then(() => order.push(n)));
    expect(pace.waiting("a")).toBe(3);
    // Another user is behind none of them.
    await pace.take("b");
    expect(pace.waiting("b")).toBe(0);
    expect(await settled(waiting[0])).toBe(false);

    clock.advance(499);
    expect(await settled(waiting[0])).toBe(false);
    clock.advance(1);
    expect(await settled(waiting[0])).toBe(true);
    expect(await settled(waiting[1])).toBe(false);
    expect(pace.waiting("a")).toBe(2);
    clock.advance(1_000);
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    expect(pace.waiting("a")).toBe(0);
  });

  it("gives a paused user the whole burst again, and no more", async () => {
    const clock = manualClock();
    const pace = requestPace({ burst: 2, perSecond: 10 }, clock);
    await pace.take("a");
    await pace.take("a");
    clock.advance(60_000);
    await pace.take("a");
    await pace.take("a");
    const third = pace.take("a");
    expect(await settled(third)).toBe(false);
    clock.advance(100);
    expect(await settled(third)).toBe(true);
  });

  it("refuses a pace without a burst or a rate", () => {
    expect(() => requestPace({ burst: 0, perSecond: 1 })).toThrow();
    expect(() => requestPace({ burst: 1, perSecond: 0 })).toThrow();
  });
});

describe("requests refused for their token, per address", () => {
  it("let an address have its burst of refusals, then ask it to wait, give the allowance back at the pace, and charge nothing for a token that holds", async () => {
    const { refusalPace } = await import("./request-pace");
    const clock = manualClock();
    const refusals = refusalPace({ burst: 3, perSecond: 2 }, clock);
    // Taken ahead of the check: three at once pass, the fourth waits before any was refused.
    const three = [1, 2, 3].map(() => refusals.take("203.0.113.9"));
    expect(three.map((t) => t.wait)).toEqual([0, 0, 0]);
    expect(refusals.take("203.0.113.9").wait).toBe(1);
    // Another address is not held.
    expect(refusals.take("198.51.100.7").wait).toBe(0);
    clock.advance(500);
    const next = refusals.take("203.0.113.9");
    expect(next.wait).toBe(0);
    // A token that holds gives its refusal back (once).
    next.giveBack();
    next.giveBack();
    expect(refusals.take("203.0.113.9").wait).toBe(0);
    expect(refusals.take("203.0.113.9").wait).toBe(1);
  });

  it("tell the first gate how long an address waits without spending anything (R8)", async () => {
    const { refusalPace } = await import("./request-pace");
    const clock = manualClock();
    const refusals = refusalPace({ burst: 2, perSecond: 1 }, clock);
    expect(refusals.wait("203.0.113.9")).toBe(0);
    refusals.take("203.0.113.9");
    expect(refusals.wait("203.0.113.9")).toBe(0);
    refusals.take("203.0.113.9");
    expect(refusals.wait("203.0.113.9")).toBe(1);
    expect(refusals.wait("203.0.113.9")).toBe(1);
    expect(refusals.wait("198.51.100.7")).toBe(0);
    clock.advance(1_000);
    expect(refusals.wait("203.0.113.9")).toBe(0);
    expect(refusals.take("203.0.113.9").wait).toBe(0);
  });
});
