// Calculations: what is stored of one, and the repository with its write guard (D32).
import type { InventoryRole } from "@core/inventory";
import type * as z from "zod";
import type { coefficientSchema, evidenceSchema, usedUncertaintySchema } from "../contract/schemas/answers";
import type { Page, PageRequest } from "./paging";
import type { ProjectState } from "./project";

/** Where a coefficient of a stored calculation came from (methodology D9: auditable results). */
type CoefficientAnswer = z.output<typeof coefficientSchema>;
/** As the answer shows it, and the evidence file's blob key, which the answer keeps to itself. */
export type CoefficientUse = Omit<CoefficientAnswer, "evidence"> & { evidence?: StoredFile };

/** A value's uncertainty as the calculation used it: the answer's shape (its dictionary entry, an
 *  activity input's entry, or the user's). */
export type UsedUncertainty = z.output<typeof usedUncertaintySchema>;

export interface StoredCalculation {
  id: string;
  type: string;
  project: string;
  company: string;
  name: string;
  is_active: boolean;
  is_deleted: boolean;
  version: number;
  /** Inputs and settings by their API names (volume, ef, …, gwp_ch4, q_boiler …, name_value). */
  inputs: Record<string, number | string>;
  /** D13: inputs typed in another unit than the stored (canonical) one: the value and unit as entered. */
  entered?: Record<string, { value: number; unit: string }>;
  /** The uploaded source file of a file-based calculation, kept in the blob store. */
  file?: StoredFile;
  results: Record<string, unknown>;
  coefficients: Record<string, CoefficientUse>;
  methodology_version: string;
  /** D12: the project's reporting year and the GWP set in force for it when last computed. */
  gwp_in_force?: { reporting_year: number; set: number };
  /** D15, inventory types only: primary counts in the year's inventory, alternative (a cross-check
   *  or a scenario) is shown and never summed. Absent (stored before roles existed): primary, as
   *  the core's roleOf reads it. */
  inventory_role?: InventoryRole;
  /** D19: the part of its project's dates the calculation covers (ISO dates, both ends included),
   *  e.g. a month or a quarter. Absent: the project's dates. */
  period?: { from: string; to: string };
  /** D25, measured and destruction types: the emission point of its project's facility it belongs
   *  to. Absent: the facility as a whole (a project without a facility, or stored before points). */
  point?: string;
  /** D35, flares, boilers and engines: the drainage points of its facility whose gas it burns.
   *  Absent: the facility's drainage points (its one, or shared by their drained methane). */
  drainage_points?: string[];
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

/** A file a calculation keeps in the blob store (its upload, a coefficient's evidence): as the
 *  answer shows it, and its key, which the answer keeps to itself. */
export type StoredFile = z.output<typeof evidenceSchema> & { key: string };

/** What must hold before a calculation write is made (the year's freeze guard, D32): the write's
 *  own bookkeeping goes side by side with it, and nothing is written when it fails. It gives the
 *  year whose lock counted the write begun and left it open: the item carries it as
 *  `inventory_year`, and the table's stream counts the write ended once it is stored. */
export type WriteGuard = Promise<{ year?: number } | undefined>;

/** A stored calculation of the wrong shape, as the admin command and the year's checks name it. */
export interface DamagedCalculation {
  id: string;
  type: string;
  /** Absent when the project is what is missing. */
  project?: string;
  /** The id when the name is what is missing. */
  name: string;
  is_deleted: boolean;
  problem: string;
}

export interface CalculationRepository {
  create(calculation: StoredCalculation, guard?: WriteGuard): Promise<void>;
  /** The calculation as stored, whole or not (domain/calculation-shape.ts); every list below hands
   *  out only whole ones. */
  get(companyId: string, type: string, calculationId: string): Promise<StoredCalculation | undefined>;
  /** A project's first `limit` active calculations of one type, oldest first: one call. */
  firstOfProject(companyId: string, projectId: string, type: string, limit: number): Promise<StoredCalculation[]>;
  /** A project's calculations of one type, newest first. */
  list(companyId: string, projectId: string, type: string, state: ProjectState, page: PageRequest): Promise<Page<StoredCalculation>>;
  /** Type, results and creation time of every calculation of a company that is not deleted (the
   *  statistics' reconciliation), read consistently from the main table. */
  listActiveByCompany(
    companyId: string,
  ): Promise<Array<Pick<StoredCalculation, "type" | "results" | "created_at" | "project" | "inventory_role">>>;
  /** Project, type and state of every calculation of a company, deleted ones included, read
   *  consistently (the reconciliation of the list counts). */
  listStatesOfCompany(companyId: string): Promise<Array<Pick<StoredCalculation, "project" | "type" | "is_deleted">>>;
  /** All of a project's calculations of one type and state, oldest first (charts, exports). */
  listAllByProject(companyId: string, projectId: string, type: string, state: ProjectState): Promise<StoredCalculation[]>;
  /** Every calculation of the given types of a company that is not deleted, read consistently
   *  (the inventory: a handful of types, all projects). */
  listOfCompanyByTypes(companyId: string, types: readonly string[]): Promise<StoredCalculation[]>;
  /** D25: every calculation of the company of `types`, deleted ones too, that names no emission
   *  point, read consistently (the migration to points on start). */
  listWithoutPoint(companyId: string, types: readonly string[]): Promise<StoredCalculation[]>;
  /** Every calculation of a company of the wrong shape, archived ones too, read consistently (the
   *  admin command, the reconciliation of the inventory sums, the live inventory). */
  listDamagedOfCompany(companyId: string): Promise<DamagedCalculation[]>;
  /** The blob keys every calculation of a company refers to (its file, its forecast rows),
   *  deleted ones included, read consistently (the orphan sweep). */
  blobKeysOfCompany(companyId: string): Promise<Set<string>>;
  replace(next: StoredCalculation, expectedVersion: number, guard?: WriteGuard): Promise<void>;
}
