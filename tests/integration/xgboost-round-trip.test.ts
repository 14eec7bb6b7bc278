// A model trained in the WASM core exports as XGBoost JSON that the real XGBoost (Debian's
// python3-xgboost, installed by tests/prerequisites.sh for this tier) loads and predicts as the
// product does, bit for bit in float32, on rows with missing values and values on the split thresholds.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel, predict, trainModel, trainParams } from "@core/gbdt/index";
import { syntheticData } from "@core/gbdt/test-fixtures";
import { pythonWithXGBoost } from "../support/python-xgboost";

describe("the trainer's models in the real XGBoost", () => {
  it("the real XGBoost 1.7 loads the exported model and predicts what the product predicts, in float32", async () => {
    // Never skipped: tests/prerequisites.sh installs Debian's python3-xgboost for this tier.
    const python = pythonWithXGBoost();
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
