// The runtime a host keeps for the domain (domain/context.ts, Runtime): its change stream, a bus in
// this process or thread running the host's subscribers in the order of its table (ports/changes.ts),
// its timers, and the long-lived objects the domain's modules use (ports/runtime.ts KeptObjects),
// made here. Each host makes one (the local server and its consumer's thread, each Lambda function,
// the tests' harness), so the domain holds no state of its own and two servers in one process share
// nothing.
import type { Runtime } from "../domain/context";
import { emptyHeavyReads } from "../domain/heavy-reads";
import { companyTurns, FILES_AT_ONCE } from "../domain/heavy-work";
import { emptyParsedModels } from "../domain/forecast/models";
import type { Change, ChangeKind, ChangeStream, Subscriber, SubscriberOf, Timers } from "../ports";
import type { KeptObjects } from "../ports/runtime";

type Log = Pick<Console, "error">;

/** Runs each subscriber of `subscribers` that hears a change, in the table's order, each awaited; a
 *  subscriber that fails is logged and the others still run, then the publish rejects with its error
 *  (a consumer leaves its batches queued: they are published again). The publisher's `later` is awaited
 *  once, before the first subscriber that is not prompt. */
export function changeBus<D>(subscribers: readonly Subscriber<D>[], deps: () => D, log: Log = console): ChangeStream {
  return {
    async publish(change: Change, later?: () => Promise<void>) {
      const failed: unknown[] = [];
      let waited = later === undefined;
      for (const subscriber of subscribers as readonly SubscriberOf<D, ChangeKind>[]) {
        if (!subscriber.hears.includes(change.type)) continue;
        if (!waited && !subscriber.prompt) {
          waited = true;
          await later?.();
        }
        try {
          await subscriber.run(deps(), change);
        } catch (error) {
          failed.push(error);
          log.error(
            JSON.stringify({ event: "change_subscriber_failed", subscriber: subscriber.name, change: change.type, error: String(error) }),
          );
        }
      }
      if (failed.length === 1) throw failed[0];
      if (failed.length > 1) throw new AggregateError(failed, `${change.type}: ${failed.length} subscribers failed`);
    },
  };
}

/** The process's own timers, which never hold it open. */
export const systemTimers: Timers = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};

/** The objects the domain's modules keep, each new and empty: a host's own. */
export function keptObjects(): KeptObjects {
  return {
    signingKeys: new Map(),
    checkedTokens: new Map(),
    dummyPasswordHashes: new Map(),
    heavyReads: emptyHeavyReads(),
    heavySlotsHere: { user: new Map(), company: new Map() },
    fileTurns: companyTurns(FILES_AT_ONCE),
    approvedFigures: new Map(),
    parsedModels: emptyParsedModels(),
    laggedModels: {},
    previewColumns: { kept: new Map(), bytes: 0 },
    recentForecasts: { rows: new Map(), json: new Map() },
    readingDrains: {},
    movedDays: new Map(),
    sensorRegisters: new Map(),
    minuteWindows: new Map(),
    liveWatches: new Map(),
    forecastQueue: { pending: new Map() },
    alertRules: new Map(),
    liveStreams: new Set(),
  };
}

/** A host's runtime over its subscribers' table; `deps` is the host's deps (read when a change is published). */
export function hostRuntime<D>(options: { subscribers: readonly Subscriber<D>[]; deps: () => D; timers?: Timers; log?: Log }): Runtime {
  return {
    ...keptObjects(),
    changes: changeBus(options.subscribers, options.deps, options.log),
    timers: options.timers ?? systemTimers,
  };
}
