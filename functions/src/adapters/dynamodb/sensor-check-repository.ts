// Issue 118: the sensors' checks (keys.sensorCheck, D94): a few a shift per facility, listed from an
// instant by their ids (UUID v7), never deleted.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CheckIntervals, Handover, JournalSignature, SensorCheck, SensorCheckRepository, SensorVerification } from "../../ports";
import { CERTIFICATE_ATTACHED, idFloorAt } from "../../ports/instruments";
import * as keys from "./keys";
import { getItem, putNew, queryAll, queryPrefix, stripAll, versionedPut, type Item } from "./items";
import { putWhere } from "./conditions";

export const SENSOR_CHECK_EXISTS = "Проверка с таким идентификатором уже записана";
export const SENSOR_CHECK_CONFLICT = "Проверку только что подписали: обновите страницу и повторите";
export const sensorCheckItem = (c: SensorCheck): Item => ({ ...keys.sensorCheck(c.company, c.facility, c.id), ...c });
export const CHECK_INTERVALS_CONFLICT = "Интервалы проверок только что изменили: обновите страницу и повторите";
export const checkIntervalsItem = (r: CheckIntervals): Item => ({ ...keys.checkIntervals(r.company, r.facility), ...r });
export const VERIFICATION_EXISTS = "Поверка с таким идентификатором уже записана";
export const verificationItem = (v: SensorVerification): Item => ({
  ...keys.sensorVerification(v.company, v.facility, v.sensor, v.id),
  ...v,
});
export const byVerified = (a: SensorVerification, b: SensorVerification) =>
  b.verified_on.localeCompare(a.verified_on) || b.id.localeCompare(a.id);
/** The certificate files' keys the verification items name. */
export const certificateKeys = (items: readonly Item[]) =>
  new Set(
    items.flatMap((item) => {
      const key = (item.certificate_file as { key?: unknown } | undefined)?.key;
      return typeof key === "string" ? [key] : [];
    }),
  );
export const HANDOVER_EXISTS = "Передача смены с таким идентификатором уже записана";
export const HANDOVER_CONFLICT = "Передачу смены только что подписали: обновите страницу и повторите";
export const handoverItem = (h: Handover): Item => ({ ...keys.handover(h.company, h.facility, h.id), ...h });
export const handoverWritten = (a: Handover, b: Handover) => a.id.localeCompare(b.id);
export const JOURNAL_SIGNED = "Журнал этой смены уже подписан";
export const journalSignatureItem = (j: JournalSignature): Item => ({ ...keys.journalSignature(j.company, j.facility, j.shift), ...j });
export const byWritten = (a: SensorCheck, b: SensorCheck) => a.id.localeCompare(b.id);

/** The items under `prefix` whose ids (time-ordered) were made at or after `writtenFrom` (ms). */
const writtenSince = (doc: DynamoDBDocumentClient, table: string, prefix: { PK: string; SKPrefix: string }, writtenFrom: number) =>
  queryAll(doc, {
    TableName: table,
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: {
      ":pk": prefix.PK,
      ":from": `${prefix.SKPrefix}${idFloorAt(writtenFrom)}`,
      ":to": `${prefix.SKPrefix}\uffff`,
    },
    ConsistentRead: true,
  });

export const dynamoSensorChecks = (doc: DynamoDBDocumentClient, table: string): SensorCheckRepository => ({
  async create(check) {
    await putNew(doc, table, sensorCheckItem(check), SENSOR_CHECK_EXISTS);
  },
  get: (companyId, facilityId, id) =>
    getItem<SensorCheck>(doc, table, keys.sensorCheck(companyId, facilityId, id), { consistentRead: true }),
  async listOfFacility(companyId, facilityId, writtenFrom = 0) {
    const items = await writtenSince(doc, table, keys.sensorChecksOfFacility(companyId, facilityId), writtenFrom);
    return stripAll<SensorCheck>(items).sort(byWritten);
  },
  async replace(next, expectedVersion) {
    await versionedPut(doc, table, sensorCheckItem(next), expectedVersion, SENSOR_CHECK_CONFLICT);
  },
  intervals: (companyId, facilityId) =>
    getItem<CheckIntervals>(doc, table, keys.checkIntervals(companyId, facilityId), { consistentRead: true }),
  async putIntervals(next, expectedVersion) {
    const item = checkIntervalsItem(next);
    if (expectedVersion === 0) await putNew(doc, table, item, CHECK_INTERVALS_CONFLICT);
    else await versionedPut(doc, table, item, expectedVersion, CHECK_INTERVALS_CONFLICT);
  },
  async createVerification(record) {
    await putNew(doc, table, verificationItem(record), VERIFICATION_EXISTS);
  },
  async verificationsOfFacility(companyId, facilityId) {
    const items = await queryPrefix(doc, table, keys.sensorVerificationsOfFacility(companyId, facilityId), { consistentRead: true });
    return stripAll<SensorVerification>(items).sort(byVerified);
  },
  async attachVerificationFile(record) {
    // The verification's fields are never edited, so the record read is the record stored; only the file is added.
    await putWhere(
      doc,
      table,
      verificationItem(record),
      "attribute_exists(PK) AND attribute_not_exists(certificate_file)",
      CERTIFICATE_ATTACHED,
    );
  },
  async certificateKeysOfCompany(companyId) {
    const items = await queryPrefix(
      doc,
      table,
      keys.sensorVerificationsOfCompany(companyId),
      { consistentRead: true },
      { ProjectionExpression: "#file.#key", ExpressionAttributeNames: { "#file": "certificate_file", "#key": "key" } },
    );
    return certificateKeys(items);
  },
  async createHandover(record) {
    await putNew(doc, table, handoverItem(record), HANDOVER_EXISTS);
  },
  getHandover: (companyId, facilityId, id) =>
    getItem<Handover>(doc, table, keys.handover(companyId, facilityId, id), { consistentRead: true }),
  async handoversOfFacility(companyId, facilityId, writtenFrom = 0) {
    const items = await writtenSince(doc, table, keys.handoversOfFacility(companyId, facilityId), writtenFrom);
    return stripAll<Handover>(items).sort(handoverWritten);
  },
  async replaceHandover(next, expectedVersion) {
    await versionedPut(doc, table, handoverItem(next), expectedVersion, HANDOVER_CONFLICT);
  },
  async createJournalSignature(record) {
    await putNew(doc, table, journalSignatureItem(record), JOURNAL_SIGNED);
  },
  async journalSignatures(companyId, facilityId, date) {
    const items = await queryPrefix(doc, table, keys.journalSignaturesOfDay(companyId, facilityId, date), { consistentRead: true });
    return stripAll<JournalSignature>(items).sort((a, b) => a.shift.localeCompare(b.shift));
  },
});
