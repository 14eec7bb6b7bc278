// The move of a data folder's storage from LevelDB (DATA_DIR/dynamodb, the releases before an earlier release)
// to the SQLite store (DATA_DIR/sqlite, sqlite-level.mts): run before the engine opens the folder,
// at the first start of this release or by `npm run admin -- migrate-storage`. The only module that
// reads LevelDB: through classic-level's own prebuilt binary as its npm package ships it (nothing is
// compiled). That binary is LevelDB 1.20 without the project's old compaction patches; the copy is
// nevertheless the folder's state as it was opened: one iterator reads every record from the files of
// the version it pins, which no compaction changes under it.
//
// Nothing of the old folder is changed or deleted:
// - Its logs (the write-ahead `NNNNNN.log` and the `MANIFEST-NNNNNN`) are read first, record by
//   record, with their checksums: LevelDB itself, opened without paranoid checks (classic-level offers
//   none), skips a record it cannot read and goes on, so a log cut to half «moved» 165 of 366 records.
//   Here a record that does not read whole stops the move, naming the file and the byte.
// - LevelDB opens a folder by replaying its log into a table file and deleting the log: it opens a
//   copy of the folder, made inside the new store's staging folder, never the folder itself.
// - Every record (an item, an index entry, a table's description: the engine's keys and values, byte
//   for byte) is copied into a new store beside the folder, 1 000 a transaction; the new store is then
//   read back and counted against the old one record for record (the count, the items per table and a
//   SHA-256 over every key and value in order). Only when they agree is the move recorded in the new
//   store's folder (MIGRATED_FILE) and the store takes its name; the old folder is then renamed
//   `dynamodb.migrated-<date>` and kept until the operator removes it (each start says it is there).
// - A start killed midway begins the copy again; one killed after the store took its name renames the
//   old folder then. A folder holding both stores with no record of a finished move is refused,
//   naming both: which of them holds the data is for the operator to say, not for a start to guess.
import { createHash, type Hash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { cp, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SqliteLevel } from "dynalite/db/sqlite-level.mts";

/** A data folder's LevelDB, as the releases before the SQLite store kept it. */
export const LEVELDB_DIR = "dynamodb";
/** The LevelDB folder once moved: `dynamodb.migrated-2026-11-28` (a second one the same day `-2`). */
const KEPT = /^dynamodb\.migrated-\d{4}-\d{2}-\d{2}(-\d+)?$/;
/** A LevelDB found beside a migrated store holding other data: `dynamodb.other-2026-11-29`, kept. */
const OTHER_PREFIX = `${LEVELDB_DIR}.other-`;
const OTHER = /^dynamodb\.other-\d{4}-\d{2}-\d{2}(-\d+)?$/;
/** The record of a finished move, in the new store's folder: written before the store takes its
 *  name, so a store that has its name and this file holds everything the LevelDB folder held. */
export const MIGRATED_FILE = "migrated-from-leveldb.json";
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
  /** The old folder as it is kept, renamed: its path. */
  kept: string;
}

export class StorageMigrationError extends Error {}

/** Whether `dataDir` holds a LevelDB written by an older release. */
export const holdsLevelDb = (dataDir: string): boolean => existsSync(join(dataDir, LEVELDB_DIR, "CURRENT"));

/** Whether `name` (in a data folder) is a LevelDB folder kept after its move. */
export const isKeptLevelDb = (name: string): boolean => KEPT.test(name);

/** The LevelDB folders of `dataDir` kept after their move, oldest first: their paths. */
export function keptLevelDbs(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter(isKeptLevelDb)
    .sort()
    .map((name) => join(dataDir, name));
}

/** CRC-32C (Castagnoli), which LevelDB's logs carry, masked as LevelDB stores it. */
const CRC32C = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function maskedCrc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  crc = (crc ^ 0xffffffff) >>> 0;
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** LevelDB's log format (doc/log_format.md): 32 KB blocks of records, each a 7-byte header
 *  (masked CRC-32C of type and data, length, type) and its data; a user record is one FULL record or
 *  a FIRST, MIDDLE…, LAST run; fewer than 7 bytes left in a block are zeros; so are the blocks a
 *  writer preallocated. */
const BLOCK = 32768;
const HEADER = 7;
enum RecordType {
  Zero = 0,
  Full = 1,
  First = 2,
  Middle = 3,
  Last = 4,
}

/** What is wrong with the log `bytes`, with the byte it starts at, or undefined when every record
 *  reads whole with its checksum. LevelDB's reader, without paranoid checks, skips what this names. */
export function logDamage(bytes: Uint8Array): { at: number; what: string } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let inRecord = false;
  let recordStart = 0;
  let at = 0;
  while (at < bytes.byteLength) {
    const blockEnd = Math.min((Math.floor(at / BLOCK) + 1) * BLOCK, bytes.byteLength);
    if (blockEnd - at < HEADER) {
      if (bytes.subarray(at, blockEnd).some((byte) => byte !== 0)) return { at, what: "не нули в конце блока" };
      if (blockEnd === bytes.byteLength && blockEnd % BLOCK !== 0)
        return { at, what: `оборван заголовок записи (${blockEnd - at} байт из ${HEADER})` };
      at = blockEnd;
      continue;
    }
    const crc = view.getUint32(at, true);
    const length = view.getUint16(at + 4, true);
    const type = bytes[at + 6]!;
    if (type === RecordType.Zero && length === 0 && crc === 0) {
      // A preallocated stretch: the rest of the block is zeros.
      if (bytes.subarray(at, blockEnd).some((byte) => byte !== 0)) return { at, what: "запись нулевого типа с данными" };
      at = blockEnd;
      continue;
    }
    if (at + HEADER + length > bytes.byteLength)
      return { at, what: `запись оборвана: в ней ${length} байт, в файле осталось ${bytes.byteLength - at - HEADER}` };
    if (at + HEADER + length > blockEnd) return { at, what: `длина записи ${length} выходит за блок` };
    if (maskedCrc32c(bytes.subarray(at + 6, at + HEADER + length)) !== crc) return { at, what: "контрольная сумма записи не сходится" };
    if (type === RecordType.Full || type === RecordType.First) {
      if (inRecord) return { at: recordStart, what: "запись из частей не дописана" };
      inRecord = type === RecordType.First;
      recordStart = at;
    } else if (type === RecordType.Middle || type === RecordType.Last) {
      if (!inRecord) return { at, what: "продолжение записи без ее начала" };
      inRecord = type === RecordType.Middle;
    } else {
      return { at, what: `неизвестный тип записи ${type}` };
    }
    at += HEADER + length;
  }
  if (inRecord) return { at: recordStart, what: "запись из частей оборвана в конце файла" };
  return undefined;
}

/** Refuses the move when a log of the LevelDB folder `old` does not read whole: its write-ahead
 *  logs (records not yet in a table file) and its MANIFEST (which table files hold the data). */
async function checkLogs(old: string): Promise<void> {
  for (const name of (await readdir(old)).sort()) {
    if (!/^\d+\.log$/.test(name) && !/^MANIFEST-\d+$/.test(name)) continue;
    const file = join(old, name);
    const handle = await open(file, "r");
    let bytes: Uint8Array;
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    const damage = logDamage(bytes);
    if (damage) {
      throw new StorageMigrationError(
        `Файл ${file} прежнего хранилища LevelDB поврежден (${damage.what}; байт ${damage.at} из ${bytes.byteLength}): ` +
          `LevelDB пропустил бы часть записей, поэтому перенос в SQLite остановлен, папка ${old} не изменена. ` +
          "Восстановите папку данных из резервной копии (npm run admin -- restore, docs/operations.md, «Перенос хранилища в SQLite»).",
      );
    }
  }
}

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

/** A LevelDB found beside a migrated store with other data than the move's, as it is kept. */
export interface OtherLevelDb {
  folder: string;
  /** Its records, and the records the move's record counts. */
  records: number;
  migrated: number;
}

/** The LevelDB folders of `dataDir` found beside a migrated store holding other data, kept: their paths. */
export function otherLevelDbs(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => OTHER.test(name))
    .sort()
    .map((name) => join(dataDir, name));
}

/** Runs `work` on a staging folder beside the store, which it removes whatever happens but a success
 *  that took it over (renamed); a LevelDB that does not open or read whole (LevelDB's own English
 *  «Database failed to open», a table file missing) is refused in Russian, naming the folder, and
 *  nothing is left of the attempt. */
async function withStaging<T>(staging: string, old: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof StorageMigrationError) throw error;
    const reason = [(error as Error).message, ((error as Error).cause as Error | undefined)?.message].filter(Boolean).join(": ");
    throw new StorageMigrationError(
      `Прежнее хранилище LevelDB в папке ${old} не открывается или читается не целиком (${reason}): перенос в SQLite остановлен, ` +
        `папка ${old} не изменена, недоделанная копия удалена. ` +
        "Восстановите папку данных из резервной копии (npm run admin -- restore, docs/operations.md, «Перенос хранилища в SQLite»).",
    );
  }
}

/** Reads the LevelDB `old` through a copy of it in `staging` (LevelDB replays and deletes a log when it
 *  opens a folder: it opens a copy, the folder stays as it is), counting every record; with `into`, each
 *  record is also written to the SQLite store there. The copy is removed after. */
async function readLevelDb(old: string, staging: string, into?: string): Promise<StorageCount> {
  const reading = join(staging, "leveldb");
  await cp(old, reading, { recursive: true, filter: (source) => !source.endsWith("/LOCK") });
  // Loaded only here, when there is a LevelDB to read: nothing else loads LevelDB's binary.
  const { ClassicLevel } = await import("classic-level");
  const source = new ClassicLevel<Uint8Array, Uint8Array>(reading, { createIfMissing: false, keyEncoding: "view", valueEncoding: "view" });
  const copy = into ? new SqliteLevel<Uint8Array, Uint8Array>(into, { keyEncoding: "view", valueEncoding: "view" }) : undefined;
  await source.open();
  let from: StorageCount;
  try {
    await copy?.open();
    try {
      const count = counter();
      let batch: { type: "put"; key: Uint8Array; value: Uint8Array }[] = [];
      for await (const [key, value] of source.iterator()) {
        count.add(key, value);
        if (!copy) continue;
        batch.push({ type: "put", key, value });
        if (batch.length >= BATCH) {
          await copy.batch(batch);
          batch = [];
        }
      }
      if (copy && batch.length > 0) await copy.batch(batch);
      from = count.done();
    } finally {
      await copy?.close();
    }
  } finally {
    await source.close();
  }
  await rm(into ? reading : staging, { recursive: true, force: true });
  return from;
}

/** The name the old folder is kept under, moved on `at`: a free one. */
function keptName(dataDir: string, at: Date, prefix = `${LEVELDB_DIR}.migrated-`): string {
  const base = `${prefix}${at.toISOString().slice(0, 10)}`;
  let name = base;
  for (let n = 2; existsSync(join(dataDir, name)); n++) name = `${base}-${n}`;
  return join(dataDir, name);
}

/** Moves `dataDir`'s LevelDB into the SQLite store at `dataDir/storeDir`; undefined when there is no
 *  LevelDB to move. Throws (and leaves the LevelDB as it was) when a log of it does not read whole,
 *  when the copy does not count alike, or when the store is there already with no record of a move. */
export async function migrateLevelDb(
  dataDir: string,
  storeDir: string,
  now = new Date(),
  /** Told of a LevelDB found beside a migrated store holding other data than the move's record, kept as `folder`. */
  onOther?: (found: OtherLevelDb) => void,
): Promise<StorageMigration | undefined> {
  if (!holdsLevelDb(dataDir)) return undefined;
  const old = join(dataDir, LEVELDB_DIR);
  const target = join(dataDir, storeDir);
  if (existsSync(target)) {
    if (!existsSync(join(target, MIGRATED_FILE))) {
      throw new StorageMigrationError(
        `В папке данных ${dataDir} два хранилища: ${target} (SQLite) и ${old} (LevelDB прежних версий), а перенос второго в первое не записан как завершенный. ` +
          "Сервер не запущен, обе папки оставлены как были: уберите из папки данных ту, что не нужна (перенесите ее в другое место), и запустите снова (docs/operations.md, «Перенос хранилища в SQLite»).",
      );
    }
    // The store took its name once verified and recorded: the old folder is what a start killed
    // before its rename left — or a LevelDB put back beside the store (a copy restored by hand, a
    // rollback and a start of an older release). It is counted against the move's record: the same
    // records are kept as after a move; other data are kept too, under a name of their own, and the
    // start says so at `warn` (storage.ts), never choosing between them.
    const recorded = JSON.parse(await readFile(join(target, MIGRATED_FILE), "utf8")) as { records: number; sha256: string };
    const staging = `${target}.comparing`;
    const found = await withStaging(staging, old, () => readLevelDb(old, staging));
    if (found.records === recorded.records && found.sha256 === recorded.sha256) {
      await rename(old, keptName(dataDir, now));
      return undefined;
    }
    const other = keptName(dataDir, now, OTHER_PREFIX);
    await rename(old, other);
    onOther?.({ folder: other, records: found.records, migrated: recorded.records });
    return undefined;
  }
  const started = performance.now();
  const staging = `${target}.migrating`;
  await rm(staging, { recursive: true, force: true });
  await checkLogs(old);
  let from!: StorageCount;
  const to = await withStaging(staging, old, async () => {
    from = await readLevelDb(old, staging, staging);
    return countStore(staging);
  });
  if (!sameCount(from, to)) {
    await rm(staging, { recursive: true, force: true });
    throw new StorageMigrationError(
      `перенос хранилища из LevelDB в SQLite не сошелся (записей ${from.records} и ${to.records}): папка ${old} оставлена как была`,
    );
  }
  const kept = keptName(dataDir, now);
  const record = { from: old, kept, at: now.toISOString(), records: to.records, items: to.items, sha256: to.sha256 };
  const recordFile = join(staging, MIGRATED_FILE);
  await writeFile(recordFile, `${JSON.stringify(record, null, 1)}\n`, { mode: 0o600 });
  const handle = await open(recordFile, "r+");
  await handle.sync();
  await handle.close();
  await rename(staging, target);
  await rename(old, kept);
  return { from, to, duration_ms: Math.round(performance.now() - started), kept };
}
