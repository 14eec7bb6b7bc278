// Facilities and their emission points (D25).
import type * as z from "zod";
import type { CompanyObjects } from "./company-objects";
import type { emissionPointSchema, facilitySchema } from "../contract/schemas/answers";

/** A site of a company whose emissions are reported together (docs/methodology.md, Inventory and the report). */
export type Facility = z.output<typeof facilitySchema>;

/** Listed by name. */
export type FacilityRepository = CompanyObjects<Facility>;

/** D25: an emission point of a facility (a ventilation shaft, a drainage station, a flare, a boiler …). */
export type EmissionPoint = z.output<typeof emissionPointSchema>;

export interface EmissionPointRepository {
  /** Refused (Conflict) when the id is taken. */
  create(point: EmissionPoint): Promise<void>;
  get(companyId: string, facilityId: string, pointId: string): Promise<EmissionPoint | undefined>;
  /** The points of one facility, by name. */
  listOfFacility(companyId: string, facilityId: string): Promise<EmissionPoint[]>;
  /** Every point of the company's facilities (the inventory names them), by name. */
  listOfCompany(companyId: string): Promise<EmissionPoint[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: EmissionPoint, expectedVersion: number): Promise<void>;
}
