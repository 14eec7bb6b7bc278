// the sensors' checks (keys.sensorCheck, D94): a few a shift per facility, listed from an
// instant by their ids (UUID v7), never deleted.
import { createHash } from "node:crypto";
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CheckIntervals, SensorCheck, SensorCheckRepository, SensorVerification } from "../../ports";
import { CERTIFICATE_ATTACHED, checkSameness, idFloorAt, saidText, type Sameness, verificationSameness } from "../../ports/instruments";
import { Conflict } from "../../domain/errors";
import { putWhere, unlessConditionFails } from "./conditions";
import * as keys from "./keys";
import { getItem, putNew, putNewCommand, queryAll, queryPrefix, stripAll, versionedPut, type Item } from "./items";

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
export const byWritten = (a: SensorCheck, b: SensorCheck) => a.id.localeCompare(b.id);
/** The SHA-256 of a record's fields, keys sorted (nested objects as the domain built them). */
export const sameDigest = (fields: object) => createHash("sha256").update(saidText(fields)).digest("hex");
export const CHECK_FOLLOWED = "Эту проверку уже исправили: исправление следует за последней записью";
export const VERIFICATION_CORRECTED = "Эту поверку уже исправили: исправление следует за последней записью";
export const checkOnce = (c: SensorCheck) => checkSameness(c, sameDigest);
export const verificationOnceOf = (v: SensorVerification) => verificationSameness(v, sameDigest);
/** A record's `once` item: its key, the id it names, the digest of what it says, when it was taken. */
export interface OnceItem {
  id: string;
  digest: string;
  at: string;
}
/** A `once` item whose record is not written after this long was left by a write that failed after it. */
export const ONCE_ABANDONED_MS = 60_000;
const ONCE_WAIT_MS = 50;
const ONCE_WAITS = 40;

/** Writes `record` (as `item`) once under its `once` key: the key is taken first with a
 *  condition, so of parallel writes one takes it. A write finding it taken answers the record it names when
 *  that one says the same (`digest`), waits a moment for one being written, and is refused (Conflict
 *  `taken`) otherwise; a key whose record was never written (a write failed after taking it) is taken over
 *  after ONCE_ABANDONED_MS. A failed write of the record gives the key back. */
export async function writeOnce<T extends { id: string }>(
  doc: DynamoDBDocumentClient,
  table: string,
  at: { key: { PK: string; SK: string }; sameness: Sameness; record: T; item: Item; read: (id: string) => Promise<T | undefined> },
  conflicts: { taken: string; exists: string },
): Promise<T> {
  const mine: OnceItem = { id: at.record.id, digest: at.sameness.digest, at: new Date().toISOString() };
  for (let wait = 0; ; wait += 1) {
    if (await unlessConditionFails(doc.send(putNewCommand(table, { ...at.key, ...mine })))) break;
    const held = await getItem<OnceItem>(doc, table, at.key, { consistentRead: true });
    if (!held) continue;
    const stored = await at.read(held.id);
    if (stored) {
      if (held.digest === mine.digest) return stored;
      throw new Conflict(conflicts.taken);
    }
    if (Date.now() - Date.parse(held.at) >= ONCE_ABANDONED_MS) {
      const taken = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...at.key, ...mine },
            ConditionExpression: "#id = :held",
            ExpressionAttributeNames: { "#id": "id" },
            ExpressionAttributeValues: { ":held": held.id },
          }),
        ),
      );
      if (taken) break;
      continue;
    }
    if (wait >= ONCE_WAITS) throw new Conflict(conflicts.taken);
    await new Promise((resolve) => setTimeout(resolve, ONCE_WAIT_MS));
  }
  try {
    await putNew(doc, table, at.item, conflicts.exists);
  } catch (error) {
    await unlessConditionFails(
      doc.send(
        new DeleteCommand({
          TableName: table,
          Key: at.key,
          ConditionExpression: "#id = :mine",
          ExpressionAttributeNames: { "#id": "id" },
          ExpressionAttributeValues: { ":mine": mine.id },
        }),
      ),
    );
    throw error;
  }
  return at.record;
}

/** The items under `prefix` whose ids (time-ordered) were made at or after `writtenFrom` (ms). */
export const writtenSince = (doc: DynamoDBDocumentClient, table: string, prefix: { PK: string; SKPrefix: string }, writtenFrom: number) =>
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
  create(check) {
    const sameness = checkOnce(check);
    return writeOnce(
      doc,
      table,
      {
        key: keys.sensorCheckOnce(check.company, check.facility, sameness.once),
        sameness,
        record: check,
        item: sensorCheckItem(check),
        read: (id) => getItem<SensorCheck>(doc, table, keys.sensorCheck(check.company, check.facility, id), { consistentRead: true }),
      },
      { taken: CHECK_FOLLOWED, exists: SENSOR_CHECK_EXISTS },
    );
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
  createVerification(record) {
    const sameness = verificationOnceOf(record);
    return writeOnce(
      doc,
      table,
      {
        key: keys.verificationOnce(record.company, record.facility, sameness.once),
        sameness,
        record,
        item: verificationItem(record),
        read: (id) =>
          getItem<SensorVerification>(doc, table, keys.sensorVerification(record.company, record.facility, record.sensor, id), {
            consistentRead: true,
          }),
      },
      { taken: VERIFICATION_CORRECTED, exists: VERIFICATION_EXISTS },
    );
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
});
