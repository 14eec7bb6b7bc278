// The ReadingsConsumer of the local host (domain/context.ts): the table's queue of readings drained in a
// worker thread of its own (readings-thread.ts), as the readings' function drains SQS in AWS. On the
// request thread a year's dispatch file took the event loop for minutes (another company's get_me p50
// 209 ms, p95 800 ms while it was applied, docs/performance.md); here the request thread only stores
// the batch with its queue mark (durable: a kill before it is applied leaves it queued), answers 202
// and asks the thread to drain. The thread is started as the spreadsheet threads are (thread-boot.ts,
// a port to the engine's thread, a lower priority) and posts back what this thread must hear: the
// changes this thread's subscribers hear (the live tiles, the webhook sender: subscribers.ts) and its
// writes' stream records (the audit). The thread's heap is capped (heapMb): a file
// that would take more ends the thread, not the server. A thread that dies leaves its batch queued with
// the attempt counted (consumer.ts counts each as it begins), and a new thread is started for the
// others after RESTART_MS (doubling while threads keep dying, to a minute); the batch is tried again
// after its back-off and set aside after its last attempt. A close waits CLOSE_WAIT_MS at most for the
// drains, then ends the thread whatever is queued: what it was applying is applied again on the next
// start, nothing counted twice.
import { Worker, type MessagePort } from "node:worker_threads";
import { systemClock, type ReadingsConsumer } from "../domain/context";
import type { StreamRecord } from "../events/table-changes";
import type { Change, Clock } from "../ports";
import type { WindowedFacility } from "../domain/monitoring/minutes/minute-window";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";
import type { ThreadData } from "./spreadsheet-threads";

/** A drain asked for, at the server's clock (ms): the thread's clock runs on from it; `warm`: the
 *  facilities whose minute windows the thread reads once it has drained (a start's). */
export type ToConsumer = { id: number; now: number; warm?: WindowedFacility[]; sweep?: true };
export type FromConsumer =
  | { type: "drained"; id: number }
  | { type: "swept"; id: number; found: number }
  | { type: "change"; change: Change }
  | { type: "record"; record: StreamRecord };

export interface ConsumerThreadOptions extends Omit<ThreadData, "port"> {
  /** A new way in to the engine's thread (storage's `connect`), instead of HTTP on loopback. */
  connect?(): MessagePort;
  clock?: Clock;
  /** Heap cap of the thread, MB. */
  heapMb?: number;
  /** A change published on the thread, for this thread's subscribers. */
  changed(change: Change): void;
  /** A stream record of the thread's writes, for this process's table stream. */
  record?(record: StreamRecord): void;
  /** A thread that died, and why. */
  failed?(reason: string): void;
}

export interface ConsumerThread extends ReadingsConsumer {
  /** On the server's start: drains what a kill left queued, and reads into the thread's minute windows
   *  the facilities `writtenLately` names (those pushing before the stop), so that their first push
   *  after it is applied as promptly as the others: the thread started only when either finds some
   *  (loading its code is about 2 s of CPU, which a server nothing was pushed to is spared until its
   *  first batch; it was the first batch's, 1 s of a holding's first tiles after a start). */
  resume(queued: () => Promise<boolean>, writtenLately?: () => Promise<WindowedFacility[]>): void;
  /** Waits for the drains asked for (CLOSE_WAIT_MS at most), then ends the thread. */
  close(): Promise<void>;
}

/** How long a close waits for the drains before it ends the thread (the server's stop has 5 s in all). */
export const CLOSE_WAIT_MS = 1_000;
/** How long after a thread died a new one is started; doubled for each death in a row, to a minute. */
const RESTART_MS = 1_000;

const BOOT = new URL("./thread-boot.ts", import.meta.url);
const ENTRY = new URL("./readings-thread.ts", import.meta.url).href;

export function readingsConsumerThread(options: ConsumerThreadOptions): ConsumerThread {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, () => void>();
  /** The stale sweeps asked of the thread, by id: each answered with the events it wrote. */
  const sweeps = new Map<number, (found: number) => void>();
  /** Every drain asked for so far, done (idle). */
  let all: Promise<void> = Promise.resolve();
  const counted = (work: Promise<void>) => {
    all = Promise.all([all, work]).then(() => undefined);
    return work;
  };
  let closed = false;
  /** Threads that died in a row, since one last answered a drain. */
  let deaths = 0;
  const answerAll = () => {
    for (const done of waiting.values()) done();
    waiting.clear();
    for (const done of sweeps.values()) done(0);
    sweeps.clear();
  };

  /** A thread gone: the drains it had are over (their batches stay queued), and a new thread drains
   *  the queue for the others after RESTART_MS. */
  const gone = (from: Worker, reason: string) => {
    if (worker !== from) return;
    worker = undefined;
    options.failed?.(reason);
    answerAll();
    if (closed) return;
    const delay = Math.min(60_000, RESTART_MS * 2 ** deaths++);
    counted(new Promise<void>((resolve) => setTimeout(resolve, delay).unref()).then(() => (closed ? undefined : drain())));
  };

  function thread(): Worker {
    if (worker) return worker;
    const port = options.connect?.();
    const started = new Worker(BOOT, {
      workerData: {
        endpoint: options.endpoint,
        tableName: options.tableName,
        blobsDir: options.blobsDir,
        entry: ENTRY,
        background: true,
        ...(port ? { port } : {}),
      },
      transferList: port ? [port] : [],
      execArgv: threadExecArgv(),
      resourceLimits: threadResourceLimits(options.heapMb ?? 1024),
    });
    started.on("message", (message: FromConsumer) => {
      if (message.type === "drained") {
        deaths = 0;
        waiting.get(message.id)?.();
        waiting.delete(message.id);
      } else if (message.type === "swept") {
        sweeps.get(message.id)?.(message.found);
        sweeps.delete(message.id);
      } else if (message.type === "change") options.changed(message.change);
      else options.record?.(message.record);
    });
    started.on("error", (error) => gone(started, error.message));
    started.on("exit", (code) => gone(started, `exited with code ${code}`));
    started.unref();
    worker = started;
    return started;
  }

  const drain = (warm?: WindowedFacility[]): Promise<void> => {
    if (closed) return all;
    const id = nextId++;
    const done = new Promise<void>((resolve) => waiting.set(id, resolve));
    const now = (options.clock ?? systemClock).now().getTime();
    thread().postMessage({ id, now, ...(warm && warm.length > 0 ? { warm } : {}) } satisfies ToConsumer);
    return counted(done);
  };

  return {
    drain,
    idle: () => all,
    sweepStale() {
      // Only where the thread runs: a server nothing was pushed to since its start is spared its start,
      // and sweeps on the request thread from the kept heads (a read per facility).
      if (!worker || closed) return undefined;
      const id = nextId++;
      const found = new Promise<number>((resolve) => sweeps.set(id, resolve));
      worker.postMessage({ id, now: (options.clock ?? systemClock).now().getTime(), sweep: true } satisfies ToConsumer);
      return found;
    },
    resume(queued, writtenLately) {
      counted(
        Promise.all([queued(), writtenLately?.().catch(() => []) ?? []]).then(
          ([some, warm]) => (some || warm.length > 0 ? drain(warm) : undefined),
          (error: unknown) => options.failed?.(`the queue not read: ${String(error)}`),
        ),
      );
    },
    async close() {
      closed = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
      const ending = worker;
      worker = undefined;
      await ending?.terminate();
      answerAll();
    },
  };
}
