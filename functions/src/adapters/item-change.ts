// What a change of one stored item makes to its company's statistics, list counts and inventory
// sums: the rule the table's stream applies (events/table-changes.ts) and the in-memory
// repositories apply to their own writes (adapters/memory/storage.ts), read from plain items.
import { STATISTICS_SOURCES } from "./dynamodb/keys";
import { listCountDeltas, statisticsDeltas } from "../domain/inventory/statistics";
import { inventorySumsDeltas } from "../domain/inventory/sums";
import type { ListCounts, StatisticsFigures } from "../ports";

export type InventoryDelta = ReturnType<typeof inventorySumsDeltas>[number];

/** The names of the attributes whose values differ between the item before and after. */
export function changedAttributes(oldImage: Record<string, unknown> | undefined, newImage: Record<string, unknown> | undefined): string[] {
  const names = new Set([...Object.keys(oldImage ?? {}), ...Object.keys(newImage ?? {})]);
  return [...names].filter((n) => JSON.stringify(oldImage?.[n]) !== JSON.stringify(newImage?.[n])).sort();
}

/** What a change of one stored item (its SK, the item before and after) makes to its company's
 *  statistics, list counts and inventory sums, and whether it is a counted calculation write (and
 *  the year whose lock it ends). Undefined when it changes none. The stream records' rule, read
 *  from plain items: the in-memory repositories (adapters/memory) apply their changes by it too. */
export function itemChange(
  company: string,
  sk: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): { deltas: StatisticsFigures[]; lists: ListCounts[]; inventory: InventoryDelta[]; write: boolean; ended?: number } | undefined {
  if (!STATISTICS_SOURCES.some((prefix) => sk.startsWith(prefix))) return undefined;
  const deltas = statisticsDeltas(sk, before, after);
  const lists = listCountDeltas(sk, before, after);
  const calculation = sk.startsWith("CALC#");
  let inventory = calculation ? inventorySumsDeltas(before, after) : [];
  // A calculation write that took the inventory's write counter (adapters/dynamodb/calculation-repository.ts).
  let write = calculation && after?.inventory_write !== undefined && after.inventory_write !== before?.inventory_write;
  // D32: the write was counted begun on this year's lock and handed to the stream to end
  // (domain/inventory/writes.ts, handOverYearWrite); ended whether or not its sums can be kept.
  const ended = write && typeof after?.inventory_year === "number" ? after.inventory_year : undefined;
  // Sums the storage cannot hold (a calculation past the bounds of domain/inventory/magnitudes.ts that reached
  // the table all the same): left out, and the write left uncounted, so the inventory folds the
  // calculations themselves and the reconciliation reports the project, instead of a record that
  // fails on every delivery.
  if (inventory.some((delta) => Object.values(delta.sums).some((value) => !Number.isSafeInteger(value)))) {
    console.error(`statistics: the inventory sums of ${company} ${sk} cannot be kept (beyond 2^53 mg), left to the reconciliation`);
    inventory = [];
    write = false;
  }
  if (deltas.length === 0 && lists.length === 0 && inventory.length === 0 && !write && ended === undefined) return undefined;
  return { deltas, lists, inventory, write, ...(ended === undefined ? {} : { ended }) };
}
