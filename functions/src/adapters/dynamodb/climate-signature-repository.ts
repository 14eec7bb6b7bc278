// The КЭП of climate periods (keys.climateSignature, written once, a few a period) and the CA
// certificates an administrator loaded as their trust anchors (keys.trustRoot, platform-wide, a few).
import { DeleteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ClimateSignatureRecord, ClimateSignatureRepository, TrustRootRecord, TrustRootRepository } from "../../ports";
import * as keys from "./keys";
import { putNew, queryCount, queryPrefix, stripAll } from "./items";

export const TRUST_ROOT_EXISTS = "Этот корневой сертификат уже загружен";

export const CLIMATE_SIGNATURE_PLACE_TAKEN = "Другая подпись этого периода сохраняется одновременно: повторите загрузку";

export const climateSignatureItem = (s: ClimateSignatureRecord, place: number) => ({
  ...keys.climateSignaturePlace(s.company, s.project, s.period, place),
  ...s,
});
export const trustRootItem = (r: TrustRootRecord) => ({ ...keys.trustRoot(r.id), ...r });
/** The earliest first (ids are UUIDv7: in creation order). */
export const signaturesInOrder = (a: ClimateSignatureRecord, b: ClimateSignatureRecord) =>
  a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
export const rootsInOrder = (a: TrustRootRecord, b: TrustRootRecord) =>
  a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
export const trustRootsPrefix = { PK: keys.TRUST_ROOTS_PK, SKPrefix: "ROOT#" };

export function dynamoClimateSignatures(doc: DynamoDBDocumentClient, table: string): ClimateSignatureRepository {
  return {
    async add(record, place) {
      await putNew(doc, table, climateSignatureItem(record, place), CLIMATE_SIGNATURE_PLACE_TAKEN);
    },
    async list(companyId, project, period) {
      const items = await queryPrefix(doc, table, keys.climateSignaturesOfPeriod(companyId, project, period), { consistentRead: true });
      return stripAll<ClimateSignatureRecord>(items).sort(signaturesInOrder);
    },
    count(companyId, project, period) {
      const { PK, SKPrefix } = keys.climateSignaturesOfPeriod(companyId, project, period);
      return queryCount(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": PK, ":sk": SKPrefix },
        ConsistentRead: true,
      });
    },
  };
}

export function dynamoTrustRoots(doc: DynamoDBDocumentClient, table: string): TrustRootRepository {
  return {
    async add(root) {
      await putNew(doc, table, trustRootItem(root), TRUST_ROOT_EXISTS);
    },
    async list() {
      return stripAll<TrustRootRecord>(await queryPrefix(doc, table, trustRootsPrefix, { consistentRead: true })).sort(rootsInOrder);
    },
    async remove(id) {
      const out = await doc.send(new DeleteCommand({ TableName: table, Key: keys.trustRoot(id), ReturnValues: "ALL_OLD" }));
      return out.Attributes !== undefined;
    },
  };
}
