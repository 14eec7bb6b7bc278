// What a host keeps running for the domain (issue 85): its change stream, its timers and the
// long-lived objects of the domain's modules, each under a slot the module names. events/runtime.ts
// makes one per process or thread; the domain reaches it as Deps.runtime.
import type { ChangeStream } from "./changes";
import type { Timers } from "./clock";

/** The host's runtime (events/runtime.ts makes one per process or thread). */
export interface Runtime {
  /** What happened, published to the host's subscribers (ports/changes.ts). */
  changes: ChangeStream;
  timers: Timers;
  /** The long-lived object a module keeps under `slot` (the consumer's drain chain, the forecaster's
   *  queue, the live watches, the alert rules' cache, the imported signing keys…), made by
   *  `slot.make()` on its first use and kept by the host for as long as it runs: per runtime, so two
   *  servers in one process (tests) share nothing. */
  kept<T>(slot: RuntimeSlot<T>): T;
}

/** A module's place in the runtime: a constant of the module, the object it names held by the host. */
export interface RuntimeSlot<T> {
  readonly name: string;
  make(): T;
}
