// The in-memory storage: the memory table, its repositories and its stream. As DynamoDB's stream
// (events/table-changes.ts), the stream runs after the writes, a moment behind them: it writes the
// audit trail (which item changed and how, never the values) and applies each project's and
// calculation's change to the company's statistics, list counts and inventory sums by the same
// rule (itemChange in adapters/item-change.ts), once, counting the calculation writes applied. `settled()` waits for it, like
// the local host's stream (local/storage.ts).
import { changedAttributes, itemChange } from "../item-change";
import type { Repositories } from "../../ports";
import * as keys from "../dynamodb/keys";
import { memoryRepositories } from "./repositories";
import { MemoryTable, type TableChange } from "./table";

export interface MemoryStorage {
  repos: Repositories;
  table: MemoryTable;
  /** Resolves once the stream has handled every write made so far. */
  settled(): Promise<void>;
  /** The table's items and the stream's count of records, once settled: where `memoryStorage(now, from)`
   *  starts another storage. */
  snapshot(): Promise<MemoryStorageSnapshot>;
}

export interface MemoryStorageSnapshot {
  items: Record<string, unknown>[];
  sequence: number;
}

/** A storage, empty or (`from`) holding a snapshot's items, its stream numbering its records after it. */
export function memoryStorage(now: () => Date = () => new Date(), from?: MemoryStorageSnapshot): MemoryStorage {
  const table = new MemoryTable();
  if (from) table.restore(from.items);
  const repos = memoryRepositories(table);
  const queue: TableChange[] = [];
  let sequence = from?.sequence ?? 0;
  let running: Promise<void> | undefined;

  const audit = (change: TableChange, at: string, id: string) => {
    const { PK: pk, SK: sk } = change.key;
    if (keys.unreadByStream(pk, sk)) return;
    const changed = changedAttributes(change.before as never, change.after as never);
    // A year's writes counted on its review (D32), a project's on its facility (D25): no data of their own.
    if (change.event === "MODIFY" && keys.onlyLocksChanged(changed)) return;
    const version = (item: TableChange["before"]) => (typeof item?.version === "number" ? item.version : undefined);
    const company = change.after?.company ?? change.before?.company;
    table.put({
      ...keys.auditEntry(at, id),
      event: change.event,
      item_pk: pk,
      item_sk: sk,
      ...(typeof company === "string" ? { company } : {}),
      old_version: version(change.before),
      new_version: version(change.after),
      changed,
      at,
    });
  };

  const handle = async (change: TableChange) => {
    sequence += 1;
    const at = now().toISOString();
    const id = String(sequence).padStart(40, "0");
    audit(change, at, id);
    const company = keys.companyOfPartition(change.key.PK);
    const applied = company && itemChange(company, change.key.SK, change.before, change.after);
    if (company && applied) await repos.statistics.apply(company, { source: change.key.SK, sequence: id, ...applied, at });
  };

  const drain = async () => {
    // After the writer's own turn, as a stream record arrives after the write it records.
    await new Promise((resolve) => setImmediate(resolve));
    for (let change = queue.shift(); change; change = queue.shift()) await handle(change);
    running = undefined;
  };

  table.onChange((change) => {
    const { PK: pk, SK: sk } = change.key;
    // The stream's own writes (the trail, the statistics, their markers) make no records it handles.
    if (pk.startsWith("AUDIT#") || pk.startsWith("STATSEQ#") || keys.isStatisticsItem(sk)) return;
    queue.push(change);
    running ??= drain();
  });

  return {
    repos,
    table,
    async settled() {
      while (running) await running;
    },
    async snapshot() {
      while (running) await running;
      return { items: table.snapshot(), sequence };
    },
  };
}
