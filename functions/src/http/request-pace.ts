// A user's signed-in requests paced on the local server (docs/security.md, «A user's burst
// paced»): each user may start `burst` requests at once and then `perSecond` a second; the ones
// beyond wait in that user's own line, first come first served, and are started as the pace allows,
// never refused. One request thread serves every company, and 30 reads of one user at once kept it
// busy for a second: another company's get_me then took 150–220 ms at p95 (5–8 ms idle). Letting
// fewer of the same user's requests run at once did not shorten that wait (the thread is as busy);
// starting them at a pace leaves the thread room between them. The web app's screens start at most
// 9 requests in a second (5 within 100 ms), which the burst takes whole. In AWS each API instance
// serves one request at a time and API Gateway throttles, so the AWS host paces nothing.

export interface Pace {
  /** Requests a user may start at once after a pause. */
  burst: number;
  /** Requests a user may start a second beyond the burst. */
  perSecond: number;
}

/** The pace's clock: the system's, or a test's that moves when told. */
export interface PaceClock {
  /** Milliseconds, from any origin. */
  now(): number;
  /** Runs `run` once `ms` milliseconds have passed. */
  after(ms: number, run: () => void): void;
}

export const systemPaceClock: PaceClock = {
  now: () => performance.now(),
  after: (ms, run) => {
    setTimeout(run, ms);
  },
};

export interface RequestPace {
  /** Resolves when `who` may start a request: at once within the pace, otherwise in their line. */
  take(who: string): Promise<void>;
  /** Requests of `who` waiting to start. */
  waiting(who: string): number;
}

interface Line {
  /** Starts still allowed now (a fraction builds up towards the next). */
  tokens: number;
  /** When `tokens` was counted. */
  at: number;
  waiting: Array<() => void>;
  /** Whether the next start is already on the clock. */
  timed: boolean;
}

/** Lines are forgotten once full again, looked over every this many takes. */
const SWEEP_EVERY = 1_000;

export function requestPace(pace: Pace, clock: PaceClock = systemPaceClock): RequestPace {
  if (!(pace.burst >= 1 && pace.perSecond > 0))
    throw new Error(`a pace needs a burst of at least 1 and a rate above 0, got ${pace.burst}, ${pace.perSecond}`);
  const lines = new Map<string, Line>();
  let takes = 0;
  const refill = (line: Line) => {
    const now = clock.now();
    line.tokens = Math.min(pace.burst, line.tokens + ((now - line.at) / 1000) * pace.perSecond);
    line.at = now;
  };
  const startWaiting = (line: Line) => {
    refill(line);
    while (line.waiting.length > 0 && line.tokens >= 1) {
      line.tokens -= 1;
      line.waiting.shift()!();
    }
    if (line.waiting.length === 0 || line.timed) return;
    line.timed = true;
    clock.after(Math.ceil(((1 - line.tokens) / pace.perSecond) * 1000), () => {
      line.timed = false;
      startWaiting(line);
    });
  };
  const sweep = () => {
    for (const [who, line] of lines) {
      refill(line);
      if (line.waiting.length === 0 && !line.timed && line.tokens >= pace.burst) lines.delete(who);
    }
  };
  return {
    take(who) {
      if (++takes % SWEEP_EVERY === 0) sweep();
      let line = lines.get(who);
      if (!line) {
        line = { tokens: pace.burst, at: clock.now(), waiting: [], timed: false };
        lines.set(who, line);
      }
      const own = line;
      const started = new Promise<void>((resolve) => own.waiting.push(resolve));
      startWaiting(own);
      return started;
    },
    waiting: (who) => lines.get(who)?.waiting.length ?? 0,
  };
}

/** requests refused for their token (none, malformed, forged, expired), per source
 *  address: each address may have `burst` refused and then `perSecond` a second; past that its next
 *  requests are answered 429 with Retry-After before any signature is checked. 880 junk-token
 *  requests a second put another company's get_me p50 at 60 ms; a valid token spends nothing. */
export const REFUSED_PER_ADDRESS: Pace = { burst: 30, perSecond: 10 };

/** A refusal taken: the seconds to wait, and what gives it back. */
export interface RefusalTaken {
  wait: number;
  giveBack: () => void;
}

/** The pace itself, on the thread that keeps it: its refusals taken at once. */
interface RefusalsHere {
  take(address: string): RefusalTaken;
  wait(address: string): number;
}

export interface RefusalPace {
  /** Takes one of `address`'s refusals ahead of its token's check (so that requests at once cannot
   *  all pass before any is refused): the seconds to wait when none is left, else 0 and `give back`,
   *  which a request whose token holds calls. */
  take(address: string): RefusalTaken | Promise<RefusalTaken>;
  /** The seconds `address` must wait before its next request may be refused, 0 while it has one
   *  left; spends nothing (the local server's first gate, local/refusal-gate.ts). */
  wait(address: string): number;
}

export function refusalPace(pace: Pace = REFUSED_PER_ADDRESS, clock: PaceClock = systemPaceClock): RefusalsHere {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let takes = 0;
  const refill = (bucket: { tokens: number; at: number }) => {
    const now = clock.now();
    bucket.tokens = Math.min(pace.burst, bucket.tokens + ((now - bucket.at) / 1000) * pace.perSecond);
    bucket.at = now;
  };
  return {
    wait(address) {
      const bucket = buckets.get(address);
      if (!bucket) return 0;
      refill(bucket);
      return bucket.tokens < 1 ? Math.ceil((1 - bucket.tokens) / pace.perSecond) : 0;
    },
    take(address) {
      // Addresses whose bucket is full again are forgotten now and then.
      if (++takes % SWEEP_EVERY === 0) {
        for (const [key, bucket] of buckets) {
          refill(bucket);
          if (bucket.tokens >= pace.burst) buckets.delete(key);
        }
      }
      let bucket = buckets.get(address);
      if (!bucket) buckets.set(address, (bucket = { tokens: pace.burst, at: clock.now() }));
      refill(bucket);
      if (bucket.tokens < 1) return { wait: Math.ceil((1 - bucket.tokens) / pace.perSecond), giveBack: () => {} };
      bucket.tokens -= 1;
      const own = bucket;
      let given = false;
      return {
        wait: 0,
        giveBack: () => {
          if (given) return;
          given = true;
          own.tokens = Math.min(pace.burst, own.tokens + 1);
        },
      };
    },
  };
}
