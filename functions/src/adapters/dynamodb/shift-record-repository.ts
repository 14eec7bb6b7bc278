// The shift's records (D95, ports/shift-records.ts): the handovers, listed from an instant by their ids
// (UUID v7) and written once as the sensors' checks are (sensor-check-repository.ts writeOnce), and the
// journal's signature of a shift. Same table, their own keys (keys.handover, keys.journalSignature).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Handover, JournalSignature, ShiftRecordRepository } from "../../ports";
import { handoverSameness } from "../../ports/shift-records";
import * as keys from "./keys";
import { getItem, putNew, queryPrefix, stripAll, versionedPut, type Item } from "./items";
import { sameDigest, writeOnce, writtenSince } from "./sensor-check-repository";

export const HANDOVER_EXISTS = "Передача смены с таким идентификатором уже записана";
export const HANDOVER_CONFLICT = "Передачу смены только что подписали: обновите страницу и повторите";
export const handoverItem = (h: Handover): Item => ({ ...keys.handover(h.company, h.facility, h.id), ...h });
export const handoverWritten = (a: Handover, b: Handover) => a.id.localeCompare(b.id);
export const JOURNAL_SIGNED = "Журнал этой смены уже подписан";
export const journalSignatureItem = (j: JournalSignature): Item => ({ ...keys.journalSignature(j.company, j.facility, j.shift), ...j });
export const HANDOVER_CORRECTED = "Эту передачу смены уже исправили: исправление следует за последней записью";
export const handoverOnce = (h: Handover) => handoverSameness(h, sameDigest);

export const dynamoShiftRecords = (doc: DynamoDBDocumentClient, table: string): ShiftRecordRepository => ({
  createHandover(record) {
    const sameness = handoverOnce(record);
    return writeOnce(
      doc,
      table,
      {
        key: keys.handoverOnce(record.company, record.facility, sameness.once),
        sameness,
        record,
        item: handoverItem(record),
        read: (id) => getItem<Handover>(doc, table, keys.handover(record.company, record.facility, id), { consistentRead: true }),
      },
      { taken: HANDOVER_CORRECTED, exists: HANDOVER_EXISTS },
    );
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
