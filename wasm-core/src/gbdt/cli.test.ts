// The CLI as users run it: `npm run --silent gbdt -- predict --model FILE --csv FILE`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixture, readText, modelFixture } from "./test-fixtures";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
const cli = join(repoRoot, "wasm-core/src/gbdt-cli.ts");
const work = mkdtempSync(join(tmpdir(), "gbdt-cli-"));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [tsx, cli, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function csv(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const goldenLines = readText(modelFixture("golden-default.csv")).trim().split("\n");
const goldenColumn = (name: string) => {
  const index = goldenLines[0].split(",").indexOf(name);
  return goldenLines.slice(1).map((line) => line.split(",")[index]);
};

describe("gbdt CLI", () => {
  it("prints XGBoost's golden predictions, one per row, through npm run", () => {
    const result = spawnSync(
      "npm",
      [
        "run",
        "--silent",
        "gbdt",
        "--",
        "predict",
        "--model",
        modelFixture("methane-xgboost.json"),
        "--csv",
        modelFixture("golden-default.csv"),
      ],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(result.status).toBe(0);
    // Shortest round-trip text: identical to Python's repr of the float32 values.
    expect(result.stdout.trimEnd().split("\n")).toEqual(goldenColumn("pred_xgboost"));
  });

  it("prints LightGBM's golden predictions as the same doubles", () => {
    const result = run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", modelFixture("golden-default.csv"));
    expect(result.status).toBe(0);
    expect(result.stdout.trimEnd().split("\n").map(Number)).toEqual(goldenColumn("pred_lightgbm").map(Number));
  });

  it("takes feature columns in any order, extra columns ignored, empty cells missing", () => {
    const path = csv("shuffled.csv", "y,x15,x13,x12,x8,x7,x2,x1,id\n0.58,45.264,18187,0.408,124.21,37.01,,1324.7,3\n");
    const result = run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", path);
    expect(result.status).toBe(0);
    const same = csv("same.csv", "x1,x2,x7,x8,x12,x13,x15\n1324.7,NaN,37.01,124.21,0.408,18187,45.264\n");
    expect(result.stdout).toBe(run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", same).stdout);
  });

  it("reads a quoted field with a comma as one cell", () => {
    const quoted = csv("quoted.csv", 'id,x1,x2,x7,x8,x12,x13,x15\n"Шахта, участок 1",1324.7,NaN,37.01,124.21,0.408,18187,45.264\n');
    const plain = csv("plain.csv", "x1,x2,x7,x8,x12,x13,x15\n1324.7,NaN,37.01,124.21,0.408,18187,45.264\n");
    const result = run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", quoted);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", plain).stdout);
  });

  it("fails with a message naming a missing feature column", () => {
    const path = csv("no-x7.csv", "x1,x2,x8,x12,x13,x15\n1,2,3,4,5,6\n");
    const result = run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", path);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/lacks feature column\(s\) x7/);
    expect(result.stdout).toBe("");
  });

  it("fails with a message naming the row and column of a non-numeric cell", () => {
    const path = csv("bad-cell.csv", "x1,x2,x7,x8,x12,x13,x15\n1,2,3,4,5,6,7\n1,2,abc,4,5,6,7\n");
    const result = run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", path);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('line 3 (data row 2), column x7: "abc" is not a number');
  });

  it("fails on an unreadable or unrecognised model and on bad usage", () => {
    const missing = run("predict", "--model", join(work, "nope.json"), "--csv", modelFixture("golden-default.csv"));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/cannot read model .*nope\.json/);
    const garbage = run("predict", "--model", csv("garbage.txt", "not a model"), "--csv", modelFixture("golden-default.csv"));
    expect(garbage.status).toBe(1);
    expect(garbage.stderr).toMatch(/unrecognised model file/);
    const usage = run("predict", "--model");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/usage: gbdt predict/);
  });

  it("describes a model with info", () => {
    const result = run("info", "--model", modelFixture("methane-lightgbm.txt"));
    expect(JSON.parse(result.stdout)).toMatchObject({ library: "lightgbm", objective: "regression", numTrees: 150, engine: "quickscorer" });
    expect(JSON.parse(result.stdout).engineReason).toMatch(/^QuickScorer с контрольными точками префиксов: /);
    const categorical = JSON.parse(run("info", "--model", fixture("lgb-categorical.txt")).stdout);
    expect(categorical).toMatchObject({ engine: "walk", engineReason: "обход деревьев: в модели категориальные разбиения" });
  });
});
