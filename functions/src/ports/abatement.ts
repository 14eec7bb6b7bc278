// Abatement assessments (methodology section 11, D47): a company's, versioned, never part of an inventory.
import type * as z from "zod";
import type { CompanyObjects } from "./company-objects";
import type { abatementAssessmentSchema } from "../contract/schemas/abatement";

export type AbatementAssessment = z.output<typeof abatementAssessmentSchema>;

/** Listed the last changed first. */
export type AbatementRepository = CompanyObjects<AbatementAssessment>;
