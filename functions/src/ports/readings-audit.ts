// The readings' audit as stored (D104, D105): the cut-offs not confirmed by the run channel, with their
// answers and confirmations, and the ВТБ section's hand measurements beside the fixed meters. Same table as
// the sensors' checks (ports/instruments.ts), their own keys.
import type * as z from "zod";
import type { handMeasurementSchema } from "../contract/schemas/readings-audit";

export interface ReadingsAuditRepository {
  /** D105: writes a hand measurement once (never replaced); Conflict when its id is taken. */
  createHandMeasurement(record: HandMeasurement): Promise<void>;
  /** The facility's hand measurements written at or after `writtenFrom` (ms; ids UUID v7), oldest written first. */
  handMeasurementsOfFacility(companyId: string, facilityId: string, writtenFrom?: number): Promise<HandMeasurement[]>;
  /** D104: every cut-off record of the facility (a few a year), by start. */
  cutoffsOfFacility(companyId: string, facilityId: string): Promise<CutoffRecord[]>;
  getCutoff(companyId: string, facilityId: string, id: string): Promise<CutoffRecord | undefined>;
  /** Writes `next` if the stored version is still `expectedVersion` (0: none stored); Conflict otherwise. */
  putCutoff(next: CutoffRecord, expectedVersion: number): Promise<void>;
  /** Removes an unanswered record the minutes no longer give (false when its stored version moved). */
  removeCutoff(record: Pick<CutoffRecord, "company" | "facility" | "id">, expectedVersion: number): Promise<boolean>;
}

/** D105: a hand measurement of the ВТБ section as stored, written once; a correction is a newer record
 *  naming the one it corrects (`corrects`). `compared` is what the fixed meter read beside it when it was
 *  written (null: no minute of the meter within the window, or a meter above the compared range). */
export type HandMeasurement = Omit<
  z.output<typeof handMeasurementSchema>,
  "corrected_by" | "recorded_by" | "recorded_at" | "compared" | "text"
> & {
  company: string;
  /** Who wrote it (e-mail) and when; the view names them. */
  created_by: string;
  created_at: string;
  /** What the fixed meter read beside it when it was written; the view adds the difference and the words. */
  compared: { meter_pct: number; at: string; differs: boolean; permitted_pct: number } | null;
};

/** D104: «отключение не подтверждено» as stored — what the minutes gave (the detector keeps it equal to
 *  them while nobody answered it), the answer (a cause, who, when) and the confirmation by another. */
export interface CutoffRecord {
  company: string;
  facility: string;
  /** `{meter}.{run channel}.{start minute base 36}`: the same minutes give the same id. */
  id: string;
  sensor: string;
  run_sensor: string;
  setpoint: number;
  start: string;
  /** The first minute below the setpoint again; null while it lasts. */
  end: string | null;
  peak: number;
  /** Minutes at or above the setpoint, and of them (and the minute after) those the run channel read 1. */
  minutes: number;
  run_minutes: number;
  found_at: string;
  answer: { cause: "protection_failed" | "not_cut_equipment" | "false_reading"; comment: string; by: string; at: string } | null;
  confirmation: { duty: string; by: string; at: string } | null;
  version: number;
}
