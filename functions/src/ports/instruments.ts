// Issue 118 (D94): a sensor's maintenance record as stored — each check of the «Метан» journal's columns
// with its signatures. A check is written once with its author's signature; only the other duties'
// signatures are added after (never its findings); a correction is a new check that `follows` it.
import type { CheckDuty, CheckKind, CheckResult } from "@core/sensor-checks";

export interface SensorCheck {
  company: string;
  facility: string;
  sensor: string;
  /** UUID v7: sorts by when it was written. */
  id: string;
  /** The sensor's code when checked. */
  sensor_code: string;
  /** When it was done (ISO instant). */
  at: string;
  /** The shift it was done in, keyed as the journal's (ГГГГ-ММ-ДД#n). */
  shift: string;
  kind: CheckKind;
  reading_pct: number | null;
  reference_pct: number | null;
  reference_instrument: string;
  button_test_ok: boolean | null;
  test_gas_pct: number | null;
  test_gas_cylinder: { number: string; valid_to: string } | null;
  alarm_ok: boolean | null;
  cutoff_ok: boolean | null;
  result: CheckResult;
  fault: string;
  measures: string;
  planned_work: string;
  /** The check this one corrects, if any. */
  follows: string | null;
  created_by: string;
  created_at: string;
  /** Who signed (e-mail) and when, by duty. */
  signatures: Partial<Record<CheckDuty, { by: string; at: string }>>;
  version: number;
}

/** Issue 118, item 2: the facility's check intervals as its АГК project sets them (one record, versioned). */
export interface CheckIntervals {
  company: string;
  facility: string;
  rules: { kind: string | null; role: string | null; per: "shift" | "days"; days: number | null }[];
  source: string;
  updated_by: string;
  updated_at: string;
  version: number;
}

/** Issue 118, item 3: a sensor's state verification as a measuring instrument, written once (a correction
 *  is a newer record). */
export interface SensorVerification {
  company: string;
  facility: string;
  sensor: string;
  id: string;
  instrument_type: string;
  register_number: string;
  serial: string;
  verified_on: string;
  valid_to: string;
  certificate: string;
  recorded_by: string;
  recorded_at: string;
}

/** Issue 118, item 5 (D95): a shift handover as stored: the lists the platform filled at `at`, what people
 *  added, who handed over (with the record) and who took over; after both, never changed. */
export interface Handover {
  company: string;
  facility: string;
  id: string;
  shift_from: string;
  shift_to: string;
  at: string;
  open: Record<
    "gassings" | "silent" | "levels" | "checks" | "verification" | "forecasts",
    { code: string; working: string; text: string }[]
  >;
  bypassed: { sensor: string; code: string; note: string }[];
  remarks: string;
  corrects: string | null;
  handed_by: string;
  handed_at: string;
  taken_by: string | null;
  taken_at: string | null;
  version: number;
}

/** Issue 118, item 5: the АГК operator's signature of a shift's journal, once, after the handover into it. */
export interface JournalSignature {
  company: string;
  facility: string;
  shift: string;
  by: string;
  at: string;
  handover: string;
}

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

/** The lowest UUID v7 written at `ms`: where a listing from that instant starts. */
export const idFloorAt = (ms: number): string => {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};
