// Delivers events to a handler the way Lambda's event source mappings do: in order, in batches
// (up to `batchSize` records gathered for `windowMs`), one batch at a time, after the write that
// caused them has answered. Every batch is gathered so, not only the first of a burst: while the
// handler works, the next batch is taken once it is full or its oldest record has waited the
// window (MaximumBatchingWindowInSeconds), so a steady stream is handled in batches of a window's
// records rather than of whatever came during the last batch's handling. The handler may name the records that failed (a partial batch
// response): those go first into the next batch, after a pause, and the others are done. A record
// (or a batch whose handler threw) that keeps failing is dropped with an error in the log after a
// few attempts, as the stack's retry limit does in AWS. Bounded: while `maxPending` records wait,
// a push answers a promise that resolves once the queue has room again, so a burst of writes runs
// ahead of their handling by at most that many records and the writers wait beyond it.
export interface EventQueue<R> {
  /** Queues `record`; a promise to wait for when the queue is full. */
  push(record: R): Promise<void> | undefined;
  /** Resolves once every record pushed so far has been handled (or dropped). */
  settled(): Promise<void>;
}

export interface EventQueueOptions {
  name: string;
  batchSize?: number;
  windowMs?: number;
  retries?: number;
  /** How many records may wait (default 10 000). */
  maxPending?: number;
  log?: Pick<Console, "error">;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export function eventQueue<R>(handle: (records: R[]) => Promise<R[] | unknown>, options: EventQueueOptions): EventQueue<R> {
  const { name, batchSize = 100, windowMs = 10, retries = 3, maxPending = 10_000, log = console } = options;
  const pending: R[] = [];
  /** When each pending record came (ms; 0 for one put back to be tried again at once). */
  const arrivals: number[] = [];
  /** Pushes waiting for room. */
  let waiters: Array<() => void> = [];
  const makeRoom = () => {
    if (pending.length >= maxPending || waiters.length === 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const attempts = new Map<R, number>();

  /** Handles `batch`; the records to try again (put back before the ones still waiting). */
  async function deliver(batch: R[]): Promise<R[]> {
    let failed: R[];
    let reason = "the handler reported them failed";
    try {
      const answer = await handle(batch);
      failed = Array.isArray(answer) ? answer : [];
    } catch (error) {
      failed = batch;
      reason = String((error as Error)?.stack ?? error);
    }
    for (const record of batch) if (!failed.includes(record)) attempts.delete(record);
    const dropped: R[] = [];
    const again = failed.filter((record) => {
      const attempt = (attempts.get(record) ?? 0) + 1;
      attempts.set(record, attempt);
      if (attempt <= retries) return true;
      attempts.delete(record);
      dropped.push(record);
      return false;
    });
    if (dropped.length > 0) log.error(`${name}: ${dropped.length} event(s) dropped after ${retries + 1} attempts: ${reason}`);
    return again;
  }

  /** Ends a gathering wait early: the batch is full. */
  let filled: (() => void) | undefined;
  const gather = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        filled = undefined;
        resolve();
      };
      const timeout = setTimeout(done, ms);
      filled = done;
    });

  function schedule(): void {
    if (timer || running) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = (async () => {
        while (pending.length > 0) {
          // A monotonic clock: the window is a duration, which a wall clock set back (or a test faking Date)
          // would stretch to the jump (job-slots.test.ts: 25 minutes faked ahead held the stream that long).
          const gathering = pending.length < batchSize ? arrivals[0] + windowMs - performance.now() : 0;
          if (gathering > 0) await gather(gathering);
          const batch = pending.splice(0, batchSize);
          arrivals.splice(0, batch.length);
          makeRoom();
          const again = await deliver(batch);
          if (again.length === 0) continue;
          pending.unshift(...again);
          arrivals.unshift(...again.map(() => 0));
          await sleep(20 * Math.max(...again.map((record) => attempts.get(record) ?? 1)));
        }
      })().finally(() => {
        running = undefined;
        if (pending.length > 0) schedule();
      });
    }, windowMs);
  }

  return {
    push(record) {
      pending.push(record);
      arrivals.push(performance.now());
      if (pending.length >= batchSize) filled?.();
      schedule();
      if (pending.length < maxPending) return undefined;
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    async settled() {
      while (timer || running || pending.length > 0) await (running ?? sleep(windowMs));
    },
  };
}
