// The Lambda host of the readings' consumer (events/readings-queue.ts): the stack subscribes this
// function to the readings' SQS queue (ReportBatchItemFailures), which the API announces stored
// batches on and the uploads bucket notifies of dispatch exports dropped under telemetry/files/. The
// days it writes are published on its change stream, heard by the lines of the one table of
// subscribers marked for AWS (events/subscribers.ts), each awaited before it answers SQS (Lambda
// freezes what runs after): the forecaster (scoring the bound models in this process), the event
// detector, the acceptances' recheck, the climate periods' flag and the webhook sender (its
// deliveries waited for before the answer).
import { S3Client } from "@aws-sdk/client-s3";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { BLOB_AREAS } from "../adapters/blob/areas";
import { httpWebhookTransport } from "../adapters/webhooks/http-webhook-transport";
import { systemClock, type Runtime } from "../domain/context";
import { webhookSender, type WebhookSender } from "../domain/monitoring/derive/webhooks";
import { hostRuntime } from "../events/runtime";
import { SUBSCRIBERS, type SubscriberDeps } from "../events/subscribers";
import { consumeReadingsMessages, type SqsBatchResponse, type SqsEvent } from "../events/readings-queue";
import { requiredEnv } from "./secrets";

/** The areas this function reads: the batches and dropped files (uploads bucket), the uploaded exports
 *  (documents bucket), and the companies' own forecast models the forecaster scores (models/). */
const AREAS = ["telemetry", "telemetry-uploads", "models"] as const;

type ReadingsDeps = SubscriberDeps;

/** The readings' function's subscribers, in the order they hear a change: the one table's lines
 *  marked for AWS (the live tiles are not: in AWS the page polls the stored days). */
export const READINGS_SUBSCRIBERS = SUBSCRIBERS.filter((s) => s.aws);

/** This function's runtime over `deps` (its change stream runs READINGS_SUBSCRIBERS). */
export const readingsRuntime = (deps: () => ReadingsDeps): Runtime => hostRuntime({ subscribers: READINGS_SUBSCRIBERS, deps });

let deps: ReadingsDeps | undefined;
/** The webhook deliveries the detector makes here, sent before the function answers (Lambda freezes what runs after). */
let webhooks: WebhookSender | undefined;

export async function handler(event: SqsEvent): Promise<SqsBatchResponse> {
  if (!deps) {
    const tableName = requiredEnv("TABLE_NAME");
    const made: ReadingsDeps = {
      repos: dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName),
      blobs: s3BlobStore(new S3Client({}), Object.fromEntries(AREAS.map((area) => [area, requiredEnv(BLOB_AREAS[area].bucket)]))),
      clock: systemClock,
      webhooksDue: () => webhooks?.due(),
      runtime: readingsRuntime(() => made),
    };
    deps = made;
    webhooks = webhookSender(made, httpWebhookTransport);
  }
  const answer = await consumeReadingsMessages(event, deps);
  await webhooks!.idle();
  return answer;
}
