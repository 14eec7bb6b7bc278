// The Lambda host of the table's stream handler (events/table-changes.ts): the stack subscribes
// this function to the table's DynamoDB stream (both images).
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { systemClock } from "../domain/context";
import { handleTableChanges, type BatchResponse, type StreamEvent } from "../events/table-changes";

const tableName = process.env.TABLE_NAME ?? "";
const doc = createDocumentClient({ tableName, region: process.env.AWS_REGION });
const repos = dynamoRepositories(doc, tableName);

/** The records that failed, for the event source's ReportBatchItemFailures. */
export async function handler(event: StreamEvent): Promise<BatchResponse> {
  if (!tableName) throw new Error("TABLE_NAME is not set (the CDK stack sets it)");
  return handleTableChanges(event, { doc, tableName, repos, clock: systemClock });
}
