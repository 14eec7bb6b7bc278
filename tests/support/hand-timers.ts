// The host's timers (ports/clock.ts Timers) in a test's hand: nothing ticks until the test moves its
// clock and fires them, so what runs is a matter of the clock, not of how busy the machine is.
import type { Timers } from "@server/ports";

/** Timers on the test's clock `now`: `fire()` runs every tick due by it; `periods()` lists the running ones'. */
export function handTimers(now: () => number) {
  const running = new Map<number, { every: number; next: number; tick: () => void }>();
  let ids = 0;
  const timers: Timers = {
    every(ms, tick) {
      const id = ++ids;
      running.set(id, { every: ms, next: now() + ms, tick });
      return () => running.delete(id);
    },
  };
  return {
    timers,
    count: () => running.size,
    periods: () => [...running.values()].map((t) => t.every),
    fire() {
      for (const timer of running.values()) {
        while (timer.next <= now()) {
          timer.next += timer.every;
          timer.tick();
        }
      }
    },
  };
}
