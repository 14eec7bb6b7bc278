// The product's trainer against the real XGBoost (Debian's python3-xgboost, tree_method=hist) on the
// same lag features of a generated drifting longwall: for horizons of 10 minutes and 1 hour, both
// learn y(t + h) − y(t) from the first 70 % of the rows with the same parameters, and the product's
// error on the last 30 % is within 2 % of the library's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { horizonRows, horizonTrainingData, loadModel, predict, trainModel, trainParams } from "@core/gbdt";
import { DRIFT_FEATURES, driftingLongwall } from "../support/drifting-longwall";
import { pythonWithXGBoost } from "../support/python-xgboost";

const COUNT = 12_000;
const SPLIT = 8_400;
const ROUNDS = 150;

const NATIVE = `
import json, sys
import numpy as np, xgboost as xgb
data = json.load(open(sys.argv[1]))
to = lambda rows: np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=np.float64)
train = xgb.DMatrix(to(data["train"]), label=np.array(data["y"]), missing=np.nan)
params = {"objective": "reg:squarederror", "tree_method": "hist", "max_depth": 6, "eta": 0.1, "lambda": 1,
          "min_child_weight": 1, "max_bin": 256, "base_score": float(np.float32(np.mean(np.array(data["y"], dtype=np.float32)))),
          "nthread": 1, "seed": 1}
booster = xgb.train(params, train, num_boost_round=int(sys.argv[2]))
pred = booster.inplace_predict(to(data["test"]))
print(json.dumps({"version": xgb.__version__, "pred": [float(v) for v in pred]}))
`;

const rmse = (p: ArrayLike<number>, y: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < y.length; i++) sum += (p[i] - y[i]) ** 2;
  return Math.sqrt(sum / y.length);
};
const rowsOf = (flat: Float64Array, width: number) =>
  Array.from({ length: flat.length / width }, (_, r) =>
    Array.from(flat.subarray(r * width, (r + 1) * width), (v) => (Number.isNaN(v) ? null : v)),
  );

describe("the product's trainer and native XGBoost on the same lag features", () => {
  const history = driftingLongwall(COUNT);
  const width = DRIFT_FEATURES.length;
  for (const horizon of [10, 60]) {
    it(`at ${horizon} min: the product's error on unseen rows is within 2 % of XGBoost hist's`, async () => {
      const train = horizonTrainingData(
        {
          featureNames: [...DRIFT_FEATURES],
          rows: history.rows.subarray(0, SPLIT * width),
          y: history.y.subarray(0, SPLIT),
          t: history.time.subarray(0, SPLIT),
        },
        horizon,
      ).data;
      // The unseen rows: the last 30 %, their lags read from the whole history (as a forecast reads them).
      const all = horizonRows({ featureNames: [...DRIFT_FEATURES], rows: history.rows }, history.y, history.time, horizon);
      const test = all.kept.map((row, k) => ({ row, k })).filter(({ row }) => row >= SPLIT);
      const columns = all.featureNames.length;
      const testRows = new Float64Array(test.length * columns);
      test.forEach(({ k }, j) => testRows.set(all.rows.subarray(k * columns, (k + 1) * columns), j * columns));
      const testY = Float64Array.from(test, ({ k }) => all.target[k]);

      const ours = await trainModel(train, trainParams({ n_estimators: ROUNDS, validation_fraction: 0 }));
      const ourRmse = rmse(predict(await loadModel(ours.json), testRows), testY);

      const dir = mkdtempSync(join(tmpdir(), "horizon-native-"));
      writeFileSync(
        join(dir, "data.json"),
        JSON.stringify({ train: rowsOf(train.rows, columns), y: Array.from(train.y), test: rowsOf(testRows, columns) }),
      );
      const run = spawnSync(pythonWithXGBoost(), ["-c", NATIVE, join(dir, "data.json"), String(ROUNDS)], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(run.status, run.stderr).toBe(0);
      const native = JSON.parse(run.stdout) as { version: string; pred: number[] };
      expect(native.version).toMatch(/^1\.7\./);
      const nativeRmse = rmse(native.pred, testY);
      expect(Math.abs(ourRmse / nativeRmse - 1)).toBeLessThan(0.02);
    });
  }
});
