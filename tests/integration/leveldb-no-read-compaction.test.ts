// The local host's LevelDB compacts for size only, never because of reads (no-read-compaction.patch,
// built by functions/src/local/leveldb/build.mjs). LevelDB 1.20 charged a read that looked in a second
// file to the first file it looked in, and compacted a file whose charges ran out with every file it
// overlaps a level down. dynalite reads each key before it writes it, so every new minute, batch and
// event item was such a read: the holding's bench wrote 9,3 KB to disk for each reading where its
// items came to about 230 B (docs/performance.md, «Bytes written per reading»).
// Here a file of one level overlaps files of the next; thousands of reads of keys in neither pass through
// both, and the levels must be as they were. (With LevelDB's own reads the compaction follows within
// milliseconds; the wait below only gives it the chance.)
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { assertFixedLevelDb, classicLevelDir } from "../../functions/src/local/leveldb/fix.mjs";

interface LevelDb {
  open(): Promise<void>;
  close(): Promise<void>;
  put(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
  batch(operations: { type: "put"; key: string; value: string }[]): Promise<void>;
  compactRange(start: string, end: string): Promise<void>;
  getProperty(property: string): string;
}

const dir = mkdtempSync(join(tmpdir(), "leveldb-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keyOf = (i: number) => `k${String(i).padStart(7, "0")}`;
// Values that do not compress, so that the files are the sizes written.
const valueAt = (i: number) => Array.from({ length: 32 }, (_, k) => ((i * 2_654_435_761 + k * 40_503) >>> 0).toString(36)).join("");

it("sets off no compaction by reads: thousands of reads through overlapping levels leave the levels as they were", async () => {
  assertFixedLevelDb();
  const { ClassicLevel } = createRequire(join(classicLevelDir(), "index.js"))("./index.js") as {
    ClassicLevel: new (location: string, options: object) => LevelDb;
  };
  const db = new ClassicLevel(dir, { valueEncoding: "utf8", writeBufferSize: 256 * 1024, maxFileSize: 256 * 1024, compression: false });
  await db.open();
  try {
    // Every other key, compacted down to the lowest level that holds them.
    for (let from = 0; from < 40_000; from += 2_000) {
      const keys = Array.from({ length: 1_000 }, (_, j) => from + 2 * j);
      await db.batch(keys.map((i) => ({ type: "put" as const, key: keyOf(i), value: valueAt(i) })));
    }
    await db.compactRange(keyOf(0), keyOf(40_000));
    // One key in 200 written again: a file above the others, over the whole range.
    for (let i = 0; i < 40_000; i += 400) await db.put(keyOf(i), valueAt(i + 1));
    await db.compactRange("z0", "z1"); // writes the memory table out (the range holds no key)
    const levels = db.getProperty("leveldb.stats");
    expect(levels.match(/^\s+\d+\s+\d+/gm)?.length).toBeGreaterThanOrEqual(2);

    // The odd keys are in no file: each read looks in the upper file, then in the one below.
    for (let i = 1; i < 40_000; i += 4) expect(await db.get(keyOf(i))).toBeUndefined();
    const deadline = Date.now() + 1_500;
    while (Date.now() < deadline && db.getProperty("leveldb.stats") === levels) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.getProperty("leveldb.stats")).toBe(levels);
  } finally {
    await db.close();
  }
});
