// the readings lost with LevelDB 1.20 were one key's versions split across files by a
// compaction (google/leveldb #320, and again #887: a snapshot then read an older version, or a deleted
// key came back). LevelDB went; this is that bug's test in upstream's form, on the store that replaced
// it (packages/dynalite/db/sqlite-level.mts): snapshots held while a few keys are written over and
// deleted many times, the WAL checkpointed into the database (SQLite's compaction) and the database
// vacuumed between them, and each snapshot, and the store after it is opened again, reads each key at
// exactly its version.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { DATA_FILE, SqliteLevel } from "dynalite/db/sqlite-level.mts";

const root = mkdtempSync(join(tmpdir(), "sqlite-level-versions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const KEYS = ["a", "b", "c", "d"];
const ROUNDS = 400;
/** A value a few pages long for some versions, so a key moves between a leaf and overflow pages. */
const versionValue = (key: string, version: number) => `${key}:${version}:${"x".repeat(version % 3 === 0 ? 5000 : 20)}`;

it("reads each key at its version in every snapshot held while it is written over, deleted and checkpointed", async () => {
  const location = join(root, "versions");
  const db = new SqliteLevel(location, { valueEncoding: "utf8" });
  await db.open();
  const outside = new DatabaseSync(join(location, DATA_FILE));
  /** What the store held when each snapshot was taken. */
  const held: { snapshot: ReturnType<typeof db.snapshot>; expected: Map<string, string | undefined> }[] = [];
  const now = new Map<string, string | undefined>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const key = KEYS[round % KEYS.length];
      // Every seventh version of a key is a delete; the others put it anew (one in three a long value).
      if (round % 7 === 6) {
        await db.del(key);
        now.set(key, undefined);
      } else {
        const value = versionValue(key, round);
        await db.put(key, value);
        now.set(key, value);
      }
      if (round % 10 === 0) held.push({ snapshot: db.snapshot(), expected: new Map(now) });
      // What LevelDB's compactions did to the levels, SQLite's checkpoint and vacuum do to its pages.
      if (round % 50 === 25) outside.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      if (round % 100 === 75) outside.exec("VACUUM");
    }
    for (const { snapshot, expected } of held) {
      for (const key of KEYS) expect(await db.get(key, { snapshot })).toBe(expected.get(key));
      const listed = await db.keys({ snapshot }).all();
      expect(listed).toEqual(KEYS.filter((key) => expected.get(key) !== undefined));
      await snapshot.close();
    }
  } finally {
    outside.close();
    await db.close();
  }
  const again = new SqliteLevel(location, { valueEncoding: "utf8" });
  await again.open();
  try {
    for (const key of KEYS) expect(await again.get(key)).toBe(now.get(key));
  } finally {
    await again.close();
  }
});
