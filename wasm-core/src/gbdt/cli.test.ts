// The CLI as users run it: `npm run --silent gbdt -- predict --model FILE --csv FILE`, info and train;
// through npm once, the commands in this process otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gbdtCommand } from "./command";
import { fixture, readText, modelFixture } from "./test-fixtures";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "gbdt-cli-"));

/** The command in this process, as the entry runs it, its output captured. */
async function run(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const status = await gbdtCommand(args, { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { status, stdout, stderr };
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
  it("prints XGBoost's golden predictions, one per row, through npm run", async () => {
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

  it("prints LightGBM's golden predictions as the same doubles", async () => {
    const result = await run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", modelFixture("golden-default.csv"));
    expect(result.status).toBe(0);
    expect(result.stdout.trimEnd().split("\n").map(Number)).toEqual(goldenColumn("pred_lightgbm").map(Number));
  });

  it("takes feature columns in any order, extra columns ignored, empty cells missing", async () => {
    const path = csv("shuffled.csv", "y,x15,x13,x12,x8,x7,x2,x1,id\n0.58,45.264,18187,0.408,124.21,37.01,,1324.7,3\n");
    const result = await run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", path);
    expect(result.status).toBe(0);
    const same = csv("same.csv", "x1,x2,x7,x8,x12,x13,x15\n1324.7,NaN,37.01,124.21,0.408,18187,45.264\n");
    expect(result.stdout).toBe((await run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", same)).stdout);
  });

  it("reads a quoted field with a comma as one cell", async () => {
    const quoted = csv("quoted.csv", 'id,x1,x2,x7,x8,x12,x13,x15\n"Шахта, участок 1",1324.7,NaN,37.01,124.21,0.408,18187,45.264\n');
    const plain = csv("plain.csv", "x1,x2,x7,x8,x12,x13,x15\n1324.7,NaN,37.01,124.21,0.408,18187,45.264\n");
    const result = await run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", quoted);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe((await run("predict", "--model", modelFixture("methane-lightgbm.txt"), "--csv", plain)).stdout);
  });

  it("reads a «;» file with decimal commas and keeps a row of empty cells as an empty line", async () => {
    const commas = csv("commas.csv", "x1,x2,x7,x8,x12,x13,x15\n1324.7,NaN,37.01,124.21,0.408,18187,45.264\n");
    const semicolons = csv(
      "semicolons.csv",
      "x1;x2;x7;x8;x12;x13;x15\n1324,7;;37,01;124,21;0,408;18187;45,264\n;;;;;;\n1324,7;;37,01;124,21;0,408;18187;45,264\n",
    );
    const one = (await run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", commas)).stdout.trim();
    const result = await run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", semicolons);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${one}\n\n${one}\n`);
  });

  it("refuses a million training rows without reading them all, in a separate process under 400 MB", () => {
    const lines = ["x1,x2,y"];
    for (let i = 0; i < 1_000_000; i++) lines.push(`${i % 97},${i % 13},${(i % 7) / 10}`);
    const path = csv("million.csv", `${lines.join("\n")}\n`);
    const result = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=400",
        "--import",
        "tsx",
        "wasm-core/src/gbdt-cli.ts",
        "train",
        "--csv",
        path,
        "--target",
        "y",
        "--out",
        join(work, "never.json"),
      ],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/Для обучения допускается не больше 200.000 строк, в файле больше/);
  }, 60_000);

  it("fails with a message naming a missing feature column", async () => {
    const path = csv("no-x7.csv", "x1,x2,x8,x12,x13,x15\n1,2,3,4,5,6\n");
    const result = await run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", path);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/В заголовке CSV нет столбцов признаков x7/);
    expect(result.stdout).toBe("");
  });

  it("fails with a message naming the row and column of a non-numeric cell", async () => {
    const path = csv("bad-cell.csv", "x1,x2,x7,x8,x12,x13,x15\n1,2,3,4,5,6,7\n1,2,abc,4,5,6,7\n");
    const result = await run("predict", "--model", modelFixture("methane-xgboost.json"), "--csv", path);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("CSV, строка 3, столбец x7: «abc» — не число");
  });

  it("fails on an unreadable or unrecognised model and on bad usage", async () => {
    const missing = await run("predict", "--model", join(work, "nope.json"), "--csv", modelFixture("golden-default.csv"));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/не удалось прочитать файл модели .*nope\.json/);
    const garbage = await run("predict", "--model", csv("garbage.txt", "not a model"), "--csv", modelFixture("golden-default.csv"));
    expect(garbage.status).toBe(1);
    expect(garbage.stderr).toMatch(/unrecognised model file/);
    const usage = await run("predict", "--model");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/неожиданный аргумент «--model»\nкак вызывать: gbdt predict/);
  });

  it("describes a model with info", async () => {
    const result = await run("info", "--model", modelFixture("methane-lightgbm.txt"));
    expect(JSON.parse(result.stdout)).toMatchObject({ library: "lightgbm", objective: "regression", numTrees: 150, engine: "quickscorer" });
    expect(JSON.parse(result.stdout).engineReason).toMatch(/^QuickScorer с контрольными точками префиксов: /);
    const categorical = JSON.parse((await run("info", "--model", fixture("lgb-categorical.txt"))).stdout);
    expect(categorical).toMatchObject({ engine: "walk", engineReason: "обход деревьев: в модели категориальные разбиения" });
  });

  it("trains a model on a file's other columns, writes XGBoost JSON that predict reads, and summarises it", async () => {
    const lines = ["id,t,x1,x2,y"];
    for (let i = 0; i < 300; i++) {
      const x1 = (i * 37) % 101;
      const x2 = i % 7 === 0 ? "" : String((i * 13) % 17);
      lines.push(
        `${i},01.01.2025 ${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")},${x1},${x2},${x1 * 0.01 + (x2 === "" ? 1 : 0)}`,
      );
    }
    const data = csv("history.csv", `${lines.join("\n")}\n`);
    const out = join(work, "trained.json");
    const result = await run(
      "train",
      "--csv",
      data,
      "--target",
      "y",
      "--out",
      out,
      "--n_estimators",
      "80",
      "--max_depth",
      "3",
      "--seed",
      "4",
    );
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ features: ["x1", "x2"], train_rows: 240, validation_rows: 60, model: out });
    expect(summary.params).toMatchObject({ n_estimators: 80, max_depth: 3, learning_rate: 0.1, seed: 4, max_bin: 256 });
    expect(summary.valid_rmse).toBeLessThan(0.1);
    expect(result.stderr).toMatch(/\[1\/80\] RMSE на обучающих строках [\d.]+, на проверочных [\d.]+/);
    const info = JSON.parse((await run("info", "--model", out)).stdout);
    expect(info).toMatchObject({ library: "xgboost", version: "1.7.4", objective: "reg:squarederror", featureNames: ["x1", "x2"] });
    expect(info.numTrees).toBe(summary.num_trees);
    const predicted = await run("predict", "--model", out, "--csv", data);
    expect(predicted.status).toBe(0);
    const values = predicted.stdout.trimEnd().split("\n").map(Number);
    expect(values).toHaveLength(300);
    // The row with x2 missing gets about 1 more than its neighbour with x2 present.
    expect(values[7] - values[8]).toBeGreaterThan(0.5);
  });

  it("refuses a bad training file or parameter with the reason", async () => {
    const constant = csv("constant.csv", `x1,y\n${Array.from({ length: 30 }, (_, i) => `${i},2.5`).join("\n")}\n`);
    const flat = await run("train", "--csv", constant, "--target", "y", "--out", join(work, "never.json"));
    expect(flat.status).toBe(1);
    expect(flat.stderr).toMatch(/целевая величина во всех строках одна и та же \(2,5\)/);
    const text = csv("text.csv", `x1,y\n${Array.from({ length: 30 }, (_, i) => `${i === 4 ? "много" : i},${i}`).join("\n")}\n`);
    expect((await run("train", "--csv", text, "--target", "y", "--out", join(work, "never.json"))).stderr).toMatch(
      /CSV, строка 6, столбец x1: «много» — не число/,
    );
    const noTarget = await run("train", "--csv", text, "--target", "z", "--out", join(work, "never.json"));
    expect(noTarget.stderr).toMatch(/нет целевого столбца z/);
    const badParam = await run("train", "--csv", text, "--target", "y", "--out", join(work, "never.json"), "--subsample", "0");
    expect(badParam.status).toBe(2);
    expect(badParam.stderr).toMatch(/subsample: нужно число больше 0 и не больше 1/);
    expect(existsSync(join(work, "never.json"))).toBe(false);
  });
});
