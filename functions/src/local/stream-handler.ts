// The table-stream handler of the local host (events/table-changes.ts, which the table's stream
// invokes in AWS), called by the local stream's queue (event-queue.ts) with one batch at a time:
// in this process, or in a worker thread of its own (stream-thread.ts) so that the statistics and
// the kept sums are applied beside the server's event loop, as the stream's own function does in
// AWS. Either way it answers the identifiers of the records that failed (the partial batch
// response); the queue, in this process, keeps the order, the retries and `settled()`.
import { Worker, type MessagePort } from "node:worker_threads";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { systemClock } from "../domain/context";
import { handleTableChanges, type StreamRecord } from "../events/table-changes";
import type { SdkRequestHandler } from "./dynalite-port";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";

export interface StreamHandler {
  /** Handles one batch; answers the identifiers (sequence numbers) of the records that failed. */
  handle(records: StreamRecord[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The audit handler logs a line per change for CloudWatch; locally the trail is in the table. */
const quietAudit = { info: () => {}, error: console.error };

/** The identifier a partial batch response names a record by. */
export const recordIdentifier = (record: StreamRecord): string => record.dynamodb.SequenceNumber ?? record.eventID;

/** The handler in this process, writing through a client of its own: its writes (audit entries,
 *  statistics snapshots) are ones it skips on the stream anyway, so they need no records. With
 *  `requestHandler`, the client reaches the engine through it rather than HTTP (dynalite-port.ts). */
export function inProcessStreamHandler(
  endpoint: string,
  tableName: string,
  requestHandler?: SdkRequestHandler,
  engineSecret?: string,
): StreamHandler {
  const doc = createDocumentClient({ tableName, endpoint, engineSecret, ...(requestHandler ? { requestHandler } : {}) });
  const repos = dynamoRepositories(doc, tableName);
  return {
    async handle(records) {
      const { batchItemFailures } = await handleTableChanges(
        { Records: records },
        // A batch's audit entries go in BatchWriteItem calls of 25 (the same items, fewer calls).
        { doc, tableName, repos, clock: systemClock, log: quietAudit, auditInBatches: true },
      );
      return batchItemFailures.map((failure) => failure.itemIdentifier);
    },
    async close() {
      doc.destroy();
    },
  };
}

export interface StreamThreadData {
  endpoint: string;
  tableName: string;
  /** The way in to the engine's thread, when it runs in this process. */
  port?: MessagePort;
}
export interface StreamThreadBatch {
  id: number;
  records: StreamRecord[];
}
export type StreamThreadAnswer = { id: number; failed: string[] } | { id: number; error: string };

/** Plain Node cannot load the thread's TypeScript: the entry registers tsx first. */
const BOOT = new URL("./thread-boot.ts", import.meta.url);
const ENTRY = new URL("./stream-thread.ts", import.meta.url).href;

/** The handler in a worker thread. A batch in a thread that dies fails whole (the queue delivers
 *  it again); the next batch starts a new thread. With `connect` (an engine in a thread of this
 *  process), each thread started reaches the engine through a port of its own. */
export function threadStreamHandler(endpoint: string, tableName: string, connect?: () => MessagePort): StreamHandler {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (failed: string[]) => void; reject: (error: Error) => void }>();

  const failAll = (reason: string) => {
    for (const { reject } of waiting.values()) reject(new Error(`table stream thread: ${reason}`));
    waiting.clear();
  };

  function thread(): Worker {
    if (worker) return worker;
    const port = connect?.();
    const started = new Worker(BOOT, {
      workerData: { endpoint, tableName, entry: ENTRY, ...(port ? { port } : {}) } satisfies StreamThreadData & { entry: string },
      transferList: port ? [port] : [],
      execArgv: threadExecArgv(),
      resourceLimits: threadResourceLimits(),
    });
    started.on("message", (answer: StreamThreadAnswer) => {
      const call = waiting.get(answer.id);
      if (!call) return;
      waiting.delete(answer.id);
      if ("error" in answer) call.reject(new Error(answer.error));
      else call.resolve(answer.failed);
    });
    const retire = (reason: string) => {
      if (worker === started) worker = undefined;
      failAll(reason);
    };
    started.on("error", (error) => retire(String(error.stack ?? error)));
    started.on("exit", (code) => retire(`exited with code ${code}`));
    // Idle, it does not keep the process alive; a batch in it does (ref'd while one waits).
    started.unref();
    worker = started;
    return started;
  }

  // Started with the storage: loading the handler's code takes a moment the first write need not wait for.
  thread();

  return {
    handle(records) {
      const id = nextId++;
      const target = thread();
      return new Promise<string[]>((resolve, reject) => {
        target.ref();
        const done = () => {
          if (waiting.size === 0) target.unref();
        };
        waiting.set(id, {
          resolve: (failed) => {
            resolve(failed);
            done();
          },
          reject: (error) => {
            reject(error);
            done();
          },
        });
        target.postMessage({ id, records } satisfies StreamThreadBatch);
      });
    },
    async close() {
      const closing = worker;
      worker = undefined;
      if (closing) await closing.terminate();
    },
  };
}
