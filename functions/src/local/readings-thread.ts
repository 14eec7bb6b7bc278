// The local host's consumer of readings (domain/monitoring/minutes/consumer.ts) in a worker thread of its own
// (readings-consumer.ts): the table's queue drained over ports of its own (a client of the server's
// dynalite engine, through a message port to the engine's thread, else over its endpoint; the blob
// folder read directly), as the readings' function drains SQS in AWS, so that merging a year's file
// into its days, the event detector, the forecaster (scoring the bound models in this thread) and the
// acceptances' recheck never hold the server's event loop.
// What the request thread must still hear is posted to it: the changes its subscribers hear (the live
// tiles, the webhook sender: subscribers.ts, the local host's one table) and the stream records of this
// client's writes (the audit).
import { parentPort, workerData } from "node:worker_threads";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import type { Deps } from "../domain/context";
import { drainReadings, type DrainOutcome } from "../domain/monitoring/minutes/consumer";
import { forecastsIdle } from "../domain/monitoring/live/forecaster";
import { sweepStaleChannels } from "../domain/monitoring/derive/events";
import { warmMinuteWindows } from "../domain/monitoring/minutes/minute-window";
import { hostRuntime } from "../events/runtime";
import type { SubscriberDeps } from "../events/subscribers";
import { consumerThreadSubscribers } from "./subscribers";
import { portRequestHandler } from "./dynalite-port";
import { readingsRetryFirstMsFromEnv } from "./readings-retry";
import { captureTableChanges } from "./table-stream";
import type { FromConsumer, ToConsumer } from "./readings-consumer";
import type { ThreadData } from "./spreadsheet-threads";

const { endpoint, tableName, blobsDir, port: engine } = workerData as ThreadData;
const port = parentPort!;
const post = (message: FromConsumer) => port.postMessage(message);

const doc = createDocumentClient({ tableName, endpoint, ...(engine ? { requestHandler: portRequestHandler(engine) } : {}) });
captureTableChanges(doc, (record) => post({ type: "record", record }), { imagesWithUpdates: engine !== undefined });

/** The server's clock (a test's server holds its own day): its reading with the last drain asked for, running on. */
let offset = 0;
// A change's readings are copied to the request thread (its tiles keep them while they compute): a
// part of a year's file is about a day of 20 sensors, 0,5 MB of typed arrays.
const runtime: Deps["runtime"] = hostRuntime({
  subscribers: consumerThreadSubscribers((change) => post({ type: "change", change })),
  deps: () => deps,
});
const retryFirstMs = readingsRetryFirstMsFromEnv();
const deps: SubscriberDeps & Pick<Deps, "readingsRetryFirstMs"> = {
  repos: dynamoRepositories(doc, tableName),
  blobs: fsBlobStore(blobsDir),
  clock: { now: () => new Date(Date.now() + offset) },
  runtime,
  ...(retryFirstMs === undefined ? {} : { readingsRetryFirstMs: retryFirstMs }),
};

/** A drain, and again once the earliest batch it passed over for its back-off may be tried again
 *  (consumer.ts RETRIES; nothing else would ask for one while no company pushes), until none is: a batch
 *  waiting out its back-off is still the drain's (a batch whose attempt a kill cut
 *  short, or that failed once under load, was left queued when the restart's drain answered «drained»,
 *  and whoever waited for it — the server's idle, its close — went on without it). Its last attempt
 *  sets it aside, so this ends: within RETRIES' back-offs (15 s at most). */
async function drainUntilSettled(): Promise<void> {
  let outcome: DrainOutcome = await drainReadings(deps);
  while (outcome.retryAt !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outcome.retryAt! - deps.clock.now().getTime())));
    outcome = await drainReadings(deps);
  }
}

port.on("message", (message: ToConsumer) => {
  offset = message.now - Date.now();
  // D65's stale sweep here, off the request thread.
  if (message.sweep) {
    void sweepStaleChannels(deps)
      .catch((error: unknown) => {
        console.error("stale sweep:", error);
        return 0;
      })
      .then((found) => post({ type: "swept", id: message.id, found }));
    return;
  }
  // Drained once the forecasts the batches queued are computed too (scored in this thread: forecaster.ts);
  // then, at a start, the windows of the facilities pushing before it read, in the background.
  void drainUntilSettled()
    .then(() => forecastsIdle(deps))
    .then(() => post({ type: "drained", id: message.id }))
    .then(() => (message.warm ? warmMinuteWindows(deps, message.warm) : undefined));
});
