// The in-memory table the memory repositories keep their items in: the key layout of the DynamoDB
// adapter (adapters/dynamodb/keys.ts), so that items sort and group as they do there (a partition's
// items by SK, an index's by GSI1SK), every read consistent, and what DynamoDB would refuse refused
// the same way (adapters/dynamodb/storable.ts). Items go in and come out as copies, as through the
// document client: a caller never holds the stored object. Every write is handed to the table's
// stream (stream.ts) with the item before and after, as DynamoDB's stream hands its records.
import { checkStorableItem } from "../dynamodb/storable";

export type Item = Record<string, unknown>;
export interface Key {
  PK: string;
  SK: string;
}

/** One change of an item, as the stream sees it. */
export interface TableChange {
  event: "INSERT" | "MODIFY" | "REMOVE";
  key: Key;
  before?: Item;
  after?: Item;
}

/** A copy as the document client would store it: undefined attributes dropped, Sets kept. */
function copyOf<T>(value: T): T {
  if (value === undefined || value === null || typeof value !== "object") return value;
  if (value instanceof Set) return new Set([...value].map(copyOf)) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : copyOf(v))) as T;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) if (inner !== undefined) out[name] = copyOf(inner);
  return out as T;
}

const bySk = (a: Item, b: Item) => (String(a.SK) < String(b.SK) ? -1 : String(a.SK) > String(b.SK) ? 1 : 0);
const byIndex = (a: Item, b: Item) => (String(a.GSI1SK) < String(b.GSI1SK) ? -1 : String(a.GSI1SK) > String(b.GSI1SK) ? 1 : 0);

export class MemoryTable {
  private readonly partitions = new Map<string, Map<string, Item>>();
  private readonly listeners: Array<(change: TableChange) => void> = [];

  /** Calls `listener` with every change, in the order the writes were made. */
  onChange(listener: (change: TableChange) => void): void {
    this.listeners.push(listener);
  }

  get(key: Key): Item | undefined {
    return copyOf(this.partitions.get(key.PK)?.get(key.SK));
  }

  /** Every stored item, copied: what `restore` puts in another table. */
  snapshot(): Item[] {
    return [...this.partitions.values()].flatMap((partition) => [...partition.values()].map(copyOf));
  }

  /** Stores `items` as they are, unseen by the stream: a table that starts where another's snapshot was. */
  restore(items: readonly Item[]): void {
    for (const item of items) {
      const pk = String(item.PK);
      const partition = this.partitions.get(pk) ?? this.partitions.set(pk, new Map()).get(pk)!;
      partition.set(String(item.SK), copyOf(item));
    }
  }

  /** Writes `item` when `condition` holds for the stored one (undefined: none); false otherwise. */
  put(item: Item, condition: (stored: Item | undefined) => boolean = () => true): boolean {
    return this.update({ PK: String(item.PK), SK: String(item.SK) }, (stored) => (condition(stored) ? item : false));
  }

  /** Replaces the item by what `change` makes of the stored one (undefined: none); `false` leaves
   *  it as it is (its condition failed) and answers false, `undefined` deletes it. */
  update(key: Key, change: (stored: Item | undefined) => Item | undefined | false): boolean {
    const partition = this.partitions.get(key.PK);
    const stored = partition?.get(key.SK);
    const next = change(copyOf(stored));
    if (next === false) return false;
    if (next === undefined) {
      if (!stored) return true;
      partition!.delete(key.SK);
      if (partition!.size === 0) this.partitions.delete(key.PK);
      this.emit({ event: "REMOVE", key, before: copyOf(stored) });
      return true;
    }
    const item = copyOf({ ...next, PK: key.PK, SK: key.SK });
    checkStorableItem(item);
    const into = partition ?? this.partitions.set(key.PK, new Map()).get(key.PK)!;
    into.set(key.SK, item);
    this.emit({ event: stored ? "MODIFY" : "INSERT", key, before: copyOf(stored), after: copyOf(item) });
    return true;
  }

  delete(key: Key, condition: (stored: Item | undefined) => boolean = () => true): boolean {
    return this.update(key, (stored) => (condition(stored) ? undefined : false));
  }

  /** A partition's items whose SK starts with `prefix`, by SK (`backward`: last first). */
  query(pk: string, prefix = "", backward = false): Item[] {
    const items = [...(this.partitions.get(pk)?.values() ?? [])].filter((item) => String(item.SK).startsWith(prefix)).sort(bySk);
    return (backward ? items.reverse() : items).map(copyOf);
  }

  /** The items of index partition `gsi1pk`, by GSI1SK (`backward`: last first). */
  queryIndex(gsi1pk: string, backward = false): Item[] {
    const items: Item[] = [];
    for (const partition of this.partitions.values()) for (const item of partition.values()) if (item.GSI1PK === gsi1pk) items.push(item);
    items.sort(byIndex);
    return (backward ? items.reverse() : items).map(copyOf);
  }

  private emit(change: TableChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** A page of a list read whole: `offset` … `offset + limit`. */
export const pageOf = <T>(items: T[], page: { limit: number; offset: number }) => items.slice(page.offset, page.offset + page.limit);
