// Issue 118 (D94): a sensor's maintenance record as stored — each check of the «Метан» journal's columns
// with its signatures. A check is written once with its author's signature; only the other duties'
// signatures are added after (never its findings); a correction is a new check that `follows` it.
import type * as z from "zod";
import type { CheckDuty } from "@core/sensor-checks";
import type { StoredFile } from "./calculation";
import type {
  checkIntervalsSchema,
  handoverSchema,
  journalSignatureSchema,
  sensorCheckSchema,
  verificationSchema,
} from "../contract/schemas/sensor-checks";

/** A check as stored: the view's columns (its id a UUID v7, sorting by when it was written; the sensor's
 *  code when checked; `shift` keyed as the journal's ГГГГ-ММ-ДД#n) without what the view derives or names. */
export type SensorCheck = Omit<
  z.output<typeof sensorCheckSchema>,
  "shift_name" | "deviation_pct" | "result_text" | "followed_by" | "recorded_by" | "recorded_at" | "signatures" | "signed"
> & {
  company: string;
  /** Who wrote it (e-mail) and when; the view names them. */
  created_by: string;
  created_at: string;
  /** Who signed (e-mail) and when, by duty. */
  signatures: Partial<Record<CheckDuty, { by: string; at: string }>>;
  version: number;
};

/** Issue 118, item 2: the facility's check intervals as its АГК project sets them (one record, versioned). */
export type CheckIntervals = Omit<z.output<typeof checkIntervalsSchema>, "updated_by" | "updated_at"> & {
  company: string;
  updated_by: string;
  updated_at: string;
};

/** Issue 118, item 3: a sensor's state verification as a measuring instrument, written once (a correction
 *  is a newer record). Its certificate's scan is added once after, kept in the blob store as a coefficient's
 *  evidence file is (its key, which the answer keeps to itself), with who attached it (e-mail) and when. */
export type SensorVerification = Omit<z.output<typeof verificationSchema>, "certificate_file"> & {
  company: string;
  facility: string;
  certificate_file?: StoredFile & { uploaded_by: string };
};

/** Issue 118, item 5 (D95): a shift handover as stored: the lists the platform filled at `at`, what people
 *  added, who handed over (with the record) and who took over; after both, never changed. */
export type Handover = Omit<z.output<typeof handoverSchema>, "shift_from_name" | "shift_to_name" | "corrected_by" | "signed"> & {
  company: string;
  version: number;
};

/** Issue 118, item 5: the АГК operator's signature of a shift's journal, once, after the handover into it. */
export type JournalSignature = Omit<z.output<typeof journalSignatureSchema>, "shift_name"> & { company: string; facility: string };

export interface SensorCheckRepository {
  /** Refused (Conflict) when the id is taken. */
  create(check: SensorCheck): Promise<void>;
  get(companyId: string, facilityId: string, id: string): Promise<SensorCheck | undefined>;
  /** The facility's checks written at or after `writtenFrom` (ms; their ids sort by it), oldest written first. */
  listOfFacility(companyId: string, facilityId: string, writtenFrom?: number): Promise<SensorCheck[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: SensorCheck, expectedVersion: number): Promise<void>;
  intervals(companyId: string, facilityId: string): Promise<CheckIntervals | undefined>;
  /** Writes `next` only if the stored version is `expectedVersion` (0: none stored); otherwise Conflict. */
  putIntervals(next: CheckIntervals, expectedVersion: number): Promise<void>;
  createVerification(record: SensorVerification): Promise<void>;
  /** Every verification recorded of the facility's sensors (a few per sensor and year). */
  verificationsOfFacility(companyId: string, facilityId: string): Promise<SensorVerification[]>;
  /** Adds `record.certificate_file` to the stored verification, whose other fields it carries unchanged: only
   *  while none is attached (Conflict otherwise, or when the verification is not stored). */
  attachVerificationFile(record: SensorVerification): Promise<void>;
  /** The blob keys of the certificate files the company's verifications name (the orphan sweep keeps them). */
  certificateKeysOfCompany(companyId: string): Promise<Set<string>>;
  createHandover(record: Handover): Promise<void>;
  getHandover(companyId: string, facilityId: string, id: string): Promise<Handover | undefined>;
  /** The facility's handovers written at or after `writtenFrom` (ms), oldest first. */
  handoversOfFacility(companyId: string, facilityId: string, writtenFrom?: number): Promise<Handover[]>;
  replaceHandover(next: Handover, expectedVersion: number): Promise<void>;
  /** Refused (Conflict) when the shift's journal is signed already. */
  createJournalSignature(record: JournalSignature): Promise<void>;
  /** The signatures of the shifts of a company day (ГГГГ-ММ-ДД). */
  journalSignatures(companyId: string, facilityId: string, date: string): Promise<JournalSignature[]>;
}

/** A verification's certificate scan is attached once: what a second attachment is told (409). */
export const CERTIFICATE_ATTACHED = "К этой поверке скан свидетельства уже приложен: исправление — новая запись о поверке";

/** The lowest UUID v7 written at `ms`: where a listing from that instant starts. */
export const idFloorAt = (ms: number): string => {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};
