// The move of a data folder's storage from LevelDB (DATA_DIR/dynamodb, the releases before issue 106)
// to the SQLite store (DATA_DIR/sqlite, sqlite-level.mjs): run before the engine opens the folder,
// at the first start of this release or by `npm run admin -- migrate-storage`. The only module that
// reads LevelDB: through classic-level's own prebuilt binary as its npm package ships it (nothing is
// compiled). That binary is LevelDB 1.20 without the project's old compaction patches; the copy is
// nevertheless the folder's state as it was opened: one iterator reads every record from the files of
// the version it pins, which no compaction changes under it.
//
// Every record (an item, an index entry, a table's description: the engine's keys and values, byte
// for byte) is copied into a new store beside the folder, 1 000 a transaction; the new store is then
// read back and counted against the old one record for record (the count, the items per table and a
// SHA-256 over every key and value in order); only when they agree does it take its name, and only
// then is the LevelDB folder removed. A start killed midway begins the copy again; one killed after
// the new store took its name removes the old folder, already verified.
import { createHash, type Hash } from "node:crypto";
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { SqliteLevel } from "./sqlite-level.mjs";

/** A data folder's LevelDB, as the releases before the SQLite store kept it. */
export const LEVELDB_DIR = "dynamodb";
const BATCH = 1000;

export interface StorageCount {
  /** The engine's records: items, index entries, table descriptions. */
  records: number;
  /** Items per table (the records under an item key). */
  items: Record<string, number>;
  /** SHA-256 of every key and value, in key order. */
  sha256: string;
}

export interface StorageMigration {
  from: StorageCount;
  to: StorageCount;
  duration_ms: number;
}

export class StorageMigrationError extends Error {}

/** Whether `dataDir` holds a LevelDB written by an older release. */
export const holdsLevelDb = (dataDir: string): boolean => existsSync(join(dataDir, LEVELDB_DIR, "CURRENT"));

/** A running count of records read in key order. */
function counter() {
  const hash: Hash = createHash("sha256");
  const count: Omit<StorageCount, "sha256"> = { records: 0, items: {} };
  const length = Buffer.alloc(4);
  return {
    add(key: Uint8Array, value: Uint8Array) {
      count.records += 1;
      const table = /^item-([^~]+)~/.exec(Buffer.from(key.buffer, key.byteOffset, Math.min(key.byteLength, 300)).toString("latin1"))?.[1];
      if (table) count.items[table] = (count.items[table] ?? 0) + 1;
      for (const part of [key, value]) {
        length.writeUInt32BE(part.byteLength);
        hash.update(length).update(part);
      }
    },
    done: (): StorageCount => ({ ...count, sha256: hash.digest("hex") }),
  };
}

const sameCount = (a: StorageCount, b: StorageCount) =>
  a.records === b.records && a.sha256 === b.sha256 && JSON.stringify(a.items) === JSON.stringify(b.items);

/** Counts the store at `location`, read through one snapshot. */
async function countStore(location: string): Promise<StorageCount> {
  const db = new SqliteLevel<Uint8Array, Uint8Array>(location, { createIfMissing: false, keyEncoding: "view", valueEncoding: "view" });
  await db.open();
  try {
    const count = counter();
    for await (const [key, value] of db.iterator()) count.add(key, value);
    return count.done();
  } finally {
    await db.close();
  }
}

/** Moves `dataDir`'s LevelDB into the SQLite store at `dataDir/storeDir`; undefined when there is no
 *  LevelDB to move. Throws (and leaves the LevelDB as it was) when the copy does not count alike. */
export async function migrateLevelDb(dataDir: string, storeDir: string): Promise<StorageMigration | undefined> {
  if (!holdsLevelDb(dataDir)) return undefined;
  const old = join(dataDir, LEVELDB_DIR);
  const target = join(dataDir, storeDir);
  if (existsSync(target)) {
    // The store took its name only once verified: the old folder is what a killed start left.
    await rm(old, { recursive: true, force: true });
    return undefined;
  }
  const started = performance.now();
  const staging = `${target}.migrating`;
  await rm(staging, { recursive: true, force: true });
  // Loaded only here, when there is a LevelDB to read: nothing else loads LevelDB's binary.
  const { ClassicLevel } = await import("classic-level");
  const source = new ClassicLevel<Uint8Array, Uint8Array>(old, { createIfMissing: false, keyEncoding: "view", valueEncoding: "view" });
  const copy = new SqliteLevel<Uint8Array, Uint8Array>(staging, { keyEncoding: "view", valueEncoding: "view" });
  await source.open();
  let from: StorageCount;
  try {
    await copy.open();
    try {
      const count = counter();
      let batch: { type: "put"; key: Uint8Array; value: Uint8Array }[] = [];
      for await (const [key, value] of source.iterator()) {
        count.add(key, value);
        batch.push({ type: "put", key, value });
        if (batch.length >= BATCH) {
          await copy.batch(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await copy.batch(batch);
      from = count.done();
    } finally {
      await copy.close();
    }
  } finally {
    await source.close();
  }
  const to = await countStore(staging);
  if (!sameCount(from, to)) {
    await rm(staging, { recursive: true, force: true });
    throw new StorageMigrationError(
      `перенос хранилища из LevelDB в SQLite не сошелся (записей ${from.records} и ${to.records}): папка ${old} оставлена как была`,
    );
  }
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
  return { from, to, duration_ms: Math.round(performance.now() - started) };
}
