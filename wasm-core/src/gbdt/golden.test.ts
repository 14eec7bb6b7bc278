// The institute's default methane models against the libraries' own predictions (golden-default.csv):
// XGBoost 1.7.4 Booster.predict and LightGBM 4.5.0 task=predict on 1000 test rows, 136 with NaN.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel, parseModel, predict, predictTs } from "./index";
import { FIXTURES_DIR, type ModelFixture } from "../../../tests/support/models";
import { readCsvWithColumn, readText, modelFixture } from "./test-fixtures";

const cases = [
  { file: "methane-xgboost.json", column: "pred_xgboost", library: "xgboost", version: "1.7.4", objective: "reg:squarederror" },
  { file: "methane-lightgbm.txt", column: "pred_lightgbm", library: "lightgbm", version: "v4", objective: "regression" },
] as const;

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe.each(cases)("$file", ({ file, column, library, version, objective }) => {
  const text = readText(modelFixture(file));
  const parsed = parseModel(text);
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), parsed.featureNames, column);

  it("exposes library, version, objective, features and tree count", () => {
    expect(parsed).toMatchObject({ library, version, objective, numTrees: 150 });
    expect(parsed.featureNames).toEqual(["x1", "x2", "x7", "x8", "x12", "x13", "x15"]);
  });

  it("reproduces every golden prediction bit for bit in WASM, NaN rows included", async () => {
    const model = await loadModel(text);
    const ours = predict(model, golden.rows);
    expect(golden.rowCount).toBe(1000);
    expect(Array.from(golden.rows).filter(Number.isNaN).length).toBeGreaterThan(0);
    expect(maxAbsDiff(ours, golden.values)).toBeLessThanOrEqual(2e-6);
    expect(Array.from(ours)).toEqual(Array.from(golden.values));
  });

  it("reproduces every golden prediction bit for bit in the plain TypeScript evaluator", () => {
    const ours = predictTs(parsed, golden.rows);
    expect(Array.from(ours)).toEqual(Array.from(golden.values));
  });

  it("reads the golden CSV columns by name whatever their order", async () => {
    const model = await loadModel(parsed);
    const header = readText(modelFixture("golden-default.csv")).split("\n")[0].split(",");
    const table = readText(modelFixture("golden-default.csv"))
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",").map(Number));
    expect(Array.from(predict(model, table, header))).toEqual(Array.from(golden.values));
  });
});

describe("the fixture files", () => {
  // SHA256SUMS holds the hashes of the files the libraries wrote: the models the product ships must
  // still be those bytes, or the golden predictions no longer say anything about them.
  const sums = readText(`${FIXTURES_DIR}SHA256SUMS`)
    .trim()
    .split("\n")
    .map((line) => line.split(/\s+/) as [string, ModelFixture]);

  it.each(sums.map(([hash, name]) => [name, hash]))("%s is byte for byte the file the library wrote", (name, hash) => {
    expect(
      createHash("sha256")
        .update(readFileSync(modelFixture(name as ModelFixture)))
        .digest("hex"),
    ).toBe(hash);
  });

  it("covers both models and the golden predictions", () => {
    expect(sums.map(([, name]) => name).sort()).toEqual(["golden-default.csv", "methane-lightgbm.txt", "methane-xgboost.json"]);
  });
});
