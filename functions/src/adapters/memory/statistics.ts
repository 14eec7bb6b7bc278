// The statistics port in memory (adapters/dynamodb/statistics.ts): the company's year aggregates,
// the list counts, the projects' inventory sums and the inventory's write counters, as items of the
// memory table under the same keys, added to by the table's stream (stream.ts) once per change and
// repaired by the reconciliation only when nothing was added since it read them.
import type { StatisticsRepository, StoredInventorySums } from "../../ports";
import * as keys from "../dynamodb/keys";
import { yearAttributes, listCountAttributes, sumAttributes, countedWrites, repairsThrough } from "../dynamodb/statistics-items";
import {
  yearStatisticsOf,
  listCountsPrefix,
  listCountsOf,
  storedSumsOf,
  sumsOf,
  zeroSums,
  writeCountersOf,
} from "../dynamodb/statistics-items";
import type { Item, Key, MemoryTable } from "./table";

const num = (value: unknown) => Number(value ?? 0);

/** `stored` with `attributes` added (DynamoDB's ADD: a zero difference leaves an attribute out) and
 *  its change counter moved. `removeZeros`: the sums' keys a difference brings to zero are removed. */
function added(stored: Item | undefined, attributes: Record<string, number>, at: string, removeZeros = false): Item {
  const next: Item = { ...stored, rev: num(stored?.rev) + 1, updated_at: at };
  for (const [name, value] of Object.entries(attributes)) {
    if (value === 0) continue;
    const sum = num(next[name]) + value;
    if (removeZeros && next[name] !== undefined && sum === 0) delete next[name];
    else next[name] = sum;
  }
  return next;
}

export function memoryStatistics(table: MemoryTable): StatisticsRepository {
  const writeCounters = async (companyId: string) => writeCountersOf(table.get(keys.inventoryWrites(companyId)));
  const storedSums = (companyId: string): StoredInventorySums[] => {
    const prefix = keys.inventorySumsOfCompany(companyId);
    return table.query(prefix.PK, prefix.SKPrefix).map(storedSumsOf);
  };
  const repairItem = async (key: Key, attributes: Record<string, number>, expectedRev: number | undefined, at: string) =>
    table.update(key, (stored) =>
      (expectedRev === undefined ? stored === undefined : num(stored?.rev) === expectedRev && stored !== undefined)
        ? added(stored, attributes, at)
        : false,
    );
  const repository: StatisticsRepository = {
    async years(companyId) {
      const prefix = keys.companyStatisticsYears(companyId);
      return table.query(prefix.PK, prefix.SKPrefix).map(yearStatisticsOf);
    },

    async apply(companyId, { source, sequence, deltas, lists = [], inventory = [], write, ended, at }) {
      const marker = keys.statisticsApplied(companyId, source);
      const seen = table.get(marker)?.sequence;
      if (typeof seen === "string" && seen >= sequence) return false;
      let changed = false;
      const add = (key: Key, attributes: Record<string, number>, removeZeros = false) => {
        table.update(key, (stored) => added(stored, attributes, at, removeZeros));
        changed = true;
      };
      for (const delta of deltas) add(keys.companyStatisticsYear(companyId, delta.year), yearAttributes(delta));
      for (const list of lists) add(keys.calculationListCount(companyId, list.project, list.type), listCountAttributes(list));
      for (const delta of inventory) add(keys.inventorySums(companyId, delta.project), sumAttributes(delta.sums), true);
      // Read-your-writes: the write counted applied once its differences are in, and ended on its year's lock (D32).
      const counted = countedWrites({ write, ended });
      if (Object.keys(counted).length > 0) add(keys.inventoryWrites(companyId), counted);
      table.put({ ...marker, sequence });
      return changed;
    },

    async applyAll(companyId, changes) {
      const answers: boolean[] = [];
      for (const change of changes) answers.push(await repository.apply(companyId, change));
      return answers;
    },

    ...repairsThrough(repairItem),

    async listCounts(companyId, projectId) {
      const prefix = listCountsPrefix(companyId, projectId);
      return table.query(prefix.PK, prefix.SKPrefix).map(listCountsOf);
    },

    async inventorySums(companyId, layout) {
      const state = table.get(keys.inventoryWrites(companyId));
      if (num(state?.layout) !== layout) return undefined;
      if (num(state?.writes) !== num(state?.applied)) return undefined;
      // A project whose sums all came back to zero is as one that never had any.
      return new Map(
        storedSums(companyId)
          .filter((s) => Object.keys(s.sums).length > 0)
          .map((s) => [s.project, s.sums]),
      );
    },

    async projectInventorySums(companyId, projectId) {
      const item = table.get(keys.inventorySums(companyId, projectId));
      return item ? sumsOf(item) : {};
    },

    inventoryWrites: writeCounters,

    async storedInventorySums(companyId) {
      return { projects: storedSums(companyId), counters: await writeCounters(companyId) };
    },

    async compactInventorySums(companyId, project, expectedRev) {
      return table.update(keys.inventorySums(companyId, project), (stored) => {
        if (!stored || num(stored.rev) !== expectedRev) return false;
        const zeros = new Set(zeroSums(stored).map(([name]) => name));
        return Object.fromEntries(Object.entries(stored).filter(([name]) => !zeros.has(name)));
      });
    },

    async markInventorySumsLayout(companyId, layout) {
      table.update(keys.inventoryWrites(companyId), (stored) => ({ ...stored, layout }));
    },

    async settleInventoryWrites(companyId, seen) {
      return table.update(keys.inventoryWrites(companyId), (stored) =>
        stored && num(stored.writes) === seen.writes && num(stored.applied) === seen.applied ? { ...stored, writes: seen.applied } : false,
      );
    },

    async removeLegacy(companyId) {
      table.delete(keys.legacyCompanyStatistics(companyId));
    },
  };
  return repository;
}
