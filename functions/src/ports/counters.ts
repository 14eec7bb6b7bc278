// Counters shared by every server instance (they live in the table): attempt budgets and caps.

/** One attempt taken from a counter's budget; given back when the attempt turns out not to count. */
export interface AttemptReservation {
  key: string;
  windowStart: number;
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
}
