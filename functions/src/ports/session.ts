// Sign-in sessions: a chain of refresh tokens.

/** A sign-in's chain of refresh tokens: each refresh replaces `current`; a token of the chain
 *  presented again after it was replaced means a copy is in other hands, and ends the chain. */
export interface Session {
  id: string;
  company: string;
  user: string;
  /** The jti of the one refresh token that may be used next. */
  current: string;
  /** The jti it replaced and when: a second tab refreshing with it within a few seconds is no theft. */
  previous?: string;
  rotated_at?: number;
  revoked?: boolean;
  /** Epoch seconds; the store forgets the session then (TTL). */
  expires_at: number;
}

export type RotateOutcome = "rotated" | "just-rotated" | "reused" | "unknown";

export interface SessionRepository {
  start(session: Session): Promise<void>;
  /** Moves `current` from `fromJti` to `toJti` atomically. `just-rotated`: `fromJti` was replaced
   *  less than `graceSeconds` ago; `reused`: replaced earlier or never part of the chain, which
   *  revokes the session; `unknown`: no such session, or revoked. */
  rotate(id: string, fromJti: string, toJti: string, nowSeconds: number, graceSeconds: number): Promise<RotateOutcome>;
}
