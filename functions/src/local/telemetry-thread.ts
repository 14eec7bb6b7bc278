// The local host's consumer of readings (domain/telemetry/consumer.ts) in a worker thread of its own
// (telemetry-consumer.ts): the table's queue drained over ports of its own (a client of the server's
// dynalite engine, through a message port to the engine's thread, else over its endpoint; the blob
// folder read directly), as the readings' function drains SQS in AWS, so that merging a year's file
// into its days, the event detector, the forecaster (scoring the bound models in this thread) and the
// acceptances' recheck never hold the server's event loop.
// What the request thread must still hear is posted to it: each batch's change (the live tiles), the
// stream records of this client's writes (the audit), and that webhook deliveries were made (sent by
// the request thread, the one sender of the queue).
import { parentPort, workerData } from "node:worker_threads";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { onTelemetryChange } from "../domain/telemetry/changes";
import { drainTelemetry, type DrainOutcome } from "../domain/telemetry/consumer";
import { forecastsIdle } from "../domain/telemetry/forecaster";
import { portRequestHandler } from "./dynalite-port";
import { captureTableChanges } from "./table-stream";
import type { FromConsumer, ToConsumer } from "./telemetry-consumer";
import type { ThreadData } from "./spreadsheet-threads";

const { endpoint, tableName, blobsDir, port: engine } = workerData as ThreadData;
const port = parentPort!;
const post = (message: FromConsumer) => port.postMessage(message);

const doc = createDocumentClient({ tableName, endpoint, ...(engine ? { requestHandler: portRequestHandler(engine) } : {}) });
captureTableChanges(doc, (record) => post({ type: "record", record }), { imagesWithUpdates: engine !== undefined });

/** The server's clock (a test's server holds its own day): its reading with the last drain asked for, running on. */
let offset = 0;
const deps = {
  repos: dynamoRepositories(doc, tableName),
  blobs: fsBlobStore(blobsDir),
  clock: { now: () => new Date(Date.now() + offset) },
  webhooksDue: () => post({ type: "webhooks" }),
};

// The change's readings are copied to the request thread (its listeners keep them while they
// compute): a part of a year's file is about a day of 20 sensors, 0,5 MB of typed arrays.
onTelemetryChange(deps, (change) => post({ type: "changed", change }));

/** A drain of its own once the earliest batch passed over for its back-off may be tried again
 *  (consumer.ts RETRIES): nothing else would ask for one while no company pushes. */
let retry: ReturnType<typeof setTimeout> | undefined;
const retryLater = (outcome: DrainOutcome) => {
  clearTimeout(retry);
  retry = undefined;
  if (outcome.retryAt === undefined) return;
  retry = setTimeout(() => void drainTelemetry(deps).then(retryLater), Math.max(0, outcome.retryAt - deps.clock.now().getTime()));
};

port.on("message", (message: ToConsumer) => {
  offset = message.now - Date.now();
  // Drained once the forecasts the batches queued are computed too (scored in this thread: forecaster.ts).
  void drainTelemetry(deps)
    .then(retryLater)
    .then(() => forecastsIdle(deps))
    .then(() => post({ type: "drained", id: message.id }));
});
