// The Lambda host of the table's stream handler (events/table-changes.ts): the stack subscribes
// this function to the table's DynamoDB stream (both images).
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { systemClock } from "../domain/context";
import { handleTableChanges, type StreamEvent } from "../events/table-changes";

const tableName = process.env.TABLE_NAME ?? "";
const doc = createDocumentClient({ tableName, region: process.env.AWS_REGION });
const repos = dynamoRepositories(doc, tableName);

export async function handler(event: StreamEvent): Promise<void> {
  if (!tableName) throw new Error("TABLE_NAME is not set (the CDK stack sets it)");
  await handleTableChanges(event, { doc, tableName, repos, clock: systemClock });
}
