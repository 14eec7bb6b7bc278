// The administrators' audit log (keys.adminAuditEntry), newest first.
import { PutCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { AdminAuditEntry, AdminAuditRepository } from "../../ports";
import * as keys from "./keys";
import { conditional } from "./conditions";
import { queryCount, queryPage, strip } from "./items";

export function dynamoAdminAudit(doc: DynamoDBDocumentClient, table: string): AdminAuditRepository {
  return {
    async add(entry) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            // before/after as JSON text: any shape, empty strings and nulls kept exactly as they were.
            Item: {
              ...keys.adminAuditEntry(entry.at, entry.id),
              ...entry,
              before: JSON.stringify(entry.before ?? null),
              after: JSON.stringify(entry.after ?? null),
            },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Запись журнала с таким идентификатором уже существует",
      );
    },
    async list(page) {
      const query: QueryCommandInput = {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.ADMIN_AUDIT_PK },
        ScanIndexForward: false,
      };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      const results = items.map((item) => {
        const entry = strip<AdminAuditEntry & { before: string; after: string }>(item)!;
        return { ...entry, before: JSON.parse(entry.before), after: JSON.parse(entry.after) } as AdminAuditEntry;
      });
      return { results, count };
    },
  };
}
