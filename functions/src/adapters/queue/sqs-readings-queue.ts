// The readings' queue in AWS (domain/context.ts ReadingsQueue): a stored batch announced as one SQS
// message `{company, batch}`, which the readings' function consumes (events/readings-queue.ts). The
// batch itself is already stored (its readings in S3, its item and queue mark in the table) when the
// message is sent, so the message carries ids only. Its MessageGroupId is the company: the queue is an
// SQS fair queue (a standard queue whose messages name their tenant), so a company with a backlog, or
// whose batches take the function long, has its messages delivered after the other companies' waiting
// ones, not before (docs/architecture.md, «The mine's readings»).
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { ReadingsQueue } from "../../domain/context";

export function sqsReadingsQueue(client: SQSClient, queueUrl: string): ReadingsQueue {
  return {
    async send(message) {
      await client.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), MessageGroupId: message.company }),
      );
    },
  };
}
