// D94: a sensor's maintenance record as stored — each check of the «Метан» journal's columns
// with its signatures. A check is written once with its author's signature; only the other duties'
// signatures are added after (never its findings); a correction is a new check that `follows` it.
import type * as z from "zod";
import type { CheckDuty } from "@core/sensor-checks";
import type { StoredFile } from "./calculation";
import type { checkIntervalsSchema, sensorCheckSchema, verificationSchema } from "../contract/schemas/sensor-checks";

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

/** the facility's check intervals as its АГК project sets them (one record, versioned). */
export type CheckIntervals = Omit<z.output<typeof checkIntervalsSchema>, "updated_by" | "updated_at"> & {
  company: string;
  updated_by: string;
  updated_at: string;
};

/** a sensor's state verification as a measuring instrument, written once (a correction
 *  is a newer record, `corrects` naming it). Its certificate's scan is added once after, kept in the blob
 *  store as a coefficient's evidence file is (its key, which the answer keeps to itself), with who attached
 *  it (e-mail) and when. */
export type SensorVerification = Omit<z.output<typeof verificationSchema>, "certificate_file" | "corrected_by" | "corrects"> & {
  company: string;
  facility: string;
  certificate_file?: StoredFile & { uploaded_by: string };
  /** The verification this one corrects (the review); absent in one written before. */
  corrects?: string | null;
};

export interface SensorCheckRepository {
  /** Writes the check once and answers the check stored: a check the same as one written (what it says,
   *  its author; not its id or when it was written) answers that one and writes nothing, as do parallel
   *  writes of it; refused (Conflict) when the check it follows is followed already, or the id is taken. */
  create(check: SensorCheck): Promise<SensorCheck>;
  get(companyId: string, facilityId: string, id: string): Promise<SensorCheck | undefined>;
  /** The facility's checks written at or after `writtenFrom` (ms; their ids sort by it), oldest written first. */
  listOfFacility(companyId: string, facilityId: string, writtenFrom?: number): Promise<SensorCheck[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: SensorCheck, expectedVersion: number): Promise<void>;
  intervals(companyId: string, facilityId: string): Promise<CheckIntervals | undefined>;
  /** Writes `next` only if the stored version is `expectedVersion` (0: none stored); otherwise Conflict. */
  putIntervals(next: CheckIntervals, expectedVersion: number): Promise<void>;
  /** As `create`: a verification the same as one written (what it says, its author) answers that one. */
  createVerification(record: SensorVerification): Promise<SensorVerification>;
  /** Every verification recorded of the facility's sensors (a few per sensor and year). */
  verificationsOfFacility(companyId: string, facilityId: string): Promise<SensorVerification[]>;
  /** Adds `record.certificate_file` to the stored verification, whose other fields it carries unchanged: only
   *  while none is attached (Conflict otherwise, or when the verification is not stored). */
  attachVerificationFile(record: SensorVerification): Promise<void>;
  /** The blob keys of the certificate files the company's verifications name (the orphan sweep keeps them). */
  certificateKeysOfCompany(companyId: string): Promise<Set<string>>;
}

/** A verification's certificate scan is attached once: what a second attachment is told (409). */
export const CERTIFICATE_ATTACHED = "К этой поверке скан свидетельства уже приложен: исправление — новая запись о поверке";

/** What makes two writes the same record: the SHA-256 of what it says (`fields`, keys sorted). */
export type Sameness = { once: string; digest: string };

/** A check's `once` key: the check it follows (one follower each), else what it says and who said it. */
export const checkSameness = (check: SensorCheck, digestOf: (fields: object) => string): Sameness => {
  const { id: _id, created_at: _at, signatures: _s, version: _v, shift: _shift, sensor_code: _code, ...said } = check;
  const digest = digestOf(said);
  return { once: check.follows ? `follows#${check.follows}` : `same#${digest}`, digest };
};

/** A verification's: what it says and who wrote it (its scan is attached after, not said by it). */
export const verificationSameness = (v: SensorVerification, digestOf: (fields: object) => string): Sameness => {
  const { id: _id, recorded_at: _at, certificate_file: _file, ...said } = v;
  const digest = digestOf(said);
  return { once: v.corrects ? `corrects#${v.corrects}` : `same#${digest}`, digest };
};

/** What a record says as one string: its fields, keys sorted (the digest's input). */
export const saidText = (fields: object): string => JSON.stringify(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)));

/** Whether two checks say the same (what `create` writes once). */
export const sameCheck = (a: SensorCheck, b: SensorCheck) => checkSameness(a, saidText).digest === checkSameness(b, saidText).digest;

/** Whether two verifications say the same (what `createVerification` writes once). */
export const sameVerification = (a: SensorVerification, b: SensorVerification) =>
  verificationSameness(a, saidText).digest === verificationSameness(b, saidText).digest;

/** The lowest UUID v7 written at `ms`: where a listing from that instant starts. */
export const idFloorAt = (ms: number): string => {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};
