// The emission points of a company's facilities (keys.emissionPoint, D25): a handful per facility,
// read whole; and the marks of the one-time migrations done per company (keys.migration).
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { EmissionPoint, EmissionPointRepository, MigrationRepository } from "../../ports";
import * as keys from "./keys";
import { emissionPointItem, queryPrefix, versionedPut, getItem, stripAll, putNew } from "./items";

const CONFLICT = "Источник выбросов был изменен другим пользователем. Обновите страницу и повторите.";
const byName = (a: EmissionPoint, b: EmissionPoint) => a.name.localeCompare(b.name, "ru") || a.id.localeCompare(b.id);

export function dynamoEmissionPoints(doc: DynamoDBDocumentClient, table: string): EmissionPointRepository {
  const list = async (prefix: { PK: string; SKPrefix: string }) =>
    stripAll<EmissionPoint>(await queryPrefix(doc, table, prefix, { consistentRead: true })).sort(byName);
  return {
    async create(point) {
      await putNew(doc, table, emissionPointItem(point), "Источник выбросов с таким идентификатором уже существует");
    },
    async get(companyId, facilityId, pointId) {
      return getItem<EmissionPoint>(doc, table, keys.emissionPoint(companyId, facilityId, pointId));
    },
    listOfFacility: (companyId, facilityId) => list(keys.pointsOfFacility(companyId, facilityId)),
    listOfCompany: (companyId) => list(keys.pointsOfCompany(companyId)),
    async replace(next, expectedVersion) {
      await versionedPut(doc, table, emissionPointItem(next), expectedVersion, CONFLICT);
    },
  };
}

export function dynamoMigrations(doc: DynamoDBDocumentClient, table: string): MigrationRepository {
  return {
    async isDone(companyId, name) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.migration(companyId, name), ConsistentRead: true }));
      return out.Item !== undefined;
    },
    async markDone(companyId, name, at) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.migration(companyId, name), name, at } }));
    },
  };
}
