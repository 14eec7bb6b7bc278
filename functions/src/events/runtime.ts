// The runtime a host keeps for the domain (domain/context.ts, Runtime): its change stream, a bus in
// this process or thread running the host's subscribers in the order of its table (ports/changes.ts),
// its timers, and the state the domain's modules keep (each module declares its own, a KeptState of
// ports/runtime.ts), made here when a module first asks for it. Each host makes one (the local server
// and its consumer's thread, each Lambda function, the tests' harness), so the domain holds no state of
// its own and two servers in one process share nothing.
import type { Change, ChangeKind, ChangeStream, Subscriber, SubscriberOf, Timers } from "../ports";
import type { KeptState, Runtime } from "../ports/runtime";

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

/** The longest wait of Node's setTimeout (a longer one fires at once). */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/** The process's own timers, which never hold it open. */
const systemTimers: Timers = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
  after(ms, tick) {
    let timer: ReturnType<typeof setTimeout>;
    const wait = (left: number) => {
      timer = setTimeout(() => (left > LONGEST_TIMEOUT_MS ? wait(left - LONGEST_TIMEOUT_MS) : tick()), Math.min(left, LONGEST_TIMEOUT_MS));
      timer.unref?.();
    };
    wait(Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

/** The state the modules keep (ports/runtime.ts KeptState), each made by its module's `make` the
 *  first time it is asked for: a host's own. */
function keptStates(): Runtime["kept"] {
  const made = new Map<KeptState<unknown>, unknown>();
  return <T>(state: KeptState<T>): T => {
    if (!made.has(state)) made.set(state, state.make());
    return made.get(state) as T;
  };
}

/** A host's runtime over its subscribers' table; `deps` is the host's deps (read when a change is published). */
export function hostRuntime<D>(options: { subscribers: readonly Subscriber<D>[]; deps: () => D; timers?: Timers; log?: Log }): Runtime {
  return {
    kept: keptStates(),
    changes: changeBus(options.subscribers, options.deps, options.log),
    timers: options.timers ?? systemTimers,
  };
}
