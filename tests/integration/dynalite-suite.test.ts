// The local engine (packages/dynalite, the project's fork of dynalite 4.0.0) against dynalite's own
// test suite (packages/dynalite/test, upstream's, unchanged): mocha drives the engine over HTTP as a
// DynamoDB client would, every action with its validations, errors, conditions, indexes, paging and
// capacities, on the fork's SQLite store in a data folder (DYNALITE_PATH), where upstream runs it in
// memory. Every case must pass but the five upstream itself skips (`it.skip`, `describe.skip`), which
// are named here with upstream's reason so that a case skipped by anything else fails the test.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const FORK = fileURLToPath(new URL("../../packages/dynalite/", import.meta.url));
const MOCHA = fileURLToPath(new URL("../../node_modules/mocha/bin/mocha.js", import.meta.url));

/** The cases upstream's suite skips at v4.0.0, and why (its own comments). */
const SKIPPED_UPSTREAM = [
  // «TODO: test fails!»: capacity-based UnprocessedKeys, which dynalite does not model.
  "batchGetItem functionality should return an unprocessed item if just over limit",
  // Throttling by provisioned capacity (DynamoDB's burst algorithm), which dynalite does not model.
  "batchWriteItem functionality should return UnprocessedItems if over limit",
  // «benchmarks»: timings, not checks.
  "benchmarks should batch write",
  "benchmarks should scan",
  // «XXX: this takes more than 20 mins to run» against DynamoDB (its billing mode's cool-down).
  "updateTable functionality should allow table to be converted to PAY_PER_REQUEST and back again",
];

interface MochaReport {
  stats: { tests: number; passes: number; pending: number; failures: number };
  pending: { fullTitle: string }[];
  failures: { fullTitle: string; err: { message?: string } }[];
}

const root = mkdtempSync(join(tmpdir(), "dynalite-suite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("passes dynalite's own test suite on the SQLite store, but for the cases upstream skips", async () => {
  const child = spawn(process.execPath, [MOCHA, "--require", "should", "-t", "20s", "--reporter", "json", "test/*.js"], {
    cwd: FORK,
    env: { ...process.env, DYNALITE_PATH: join(root, "data") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  await new Promise((done) => child.once("close", done));
  const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as MochaReport;
  expect(
    report.failures.map(({ fullTitle, err }) => `${fullTitle}: ${err.message}`),
    stderr,
  ).toEqual([]);
  expect(report.pending.map(({ fullTitle }) => fullTitle).sort()).toEqual([...SKIPPED_UPSTREAM].sort());
  // 1 059 cases at v4.0.0: far fewer passing would mean a file of the suite did not run.
  expect(report.stats.passes).toBe(report.stats.tests - SKIPPED_UPSTREAM.length);
  expect(report.stats.passes).toBeGreaterThanOrEqual(1054);
}, 600_000);
