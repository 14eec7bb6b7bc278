// The job of each export or passport request (keys.exportJobRequest): a claim is one conditional
// put, so of identical requests at once one starts the job and the others reuse it.
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ExportJobRequests } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";

export function dynamoExportJobRequests(doc: DynamoDBDocumentClient, table: string): ExportJobRequests {
  const holder = async (companyId: string, digest: string) => {
    const out = await doc.send(new GetCommand({ TableName: table, Key: keys.exportJobRequest(companyId, digest), ConsistentRead: true }));
    return typeof out.Item?.job === "string" ? out.Item.job : undefined;
  };
  return {
    holder,
    async claim(companyId, digest, job, replacing, expiresAt) {
      const claimed = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.exportJobRequest(companyId, digest), job, expires_at: expiresAt },
            ConditionExpression: replacing === undefined ? "attribute_not_exists(PK)" : "attribute_not_exists(PK) OR job = :replacing",
            ...(replacing === undefined ? {} : { ExpressionAttributeValues: { ":replacing": replacing } }),
          }),
        ),
      );
      return claimed ? job : ((await holder(companyId, digest)) ?? job);
    },
    async release(companyId, digest, job) {
      await unlessConditionFails(
        doc.send(
          new DeleteCommand({
            TableName: table,
            Key: keys.exportJobRequest(companyId, digest),
            ConditionExpression: "job = :job",
            ExpressionAttributeValues: { ":job": job },
          }),
        ),
      );
    },
  };
}
