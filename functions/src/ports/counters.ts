// Counters shared by every server instance (they live in the table): attempt budgets and caps.

/** One attempt taken from a counter's budget; given back when the attempt turns out not to count. */
export interface AttemptReservation {
  key: string;
  windowStart: number;
}

/** where a host writes down the heavy-work slots its requests hold (each take's own
 *  token), so its next start gives back those a stop left taken (local/slot-ledger.ts). */
export interface SlotLedger {
  taken(token: string, reservations: readonly AttemptReservation[]): void;
  /** Given back, or handed on to a job (which gives back its own: local/interrupted-jobs.ts). */
  given(token: string): void;
}

/** Sliding-window attempt budgets (login throttling). A reservation is one conditional write, so
 *  however many requests arrive at once, no more than `limit` get one. */
export interface AttemptCounter {
  /** Takes one attempt of `limit` within the last `windowSeconds`; undefined when none is left. */
  reserve(key: string, windowSeconds: number, limit: number): Promise<AttemptReservation | undefined>;
  /** Seconds until `reserve` would take one more attempt of `limit` (the Retry-After of a refusal). */
  retryAfterSeconds(key: string, windowSeconds: number, limit: number): Promise<number>;
  /** Gives a reserved attempt back (a successful sign-in is not a failed attempt). */
  release(reservation: AttemptReservation): Promise<void>;
}

/** Caps on how many of a thing exist (a project's active forecasts, a year's comments): a counter
 *  item per cap taken by one conditional update, so parallel writers cannot pass the limit (a read
 *  of the list followed by a write could: each reader sees room). */
export interface CapCounter {
  /** Takes `amount` places (1 unless given: bytes of a budget, say) of `limit` under the company's
   *  cap `name`; false when they would pass it. `count` tells how many exist when the cap has no
   *  counter yet (things made before it had one). */
  take(companyId: string, name: string, limit: number, count: () => Promise<number>, amount?: number): Promise<boolean>;
  /** Gives `amount` places back (the write that took them failed, or the thing is removed); never below zero. */
  give(companyId: string, name: string, amount?: number): Promise<void>;
  /** How many places are taken (0 without a counter), read consistently. */
  taken(companyId: string, name: string): Promise<number>;
  /** Takes `amounts` (each > 0) under the company's counter of amounts `name`, every one at most
   *  `limit` once taken: all in one conditional update, or none. Answers the first key that would
   *  pass `limit` with what its counter holds, undefined when all were taken. `count` gives what
   *  exists when the counter has none yet. */
  takeAmounts(
    companyId: string,
    name: string,
    amounts: Record<string, number>,
    limit: number,
    count: () => Promise<Record<string, number>>,
  ): Promise<{ key: string; held: number } | undefined>;
  /** Gives `amounts` (each > 0) back, when the counter exists (one made later counts what exists). */
  giveAmounts(companyId: string, name: string, amounts: Record<string, number>): Promise<void>;
  /** The company's counters of amounts whose names begin with `prefix`, each with its revision. */
  listAmounts(companyId: string, prefix: string): Promise<StoredAmounts[]>;
  /** Sets a counter of amounts to `amounts` unless it changed since `rev` was read; false when it had. */
  setAmounts(companyId: string, name: string, amounts: Record<string, number>, rev: number): Promise<boolean>;
}

/** A counter of amounts as stored: `rev` grows with every change. */
export interface StoredAmounts {
  name: string;
  amounts: Record<string, number>;
  rev: number;
}
