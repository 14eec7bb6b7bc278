// Delivers events to a handler the way Lambda's event source mappings do: in order, in batches
// (up to `batchSize` records gathered for `windowMs`), one batch at a time, after the write that
// caused them has answered. A failing batch is retried a few times and then dropped with an error
// in the log, as the stack's retry limit does in AWS.
export interface EventQueue<R> {
  push(record: R): void;
  /** Resolves once every record pushed so far has been handled (or dropped). */
  settled(): Promise<void>;
}

export interface EventQueueOptions {
  name: string;
  batchSize?: number;
  windowMs?: number;
  retries?: number;
  log?: Pick<Console, "error">;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export function eventQueue<R>(handle: (records: R[]) => Promise<void>, options: EventQueueOptions): EventQueue<R> {
  const { name, batchSize = 100, windowMs = 10, retries = 3, log = console } = options;
  const pending: R[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function deliver(batch: R[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await handle(batch);
        return;
      } catch (error) {
        if (attempt > retries) {
          log.error(`${name}: ${batch.length} event(s) dropped after ${attempt} attempts: ${(error as Error)?.stack ?? error}`);
          return;
        }
        await sleep(20 * attempt);
      }
    }
  }

  function schedule(): void {
    if (timer || running) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = (async () => {
        while (pending.length > 0) await deliver(pending.splice(0, batchSize));
      })().finally(() => {
        running = undefined;
        if (pending.length > 0) schedule();
      });
    }, windowMs);
  }

  return {
    push(record) {
      pending.push(record);
      schedule();
    },
    async settled() {
      while (timer || running || pending.length > 0) await (running ?? sleep(windowMs));
    },
  };
}
