// How the statistics port's figures are laid out in items (SCHEMA.md): a year aggregate, a list
// count, a project's inventory sums and the inventory's write counters, written and read the same
// way by the DynamoDB adapter (statistics.ts) and the memory one (adapters/memory/statistics.ts).
import type { InventoryWriteCounters, ListCounts, StatisticsChange, StatisticsFigures, StatisticsRepository } from "../../ports";
import type { StoredInventorySums, StoredListCounts, YearStatistics } from "../../ports";
import * as keys from "./keys";
import type { Item } from "./items";

const CALC = "calc:";
/** D18: a project's counting (StatisticsFigures.counting), one attribute per key. */
const COUNTING = "count:";
/** An inventory sum (domain/inventory/sums.ts), one attribute per key. */
const SUM = "s:";
const INVENTORY_PREFIX = keys.inventorySumsOfCompany("").SKPrefix;
const YEAR_PREFIX = keys.companyStatisticsYears("").SKPrefix;
const num = (value: unknown) => Number(value ?? 0);

/** A year's difference as the attributes of its item. */
export const yearAttributes = (delta: StatisticsFigures): Record<string, number> => ({
  projects_active: delta.projects_active,
  projects_archived: delta.projects_archived,
  total_co2e: delta.total_co2e,
  ...Object.fromEntries(Object.entries(delta.calculations).map(([type, count]) => [`${CALC}${type}`, count])),
  ...Object.fromEntries(Object.entries(delta.counting ?? {}).map(([key, value]) => [`${COUNTING}${key}`, value])),
});

/** A list count's difference as the attributes of its item. */
export const listCountAttributes = (delta: ListCounts): Record<string, number> => ({ active: delta.active, archived: delta.archived });

/** A project's inventory sums as the attributes of its item. */
export const sumAttributes = (sums: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(sums).map(([key, value]) => [`${SUM}${key}`, value]));

/** What a stream record counts on the inventory's write counters (keys.inventoryWrites): the write
 *  applied once its differences are in, and ended on its year's lock (D32) with the same mark, so
 *  exactly once (keys.yearWritesEnded). Empty: the record counts nothing there. */
export const countedWrites = ({ write = false, ended }: Pick<StatisticsChange, "write" | "ended">): Record<string, number> => ({
  ...(write ? { applied: 1 } : {}),
  ...(ended === undefined ? {} : { [keys.yearWritesEnded(ended)]: 1 }),
});

/** A year aggregate's item as the port gives it. */
export function yearStatisticsOf(item: Item): YearStatistics {
  const calculations: Record<string, number> = {};
  const counting: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(CALC)) calculations[name.slice(CALC.length)] = Number(value);
    else if (name.startsWith(COUNTING)) counting[name.slice(COUNTING.length)] = Number(value);
  }
  return {
    year: String(item.SK).slice(YEAR_PREFIX.length),
    projects_active: num(item.projects_active),
    projects_archived: num(item.projects_archived),
    calculations,
    total_co2e: num(item.total_co2e),
    counting,
    rev: num(item.rev),
    updated_at: String(item.updated_at ?? ""),
  };
}

/** The key of a company's list counts, or of one project's. */
export function listCountsPrefix(companyId: string, projectId?: string) {
  const prefix = keys.calculationListCounts(companyId);
  return { ...prefix, SKPrefix: projectId ? `${prefix.SKPrefix}${projectId}#` : prefix.SKPrefix };
}

/** A list count's item as the port gives it. */
export function listCountsOf(item: Item): StoredListCounts {
  const [project, type] = String(item.SK).slice(keys.calculationListCounts("").SKPrefix.length).split("#");
  return { project, type, active: num(item.active), archived: num(item.archived), rev: num(item.rev) };
}

/** A project's sums, without the keys that came back to zero. */
export const sumsOf = (item: Item): Record<string, number> =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([name, value]) => name.startsWith(SUM) && Number(value) !== 0)
      .map(([name, value]) => [name.slice(SUM.length), Number(value)]),
  );

/** The sums' keys an item holds at zero (the reconciliation compacts them). */
export const zeroSums = (item: Item): [string, unknown][] =>
  Object.entries(item).filter(([name, value]) => name.startsWith(SUM) && Number(value) === 0);

/** A project's inventory sums item as the port gives it. */
export const storedSumsOf = (item: Item): StoredInventorySums => ({
  project: String(item.SK).slice(INVENTORY_PREFIX.length),
  sums: sumsOf(item),
  rev: num(item.rev),
  zeros: zeroSums(item).length,
});

/** The inventory's write counters as the port gives them (none stored: both zero). */
export const writeCountersOf = (item: Item | undefined): InventoryWriteCounters => ({
  writes: num(item?.writes),
  applied: num(item?.applied),
});

/** How an adapter adds a reconciliation's repair to one item: only if no change was added since
 *  it read it (`expectedRev`; undefined: only if there is no item yet). */
export type RepairItem = (
  key: { PK: string; SK: string },
  attributes: Record<string, number>,
  expectedRev: number | undefined,
  at: string,
) => Promise<boolean>;

/** The port's repairs: each to the item of its figures, with their attributes. */
export const repairsThrough = (
  repairItem: RepairItem,
): Pick<StatisticsRepository, "repair" | "repairListCount" | "repairInventorySums"> => ({
  repair: (companyId, delta, expectedRev, at) =>
    repairItem(keys.companyStatisticsYear(companyId, delta.year), yearAttributes(delta), expectedRev, at),
  repairListCount: (companyId, delta, expectedRev, at) =>
    repairItem(keys.calculationListCount(companyId, delta.project, delta.type), listCountAttributes(delta), expectedRev, at),
  repairInventorySums: (companyId, project, delta, expectedRev, at) =>
    repairItem(keys.inventorySums(companyId, project), sumAttributes(delta), expectedRev, at),
});
