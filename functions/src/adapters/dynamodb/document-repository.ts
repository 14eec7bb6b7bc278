// Normative documents (keys.normativeDocument).
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DocumentRepository, NormativeDocument } from "../../ports";
import * as keys from "./keys";
import { queryPartition, strip, versionedPut } from "./items";
import { STALE_DOCUMENT } from "../../domain/reference/documents";

export function dynamoDocuments(doc: DynamoDBDocumentClient, table: string): DocumentRepository {
  return {
    async list() {
      const items = await queryPartition(doc, table, keys.DOCUMENTS_PK, { consistentRead: false });
      return items.map((item) => strip<NormativeDocument>(item)!);
    },
    async get(id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.normativeDocument(id) }));
      return strip<NormativeDocument>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(doc, table, { ...keys.normativeDocument(next.id), ...next }, expectedVersion, STALE_DOCUMENT);
    },
  };
}
