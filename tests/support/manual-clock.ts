// A pace's clock that moves only when a test says (functions/src/http/request-pace.ts): what the
// pace holds back is then a matter of order, not of how busy the machine is.
import type { PaceClock } from "@server/http/request-pace";

/** A clock that moves only when told, running what came due. */
export function manualClock(): PaceClock & { advance(ms: number): void } {
  let now = 0;
  let due: Array<{ at: number; run: () => void }> = [];
  return {
    now: () => now,
    after: (ms, run) => {
      due.push({ at: now + ms, run });
    },
    advance(ms) {
      now += ms;
      const ready = due.filter((d) => d.at <= now);
      due = due.filter((d) => d.at > now);
      for (const d of ready) d.run();
    },
  };
}
