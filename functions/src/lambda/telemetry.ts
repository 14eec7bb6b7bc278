// The Lambda host of the readings' consumer (events/telemetry-queue.ts): the stack subscribes this
// function to the readings' SQS queue (ReportBatchItemFailures), which the API announces stored
// batches on and the uploads bucket notifies of dispatch exports dropped under telemetry/files/. The
// forecaster runs here too (domain/telemetry/forecaster.ts), scoring the bound models in this process.
import { S3Client } from "@aws-sdk/client-s3";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { BLOB_AREAS } from "../adapters/blob/areas";
import { systemClock } from "../domain/context";
import { consumeTelemetryMessages, type SqsBatchResponse, type SqsEvent } from "../events/telemetry-queue";
import { webhookSender, type WebhookSender } from "../domain/company/webhooks";
import { requiredEnv } from "./secrets";

/** The areas this function reads: the batches and dropped files (uploads bucket), the uploaded exports
 *  (documents bucket), and the companies' own forecast models the forecaster scores (models/). */
const AREAS = ["telemetry", "telemetry-uploads", "models"] as const;

let deps: Parameters<typeof consumeTelemetryMessages>[1] | undefined;
/** The webhook deliveries the detector makes here, sent before the function answers (Lambda freezes what runs after). */
let webhooks: WebhookSender | undefined;

export async function handler(event: SqsEvent): Promise<SqsBatchResponse> {
  if (!deps) {
    const tableName = requiredEnv("TABLE_NAME");
    deps = {
      repos: dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName),
      blobs: s3BlobStore(new S3Client({}), Object.fromEntries(AREAS.map((area) => [area, requiredEnv(BLOB_AREAS[area].bucket)]))),
      clock: systemClock,
      webhooksDue: () => webhooks?.due(),
    };
    webhooks = webhookSender(deps);
  }
  const answer = await consumeTelemetryMessages(event, deps);
  await webhooks!.idle();
  return answer;
}
