// The clock the domain reads the time from.

export interface Clock {
  now(): Date;
}

/** Timers the host runs for the domain (setInterval and setTimeout locally; a test's own hand): each
 *  returns what stops it. */
export interface Timers {
  /** `tick` every `ms`. */
  every(ms: number, tick: () => void): () => void;
  /** `tick` once, `ms` from now (however long: a wait past what the host's timer takes is waited in parts). */
  after(ms: number, tick: () => void): () => void;
}
