// The demo mine's readings carried on while the local server runs: on a data folder
// whose demo mine the first `npm start` seeded (its DemoFeed item, demo-readings.ts), the simulator
// makes each demo sensor's minute as the clock reaches it and pushes it as a gateway would (a batch
// with its queue mark, the consumer's thread kicked), so «Мониторинг» stays fresh, its forecast moves
// and the page updates itself; after a restart it first fills the minutes the server was down (at most
// the demo's 30 days). Looked at each quarter-minute, a line of the one schedule (events/schedule.ts,
// «demo_feed»); a failed round is logged and the next one takes it up. `npm start` runs it
// (DEMO_READINGS=0 does not); the tests' servers only when a test asks.
import type { Deps } from "../domain/context";
import { feedDemoReadings } from "../demo-readings";
import { serverLog } from "./server-log";

/** DEMO_READINGS=0 turns the feed off (docs/operations.md); anything else, or unset, leaves it on. */
export const demoReadingsFromEnv = (env: NodeJS.ProcessEnv = process.env): boolean => env.DEMO_READINGS?.trim() !== "0";

export interface DemoFeedRounds {
  /** A round now (after the one running): what it stored. */
  tick(): Promise<{ batches: number; readings: number } | undefined>;
  /** Answers once the round running has finished. */
  settled(): Promise<void>;
}

/** The feed's rounds, one at a time (the schedule's and a test's own). */
export function demoFeedRounds(deps: Deps): DemoFeedRounds {
  let rounds: Promise<{ batches: number; readings: number } | undefined> = Promise.resolve(undefined);
  return {
    tick() {
      rounds = rounds
        .then(() => feedDemoReadings(deps))
        .catch((error: unknown) => {
          serverLog.error({ event: "demo_feed", message: `демонстрационные показания не добавлены: ${String(error)}` });
          return undefined;
        });
      return rounds;
    },
    settled: () => rounds.then(() => undefined),
  };
}
