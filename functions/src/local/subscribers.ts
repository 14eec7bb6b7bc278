// The local host's subscribers of the change stream (ports/changes.ts), in the order they hear a
// change: every line of the one table (events/subscribers.ts), for the server's request thread, its
// consumer's thread and the tests' in-process harness. Each line says where it runs when the server
// drains the readings in a thread of its own: on the request thread (the live tiles' streams are there; the one sender of the webhooks'
// queue) or on the consumer's thread (the work a batch's days cause, off the event loop that answers
// requests). A change published on the consumer's thread that a request-thread subscriber hears is
// posted to the request thread at that subscriber's place in the order (readings-thread.ts), and
// heard there by the request-thread subscribers alone; a change published on the request thread (a
// binding changed, the stale sweep's deliveries) is heard there by every subscriber of it. Without a
// thread (an in-memory server, the harness) every line runs in the one process, in this order.
import type { Runtime } from "../domain/context";
import { hostRuntime } from "../events/runtime";
import { SUBSCRIBERS, type HostSubscriber, type SubscriberDeps } from "../events/subscribers";
import type { Change, ChangeKind, Subscriber, Timers } from "../ports";

/** A line of the table, and the thread it runs on. */
export type LocalSubscriber = Subscriber<SubscriberDeps> & Pick<HostSubscriber, "thread">;

/** The local host runs every line of the one table (events/subscribers.ts). */
export const LOCAL_SUBSCRIBERS: readonly LocalSubscriber[] = SUBSCRIBERS;

/** The request thread's lines, for the changes its consumer's thread posts to it. */
export const REQUEST_THREAD_SUBSCRIBERS = LOCAL_SUBSCRIBERS.filter((s) => s.thread === "request");

/** The consumer thread's table: its own lines run there; in place of the request thread's, the change
 *  is posted there (once, at the first of them). */
export function consumerThreadSubscribers(post: (change: Change) => void): Subscriber<SubscriberDeps>[] {
  const posted = new WeakSet<Change>();
  return LOCAL_SUBSCRIBERS.map((s) =>
    s.thread === "consumer"
      ? s
      : {
          ...s,
          hears: s.hears as readonly ChangeKind[],
          run: (_deps: SubscriberDeps, change: Change) => {
            if (posted.has(change)) return;
            posted.add(change);
            post(change);
          },
        },
  );
}

/** A runtime running every line of the table in this process (no consumer's thread: an in-memory
 *  server, the admin command, the tests' harness). */
export const localRuntime = (deps: () => SubscriberDeps, timers?: Timers): Runtime =>
  hostRuntime({ subscribers: LOCAL_SUBSCRIBERS, deps, ...(timers ? { timers } : {}) });
