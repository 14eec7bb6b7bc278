// What a host keeps running for the domain: its change stream, its timers and the
// long-lived objects the domain's modules use (caches, queues, watches). A module declares what it
// keeps (a `KeptState` it exports), the host's runtime makes it the first time the
// module asks (events/runtime.ts hostRuntime, one per process or thread), and the domain reaches it as
// `deps.runtime.kept(key)` and holds none of its own, so two servers in one process (tests) share
// nothing. This port knows no module's state: it names only the key.
import type { ChangeStream } from "./changes";
import type { Timers } from "./clock";

/** A piece of state one module keeps for as long as its host runs, and how it is made new and empty.
 *  The key is the object itself; the name says whose it is. */
export interface KeptState<T> {
  readonly name: string;
  readonly make: () => T;
}

/** The key of a module's kept state (declared once at the top of the module that owns it). */
export function keptState<T>(name: string, make: () => T): KeptState<T> {
  return Object.freeze({ name, make });
}

/** The host's runtime (events/runtime.ts makes one per process or thread). */
export interface Runtime {
  /** What happened, published to the host's subscribers (ports/changes.ts). */
  changes: ChangeStream;
  timers: Timers;
  /** This host's own `state`, made by `state.make` the first time a module asks for it. */
  kept<T>(state: KeptState<T>): T;
}
