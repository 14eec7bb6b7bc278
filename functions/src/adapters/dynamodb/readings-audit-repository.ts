// The readings' audit (D104, D105, ports/readings-audit.ts): the cut-off records, one per run of minutes at
// or above the setpoint, and the hand measurements, written once and listed from an instant by their ids
// (UUID v7) as the sensors' checks are (sensor-check-repository.ts writtenSince).
import { DeleteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CutoffRecord, HandMeasurement, ReadingsAuditRepository } from "../../ports";
import { unlessConditionFails } from "./conditions";
import * as keys from "./keys";
import { getItem, putNew, queryPrefix, stripAll, versionedPut, type Item } from "./items";
import { writtenSince } from "./sensor-check-repository";

export const HAND_MEASUREMENT_EXISTS = "Замер с таким идентификатором уже записан";
export const handMeasurementItem = (m: HandMeasurement): Item => ({ ...keys.handMeasurement(m.company, m.facility, m.id), ...m });
export const CUTOFF_CONFLICT = "Запись об отключении только что изменили: обновите страницу и повторите";
export const cutoffItem = (r: CutoffRecord): Item => ({ ...keys.cutoffRecord(r.company, r.facility, r.id), ...r });
export const byCutoffStart = (a: CutoffRecord, b: CutoffRecord) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id);

export const dynamoReadingsAudit = (doc: DynamoDBDocumentClient, table: string): ReadingsAuditRepository => ({
  async createHandMeasurement(record) {
    await putNew(doc, table, handMeasurementItem(record), HAND_MEASUREMENT_EXISTS);
  },
  async handMeasurementsOfFacility(companyId, facilityId, writtenFrom = 0) {
    const items = await writtenSince(doc, table, keys.handMeasurementsOfFacility(companyId, facilityId), writtenFrom);
    return stripAll<HandMeasurement>(items).sort((a, b) => a.id.localeCompare(b.id));
  },
  async cutoffsOfFacility(companyId, facilityId) {
    const items = await queryPrefix(doc, table, keys.cutoffsOfFacility(companyId, facilityId), { consistentRead: true });
    return stripAll<CutoffRecord>(items).sort(byCutoffStart);
  },
  getCutoff: (companyId, facilityId, id) =>
    getItem<CutoffRecord>(doc, table, keys.cutoffRecord(companyId, facilityId, id), { consistentRead: true }),
  async putCutoff(next, expectedVersion) {
    await versionedPut(doc, table, cutoffItem(next), expectedVersion, CUTOFF_CONFLICT);
  },
  removeCutoff: (record, expectedVersion) =>
    unlessConditionFails(
      doc.send(
        new DeleteCommand({
          TableName: table,
          Key: keys.cutoffRecord(record.company, record.facility, record.id),
          ConditionExpression: "version = :v",
          ExpressionAttributeValues: { ":v": expectedVersion },
        }),
      ),
    ),
});
