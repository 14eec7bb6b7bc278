// Climate projects (methodology section 13, D67): a company's, versioned, in the change log like the
// rest; their figures are an assessment of reductions, never part of an inventory (D18, D47).
import type * as z from "zod";
import type { CompanyObjects } from "./company-objects";
import type { climatePeriodSummarySchema, climateProjectSchema } from "../contract/schemas/climate";
import type { climateReportHandSchema } from "../contract/schemas/climate-report";

export type ClimateProject = z.output<typeof climateProjectSchema>;
/** A monitoring period as the table keeps it: its bounds, inputs and totals; its hours and figures are
 *  the blob `blob` names. */
export type ClimatePeriodRecord = z.output<typeof climatePeriodSummarySchema> & {
  company: string;
  period: Record<string, unknown>;
  rules_version: string;
  blob: string;
};

/** The executor's hand-written fields of a period's report on implementation (13.4), versioned. */
export type ClimateReportHand = z.output<typeof climateReportHandSchema>;

/** Projects listed the last changed first, and their periods. */
export interface ClimateProjectRepository extends CompanyObjects<ClimateProject> {
  /** Refused (Conflict) when the id is taken. */
  createPeriod(period: ClimatePeriodRecord): Promise<void>;
  getPeriod(companyId: string, project: string, id: string): Promise<ClimatePeriodRecord | undefined>;
  /** The project's periods, the earliest first. */
  listPeriods(companyId: string, project: string): Promise<ClimatePeriodRecord[]>;
  /** The period's report's hand-written fields; undefined before the first save. */
  getReportHand(companyId: string, project: string, period: string): Promise<ClimateReportHand | undefined>;
  /** Writes `next` only if the stored version is still `expectedVersion` (0: none stored yet); otherwise Conflict. */
  putReportHand(next: ClimateReportHand, expectedVersion: number): Promise<void>;
  /** Writes `next` only if the stored period's version is still `expectedVersion`; otherwise Conflict. */
  replacePeriod(next: ClimatePeriodRecord, expectedVersion: number): Promise<void>;
  /** Takes the project's periods for one request (a create checks the others and writes its own under
   *  it): false while another request holds them, unless its claim is older than `staleBefore`. */
  claimPeriods(claim: ClimatePeriodsClaim, staleBefore: string): Promise<boolean>;
  /** Gives the claim back if `claim.token` still holds it. */
  releasePeriods(claim: ClimatePeriodsClaim): Promise<void>;
}

/** A request's hold on a project's periods (its id, a token of its own, when it was taken). */
export interface ClimatePeriodsClaim {
  company: string;
  project: string;
  token: string;
  at: string;
}
