// The trainer: a model trained in the WASM core exports as XGBoost JSON that the product's reader
// predicts alike (the real XGBoost reads it in tests/integration/xgboost-round-trip.test.ts).
import { describe, expect, it } from "vitest";
import { loadModel, predict, trainModel, trainParams, TrainingCancelled, TrainingInputError, type TrainingData } from "./index";
import { syntheticData } from "./test-fixtures";
import { readXGBoostJson } from "./xgboost";

/** As the core computes it: the target read as float32, summed in double in row order. */
const rmse = (p: ArrayLike<number>, y: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < y.length; i++) sum += (p[i] - Math.fround(y[i])) ** 2;
  return Math.sqrt(sum / y.length);
};

describe("training in the core", () => {
  it("trains, exports XGBoost JSON, and the product's inference reproduces the training predictions", async () => {
    const data = syntheticData(2000, 7);
    const result = await trainModel(data, trainParams({ n_estimators: 40, max_depth: 4, validation_fraction: 0 }));
    expect(result.num_trees).toBe(40);
    expect(result.rounds).toHaveLength(40);
    const parsed = readXGBoostJson(result.json);
    expect(parsed.featureNames).toEqual(data.featureNames);
    expect(parsed.numTrees).toBe(40);
    expect(parsed.objective).toBe("reg:squarederror");
    const model = await loadModel(result.json);
    const predictions = predict(model, data.rows);
    // The training error the core reports is computed on its own float32 margins: equal to the
    // error of what the exported model predicts for the same rows only if every row took the same leaves.
    expect(rmse(predictions, data.y)).toBe(result.train_rmse);
    // base_score is the mean of the target.
    const mean = data.y.reduce((a, b) => a + b, 0) / data.y.length;
    expect(result.base_score).toBe(Math.fround(mean));
    expect(JSON.parse(result.json).learner.learner_model_param.base_score).toMatch(/^[0-9.]+(E-?\d+)?$/);
  });

  it("fits a known function: the error on unseen rows is near the noise, and importance finds the features used", async () => {
    const data = syntheticData(6000, 11);
    const unseen = syntheticData(3000, 12);
    const result = await trainModel(data, trainParams({ n_estimators: 200, max_depth: 5 }));
    const predictions = predict(await loadModel(result.json), unseen.rows);
    expect(rmse(predictions, unseen.y)).toBeLessThan(0.15);
    const share = Object.fromEntries(result.importance.map((i) => [i.feature, i.share]));
    // x1 (sin), x2 (step), x7 (slope) and the missing values of x8 carry the signal; x12 is noise.
    expect(share.x1).toBeGreaterThan(0.3);
    expect(share.x12).toBeLessThan(0.02);
    expect(result.importance.reduce((a, i) => a + i.share, 0)).toBeCloseTo(1, 10);
    // Missing x8 goes to its own side: some split on x8 learned to send NaN where the target is higher.
    const trees = JSON.parse(result.json).learner.gradient_booster.model.trees as { split_indices: number[]; left_children: number[] }[];
    expect(trees.some((t) => t.split_indices.some((f, n) => f === 3 && t.left_children[n] !== -1))).toBe(true);
    const withNaN = unseen.rows.slice(0, 5);
    const withValue = withNaN.slice();
    withNaN[3] = Number.NaN;
    withValue[3] = 5;
    const model = await loadModel(result.json);
    expect(predict(model, withNaN)[0] - predict(model, withValue)[0]).toBeGreaterThan(1.5);
  });

  it("holds out the latest rows by t, stops early and keeps the best round's trees", async () => {
    const data = syntheticData(1500, 3, 2);
    const t = Float64Array.from(data.y, (_, i) => data.y.length - i); // the first rows are the latest
    const result = await trainModel({ ...data, t }, trainParams({ n_estimators: 500, learning_rate: 0.3, early_stopping_rounds: 5 }));
    expect(result.validation_rows).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(result.train_rows).toBe(1200);
    expect(result.rounds.length).toBeLessThan(500);
    expect(result.num_trees).toBe(result.rounds.length - 5);
    const best = Math.min(...result.rounds.map((r) => r.valid_rmse!));
    expect(result.valid_rmse).toBe(best);
    expect(JSON.parse(result.json).learner.attributes.best_iteration).toBe(String(result.num_trees - 1));
    // the earlier half of them (by t: the later row numbers) stopped the training; the later
    // half is left for the calibration, seen by neither the trees nor that choice.
    expect(result.stopping_rows).toEqual(Array.from({ length: 150 }, (_, i) => 150 + i));
    expect(result.calibration_rows).toEqual(Array.from({ length: 150 }, (_, i) => i));
    // The validation error of the kept model on the rows that stopped it, predicted by the product's inference, is the one reported.
    const model = await loadModel(result.json);
    const rows = result.stopping_rows;
    const width = data.featureNames.length;
    const predictions = predict(
      model,
      rows.map((r) => Array.from(data.rows.subarray(r * width, (r + 1) * width))),
    );
    expect(
      rmse(
        predictions,
        rows.map((r) => data.y[r]),
      ),
    ).toBe(result.valid_rmse);
  });

  it("is reproducible with one seed and differs with another under subsample and colsample_bytree", async () => {
    const data = syntheticData(800, 5);
    const params = (seed: number) => trainParams({ n_estimators: 20, subsample: 0.7, colsample_bytree: 0.6, seed });
    const [a, b, c] = await Promise.all([trainModel(data, params(1)), trainModel(data, params(1)), trainModel(data, params(2))]);
    expect(a.json).toBe(b.json);
    expect(a.json).not.toBe(c.json);
  });

  it("trains pseudo-Huber and writes its slope as XGBoost does", async () => {
    const data = syntheticData(1000, 9);
    const result = await trainModel(data, trainParams({ n_estimators: 30, objective: "reg:pseudohubererror", huber_slope: 2 }));
    const objective = JSON.parse(result.json).learner.objective;
    expect(objective).toEqual({ name: "reg:pseudohubererror", pseudo_huber_param: { huber_slope: "2" } });
    expect(result.valid_rmse!).toBeLessThan(1);
  });

  it("refuses bad data and parameters in Russian", async () => {
    const data = syntheticData(100, 1);
    const refuses = (d: TrainingData, message: RegExp) => expect(trainModel(d, trainParams())).rejects.toThrow(message);
    await refuses({ ...data, y: new Float64Array(100).fill(0.5) }, /во всех строках одна и та же \(0,5\)/);
    await refuses({ ...data, rows: data.rows.subarray(0, 15), y: data.y.subarray(0, 3) }, /не меньше 20 строк, в данных 3/);
    const huge = 200_001;
    await refuses(
      { featureNames: ["x1"], rows: new Float64Array(huge), y: new Float64Array(huge) },
      /не больше 200 000 строк, в данных 200 001/,
    );
    const infinite = data.rows.slice();
    infinite[7] = Infinity;
    await refuses({ ...data, rows: infinite }, /x7: в строке 2 значение вне диапазона/);
    expect(() => trainParams({ max_depth: 11 })).toThrow(/max_depth: нужно целое число от 0 до 10/);
    expect(() => trainParams({ learning_rate: "0" })).toThrow(/learning_rate: нужно число больше 0/);
    expect(() => trainParams({ eta: 1 } as never)).toThrow(TrainingInputError);
    expect(trainParams({ learning_rate: "0,05" }).learning_rate).toBe(0.05);
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect(() => trainParams(JSON.parse(`{"${name}": {}}`))).toThrow(`${name}: неизвестный параметр обучения`);
    }
  });

  it("stops when cancelled", async () => {
    const controller = new AbortController();
    const run = trainModel(syntheticData(500, 2), trainParams({ n_estimators: 1000, validation_fraction: 0 }), {
      signal: controller.signal,
      onRound: (info) => {
        if (info.round === 3) controller.abort();
      },
    });
    await expect(run).rejects.toThrow(TrainingCancelled);
  });
});
