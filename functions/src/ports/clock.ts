// The clock the domain reads the time from.

export interface Clock {
  now(): Date;
}

/** Timers the host runs for the domain (setInterval locally; a test's own hand): each returns what stops it. */
export interface Timers {
  every(ms: number, tick: () => void): () => void;
}
