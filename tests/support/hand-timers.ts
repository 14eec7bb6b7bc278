// The host's timers (ports/clock.ts Timers) in a test's hand: nothing ticks until the test moves its
// clock and fires them, so what runs is a matter of the clock, not of how busy the machine is.
import type { Timers } from "@server/ports";

/** Timers on the test's clock `now`: `fire()` runs every tick due by it; `periods()` lists the
 *  repeating ones' periods, `waits()` the times (ms of `now`) the one-shot ones are due at. */
export function handTimers(now: () => number) {
  const running = new Map<number, { every: number; next: number; tick: () => void; once: boolean }>();
  let ids = 0;
  const add = (ms: number, tick: () => void, once: boolean) => {
    const id = ++ids;
    running.set(id, { every: ms, next: now() + ms, tick, once });
    return () => running.delete(id);
  };
  const timers: Timers = {
    every: (ms, tick) => add(ms, tick, false),
    after: (ms, tick) => add(ms, tick, true),
  };
  return {
    timers,
    count: () => running.size,
    periods: () => [...running.values()].filter((t) => !t.once).map((t) => t.every),
    waits: () => [...running.values()].filter((t) => t.once).map((t) => t.next),
    fire() {
      for (const [id, timer] of running) {
        while (timer.next <= now() && running.has(id)) {
          if (timer.once) running.delete(id);
          timer.next += timer.every;
          timer.tick();
        }
      }
    },
  };
}
