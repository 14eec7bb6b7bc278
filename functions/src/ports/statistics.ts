// What a company has in the platform, kept by the table's stream: year aggregates, list counts
// and the inventory's kept sums.
import type * as z from "zod";
import type { statisticsSchema } from "../contract/schemas/answers";

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

/** What one stream record of item `source` (its SK) changes in its company's statistics. */
export interface StatisticsChange {
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
   *  write is checked against before it is made (domain/inventory/magnitudes.ts). */
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
  apply(companyId: string, change: StatisticsChange): Promise<boolean>;
  /** `apply` for each of several records of different source items, side by side (their additions
   *  commute), in as few requests as the storage allows; answers per record whether it was added
   *  by this call. */
  applyAll(companyId: string, changes: StatisticsChange[]): Promise<boolean[]>;
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
