// The readings' queue in AWS (domain/context.ts TelemetryQueue): a stored batch announced as one SQS
// message `{company, batch}`, which the readings' function consumes (events/telemetry-queue.ts). The
// batch itself is already stored (its readings in S3, its item and queue mark in the table) when the
// message is sent, so the message carries ids only.
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { TelemetryQueue } from "../../domain/context";

export function sqsTelemetryQueue(client: SQSClient, queueUrl: string): TelemetryQueue {
  return {
    async send(message) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}
