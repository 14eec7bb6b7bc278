// The demo mine's readings carried on while the local server runs (issues 77 and 78): on a data folder
// whose demo mine the first `npm start` seeded (its DemoFeed item, demo-readings.ts), the simulator
// makes each demo sensor's minute as the clock reaches it and pushes it as a gateway would (a batch
// with its queue mark, the consumer's thread kicked), so «Мониторинг» stays fresh, its forecast moves
// and the page updates itself; after a restart it first fills the minutes the server was down (at most
// the demo's 30 days). Looked at each quarter-minute on a timer that never keeps the process alive; a
// failed round is logged and the next one takes it up. `npm start` runs it (DEMO_READINGS=0 does not);
// the tests' servers only when a test asks.
import type { Deps } from "../domain/context";
import { feedDemoReadings } from "../demo-readings";
import { serverLog } from "./server-log";

/** How often the feed looks whether a minute came due. */
export const DEMO_FEED_POLL_MS = 15_000;

/** DEMO_READINGS=0 turns the feed off (docs/operations.md); anything else, or unset, leaves it on. */
export const demoReadingsFromEnv = (env: NodeJS.ProcessEnv = process.env): boolean => env.DEMO_READINGS?.trim() !== "0";

export interface DemoFeedTimer {
  /** A round now (after the one running): what it stored. */
  tick(): Promise<{ batches: number; readings: number } | undefined>;
  /** Stops the timer and waits for the round running. */
  stop(): Promise<void>;
}

export function startDemoFeed(deps: Deps, { intervalMs = DEMO_FEED_POLL_MS }: { intervalMs?: number } = {}): DemoFeedTimer {
  let rounds: Promise<{ batches: number; readings: number } | undefined> = Promise.resolve(undefined);
  let waiting = 0;
  const tick = () => {
    waiting++;
    rounds = rounds
      .then(() => feedDemoReadings(deps))
      .catch((error: unknown) => {
        serverLog.error({ event: "demo_feed", message: `демонстрационные показания не добавлены: ${String(error)}` });
        return undefined;
      })
      .finally(() => waiting--);
    return rounds;
  };
  const timer = setInterval(() => {
    if (waiting === 0) void tick();
  }, intervalMs);
  timer.unref();
  void tick();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await rounds;
    },
  };
}
