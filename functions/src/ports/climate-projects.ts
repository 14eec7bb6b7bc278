// Climate projects (methodology section 13, D67): a company's, versioned, in the change log like the
// rest; their figures are an assessment of reductions, never part of an inventory (D18, D47).
import type * as z from "zod";
import type { climateProjectSchema } from "../contract/schemas/climate-project";

export type ClimateProject = z.output<typeof climateProjectSchema>;

export interface ClimateProjectRepository {
  /** Refused (Conflict) when the id is taken. */
  create(project: ClimateProject): Promise<void>;
  get(companyId: string, id: string): Promise<ClimateProject | undefined>;
  /** Every project of the company, the last changed first. */
  list(companyId: string): Promise<ClimateProject[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: ClimateProject, expectedVersion: number): Promise<void>;
}
