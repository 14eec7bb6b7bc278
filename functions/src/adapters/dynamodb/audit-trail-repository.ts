// The audit trail of changes, read one day at a time (keys.auditDay).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AuditTrailRepository, AuditTrailEntry } from "../../ports";
import * as keys from "./keys";
import { queryAll, strip } from "./items";

export function dynamoAuditTrail(doc: DynamoDBDocumentClient, table: string): AuditTrailRepository {
  return {
    async day(day) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.auditDay(day).PK },
      });
      return items.map((item) => strip<AuditTrailEntry>(item)!);
    },
  };
}
