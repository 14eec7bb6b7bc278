// Normative documents (keys.normativeDocument).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DocumentRepository, NormativeDocument } from "../../ports";
import * as keys from "./keys";
import { type VersionedPartition, versionedPartition } from "./items";
import { STALE_DOCUMENT } from "../../domain/reference/documents";

/** Where the documents are kept (the memory adapter keeps them alike); read eventually consistent. */
export const DOCUMENTS: VersionedPartition<NormativeDocument, string> = {
  pk: keys.DOCUMENTS_PK,
  key: keys.normativeDocument,
  idOf: (document) => document.id,
  conflict: () => STALE_DOCUMENT,
  consistentRead: false,
};

export function dynamoDocuments(doc: DynamoDBDocumentClient, table: string): DocumentRepository {
  return versionedPartition(doc, table, DOCUMENTS);
}
