// The audit trail of changes, read one day at a time (keys.auditDay).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AuditTrailRepository, AuditTrailEntry } from "../../ports";
import * as keys from "./keys";
import { queryPartition, stripAll } from "./items";

export function dynamoAuditTrail(doc: DynamoDBDocumentClient, table: string): AuditTrailRepository {
  return {
    async day(day) {
      const items = await queryPartition(doc, table, keys.auditDay(day).PK, { consistentRead: false });
      return stripAll<AuditTrailEntry>(items);
    },
  };
}
