// The move of a data folder from LevelDB to the SQLite store (functions/src/local/leveldb-migration.ts):
// every record as it was, byte for byte, the LevelDB folder removed only once the store counts alike;
// a move killed midway done again; the admin command's words. The folder an older release wrote,
// started on, and its backup restored: tests/integration/data-format.test.ts.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { afterAll, describe, expect, it } from "vitest";
import { LEVELDB_DIR, migrateLevelDb } from "@server/local/leveldb-migration";
import { SqliteLevel } from "@server/local/sqlite-level.mjs";
import { STORE_DIR } from "@server/local/storage";
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

describe("a LevelDB data folder moved to the SQLite store", () => {
  it("holds every record as it was, counts it, and removes the LevelDB folder only then", async () => {
    const dataDir = join(root, "moved");
    const held = await levelDbFolder(dataDir);
    expect(readdirSync(join(dataDir, LEVELDB_DIR)).some((name) => name.endsWith(".ldb"))).toBe(true);
    // What a move killed midway left: done again from the start.
    mkdirSync(join(dataDir, `${STORE_DIR}.migrating`));
    writeFileSync(join(dataDir, `${STORE_DIR}.migrating`, "items.db"), "half a copy");

    const moved = await migrateLevelDb(dataDir, STORE_DIR);
    expect(moved?.from).toEqual(moved?.to);
    expect(moved?.to.records).toBe(held.size);
    const items = (table: string) => [...held.keys()].filter((key) => key.startsWith(`item-${table}~`)).length;
    expect(moved?.to.items).toEqual({ t: items("t"), other: items("other") });
    expect(await storeContents(join(dataDir, STORE_DIR))).toEqual(held);
    expect(readdirSync(dataDir).sort()).toEqual([STORE_DIR]);

    // Nothing to move the second time.
    expect(await migrateLevelDb(dataDir, STORE_DIR)).toBeUndefined();
  }, 120_000);

  it("by the admin command, says what it moved, and then that there is nothing to move", async () => {
    const dataDir = join(root, "admin");
    const held = await levelDbFolder(dataDir);
    const first = await runAdmin(dataDir, ["migrate-storage"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Хранилище перенесено в SQLite: записей ${held.size} \\(элементов ${[...held.keys()].filter((k) => k.startsWith("item-")).length}\\), SHA-256 [0-9a-f]{64} совпадает с прежним; папка LevelDB удалена`,
      ),
    );
    expect(existsSync(join(dataDir, LEVELDB_DIR))).toBe(false);
    const again = await runAdmin(dataDir, ["migrate-storage"]);
    expect(again).toEqual({ status: 0, stdout: `В папке ${dataDir} нет хранилища LevelDB: переносить нечего`, stderr: "" });
  }, 120_000);
});
