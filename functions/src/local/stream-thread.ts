// The table-stream handler's thread of the local host (stream-handler.ts): the handler the table's
// stream invokes in AWS (events/table-changes.ts), with a client of its own to the server's
// dynalite (through the message port it is given, dynalite-port.ts), so that applying a burst of
// writes to the statistics and the kept sums never holds the event loop that answers requests. A
// batch comes in as plain records and goes back as the identifiers of the records that failed (the
// partial batch response).
import { parentPort, workerData } from "node:worker_threads";
import type { StreamThreadAnswer, StreamThreadData, StreamThreadBatch } from "./stream-handler";
import { inProcessStreamHandler } from "./stream-handler";
import { portRequestHandler } from "./dynalite-port";

const { endpoint, tableName, port: engine } = workerData as StreamThreadData;
const handler = inProcessStreamHandler(endpoint, tableName, engine && portRequestHandler(engine));
const port = parentPort!;

port.on("message", (batch: StreamThreadBatch) => {
  handler.handle(batch.records).then(
    (failed) => port.postMessage({ id: batch.id, failed } satisfies StreamThreadAnswer),
    (error: Error) => port.postMessage({ id: batch.id, error: String(error?.stack ?? error) } satisfies StreamThreadAnswer),
  );
});
