// The local engine's store (packages/dynalite/db/sqlite-level.mts) against abstract-level's own test
// suite (node_modules/abstract-level/test, the one every abstract-level store is held to): reads,
// writes, batches, ranges, seeks, encodings, sublevels, clear, and snapshots, the implicit ones of an
// iterator and the explicit ones of db.snapshot(). The suite is written for tape: it runs in a tape
// harness of its own here, and every assertion it makes must pass.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { SqliteLevel } from "dynalite/db/sqlite-level.mts";

const require = createRequire(import.meta.url);
const tape = require("tape") as typeof import("tape");
const suite = require("abstract-level/test") as (options: { test: unknown; factory(options?: object): unknown }) => void;

const root = mkdtempSync(join(tmpdir(), "sqlite-level-suite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("passes abstract-level's own test suite, snapshots included", async () => {
  const harness = tape.createHarness();
  const failures: string[] = [];
  let passed = 0;
  const results = harness.createStream({ objectMode: true });
  results.on("data", (row: { type: string; ok?: boolean; name?: string; id?: number }) => {
    if (row.type !== "assert") return;
    if (row.ok) passed++;
    else failures.push(`${row.id}: ${row.name}`);
  });
  const ended = new Promise<void>((done) => results.on("end", done));
  let made = 0;
  suite({ test: harness, factory: (options) => new SqliteLevel(join(root, String(made++)), options) });
  await ended;
  expect(failures).toEqual([]);
  // The suite's assertions for a store that declares every feature this one does (5 132 with
  // abstract-level 3.1.1): far fewer would mean a part of it did not run.
  expect(passed).toBeGreaterThan(5000);
}, 300_000);
