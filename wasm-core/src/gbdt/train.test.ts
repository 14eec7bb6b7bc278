// The trainer: a model trained in the WASM core exports as XGBoost JSON that the product's reader
// and the real XGBoost (Debian's python3-xgboost, installed by tests/prerequisites.sh) predict alike,
// bit for bit in float32, on rows with missing values and values on the split thresholds.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel, predict, trainModel, trainParams, TrainingCancelled, TrainingInputError, type TrainingData } from "./index";
import { readXGBoostJson } from "./xgboost";

/** A known function of three of five features, NaN in a tenth of x3's values (the target then shifts by 2). */
function syntheticData(count: number, seed: number, noise = 0.1): TrainingData {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const width = 5;
  const rows = new Float64Array(count * width);
  const y = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    for (let f = 0; f < width; f++) rows[i * width + f] = Math.round(next() * 1000) / 100;
    const missing = next() < 0.1;
    if (missing) rows[i * width + 3] = Number.NaN;
    const [a, b, c] = [rows[i * width], rows[i * width + 1], rows[i * width + 2]];
    y[i] = 2 * Math.sin(a) + (b > 5 ? 1.5 : 0) + 0.1 * c + (missing ? 2 : 0) + noise * (next() - 0.5);
  }
  return { featureNames: ["x1", "x2", "x7", "x8", "x12"], rows, y };
}

/** As the core computes it: the target read as float32, summed in double in row order. */
const rmse = (p: ArrayLike<number>, y: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < y.length; i++) sum += (p[i] - Math.fround(y[i])) ** 2;
  return Math.sqrt(sum / y.length);
};

function findPython(): string | undefined {
  return ["python3", "/usr/bin/python3"].find((python) => spawnSync(python, ["-c", "import xgboost"], { stdio: "ignore" }).status === 0);
}

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
    // The validation error of the kept model, predicted by the product's inference, is the one reported.
    const model = await loadModel(result.json);
    const rows = result.validation_rows;
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

  it("the real XGBoost 1.7 loads the exported model and predicts what the product predicts, in float32", async () => {
    // Never skipped: tests/prerequisites.sh installs Debian's python3-xgboost for the unit tier.
    const python = findPython();
    if (!python) throw new Error("no python3 imports xgboost: sudo apt-get install -y python3-xgboost");
    const data = syntheticData(3000, 21);
    const result = await trainModel(data, trainParams({ n_estimators: 60, max_depth: 6, validation_fraction: 0 }));
    const model = JSON.parse(result.json);
    // Rows: the data's own, missing values in every column, and every split threshold itself and
    // its float32 neighbours in the split's feature (the "<" boundary).
    const width = data.featureNames.length;
    const rows: number[][] = [];
    for (let r = 0; r < 500; r++) rows.push(Array.from(data.rows.subarray(r * width, (r + 1) * width)));
    for (let f = 0; f < width; f++) rows.push(rows[f].map((v, g) => (g === f ? Number.NaN : v)));
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    for (const tree of model.learner.gradient_booster.model.trees.slice(0, 20)) {
      tree.left_children.forEach((left: number, n: number) => {
        if (left === -1) return;
        f32[0] = tree.split_conditions[n];
        const at = f32[0];
        u32[0] -= 1;
        const below = f32[0];
        for (const v of [at, below]) rows.push(rows[n % 500].map((x, g) => (g === tree.split_indices[n] ? v : x)));
      });
    }
    const dir = mkdtempSync(join(tmpdir(), "gbdt-train-"));
    writeFileSync(join(dir, "model.json"), result.json);
    writeFileSync(join(dir, "rows.json"), JSON.stringify(rows.map((r) => r.map((v) => (Number.isNaN(v) ? null : v)))));
    const script = `
import json, sys
import numpy as np, xgboost as xgb
booster = xgb.Booster(model_file=sys.argv[1])
rows = np.array(json.load(open(sys.argv[2])), dtype=np.float64)
pred = booster.inplace_predict(rows)
print(json.dumps({"version": xgb.__version__, "pred": [float(v) for v in pred]}))
`;
    const run = spawnSync(python, ["-c", script, join(dir, "model.json"), join(dir, "rows.json")], { encoding: "utf8" });
    expect(run.stderr).not.toMatch(/Error/);
    const native = JSON.parse(run.stdout) as { version: string; pred: number[] };
    expect(native.version).toMatch(/^1\.7\./);
    const ours = Array.from(predict(await loadModel(result.json), rows));
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours).toEqual(native.pred);
  });
});
