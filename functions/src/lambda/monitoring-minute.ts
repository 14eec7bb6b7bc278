// What the local host does on its timers, in AWS once a minute (an EventBridge schedule in the stack):
// D65's stale channels whose readings simply stopped (domain/monitoring/derive/events.ts sweepStaleChannels,
// from the register and each sensor's stored days, so no run depends on an earlier one), the webhook
// deliveries due (a retry's back-off, or made by a run that stopped; domain/monitoring/derive/webhooks.ts), and
// the batches still queued whose announcement on the readings' queue was lost (stored and marked, then
// the SQS send failed): sent again (domain/monitoring/minutes/consumer.ts reannounceQueued; the local host
// drains the marks itself). What it found is one JSON log line (CloudWatch).
import { SQSClient } from "@aws-sdk/client-sqs";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { sqsReadingsQueue } from "../adapters/queue/sqs-readings-queue";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { httpWebhookTransport } from "../adapters/webhooks/http-webhook-transport";
import { webhookSender, type WebhookSender } from "../domain/monitoring/derive/webhooks";
import { systemClock, type Deps } from "../domain/context";
import { hostRuntime } from "../events/runtime";
import { runDue } from "../events/schedule";
import type { Subscriber } from "../ports";
import { requiredEnv } from "./secrets";

type MinuteDeps = Pick<Deps, "repos" | "clock" | "runtime"> & Partial<Pick<Deps, "config" | "readingsQueue" | "webhooksDue">>;
let deps: MinuteDeps | undefined;
/** The webhook sender of this instance (its turns and receivers' back-offs last as long as it does). */
let webhooks: WebhookSender | undefined;

/** What the function keeps of its time after the compaction stops starting facilities: the facility-day
 *  begun (a Query of its minutes, its sensors' days written) and the answer. */
const COMPACTION_RESERVE_MS = 15_000;

export async function handler(
  _event?: unknown,
  context?: { getRemainingTimeInMillis(): number },
): Promise<{ stale: number; reannounced: number }> {
  if (!deps) {
    const tableName = requiredEnv("TABLE_NAME");
    deps = minuteDeps({
      repos: dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName),
      clock: systemClock,
      readingsQueue: sqsReadingsQueue(new SQSClient({}), requiredEnv("READINGS_QUEUE_URL")),
      webhooksDue: () => webhooks?.due(),
    });
    webhooks = webhookSender(deps, httpWebhookTransport);
  }
  return monitoringMinute(deps, webhooks!, context ? () => context.getRemainingTimeInMillis() > COMPACTION_RESERVE_MS : undefined);
}

/** The minute function's subscribers: the webhook sender, for the deliveries the sweep's events make
 *  (waited for below, with what else is due). A line of the one table (events/subscribers.ts), written
 *  here rather than taken from it: the table would bring the forecaster's core into this function's
 *  bundle; tests/infra/readings-queue-aws.test.ts holds the two together. */
export const MINUTE_SUBSCRIBERS: readonly Subscriber<MinuteDeps>[] = [
  { name: "webhook sender", hears: ["DeliveriesDue"], run: (d: MinuteDeps) => d.webhooksDue?.() },
];

/** The function's deps over `base`, with its runtime (a new instance's: nothing of another process). */
export function minuteDeps(base: Omit<MinuteDeps, "runtime">): MinuteDeps {
  const made: MinuteDeps = { ...base, runtime: hostRuntime({ subscribers: MINUTE_SUBSCRIBERS, deps: () => made }) };
  return made;
}

/** One minute's run on `deps` with its webhook sender: the lines of the one schedule due now
 *  (events/schedule.ts SCHEDULE); answers the stale events written and the batches announced again.
 *  The hourly compaction goes on while `timeLeft()` holds (the function's time less a reserve): a
 *  holding's days not compacted by then are compacted by the next hour's run, which takes them up
 *  where this one stopped. */
export async function monitoringMinute(
  deps: MinuteDeps,
  webhooks: WebhookSender = webhookSender(deps, httpWebhookTransport),
  timeLeft: () => boolean = () => true,
): Promise<{ stale: number; reannounced: number }> {
  const run = {
    get stopped() {
      return !timeLeft();
    },
  };
  const done = await runDue({ ...deps, webhooks }, run);
  const stale = done.stale_sweep ?? 0;
  const reannounced = done.reannounce ?? 0;
  console.info(
    JSON.stringify({
      monitoring_minute: { stale_events: stale, batches_reannounced: reannounced, minutes_compacted: done.compaction ?? 0 },
    }),
  );
  return { stale, reannounced };
}
