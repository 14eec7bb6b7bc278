// The platform's default lagged models (tools/forecast-models/train_lagged_defaults.py, XGBoost 1.7.4)
// against the library's own predictions (golden-lagged.csv): the core builds the lag features from
// the institute's 6000-step series by the rows' times, and the model's change y(t + h) − y(t) on
// the 1000 held-out steps is the library's bit for bit; on those steps each horizon's forecast is
// closer to the measured y(t + h) than persistence.
import { describe, expect, it } from "vitest";
import { FIXTURES_DIR, LAGGED_HORIZONS, laggedModelFile, TRAINING_SERIES } from "../../../tests/support/models";
import { forecastAhead, LAG_FEATURES, lagColumns, loadModel, parseModel, predict, STEP_NUMBER_MS, withLags } from "./index";
import { readText } from "./test-fixtures";

const READINGS = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];

/** A CSV with a header as columns of numbers by name (NaN for «NaN» or an empty cell). */
function columns(path: string): Record<string, number[]> {
  const [header, ...lines] = readText(path).trim().split("\n");
  const names = header.split(",");
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const line of lines) line.split(",").forEach((cell, i) => out[names[i]].push(cell === "" ? Number.NaN : Number(cell)));
  return out;
}

// The whole series, train and test steps in step order.
const train = columns(TRAINING_SERIES);
const test = columns(`${FIXTURES_DIR}golden-default.csv`);
const steps = [...train.id.map((id, i) => ({ id, from: train, i })), ...test.id.map((id, i) => ({ id, from: test, i }))].sort(
  (a, b) => a.id - b.id,
);
const y = Float64Array.from(steps, (s) => s.from.y[s.i]);
const time = Float64Array.from(steps, (s) => s.id * STEP_NUMBER_MS);
const readings = Float64Array.from(steps.flatMap((s) => READINGS.map((name) => s.from[name][s.i])));
const lagged = withLags(readings, READINGS.length, lagColumns(y, time, STEP_NUMBER_MS));
const golden = columns(`${FIXTURES_DIR}golden-lagged.csv`);
const position = new Map(steps.map((s, k) => [s.id, k]));

describe.each(LAGGED_HORIZONS)("the default model of %i min", (horizon) => {
  const text = readText(laggedModelFile(horizon));

  it("names its horizon and its features: the readings and the first four lags (trained before the rates over 10, 30 and 60 min)", () => {
    const parsed = parseModel(text);
    expect(parsed).toMatchObject({ library: "xgboost", version: "1.7.4", horizon });
    expect(parsed.featureNames).toEqual([...READINGS, ...LAG_FEATURES.slice(0, 4)]);
  });

  it("predicts the library's change bit for bit from the lags the core builds, and beats persistence", async () => {
    const model = await loadModel(text);
    const change = predict(model, lagged, [...READINGS, ...LAG_FEATURES]);
    const forecast = forecastAhead(change, y);
    const scored = golden.id
      .map((id, k) => ({ k, at: position.get(id)! }))
      .filter(({ k }) => !Number.isNaN(golden[`change_h${horizon}`][k]));
    expect(scored.length).toBeGreaterThan(990);
    expect(scored.map(({ at }) => change[at])).toEqual(scored.map(({ k }) => golden[`change_h${horizon}`][k]));
    let modelSquares = 0;
    let persistenceSquares = 0;
    for (const { k, at } of scored) {
      const target = golden[`y_h${horizon}`][k];
      expect(target).toBe(y[at + horizon / 10]);
      modelSquares += (forecast[at] - target) ** 2;
      persistenceSquares += (y[at] - target) ** 2;
    }
    expect(modelSquares).toBeLessThan(persistenceSquares);
  });
});
