// D63: what an accepted month keeps for the verification pack (export/verification-pack.ts): the
// readings it came from, exactly as the SHA-256 its evidence names is over, and its window and sensors,
// so that verify.py recomputes the month from the minute values. Apart from offers.ts, so the pack's
// worker reads the key without the offers' calculations.
import type { SensorKind } from "@core/monitoring";
import type { OfferAcceptance } from "../../../ports";
import type * as z from "zod";
import type { offerSchema } from "../../../contract/schemas/monitoring";

type Offer = z.output<typeof offerSchema>;

/** What a verifier recomputes an accepted month from (the verification pack's telemetry/NNNN.json and
 *  .csv, export/verification-pack.ts): the readings exactly as their SHA-256 is over, and the window and
 *  the register entries of the sensors they came from. */
export interface MonthEvidence {
  /** `code;ISO instant;value\n` per reading: flow, content, then pressure and temperature. */
  readings: string[];
  description: {
    point: string;
    point_name: string;
    month: string;
    /** The month's window on the company's clock (UTC ms and ISO) and its minutes up to the offer. */
    start_ms: number;
    start: string;
    minutes: number;
    conditions: "standard" | "actual";
    sensors: {
      role: "flow" | "velocity" | "ch4" | "methane_flow" | "pressure" | "temperature";
      code: string;
      kind: SensorKind;
      area_m2: number | null;
    }[];
    readings_sha256: string;
    result: Pick<Offer, "volume_thousand_m3" | "ef_ch4" | "ch4_t" | "minutes" | "completeness" | "longest_gap_min">;
    demo: boolean;
    /** D94: per channel, its minutes «под сомнением» in the window (kept and used, never substituted):
     *  how many, why, and their spans (UTC ISO, `to` exclusive). Absent before an earlier release. */
    doubt?: { code: string; minutes: number; why: string[]; spans: { from: string; to: string; why: string }[] }[];
  };
}

/** Where an accepted month's evidence is kept, by the SHA-256 of its readings (written when it is
 *  accepted; the same readings give the same bytes, so a write twice changes nothing). */
export const acceptedEvidenceKey = (
  a: Pick<OfferAcceptance, "company" | "facility" | "point" | "month" | "readings_sha256">,
  ext: "csv" | "json",
) => `telemetry/accepted/${a.company}/${a.facility}/${a.point}/${a.month}/${a.readings_sha256}.${ext}`;
