// The administrators' audit log (keys.adminAuditEntry), newest first; a change of a company's own
// requisites or facilities is also kept under the company (keys.companyAuditEntry), a second put made
// at the same time (dynalite has no transactions; both are written after the change itself succeeded).
import type { DynamoDBDocumentClient, QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { AdminAuditEntry, AdminAuditRepository, PageRequest } from "../../ports";
import * as keys from "./keys";
import { queryCount, queryPage, strip, putNew } from "./items";

export function dynamoAdminAudit(doc: DynamoDBDocumentClient, table: string): AdminAuditRepository {
  // before/after as JSON text: any shape, empty strings and nulls kept exactly as they were.
  const stored = (entry: AdminAuditEntry) => ({
    ...entry,
    before: JSON.stringify(entry.before ?? null),
    after: JSON.stringify(entry.after ?? null),
  });
  const put = (item: Record<string, unknown>) => putNew(doc, table, item, "Запись журнала с таким идентификатором уже существует");
  const read = async (pk: string, page: PageRequest) => {
    const query: QueryCommandInput = {
      TableName: table,
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": pk },
      ScanIndexForward: false,
    };
    const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
    const results = items.map((item) => {
      const entry = strip<AdminAuditEntry & { before: string; after: string }>(item)!;
      return { ...entry, before: JSON.parse(entry.before), after: JSON.parse(entry.after) } as AdminAuditEntry;
    });
    return { results, count };
  };
  return {
    async add(entry, company) {
      await Promise.all([
        put({ ...keys.adminAuditEntry(entry.at, entry.id), ...stored(entry) }),
        ...(company ? [put({ ...keys.companyAuditEntry(company, entry.at, entry.id), ...stored(entry) })] : []),
      ]);
    },
    list: (page) => read(keys.ADMIN_AUDIT_PK, page),
    listCompany: (company, page) => read(keys.companyAudit(company).PK, page),
  };
}
