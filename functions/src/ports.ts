// Ports: what the domain needs from storage and the outside world. Adapters implement them
// (adapters/dynamodb for DynamoDB or dynalite, adapters/blob for S3 or the local folder).
// Every repository method takes the company id first: there is no "get by id" without a tenant.
import type { Project } from "./contract/schemas/project";
import type { MediaKind, Role } from "./contract/schemas/common";
import type { DocumentKind } from "./contract/schemas/document";
import type { ForecastFeature, ForecastMethod } from "@core/registry";
import type { IntervalLevel } from "@core/gbdt";
import type { InventoryRole } from "@core/inventory";
import type { SourcedValue } from "./dictionaries/reference-data";
import type {
  ExportFormat,
  ExportJobState,
  ExportRequest,
  ExportResult,
  JobTicket,
  PassportRequest,
  TrainJobRequest,
} from "./export/formats";
import type * as z from "zod";
import type {
  auditEntrySchema,
  forecastCalibrationSchema,
  calendarYearSchema,
  coefficientSchema,
  companySchema,
  emissionPointSchema,
  facilitySchema,
  inventoryReviewSchema,
  statisticsSchema,
} from "./contract/schemas/answers";

/** A company: the answer's shape is the stored record (inn/kpp and version absent on older ones). */
export type Company = z.output<typeof companySchema>;

export interface User {
  id: string;
  company: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  is_active: boolean;
  password_hash: string;
  created_at: string;
  /** Bumped by a new password, (de)activation and a role change; tokens of an older generation
   *  are refused. Absent on users created before it existed: generation 0. */
  session_generation?: number;
  /** Sessions revoked (a retired refresh token used again): session id → epoch seconds until which
   *  its access tokens could still be presented. Read with the user on every request, so a revoked
   *  session's access token is refused without another call. */
  revoked_sessions?: Record<string, number>;
}

export interface Page<T> {
  results: T[];
  count: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface CompanyRepository {
  create(company: Company): Promise<void>;
  get(companyId: string): Promise<Company | undefined>;
  findByName(name: string): Promise<Company | undefined>;
  list(): Promise<Company[]>;
  /** Writes `next` only if the stored version is still `expectedVersion` (0: never edited). */
  replace(next: Company, expectedVersion: number): Promise<void>;
}

export interface UserRepository {
  /** Fails with Conflict when the e-mail is taken (e-mails are unique across companies). */
  create(user: User): Promise<void>;
  get(companyId: string, userId: string): Promise<User | undefined>;
  /** The one lookup that starts without a tenant: sign-in knows only the e-mail. */
  findByEmail(email: string): Promise<User | undefined>;
  listByCompany(companyId: string): Promise<User[]>;
  /** Also ends the user's sessions (bumps `session_generation`), as `setActive` does. */
  setPasswordHash(companyId: string, userId: string, passwordHash: string): Promise<void>;
  setActive(companyId: string, userId: string, isActive: boolean): Promise<void>;
  /** Names and role (/admin, `npm run admin -- set-role`); a role in `fields` ends the user's sessions. */
  update(companyId: string, userId: string, fields: Partial<Pick<User, "first_name" | "last_name" | "role">>): Promise<void>;
  /** Records `sessionId` as revoked until `untilSeconds`, dropping the `expired` entries. */
  revokeSession(companyId: string, userId: string, sessionId: string, untilSeconds: number, expired: readonly string[]): Promise<void>;
  /** Re-homes the user in another company's partition and repoints the e-mail lookup. */
  move(user: User, toCompanyId: string): Promise<User>;
  /** Projects (by `user`) and calculations (by `created_by`, the e-mail) the user created in the company. */
  countAuthored(companyId: string, userId: string, email: string): Promise<{ projects: number; calculations: number }>;
}

export type ProjectState = "active" | "archived";

/** A site of a company whose emissions are reported together (docs/methodology.md, Inventory and the report). */
export type Facility = z.output<typeof facilitySchema>;

export interface FacilityRepository {
  /** Refused (Conflict) when the id is taken. */
  create(facility: Facility): Promise<void>;
  get(companyId: string, facilityId: string): Promise<Facility | undefined>;
  /** Every facility of the company, by name. */
  list(companyId: string): Promise<Facility[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: Facility, expectedVersion: number): Promise<void>;
}

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

/** One-time changes of a company's stored data made on start (domain/emission-points-migration.ts):
 *  a migration done is marked, so it runs once per company. */
export interface MigrationRepository {
  isDone(companyId: string, name: string): Promise<boolean>;
  markDone(companyId: string, name: string, at: string): Promise<void>;
}

/** The review and sign-off of a company's inventory of one reporting year (issue: inventory). */
/** D20: a year's review and sign-off; version 0: never stored. */
export type InventoryReview = z.output<typeof inventoryReviewSchema>;

/** A comment on a year's inventory or one of its lines: an item of its own (not inside the review,
 *  whose version it never moves, so no number of comments can block a sign-off). */
export interface InventoryComment {
  id: string;
  company: string;
  year: number;
  /** A calculation id or a category line; null: the whole year. */
  target: string | null;
  text: string;
  by: string;
  at: string;
}

export interface InventoryCommentRepository {
  add(comment: InventoryComment): Promise<void>;
  get(companyId: string, year: number, id: string): Promise<InventoryComment | undefined>;
  /** Newest first. */
  list(companyId: string, year: number, page: PageRequest): Promise<Page<InventoryComment>>;
  count(companyId: string, year: number): Promise<number>;
  /** Refused (NotFound) when there is none. */
  remove(companyId: string, year: number, id: string): Promise<void>;
}

export interface InventoryReviewRepository {
  get(companyId: string, year: number): Promise<InventoryReview | undefined>;
  /** Writes `next` if the stored version is still `expectedVersion` (0: none stored); otherwise Conflict. */
  put(next: InventoryReview, expectedVersion: number): Promise<void>;
  /** D32, D33: a write that may reach the year begins: one conditional update counts it on the
   *  year's review and records `email` as the year's last editor (and among changed_by), creating
   *  the draft review when there is none (its version does not move); false, and nothing written,
   *  while the year is frozen or a freezing step holds its writes (held since after `staleBefore`). */
  beginWrite(companyId: string, year: number, email: string, now: string, staleBefore: string): Promise<boolean>;
  /** The write begun has ended, made or refused. */
  endWrite(companyId: string, year: number): Promise<void>;
  /** A freezing step holds the year's writes (beginWrite refuses) until it writes the review or
   *  releases them; false when another step holds them (since after `staleBefore`). */
  holdWrites(companyId: string, year: number, now: string, staleBefore: string): Promise<boolean>;
  /** The year's writes begun and ended, read consistently, and when the last began. */
  writeCounts(companyId: string, year: number): Promise<{ begun: number; ended: number; last_begun_at?: string }>;
  /** Counts as ended the writes begun (`begun` of them) that never ended: their process is gone. */
  settleAbandoned(companyId: string, year: number, begun: number): Promise<void>;
  releaseWrites(companyId: string, year: number): Promise<void>;
  /** Every year's review of the company (an administrator's GWP change checks them). */
  listOfCompany(companyId: string): Promise<InventoryReview[]>;
}

/** D20: one approved version of a year's inventory. The snapshot itself (canonical JSON, the
 *  calculations it counts with their inputs) is the blob `blob_key`; this small item carries its
 *  SHA-256 and what the version list shows. Written once, never changed. */
export interface InventoryVersion {
  company: string;
  year: number;
  version: number;
  sha256: string;
  blob_key: string;
  /** approve or rework_done. */
  action: string;
  approved_at: string;
  approved_by: string;
  total_t_co2e: number;
  /** Per facility (null: projects without one), t CO2-eq: a facility's report compares with it. */
  facilities: Array<{ id: string | null; t_co2e: number }>;
  /** How many calculations the version lists. */
  calculations: number;
  /** The version approved before this one (the report lists what changed against it). */
  previous: number | null;
}

export interface InventoryVersionRepository {
  /** Claims the version number: Conflict when it is taken. */
  create(version: InventoryVersion): Promise<void>;
  get(companyId: string, year: number, version: number): Promise<InventoryVersion | undefined>;
  /** The year's versions, oldest first. */
  list(companyId: string, year: number): Promise<InventoryVersion[]>;
  /** Only for a version whose approval did not go through (the review changed meanwhile). */
  delete(companyId: string, year: number, version: number): Promise<void>;
}

export interface ProjectRepository {
  create(project: Project): Promise<void>;
  get(companyId: string, projectId: string): Promise<Project | undefined>;
  /** Newest first. */
  list(companyId: string, state: ProjectState, page: PageRequest): Promise<Page<Project>>;
  /** Every project of the company, both states, read consistently from the main table (the
   *  statistics must see a write the moment its stream record arrives; an index may lag). */
  listAllOfCompany(companyId: string): Promise<Project[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: Project, expectedVersion: number): Promise<void>;
}

/** What a company has in the platform (GET users/statistics/): the sum of its per-year
 *  aggregates, which the table's stream handler (functions/src/events/table-changes.ts) keeps up
 *  to date change by change and a reconciliation checks against the table. */
export type CompanyStatistics = z.output<typeof statisticsSchema>;

/** The figures of the projects and calculations created in one year (or the difference one
 *  change makes to them). */
export interface StatisticsFigures {
  year: string;
  projects_active: number;
  projects_archived: number;
  /** Per calculation type. */
  calculations: Record<string, number>;
  total_co2e: number;
  /** D18, per project (`<kind>:<project id>`): `t:` the CO2-eq of its counted calculations, t;
   *  `primary:`, `alternative:`, `analysis:` how many of its calculations the counting rule counts
   *  or leaves out. The profile's total leaves out the projects archived when it reads them.
   *  Absent from aggregates written before (a reconciliation adds it). */
  counting?: Record<string, number>;
}

/** A stored year aggregate; `rev` counts the changes added to it (a reconciliation repairs it only
 *  if none came in since it read it). */
export interface YearStatistics extends StatisticsFigures {
  rev: number;
  updated_at: string;
}

/** How many calculations of one type a project has, per state: the `count` of its lists. */
export interface ListCounts {
  project: string;
  type: string;
  active: number;
  archived: number;
}

/** A stored list count; `rev` counts the changes added to it, as for the years. */
export interface StoredListCounts extends ListCounts {
  rev: number;
}

/** A project's inventory sums as kept (domain/inventory/sums.ts); `rev` counts the changes added. */
export interface StoredInventorySums {
  project: string;
  sums: Record<string, number>;
  rev: number;
  /** How many of its sums came back to zero and stay as attributes (an ADD never removes one). */
  zeros: number;
}

/** The inventory's write counters: `writes` taken by every calculation write before it is made,
 *  `applied` added by the stream handler once a write's difference is in the sums. */
export interface InventoryWriteCounters {
  writes: number;
  applied: number;
}

export interface StatisticsRepository {
  /** The company's year aggregates, read consistently. */
  years(companyId: string): Promise<YearStatistics[]>;
  /** The inventory's write counters, read consistently (`writes` moves with every calculation write). */
  inventoryWrites(companyId: string): Promise<InventoryWriteCounters>;
  /** The inventory sums of each of the company's projects as the stream keeps them, read
   *  consistently; undefined while a calculation write is not in them yet (its counter is ahead of
   *  the applied one), so that whoever reads them sees every write made before: the caller then
   *  folds the calculations themselves. Undefined too while they were kept under another `layout`
   *  than the one asked for (kept before the sums took a key they now have, until a reconciliation
   *  or the company's creation marks them). */
  inventorySums(companyId: string, layout: number): Promise<Map<string, Record<string, number>> | undefined>;
  /** Removes the sums of one project that came back to zero, only if nothing was added since it was
   *  read at `expectedRev` (the coverage differences of a source counted day by day would otherwise
   *  grow the item by a zero a day). Answers whether it was written. */
  compactInventorySums(companyId: string, project: string, expectedRev: number): Promise<boolean>;
  /** Marks the company's kept sums as kept under `layout` (its creation; a reconciliation that repaired them). */
  markInventorySumsLayout(companyId: string, layout: number): Promise<void>;
  /** One project's kept inventory sums as they stand ({} when it has none): what a calculation's
   *  write is checked against before it is made (domain/magnitudes.ts). */
  projectInventorySums(companyId: string, projectId: string): Promise<Record<string, number>>;
  /** The kept inventory sums with their revisions and the counters, whatever they say (the reconciliation). */
  storedInventorySums(companyId: string): Promise<{ projects: StoredInventorySums[]; counters: InventoryWriteCounters }>;
  /** Adds a reconciliation's repair to one project's sums, only if nothing was added since it was
   *  read at `expectedRev` (undefined: it had no item). Answers whether it was written. */
  repairInventorySums(
    companyId: string,
    project: string,
    delta: Record<string, number>,
    expectedRev: number | undefined,
    at: string,
  ): Promise<boolean>;
  /** Brings the write counter to the applied one, only if both are still as read: a write whose
   *  counter was taken but that never reached the table (a crash between) no longer keeps every
   *  read on the live path. */
  settleInventoryWrites(companyId: string, seen: InventoryWriteCounters): Promise<boolean>;
  /** Adds the differences that the stream record `sequence` of item `source` (its SK) makes to
   *  the years and to the list counts, once: a redelivery of that record or of an earlier one is
   *  skipped, also when an earlier delivery stopped half-way. Answers whether the differences
   *  were added by this call. */
  apply(
    companyId: string,
    change: {
      source: string;
      sequence: string;
      deltas: StatisticsFigures[];
      lists?: ListCounts[];
      /** The differences to the projects' inventory sums. */
      inventory?: Array<{ project: string; sums: Record<string, number> }>;
      /** The record is a calculation write that took the inventory's write counter: count it applied. */
      write?: boolean;
      /** D32: the record is a calculation write counted begun on this year's lock: count it ended. */
      ended?: number;
      at: string;
    },
  ): Promise<boolean>;
  /** Every list count of the company, read consistently (the reconciliation), or of one of its
   *  projects (an export's bound). */
  listCounts(companyId: string, projectId?: string): Promise<StoredListCounts[]>;
  /** Adds a reconciliation's repair to one list count, only if nothing was added to it since it
   *  was read at `expectedRev` (undefined: it had no item). Answers whether it was written. */
  repairListCount(companyId: string, delta: ListCounts, expectedRev: number | undefined, at: string): Promise<boolean>;
  /** Adds a reconciliation's repair to one year, only if nothing was added to it since it was
   *  read at `expectedRev` (undefined: it had no item). Answers whether it was written. */
  repair(companyId: string, delta: StatisticsFigures, expectedRev: number | undefined, at: string): Promise<boolean>;
  /** Removes the whole-company snapshot kept before the per-year aggregates. */
  removeLegacy(companyId: string): Promise<void>;
}

/** Where a coefficient of a stored calculation came from (methodology D9: auditable results). */
type CoefficientAnswer = z.output<typeof coefficientSchema>;
/** As the answer shows it, and the evidence file's blob key, which the answer keeps to itself. */
export type CoefficientUse = Omit<CoefficientAnswer, "evidence"> & {
  evidence?: NonNullable<CoefficientAnswer["evidence"]> & { key: string };
};

/** From the value's dictionary entry, from the activity-uncertainty entry `item_id` (version
 *  `item_version`) of an activity input, or set by the user in the calculation dialog. */
export interface UsedUncertainty {
  lower_pct: number;
  upper_pct: number;
  distribution: "normal" | "lognormal" | "triangular" | "uniform";
  /** As users read it: the document, or what the user or administrator wrote. */
  source: string;
  origin: "dictionary" | "activity" | "user";
  item_id?: number;
  item_version?: number;
}

export interface Calculation {
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
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

export interface StoredFile {
  key: string;
  name: string;
  size: number;
  format: string;
  uploaded_at: string;
}

/** What must hold before a calculation write is made (the year's freeze guard, D32): the write's
 *  own bookkeeping goes side by side with it, and nothing is written when it fails. It gives the
 *  year whose lock counted the write begun and left it open: the item carries it as
 *  `inventory_year`, and the table's stream counts the write ended once it is stored. */
export type WriteGuard = Promise<{ year?: number } | undefined>;

export interface CalculationRepository {
  create(calculation: Calculation, guard?: WriteGuard): Promise<void>;
  get(companyId: string, type: string, calculationId: string): Promise<Calculation | undefined>;
  /** A project's first `limit` active calculations of one type, oldest first: one call. */
  firstOfProject(companyId: string, projectId: string, type: string, limit: number): Promise<Calculation[]>;
  /** A project's calculations of one type, newest first. */
  list(companyId: string, projectId: string, type: string, state: ProjectState, page: PageRequest): Promise<Page<Calculation>>;
  /** Type, results and creation time of every calculation of a company that is not deleted (the
   *  statistics' reconciliation), read consistently from the main table. */
  listActiveByCompany(
    companyId: string,
  ): Promise<Array<Pick<Calculation, "type" | "results" | "created_at" | "project" | "inventory_role">>>;
  /** Project, type and state of every calculation of a company, deleted ones included, read
   *  consistently (the reconciliation of the list counts). */
  listStatesOfCompany(companyId: string): Promise<Array<Pick<Calculation, "project" | "type" | "is_deleted">>>;
  /** All of a project's calculations of one type and state, oldest first (charts, exports). */
  listAllByProject(companyId: string, projectId: string, type: string, state: ProjectState): Promise<Calculation[]>;
  /** Every calculation of the given types of a company that is not deleted, read consistently
   *  (the inventory: a handful of types, all projects). */
  listOfCompanyByTypes(companyId: string, types: readonly string[]): Promise<Calculation[]>;
  /** D25: every calculation of the company of `types`, deleted ones too, that names no emission
   *  point, read consistently (the migration to points on start). */
  listWithoutPoint(companyId: string, types: readonly string[]): Promise<Calculation[]>;
  /** The blob keys every calculation of a company refers to (its file, its forecast rows),
   *  deleted ones included, read consistently (the orphan sweep). */
  blobKeysOfCompany(companyId: string): Promise<Set<string>>;
  replace(next: Calculation, expectedVersion: number, guard?: WriteGuard): Promise<void>;
}

/** One uploaded forecast model file (platform-wide, like dictionaries); versions are never removed. */
export interface ForecastModelVersion {
  method: ForecastMethod;
  id: string;
  /** 1, 2, … per method. */
  version: number;
  library: string;
  library_version: string;
  objective: string;
  feature_names: string[];
  num_trees: number;
  /** The inference engine the model runs on (absent on versions stored before there were two). */
  engine?: "quickscorer" | "walk";
  /** Why that engine, in Russian, for the models screen. */
  engine_reason?: string;
  blob_key: string;
  file_name: string;
  description: string;
  is_active: boolean;
  uploaded_at: string;
  uploaded_by: string;
  /** The company whose own model this is (trained by its staff): only it sees and uses it. Absent:
   *  a platform model, the same for every company. */
  company?: string;
  /** A company's own version put aside by its people: listed, never used by its forecasts. */
  archived?: boolean;
  /** What a model trained in the product was trained on, and how it went. */
  training?: ForecastModelTraining;
}

/** The summary a trained version keeps (domain/forecast-training.ts). */
export interface ForecastModelTraining {
  rows: number;
  train_rows: number;
  valid_rows: number;
  /** How the validation rows were chosen: the latest by time, or a seeded draw. */
  validation: "time" | "random";
  /** The rows' time span: ISO date-times, or step numbers; null without a time column. */
  period: { from: string; to: string } | { from: number; to: number } | null;
  ranges: Array<{ feature: string; label: string; min: number | null; max: number | null; missing: number }>;
  target: { min: number; max: number; mean: number };
  params: Record<string, number | string>;
  /** The errors per round (at most 300 points of the curve). */
  rounds: Array<{ round: number; train_rmse: number; valid_rmse: number | null }>;
  rounds_trained: number;
  num_trees: number;
  train_rmse: number;
  valid_rmse: number | null;
  importance: Array<{ feature: string; label: string; share: number; gain: number; splits: number }>;
  seconds: number;
}

export interface ForecastModelRepository {
  list(method: ForecastMethod): Promise<ForecastModelVersion[]>;
  get(method: ForecastMethod, id: string): Promise<ForecastModelVersion | undefined>;
  /** Conflict when the version number is taken (two uploads at once). */
  create(model: ForecastModelVersion): Promise<void>;
  /** Marks `id` active and every other version of the method with the same owner (the same
   *  company, or the platform) inactive. */
  activate(method: ForecastMethod, id: string): Promise<void>;
  /** Changes a version's description, archived mark or active mark alone (no other version's);
   *  NotFound when there is no such version. */
  update(
    method: ForecastMethod,
    id: string,
    change: Partial<Pick<ForecastModelVersion, "description" | "archived" | "is_active">>,
  ): Promise<void>;
}

/** A model version's calibration (domain/forecast-calibration.ts): the split-conformal quantiles
 *  of its residuals on a longwall's history, for one company or (by an admin) for every company
 *  without one of its own. Replaced by the next calibration of the same version and scope. */
export type ForecastCalibration = Omit<z.output<typeof forecastCalibrationSchema>, "scope" | "residuals" | "ranges"> & {
  /** The company it serves, or "all" (an admin's, for companies without their own). */
  scope: string;
  /** Signed residuals y − forecast, ascending (at most 2 001: wasm-core/src/gbdt/conformal.ts). */
  residuals: number[];
  /** Each feature's observed [min, max] on the rows. */
  ranges: Record<string, [number, number]>;
};

/** A forecast row: the features; where the history gives them, the measured y (%) and the time t
 *  (ISO date-time of the rows' clock, or a step number); the forecast `result` and, where the model
 *  is calibrated, its interval `lo`–`hi` and the chance `p_exceed` (0 … 1) of reaching the limit. */

export type ForecastRow = {
  id: number;
  y?: number | null;
  t?: string | number | null;
  result?: number;
  lo?: number | null;
  hi?: number | null;
  p_exceed?: number | null;
} & Record<ForecastFeature, number | null>;

/** What one forecast runs with: the model version, its calibration (if any) and the forecast's own settings. */
export interface ForecastRun {
  version: ForecastModelVersion;
  calibration: ForecastCalibration | null;
  settings: ForecastSettings;
}

export interface ForecastSettings {
  /** The interval's level, %. */
  level: IntervalLevel;
  /** The limit of CH4 in the longwall's outgoing air, %. */
  limit: number;
  /** The warning level, %: a forecast at or above it warns of the limit. */
  warning: number;
}

export interface ForecastCalibrationRepository {
  get(modelId: string, scope: string): Promise<ForecastCalibration | undefined>;
  put(calibration: ForecastCalibration): Promise<void>;
}

/** One version of a reference-dictionary item. Dictionaries are platform-wide reference data,
 *  the one kind of item that belongs to no company. */
export interface DictionaryItemVersion {
  dictionary: string;
  id: number;
  name: string;
  values: Record<string, SourcedValue>;
  version: number;
  /** yyyy-MM-dd from which this version applies. */
  effective_from: string;
  changed_at: string;
  changed_by: string;
  reason: string;
}

export interface DictionaryRepository {
  /** Writes version 1 of each item that does not exist yet, side by side, and bumps the change
   *  counter once; the number written. */
  seed(items: readonly DictionaryItemVersion[]): Promise<number>;
  /** Current versions, by id. Kept in the process while the stored change counter is the one
   *  they were read at; each call reads the counter (one small consistent read). */
  list(dictionary: string): Promise<DictionaryItemVersion[]>;
  /** The same repository for one request: the counter is read once, right away, so a request
   *  that reads several dictionaries pays one read, overlapping its other reads. */
  forOneRequest(): DictionaryRepository;
  get(dictionary: string, id: number): Promise<DictionaryItemVersion | undefined>;
  history(dictionary: string, id: number): Promise<DictionaryItemVersion[]>;
  /** Makes `next` current if the current version is still `next.version - 1`; otherwise Conflict. */
  putVersion(next: DictionaryItemVersion): Promise<void>;
}

/** Counts attempts in fixed windows; shared by every server instance (it lives in the table). */
/** A sign-in's chain of refresh tokens: each refresh replaces `current`; a token of the chain
 *  presented again after it was replaced means a copy is in other hands, and ends the chain. */
export interface Session {
  id: string;
  company: string;
  user: string;
  /** The jti of the one refresh token that may be used next. */
  current: string;
  /** The jti it replaced and when: a second tab refreshing with it within a few seconds is no theft. */
  previous?: string;
  rotated_at?: number;
  revoked?: boolean;
  /** Epoch seconds; the store forgets the session then (TTL). */
  expires_at: number;
}

export type RotateOutcome = "rotated" | "just-rotated" | "reused" | "unknown";

export interface SessionRepository {
  start(session: Session): Promise<void>;
  /** Moves `current` from `fromJti` to `toJti` atomically. `just-rotated`: `fromJti` was replaced
   *  less than `graceSeconds` ago; `reused`: replaced earlier or never part of the chain, which
   *  revokes the session; `unknown`: no such session, or revoked. */
  rotate(id: string, fromJti: string, toJti: string, nowSeconds: number, graceSeconds: number): Promise<RotateOutcome>;
}

/** One attempt taken from a counter's budget; given back when the attempt turns out not to count. */
export interface AttemptReservation {
  key: string;
  windowStart: number;
}

/** Sliding-window attempt budgets (login throttling). A reservation is one conditional write, so
 *  however many requests arrive at once, no more than `limit` get one. */
export interface AttemptCounter {
  /** Takes one attempt of `limit` within the last `windowSeconds`; undefined when none is left. */
  reserve(key: string, windowSeconds: number, limit: number): Promise<AttemptReservation | undefined>;
  /** Seconds until `reserve` would take one more attempt of `limit` (the Retry-After of a refusal). */
  retryAfterSeconds(key: string, windowSeconds: number, limit: number): Promise<number>;
  /** Gives a reserved attempt back (a successful sign-in is not a failed attempt). */
  release(reservation: AttemptReservation): Promise<void>;
}

/** Caps on how many of a thing exist (a project's active forecasts, a year's comments): a counter
 *  item per cap taken by one conditional update, so parallel writers cannot pass the limit (a read
 *  of the list followed by a write could: each reader sees room). */
export interface CapCounter {
  /** Takes one place of `limit` under the company's cap `name`; false when none is left. `count`
   *  tells how many exist when the cap has no counter yet (things made before it had one). */
  take(companyId: string, name: string, limit: number, count: () => Promise<number>): Promise<boolean>;
  /** Gives a place back (the write that took it failed, or the thing is removed); never below zero. */
  give(companyId: string, name: string): Promise<void>;
}

/** Which job renders an export or passport (domain/export-jobs.ts): one holder per company and
 *  request digest (what is asked and of which data), so an identical request reuses the job. */
export interface ExportJobRequests {
  /** The job holding `digest`, if any (it may since have failed or expired). */
  holder(companyId: string, digest: string): Promise<string | undefined>;
  /** Makes `job` the holder of `digest` unless another job holds it (`replacing`: a holder that
   *  failed or expired, taken over); answers the holder. Until `expiresAt` (epoch seconds). */
  claim(companyId: string, digest: string, job: string, replacing: string | undefined, expiresAt: number): Promise<string>;
  /** Lets go of `digest` if `job` still holds it (the job could not be started). */
  release(companyId: string, digest: string, job: string): Promise<void>;
}

export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
  /** A time-limited URL the browser can download `key` from, saved as `fileName`. Only a store that
   *  can hand out such URLs (S3 presigning) has it; large exports then go by redirect (Lambda's
   *  response size limit) instead of in the response body. */
  downloadUrl?(key: string, fileName: string, expiresInSeconds: number, disposition?: "attachment" | "inline"): Promise<string>;
  /** A time-limited URL the browser can PUT the object `key` to, straight into storage (S3
   *  presigning: a PDF or a video does not fit through Lambda's 6 MB payload). The request must
   *  carry `headers` (what was signed: Content-Type, If-None-Match, the pending tag). `maxBytes`
   *  is the limit the caller will check on completion: a presigned PUT cannot enforce a size
   *  range, so nothing is trusted before `stat`/`getRange` have looked at what arrived. A store without it (the local folder) is
   *  uploaded to through the API instead (PUT /api/v1/uploads/, functions/src/http/UPLOADS.md). */
  uploadUrl?(
    key: string,
    contentType: string,
    maxBytes: number,
    expiresInSeconds: number,
    options?: UploadUrlOptions,
  ): Promise<PresignedUpload>;
  /** Size and type of `key` without reading it; undefined when missing. */
  stat?(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /** Bytes start..end (inclusive) of `key`, read by range; undefined when the key is missing. */
  getRange?(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | undefined>;
  /** Writes `key` from a stream without holding it in memory; resolves to the bytes written. */
  putStream?(key: string, body: ReadableStream<Uint8Array>, contentType: string, options?: PutStreamOptions): Promise<number>;
  /** Clears the pending mark of a direct upload whose object passed the completion's checks, before
   *  it is registered: S3 drops the `upload=pending` tag the presigned PUT set (the bucket's
   *  lifecycle rule expires tagged objects after a day); the local folder removes the marker its
   *  upload route wrote. A key that was never marked is left as it is. Rejects (with `code:
   *  "ENOENT"` where the store can tell) when the object is gone: swept meanwhile. */
  confirmUpload?(key: string): Promise<void>;
  /** Deletes the objects under `areas` still marked pending (never confirmed) whose mark is older
   *  than `olderThan`, and resolves to their keys. Only a store that marks pending objects itself
   *  (the local folder) has it; in S3 the lifecycle rule does this. */
  deletePendingUploads?(areas: readonly string[], olderThan: Date): Promise<string[]>;
  /** The keys under `area` last written before `before`, page by page (the orphan sweep,
   *  domain/orphan-blobs.ts). */
  keysWrittenBefore?(area: string, before: Date): AsyncIterable<string[]>;
  /** Deletes the temporary files of writes under `areas` that never finished (a crash between the
   *  write and its rename) and are older than `olderThan`; resolves to their paths. Only a store
   *  that writes through temporary files (the local folder) has it: an S3 PUT leaves none. */
  deleteWriteLeftovers?(areas: readonly string[], olderThan: Date): Promise<string[]>;
}

export interface PutStreamOptions {
  /** A direct upload (PUT /api/v1/uploads/): written once — rejected with `code: "EEXIST"` when the
   *  key exists, like S3's If-None-Match: * — and marked pending until `confirmUpload`. */
  pending?: boolean;
}

export interface UploadUrlOptions {
  /** The exact size the upload must have: S3 checks the signed Content-Length (the browser sets it
   *  from the body, so it is not among the answered headers), which bounds what arrives. */
  contentLength?: number;
}

/** Where and how the browser sends a file straight to storage. */
export interface PresignedUpload {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
}

/** Optional BlobStore abilities for large files (videos up to 500 MB): written from a stream and
 *  read by byte range, never held whole in memory. A store without them falls back to put/get. */
export interface StreamingBlobStore {
  putStream(key: string, body: ReadableStream<Uint8Array>, contentType: string, options?: PutStreamOptions): Promise<number>;
  /** Bytes start..end (inclusive) of `key`; undefined when the key is missing. */
  getRange(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | undefined>;
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
}

/** One change made in /admin: who, when, what, and the object before and after (never a secret). */
export type AdminAuditEntry = z.output<typeof auditEntrySchema>;

/** One entry of the audit trail the table's stream handler writes (functions/src/events/table-changes.ts):
 *  which item changed and how, never the values. */
export interface AuditTrailEntry {
  at: string;
  event: "INSERT" | "MODIFY" | "REMOVE";
  item_pk: string;
  item_sk: string;
  company?: string;
  old_version?: number;
  new_version?: number;
  /** Names of the attributes that changed. */
  changed: string[];
}

export interface AuditTrailRepository {
  /** The changes of one UTC day (yyyy-MM-dd), in order. */
  day(day: string): Promise<AuditTrailEntry[]>;
}

export interface AdminAuditRepository {
  /** With `company`: a change of that company's own requisites or facilities, also kept where
   *  `listCompany` reads it. */
  add(entry: AdminAuditEntry, company?: string): Promise<void>;
  /** Newest first. */
  list(page: PageRequest): Promise<Page<AdminAuditEntry>>;
  /** The changes added with this company, newest first; never another company's. */
  listCompany(company: string, page: PageRequest): Promise<Page<AdminAuditEntry>>;
}

/** A PDF kept in the blob store; the key is made of ids only, never of the uploaded file's name. */
export interface StoredPdf {
  key: string;
  name: string;
  size: number;
  uploaded_at: string;
  uploaded_by: string;
}

/** A normative document (docs/user-guide.md, /documents). Platform-wide, like dictionaries. Catalogue entries
 *  (functions/src/documents/catalogue.json) exist without a stored item until an admin edits one. */
export interface NormativeDocument {
  id: string;
  title: string;
  number: string;
  /** yyyy-MM-dd, or "" when the document has no single date (IPCC volume, UNECE guidance). */
  date: string;
  kind: DocumentKind;
  /** Who issued it: «Минприроды России», «Правительство Российской Федерации», «МГЭИК», … */
  issuer: string;
  source_url: string;
  source_label: string;
  file?: StoredPdf;
  is_deleted: boolean;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

export interface DocumentRepository {
  list(): Promise<NormativeDocument[]>;
  get(id: string): Promise<NormativeDocument | undefined>;
  /** expectedVersion 0 creates (Conflict if it exists); otherwise the stored version must match. */
  put(next: NormativeDocument, expectedVersion: number): Promise<void>;
}

/** A year of the production calendar (platform-wide, like dictionaries): the days that differ from
 *  Monday to Friday and the decree they come from; `version` 0: not stored. */
export type CalendarYear = z.output<typeof calendarYearSchema>;

export interface ProductionCalendarRepository {
  /** Every stored year, oldest first. */
  list(): Promise<CalendarYear[]>;
  get(year: number): Promise<CalendarYear | undefined>;
  /** expectedVersion 0 creates (Conflict if the year exists); otherwise the stored version must match. */
  put(next: CalendarYear, expectedVersion: number): Promise<void>;
}

export type { MediaKind };

/** A settings video (docs/user-guide.md, /settings): «Видеоинструкция» or «Презентация». */
export interface MediaItem {
  kind: MediaKind;
  key: string;
  content_type: string;
  size: number;
  name: string;
  version: number;
  uploaded_at: string;
  uploaded_by: string;
  is_deleted: boolean;
}

export interface MediaRepository {
  get(kind: MediaKind): Promise<MediaItem | undefined>;
  /** expectedVersion 0 creates; otherwise the stored version must match. */
  put(next: MediaItem, expectedVersion: number): Promise<void>;
}

export interface Clock {
  now(): Date;
}

/** The spreadsheet work: project exports (txt, xls, xlsx), the .xlsx upload templates and the
 *  inventory's report passport (xlsx, PDF). exceljs, SheetJS and pdfkit live behind it, so the
 *  API's bundle carries none of them. In AWS a worker function does
 *  it (functions/src/lambda/spreadsheets.ts, invoked by adapters/spreadsheets/lambda-worker.ts);
 *  the local and test hosts run the same code in-process (export/in-process.ts). */
export interface SpreadsheetWorker {
  /** The project of `actor`'s company as a file: NotFound for another company's or a missing
   *  project, like every domain call. */
  exportProject(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    projectId: string,
    format: ExportFormat,
    request: ExportRequest,
  ): Promise<ExportResult>;
  /** The .xlsx upload template of a calculation type (contract/templates.ts); NotFound for
   *  a type without one. */
  template(type: string, year?: number): Promise<Uint8Array>;
  /** The 296-FZ report passport of `actor`'s company for a year (export/inventory-passport.ts):
   *  NotFound for another company's facility. */
  inventoryReport(actor: Pick<User, "id" | "company" | "email" | "role">, request: PassportRequest): Promise<ExportResult>;
  /** The work this host renders as a job near its bound (domain/heavy-work.ts): in AWS exports and
   *  passports (the job function), on the local host passports only (its worker threads; an export
   *  streams as it is written there, with no call's time limit). */
  jobsOf?: ReadonlyArray<"export" | "inventory_report" | "train">;
  /** A company's model trained on its history as a job (domain/forecast-training.ts), where the
   *  host runs training jobs (`jobsOf` has "train"): answers at once with the queued job. */
  trainModel?(request: TrainJobRequest, ticket: JobTicket): Promise<ExportResult>;
  /** A job's state (an export or passport asked with `job`), where the host runs jobs; NotFound
   *  for a job `actor`'s company never started. */
  jobStatus?(actor: Pick<User, "id" | "company" | "email" | "role">, job: string): Promise<ExportJobState>;
  /** A finished job's file, where the host's store gives no download address (the local host). */
  jobFile?(actor: Pick<User, "id" | "company" | "email" | "role">, job: string): Promise<ExportResult>;
}

export interface Repositories {
  companies: CompanyRepository;
  users: UserRepository;
  projects: ProjectRepository;
  statistics: StatisticsRepository;
  adminAudit: AdminAuditRepository;
  auditTrail: AuditTrailRepository;
  documents: DocumentRepository;
  media: MediaRepository;
  productionCalendar: ProductionCalendarRepository;
  attempts: AttemptCounter;
  caps: CapCounter;
  exportJobs: ExportJobRequests;
  sessions: SessionRepository;
  dictionaries: DictionaryRepository;
  calculations: CalculationRepository;
  facilities: FacilityRepository;
  emissionPoints: EmissionPointRepository;
  migrations: MigrationRepository;
  inventoryReviews: InventoryReviewRepository;
  inventoryVersions: InventoryVersionRepository;
  inventoryComments: InventoryCommentRepository;
  forecastModels: ForecastModelRepository;
  forecastCalibrations: ForecastCalibrationRepository;
}
