// The move of a data folder from LevelDB to the SQLite store (functions/src/local/leveldb-migration.ts):
// every record as it was, byte for byte; the LevelDB folder never deleted, kept renamed once the store
// counts alike and named at every start; a torn log refused naming its file; a folder with both stores
// and no record of a finished move refused naming both; a move killed midway done again; the admin
// command's words. The folder an older release wrote,
// started on, and its backup restored: tests/integration/data-format.test.ts.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LEVELDB_DIR, logDamage, MIGRATED_FILE, migrateLevelDb, StorageMigrationError } from "@server/local/leveldb-migration";
import { SqliteLevel } from "dynalite/db/sqlite-level.mts";
import { takeBackup } from "@server/local/backup";
import { STORE_DIR, storeOf } from "@server/local/storage";
import { runAdmin } from "../support/admin-command";

const root = mkdtempSync(join(tmpdir(), "fugitive-storage-migration-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A LevelDB in `dataDir` as dynalite wrote one: items of two tables, index entries and a table's
 *  description, many written again and some deleted, over LevelDB's 4 MB write buffer so that its
 *  data lie in table files of several levels as well as its log. Returns what it holds. */
async function levelDbFolder(dataDir: string): Promise<Map<string, string>> {
  const db = new ClassicLevel<string, string>(join(dataDir, LEVELDB_DIR), { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.open();
  const held = new Map<string, string>();
  const filler = "ж".repeat(300);
  try {
    for (let round = 0; round < 4; round++) {
      const batch: { type: "put" | "del"; key: string; value?: string }[] = [];
      for (let i = 0; i < 6000; i++) {
        const key = i % 3 === 0 ? `index-global~t~GSI1~L#${i % 500}~${i}` : `item-${i % 2 ? "t" : "other"}~K#${i}`;
        if (round === 3 && i % 7 === 0) {
          batch.push({ type: "del", key });
          held.delete(key);
        } else {
          const value = JSON.stringify({ PK: { S: `K#${i}` }, round, text: { S: filler } });
          batch.push({ type: "put", key, value });
          held.set(key, value);
        }
      }
      await db.batch(batch as never);
    }
    const table = JSON.stringify({ TableName: "t", TableStatus: "ACTIVE" });
    await db.put("table~t", table);
    held.set("table~t", table);
  } finally {
    await db.close();
  }
  return held;
}

async function storeContents(location: string): Promise<Map<string, string>> {
  const db = new SqliteLevel<string, string>(location, { createIfMissing: false });
  await db.open();
  try {
    return new Map(await db.iterator().all());
  } finally {
    await db.close();
  }
}

/** Every file of `folder` (recursively) by its path inside, with its bytes. */
function filesOf(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const path = join(folder, name);
    if (statSync(path).isFile()) files[name] = readFileSync(path).toString("base64");
  }
  return files;
}

/** A small LevelDB whose records are all in its log (under LevelDB's write buffer, never compacted). */
async function loggedFolder(dataDir: string, records: number): Promise<string> {
  const db = new ClassicLevel<string, string>(join(dataDir, LEVELDB_DIR), { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.open();
  for (let i = 0; i < records; i++)
    await db.put(`item-t~K#${String(i).padStart(4, "0")}`, JSON.stringify({ n: i, text: "запись ".repeat(20) }));
  await db.close();
  const log = readdirSync(join(dataDir, LEVELDB_DIR)).find((name) => /^\d+\.log$/.test(name));
  return join(dataDir, LEVELDB_DIR, log!);
}

const MIGRATED = /^dynamodb\.migrated-\d{4}-\d{2}-\d{2}$/;

describe("a LevelDB data folder moved to the SQLite store", () => {
  it("holds every record as it was, counts it, records the move and keeps the LevelDB folder renamed", async () => {
    const dataDir = join(root, "moved");
    const held = await levelDbFolder(dataDir);
    expect(readdirSync(join(dataDir, LEVELDB_DIR)).some((name) => name.endsWith(".ldb"))).toBe(true);
    // What a move killed midway left: done again from the start.
    mkdirSync(join(dataDir, `${STORE_DIR}.migrating`));
    writeFileSync(join(dataDir, `${STORE_DIR}.migrating`, "items.db"), "half a copy");
    const before = filesOf(join(dataDir, LEVELDB_DIR));

    const moved = await migrateLevelDb(dataDir, STORE_DIR);
    expect(moved?.from).toEqual(moved?.to);
    expect(moved?.to.records).toBe(held.size);
    const items = (table: string) => [...held.keys()].filter((key) => key.startsWith(`item-${table}~`)).length;
    expect(moved?.to.items).toEqual({ t: items("t"), other: items("other") });
    expect(await storeContents(join(dataDir, STORE_DIR))).toEqual(held);
    const names = readdirSync(dataDir).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(MIGRATED);
    expect(names[1]).toBe(STORE_DIR);
    expect(moved?.kept).toBe(join(dataDir, names[0]!));
    // The old folder whole, as it was: LevelDB opened a copy of it.
    expect(filesOf(join(dataDir, names[0]!))).toEqual(before);
    expect(JSON.parse(readFileSync(join(dataDir, STORE_DIR, MIGRATED_FILE), "utf8"))).toMatchObject({
      from: join(dataDir, LEVELDB_DIR),
      kept: moved?.kept,
      records: held.size,
      sha256: moved?.to.sha256,
    });

    // A backup copies the store's records, not the kept folder's files.
    const backup = await takeBackup(dataDir, join(root, "moved.tar.gz"));
    expect(backup.manifest.dynamodb.records).toBe(held.size);
    expect(backup.manifest.files.list.map((file) => file.path).filter((path) => path.includes("dynamodb.migrated"))).toEqual([]);

    // Nothing to move the second time; every start says the old folder is there.
    expect(await migrateLevelDb(dataDir, STORE_DIR)).toBeUndefined();
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      await storeOf(dataDir);
      const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toEqual([
        expect.objectContaining({
          event: "storage-migration-kept",
          folder: moved?.kept,
          message: expect.stringContaining(`прежнее хранилище LevelDB сохранено в ${moved?.kept}`),
        }),
      ]);
    } finally {
      log.mockRestore();
    }
  }, 120_000);

  it("stops at a torn log, naming the file, and changes nothing", async () => {
    const dataDir = join(root, "torn");
    const log = await loggedFolder(dataDir, 366);
    // Every record reads whole; cut to half, the last one does not.
    expect(logDamage(readFileSync(log))).toBeUndefined();
    truncateSync(log, Math.floor(statSync(log).size / 2));
    expect(logDamage(readFileSync(log))).toMatchObject({ what: expect.stringMatching(/оборван/) });
    const before = filesOf(join(dataDir, LEVELDB_DIR));
    const refusal = migrateLevelDb(dataDir, STORE_DIR);
    await expect(refusal).rejects.toThrow(StorageMigrationError);
    await expect(refusal).rejects.toThrow(
      new RegExp(`^Файл ${log.replace(/[.]/g, "\\.")} прежнего хранилища LevelDB поврежден \\(запись оборвана`),
    );
    await expect(refusal).rejects.toThrow(`папка ${join(dataDir, LEVELDB_DIR)} не изменена`);
    expect(readdirSync(dataDir)).toEqual([LEVELDB_DIR]);
    expect(filesOf(join(dataDir, LEVELDB_DIR))).toEqual(before);

    // A record's bytes changed in the middle of the log: its checksum names it.
    const other = join(root, "flipped");
    const flipped = await loggedFolder(other, 50);
    const bytes = readFileSync(flipped);
    // A byte of the first record's data (past its 7-byte header).
    bytes[20]! ^= 0xff;
    writeFileSync(flipped, bytes);
    await expect(migrateLevelDb(other, STORE_DIR)).rejects.toThrow("контрольная сумма записи не сходится");
    expect(readdirSync(other)).toEqual([LEVELDB_DIR]);
  }, 60_000);

  it("refuses a folder holding both stores with no record of a finished move, naming both, deleting nothing", async () => {
    const dataDir = join(root, "both");
    await loggedFolder(dataDir, 20);
    const store = new SqliteLevel<string, string>(join(dataDir, STORE_DIR));
    await store.open();
    await store.put("table~t", "{}");
    await store.close();
    const before = filesOf(dataDir);
    await expect(migrateLevelDb(dataDir, STORE_DIR)).rejects.toThrow(
      `В папке данных ${dataDir} два хранилища: ${join(dataDir, STORE_DIR)} (SQLite) и ${join(dataDir, LEVELDB_DIR)} (LevelDB прежних версий), а перенос второго в первое не записан как завершенный.`,
    );
    await expect(storeOf(dataDir)).rejects.toThrow(StorageMigrationError);
    expect(filesOf(dataDir)).toEqual(before);
  });

  it("killed after the store took its name, renames the old folder at the next start", async () => {
    const dataDir = join(root, "killed");
    await loggedFolder(dataDir, 20);
    const copy = join(root, "killed-leveldb");
    cpSync(join(dataDir, LEVELDB_DIR), copy, { recursive: true });
    const moved = await migrateLevelDb(dataDir, STORE_DIR, new Date("2026-11-28T10:00:00Z"));
    // As a start killed between the store's rename and the old folder's would have left it.
    rmSync(moved!.kept, { recursive: true });
    cpSync(copy, join(dataDir, LEVELDB_DIR), { recursive: true });
    expect(await migrateLevelDb(dataDir, STORE_DIR, new Date("2026-11-28T10:00:00Z"))).toBeUndefined();
    expect(readdirSync(dataDir).sort()).toEqual(["dynamodb.migrated-2026-11-28", STORE_DIR]);
    expect(filesOf(join(dataDir, "dynamodb.migrated-2026-11-28"))).toEqual(filesOf(copy));
  });

  it("by the admin command, says what it moved, and then that there is nothing to move", async () => {
    const dataDir = join(root, "admin");
    const held = await levelDbFolder(dataDir);
    const first = await runAdmin(dataDir, ["migrate-storage"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Хранилище перенесено в SQLite: записей ${held.size} \\(элементов ${[...held.keys()].filter((k) => k.startsWith("item-")).length}\\), SHA-256 [0-9a-f]{64} совпадает с прежним; прежняя папка сохранена как ${join(dataDir, "dynamodb\\.migrated-")}`,
      ),
    );
    expect(existsSync(join(dataDir, LEVELDB_DIR))).toBe(false);
    expect(readdirSync(dataDir).filter((name) => MIGRATED.test(name))).toHaveLength(1);
    const again = await runAdmin(dataDir, ["migrate-storage"]);
    expect(again).toEqual({ status: 0, stdout: `В папке ${dataDir} нет хранилища LevelDB: переносить нечего`, stderr: "" });
  }, 120_000);
});
