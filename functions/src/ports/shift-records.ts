// The shift's records as stored (D95): the handovers, each with its two signatures, and the АГК
// operator's signature of a shift's journal after the handover into it. Kept apart from the sensors'
// checks (ports/instruments.ts), whose storage helpers they share: the same table, their own keys.
import type * as z from "zod";
import type { handoverSchema, journalSignatureSchema } from "../contract/schemas/sensor-checks";
import { saidText, type Sameness } from "./instruments";

/** D95: a shift handover as stored: the lists the platform filled at `at`, what people
 *  added, who handed over (with the record) and who took over; after both, never changed. */
export type Handover = Omit<z.output<typeof handoverSchema>, "shift_from_name" | "shift_to_name" | "corrected_by" | "signed"> & {
  company: string;
  version: number;
};

/** the АГК operator's signature of a shift's journal, once, after the handover into it. */
export type JournalSignature = Omit<z.output<typeof journalSignatureSchema>, "shift_name" | "statement"> & {
  company: string;
  facility: string;
  /** D100: absent on a signature written before it (one after a handover). */
  statement?: string | null;
};

export interface ShiftRecordRepository {
  /** As `create`: a handover the same as one written (its shift, what people added, its author, what it
   *  corrects) answers that one; refused (Conflict) when the handover it corrects is corrected already. */
  createHandover(record: Handover): Promise<Handover>;
  getHandover(companyId: string, facilityId: string, id: string): Promise<Handover | undefined>;
  /** The facility's handovers written at or after `writtenFrom` (ms), oldest first. */
  handoversOfFacility(companyId: string, facilityId: string, writtenFrom?: number): Promise<Handover[]>;
  replaceHandover(next: Handover, expectedVersion: number): Promise<void>;
  /** Refused (Conflict) when the shift's journal is signed already. */
  createJournalSignature(record: JournalSignature): Promise<void>;
  /** The signatures of the shifts of a company day (ГГГГ-ММ-ДД). */
  journalSignatures(companyId: string, facilityId: string, date: string): Promise<JournalSignature[]>;
}

/** A handover's: the handover it corrects, else its shift, what people added and who handed over. */
export const handoverSameness = (h: Handover, digestOf: (fields: object) => string): Sameness => {
  const said = { shift_from: h.shift_from, bypassed: h.bypassed, remarks: h.remarks, corrects: h.corrects, handed_by: h.handed_by };
  const digest = digestOf(said);
  return { once: h.corrects ? `corrects#${h.corrects}` : `same#${digest}`, digest };
};

/** Whether two handovers say the same (what `createHandover` writes once). */
export const sameHandover = (a: Handover, b: Handover) => handoverSameness(a, saidText).digest === handoverSameness(b, saidText).digest;
