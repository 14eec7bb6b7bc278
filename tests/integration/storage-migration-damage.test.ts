// A damaged store never becomes a new one, LevelDB's side (functions/src/local/leveldb-migration.ts): a
// LevelDB folder found beside a store already moved to SQLite is counted against the move's record — the
// same data are kept as after a move, other data are kept under a name of their own and the start says so
// at `warn`; a LevelDB that does not open (LevelDB's bare English «Database failed to open») stops the
// move with a Russian sentence naming the folder, and no `sqlite.migrating/` is left behind.
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LEVELDB_DIR, migrateLevelDb, type OtherLevelDb, StorageMigrationError } from "@server/local/leveldb-migration";
import { serverLog } from "@server/local/server-log";
import { STORE_DIR, storeOf } from "@server/local/storage";

const root = mkdtempSync(join(tmpdir(), "fugitive-leveldb-damage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small LevelDB of `records` items in `folder`. */
async function levelDb(folder: string, records: number, text = "запись"): Promise<void> {
  const db = new ClassicLevel<string, string>(folder, { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.open();
  for (let i = 0; i < records; i++) await db.put(`item-t~K#${String(i).padStart(4, "0")}`, JSON.stringify({ n: i, text }));
  await db.close();
}

describe("a LevelDB folder beside a migrated store", () => {
  it("with other data is kept under its own name and named at warn; with the same data kept as moved", async () => {
    const dataDir = join(root, "beside");
    await levelDb(join(dataDir, LEVELDB_DIR), 20);
    const copy = join(root, "beside-copy");
    cpSync(join(dataDir, LEVELDB_DIR), copy, { recursive: true });
    const at = new Date("2026-11-28T10:00:00Z");
    expect(await migrateLevelDb(dataDir, STORE_DIR, at)).toBeDefined();

    // The same data put back: kept as the moved folder is.
    cpSync(copy, join(dataDir, LEVELDB_DIR), { recursive: true });
    const told: OtherLevelDb[] = [];
    expect(await migrateLevelDb(dataDir, STORE_DIR, at, (found) => told.push(found))).toBeUndefined();
    expect(told).toEqual([]);
    expect(readdirSync(dataDir).sort()).toEqual(["dynamodb.migrated-2026-11-28", "dynamodb.migrated-2026-11-28-2", STORE_DIR]);

    // Other data (written after the move by an older release): kept, said at warn, the store unchanged.
    await levelDb(join(dataDir, LEVELDB_DIR), 30, "другая запись");
    const warn = vi.spyOn(serverLog, "warn").mockImplementation(() => undefined);
    try {
      expect(await storeOf(dataDir)).toBe(join(dataDir, STORE_DIR));
      const other = readdirSync(dataDir).find((name) => name.startsWith("dynamodb.other-"));
      expect(other).toMatch(/^dynamodb\.other-\d{4}-\d{2}-\d{2}$/);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({
          event: "storage-migration-other",
          folder: join(dataDir, other!),
          message: expect.stringContaining("(в ней записей 30, перенесено в SQLite 20)"),
        }),
      );
      // At the next start it is named again, the store as it was.
      warn.mockClear();
      await storeOf(dataDir);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(readdirSync(dataDir).filter((name) => name.startsWith("dynamodb.other-"))).toEqual([other]);
    } finally {
      warn.mockRestore();
    }
  }, 60_000);
});

describe("a LevelDB that does not open", () => {
  it("stops the move with a Russian sentence naming the folder, leaving no sqlite.migrating", async () => {
    const dataDir = join(root, "unopened");
    const old = join(dataDir, LEVELDB_DIR);
    await levelDb(old, 20);
    for (const name of readdirSync(old)) if (name.startsWith("MANIFEST-")) rmSync(join(old, name));
    const before = readdirSync(old).sort();
    const refusal = migrateLevelDb(dataDir, STORE_DIR);
    await expect(refusal).rejects.toThrow(StorageMigrationError);
    await expect(refusal).rejects.toThrow(`Прежнее хранилище LevelDB в папке ${old} не открывается или читается не целиком`);
    await expect(refusal).rejects.toThrow("недоделанная копия удалена");
    expect(readdirSync(dataDir)).toEqual([LEVELDB_DIR]);
    expect(readdirSync(old).sort()).toEqual(before);
  }, 60_000);
});
