// The local engine's store (packages/dynalite/db/sqlite-level.mts) commits the writes called in one
// turn of the event loop together, and answers a write only once it is committed: what it
// acknowledged is in the WAL, so a process killed right after (SIGKILL) keeps it, whatever
// `synchronous` leaves to the kernel (docs/architecture.md, «The local engine's store»).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { DATA_FILE, SqliteLevel } from "dynalite/db/sqlite-level.mts";

const root = mkdtempSync(join(tmpdir(), "sqlite-level-commits-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const STORE = fileURLToPath(new URL("../../packages/dynalite/db/sqlite-level.mts", import.meta.url));

/** Commits made so far by other connections, as a connection of its own counts them. */
function commitsSeenFrom(file: string) {
  const db = new DatabaseSync(file);
  return {
    count: () => Number((db.prepare("PRAGMA data_version").get() as { data_version: number }).data_version),
    close: () => db.close(),
  };
}

it("commits a turn's writes in one transaction and answers each once it is committed", async () => {
  const location = join(root, "turn");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  const outside = commitsSeenFrom(join(location, DATA_FILE));
  try {
    const before = outside.count();
    const writes = [
      ...Array.from({ length: 25 }, (_, i) => db.put(`item-${String(i).padStart(2, "0")}`, `value ${i}`)),
      db.batch([
        { type: "put", key: "index-a", value: "a" },
        { type: "del", key: "item-03" },
      ]),
      db.del("item-04"),
    ];
    await Promise.all(writes);
    // Another connection sees all of them once they are answered, committed by one transaction.
    expect(outside.count() - before).toBe(1);
    const seen = new DatabaseSync(join(location, DATA_FILE));
    const keys = seen
      .prepare("SELECT k FROM kv ORDER BY k")
      .all()
      .map((row) => Buffer.from(row.k as Uint8Array).toString());
    seen.close();
    expect(keys).toHaveLength(24);
    expect(keys).toContain("index-a");
    expect(keys).not.toContain("item-03");
    // A write of a later turn is a commit of its own.
    await db.put("later", "x");
    expect(outside.count() - before).toBe(2);
  } finally {
    outside.close();
    await db.close();
  }
});

it("commits the writes called before a close", async () => {
  const location = join(root, "close");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  const put = db.put("k", "v");
  await db.close();
  await put;
  const again = new SqliteLevel(location, { valueEncoding: "utf8" });
  await again.open();
  expect(await again.get("k")).toBe("v");
  await again.close();
});

it("keeps every write it answered when its process is killed (SIGKILL) while writing", async () => {
  const location = join(root, "killed");
  // A writer of its own process: 8 writers at once put keys with 2 KB values, each printing its key
  // once the store answered it, until it is killed.
  const source = `
    const { SqliteLevel } = await import(${JSON.stringify(STORE)});
    const db = new SqliteLevel(${JSON.stringify(location)}, { valueEncoding: "utf8" });
    await db.open();
    const value = "x".repeat(2048);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (;;) {
        const key = "key-" + String(next++).padStart(8, "0");
        await db.put(key, value);
        process.stdout.write(key + "\\n");
      }
    }));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const acknowledged: string[] = [];
  let pending = "";
  await new Promise<void>((killed) => {
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      acknowledged.push(...lines);
      if (acknowledged.length >= 3000 && child.signalCode === null) child.kill("SIGKILL");
    });
    child.once("exit", () => killed());
  });
  expect(child.signalCode).toBe("SIGKILL");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  try {
    const stored = new Set(await db.keys().all());
    expect(acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
  } finally {
    await db.close();
  }
}, 120_000);

/** The bytes in `location`'s WAL. */
const walBytes = (location: string) => statSync(join(location, `${DATA_FILE}-wal`)).size;

it("makes a new database of 1 KB pages, so a small write appends few bytes to the WAL", async () => {
  const location = join(root, "pages");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  try {
    // A tree of several levels, as a holding's table is, then emptied into the database file.
    await db.batch(
      Array.from({ length: 3000 }, (_, i) => ({ type: "put" as const, key: `item-${String(i).padStart(5, "0")}`, value: "v".repeat(400) })),
    );
    const outside = new DatabaseSync(join(location, DATA_FILE));
    expect((outside.prepare("PRAGMA page_size").get() as { page_size: number }).page_size).toBe(1024);
    outside.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    outside.close();
    expect(walBytes(location)).toBe(0);
    // One small item, as most of the engine's writes are: its leaf and the pages above it, 1 KB each
    // (with 4 KB pages, 8-12 KB).
    await db.put("item-01500x", "v".repeat(300));
    expect(walBytes(location)).toBeLessThan(5000);
  } finally {
    await db.close();
  }
});

it("opens a database made with 4 KB pages and keeps them", async () => {
  const location = join(root, "old-pages");
  mkdirSync(location);
  const old = new DatabaseSync(join(location, DATA_FILE));
  old.exec("PRAGMA page_size = 4096");
  old.exec("PRAGMA journal_mode = WAL");
  old.exec("CREATE TABLE kv (k BLOB PRIMARY KEY NOT NULL, v BLOB NOT NULL) WITHOUT ROWID");
  old.prepare("INSERT INTO kv (k, v) VALUES (?, ?)").run(Buffer.from("kept"), Buffer.from("as it was"));
  old.close();
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  try {
    expect(await db.get("kept")).toBe("as it was");
    await db.put("new", "x");
    const outside = new DatabaseSync(join(location, DATA_FILE));
    expect((outside.prepare("PRAGMA page_size").get() as { page_size: number }).page_size).toBe(4096);
    outside.close();
  } finally {
    await db.close();
  }
});

/** A key as dynalite writes an item's: its table, a hash prefix and its key attributes in hex (240 B). */
const itemKey = (facility: number, minute: number) =>
  `item-fugitive-emissions~${Buffer.from(`f${facility}`).toString("hex").slice(0, 6)}/` +
  `${Buffer.from(`TELEMETRY#01a21f60-6287-76e9-ade0-670503449822#facility-${facility}#2026-11-27`).toString("hex")}/` +
  `${Buffer.from(`MIN#${String(minute).padStart(4, "0")}`).toString("hex")}/`;

it("writes a new item under dynalite's long keys, and its delete, as a few pages of the WAL", async () => {
  const location = join(root, "layout");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  const outside = new DatabaseSync(join(location, DATA_FILE));
  try {
    // A late day's items of five facilities under dynalite's long keys: minutes of 4,2 KB, the rest of 800 B.
    await db.batch(
      Array.from({ length: 3000 }, (_, i) => ({ type: "put" as const, key: itemKey(i % 5, 2 * i), value: "v".repeat(i % 3 ? 800 : 4200) })),
    );
    let put = 0;
    let del = 0;
    for (let n = 0; n < 50; n++) {
      // An event of 793 B between the items, as the consumer writes one and later removes it, each
      // a commit of its own, the WAL emptied into the database before each.
      const key = itemKey(n % 5, 2 * ((n * 37) % 3000) + 1);
      outside.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      await db.put(key, "e".repeat(793));
      put += walBytes(location);
      outside.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      await db.del(key);
      del += walBytes(location);
    }
    // WITHOUT ROWID: the key's leaf, its overflow page, the free list's (3 846 B a put, 3 239 a
    // delete). A rowid table with a unique index of the keys wrote the index's leaf and overflow
    // page and the table's leaf too: 9 212 and 6 613 B.
    expect(put / 50).toBeLessThan(5000);
    expect(del / 50).toBeLessThan(4500);
  } finally {
    outside.close();
    await db.close();
  }
});

it("cuts a WAL grown past its limit back to 8 MB once a checkpoint resets it (journal_size_limit)", async () => {
  const location = join(root, "wal-limit");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  try {
    await db.put("first", "x");
    // A snapshot held (a backup's, a query's pages) keeps the checkpoint from resetting the WAL: the
    // writes meanwhile, 16 MB of them, all grow it.
    const held = db.snapshot();
    for (let batch = 0; batch < 40; batch++) {
      await db.batch(
        Array.from({ length: 100 }, (_, i) => ({
          type: "put" as const,
          key: `big-${batch}-${String(i).padStart(3, "0")}`,
          value: "v".repeat(4000),
        })),
      );
    }
    const grown = walBytes(location);
    expect(grown).toBeGreaterThan(12 * 1024 * 1024);
    await held.close();
    // The next commit checkpoints the whole WAL (no reader holds it back now); the one after it
    // starts the WAL again from its beginning, and SQLite cuts the file to the limit.
    await db.batch(Array.from({ length: 10 }, (_, i) => ({ type: "put" as const, key: `after-${i}`, value: "v".repeat(4000) })));
    await db.put("last", "x");
    expect(walBytes(location)).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(await db.get("big-39-099")).toBe("v".repeat(4000));
  } finally {
    await db.close();
  }
});
