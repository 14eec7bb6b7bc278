// Abatement assessments (methodology section 11, D47): a company's, versioned, never part of an inventory.
import type * as z from "zod";
import type { abatementAssessmentSchema } from "../contract/schemas/abatement";

export type AbatementAssessment = z.output<typeof abatementAssessmentSchema>;

export interface AbatementRepository {
  /** Refused (Conflict) when the id is taken. */
  create(assessment: AbatementAssessment): Promise<void>;
  get(companyId: string, id: string): Promise<AbatementAssessment | undefined>;
  /** Every assessment of the company, the last changed first. */
  list(companyId: string): Promise<AbatementAssessment[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: AbatementAssessment, expectedVersion: number): Promise<void>;
}
