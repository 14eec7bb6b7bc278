// The readings' consumer fed by SQS (AWS): each message is a stored batch announced by the API
// (`{company, batch}`, adapters/queue/sqs-readings-queue.ts) or the uploads bucket's "object created"
// notification of a dispatch export dropped under a facility's prefix (`telemetry/files/{company}/
// {facility}/…`), which becomes a batch of that facility first. Each is applied by the one consumer
// (domain/monitoring/minutes/consumer.ts), idempotent and order-independent, so a message delivered twice, or
// again after a timeout, counts nothing twice. A message that fails is named in the answer
// (ReportBatchItemFailures on the event source mapping): SQS delivers it again after its visibility
// timeout; on its last receive a batch that fails again is set aside (failed, with its reason), and a
// message that fails then all the same (storage unreachable) is moved to the dead-letter queue; the
// others are deleted.
import type { Deps } from "../domain/context";
import { applyBatch } from "../domain/monitoring/minutes/consumer";
import { forecastsIdle } from "../domain/monitoring/live/forecaster";
import { droppedFileBatch, READINGS_DROP_PREFIX } from "../domain/monitoring/ingest/files";
import { decodeS3Key } from "./upload-check";

/** The part of an SQS event this handler reads. */
export interface SqsEvent {
  Records: { messageId: string; body: string; attributes?: { ApproximateReceiveCount?: string } }[];
}

export interface SqsBatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

type Log = Pick<Console, "info" | "warn" | "error">;

interface S3Notification {
  Records?: { eventName?: string; s3?: { object?: { key?: string; eTag?: string; sequencer?: string } } }[];
  Event?: string;
}

/** The batches one message names: the API's `{company, batch}`, or each dropped file of an S3 notification. */
async function batchesOf(deps: Pick<Deps, "repos" | "clock">, body: unknown, log: Log): Promise<{ company: string; batch: string }[]> {
  const message = body as { company?: unknown; batch?: unknown } & S3Notification;
  if (typeof message.company === "string" && typeof message.batch === "string") return [{ company: message.company, batch: message.batch }];
  // S3's test event when the notification is set up.
  if (message.Event === "s3:TestEvent") return [];
  const out: { company: string; batch: string }[] = [];
  for (const record of message.Records ?? []) {
    if (!record.eventName?.startsWith("ObjectCreated:") || !record.s3?.object?.key) continue;
    const key = decodeS3Key(record.s3.object.key);
    if (!key.startsWith(READINGS_DROP_PREFIX)) continue;
    const batch = await droppedFileBatch(deps, key, record.s3.object.eTag ?? record.s3.object.sequencer ?? "");
    if (batch) out.push({ company: batch.company, batch: batch.batch });
    else log.warn(JSON.stringify({ event: "readings_drop_ignored", key, reason: "no such company's facility" }));
  }
  return out;
}

/** Applies every message's batches; answers the messages that failed. */
export async function consumeReadingsMessages(
  event: SqsEvent,
  deps: Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> & Partial<Pick<Deps, "modelScoring" | "webhooksDue">>,
  log: Log = console,
): Promise<SqsBatchResponse> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        // Never a message of ours: retrying would not make it one.
        log.warn(JSON.stringify({ event: "readings_message_ignored", messageId: record.messageId }));
        continue;
      }
      for (const { company, batch } of await batchesOf(deps, body, log)) {
        // Its last receive (the queue's maxReceiveCount, RETRIES.attempts): a batch that fails again is
        // set aside, failed with its reason for its company, not left «queued» behind the dead letters.
        const done = await applyBatch(deps, company, batch, { receives: Number(record.attributes?.ApproximateReceiveCount ?? 1) });
        log.info(
          JSON.stringify({ event: "readings_batch", company, batch, state: done?.state ?? "missing", accepted: done?.accepted ?? 0 }),
        );
      }
    } catch (error) {
      log.error(JSON.stringify({ event: "readings_message_failed", messageId: record.messageId, error: String(error) }));
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  // Each batch's subscribers were awaited as its days were published (lambda/readings-consumer.ts's table);
  // nothing of the forecaster's is left running when the function answers (Lambda freezes it).
  await forecastsIdle(deps);
  return { batchItemFailures };
}
