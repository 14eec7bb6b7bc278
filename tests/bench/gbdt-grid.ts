// The gbdt bench's grid of model shapes: 7 and 20 features × 100, 300 and 1 000 trees × depth 4,
// 6 and 8, XGBoost models trained at bench time by the real XGBoost (python3-xgboost, `hist`, one
// thread) on synthetic rows (a smooth function of every feature, noise, 3 % NaN), kept in the
// temporary folder between runs so a second run does not train them again. For each shape the same
// 20 000 unseen rows go through the product (the engine loadModel picks) and native XGBoost
// `inplace_predict` on one thread, in the same run, timed before and after the product's runs (the
// mean of both medians); every prediction is compared bit for bit.
// LightGBM shapes are not in the grid: no LightGBM is installed here to train them or to time it.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel, predict } from "@core/gbdt/index";

export const GRID_FEATURES = [7, 20] as const;
export const GRID_TREES = [100, 300, 1000] as const;
export const GRID_DEPTHS = [4, 6, 8] as const;
export const GRID_ROWS = 20_000;
// BENCH_GBDT_SHAPES=7/100/4,20/300/6 runs only those shapes (features/trees/depth).
const ONLY = process.env.BENCH_GBDT_SHAPES?.split(",").filter(Boolean);
const RUNS = 5;

// Trains the shape's model unless the folder has it, writes the unseen rows (float64, row-major)
// and times native prediction on them; prints the timing and writes the predictions (float32).
const NATIVE = `
import json, os, sys, time
import numpy as np, xgboost as xgb
folder, features, trees, depth, rows, runs = sys.argv[1], *map(int, sys.argv[2:7])
def synthetic(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, size=(n, features))
    w = np.linspace(1.0, 0.2, features)
    y = np.sin(3.0 * x) @ w + x[:, 0] * x[:, 1 % features] + rng.normal(0.0, 0.05, n)
    x[rng.uniform(size=x.shape) < 0.03] = np.nan
    return x, y
model = os.path.join(folder, f"xgboost-{features}f-{trees}t-d{depth}.json")
if not os.path.exists(model):
    x, y = synthetic(20000, 7 + features)
    params = {"max_depth": depth, "eta": 0.1, "tree_method": "hist", "nthread": 1, "base_score": 0.5}
    xgb.train(params, xgb.DMatrix(x, label=y), num_boost_round=trees).save_model(model)
booster = xgb.Booster(params={"nthread": 1}, model_file=model)
booster.set_param({"nthread": 1})
data = np.ascontiguousarray(synthetic(rows, 1000 + features)[0])
data.tofile(os.path.join(folder, f"rows-{features}f.f64"))
pred = booster.inplace_predict(data)
walls, cpus = [], []
for _ in range(runs):
    start, cpu_start = time.perf_counter(), time.process_time()
    pred = booster.inplace_predict(data)
    walls.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu_start)
np.asarray(pred, dtype=np.float32).tofile(model + ".pred.f32")
print(json.dumps({"model": model, "wall": sorted(walls)[runs // 2], "cpu": sorted(cpus)[runs // 2], "version": xgb.__version__}))
`;

export interface GridRow {
  features: number;
  trees: number;
  depth: number;
  engine: string;
  product: number;
  /** Rows/s of each engine forced (QuickScorer absent when it cannot take the model). */
  walk: number;
  quickscorer?: number;
  native: number;
  identical: boolean;
  modelPath: string;
  rowsPath: string;
}

interface Native {
  model: string;
  cpu: number;
  wall: number;
  version: string;
}

function cpuSeconds(work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1e6);
  }
  return times.sort((a, b) => a - b)[RUNS >> 1];
}

/** Every shape of the grid, product and native side by side (rows/s by CPU time, medians of 5). */
export async function runGrid(python: string, print: (line: string) => void): Promise<GridRow[]> {
  const folder = join(tmpdir(), "gbdt-bench-grid");
  mkdirSync(folder, { recursive: true });
  const found: GridRow[] = [];
  print(
    `grid: XGBoost models trained now (hist, eta 0.1, 20 000 rows), ${GRID_ROWS.toLocaleString("en-US")} unseen rows (3 % NaN), rows/s by CPU time, median of ${RUNS}`,
  );
  print(
    "features  trees  depth  engine        product rows/s  native rows/s  product/native  bit-identical    walk rows/s  QuickScorer rows/s",
  );
  for (const features of GRID_FEATURES) {
    for (const trees of GRID_TREES) {
      for (const depth of GRID_DEPTHS) {
        if (ONLY && !ONLY.includes(`${features}/${trees}/${depth}`)) continue;
        const args = [folder, features, trees, depth, GRID_ROWS, RUNS].map(String);
        const result = spawnSync(python, ["-c", NATIVE, ...args], { encoding: "utf8" });
        if (result.status !== 0) {
          print(`${features} ${trees} ${depth}: native XGBoost failed: ${result.stderr.trim().split("\n").pop()}`);
          continue;
        }
        const before = JSON.parse(result.stdout) as Native;
        const rowsPath = join(folder, `rows-${features}f.f64`);
        const bytes = readFileSync(rowsPath);
        const rows = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
        const text = readFileSync(before.model, "utf8");
        const model = await loadModel(text);
        const out = predict(model, rows);
        // Each engine forced, for the rule that picks one; the product's figure is its engine's.
        const walkModel = await loadModel(text, { engine: "walk" });
        const walk = GRID_ROWS / cpuSeconds(() => predict(walkModel, rows));
        const quickModel = await loadModel(text, { engine: "quickscorer" }).catch(() => undefined);
        const quick = quickModel && GRID_ROWS / cpuSeconds(() => predict(quickModel, rows));
        const cpu = GRID_ROWS / (model.wasm.choice.engine === "walk" ? walk : (quick as number));
        // Native again after the product's runs: the mean of both medians, so a load that changes
        // meanwhile weighs on both sides.
        const again = spawnSync(python, ["-c", NATIVE, ...args], { encoding: "utf8" });
        const after = again.status === 0 ? (JSON.parse(again.stdout) as Native) : before;
        const native = { ...before, cpu: (before.cpu + after.cpu) / 2, wall: (before.wall + after.wall) / 2 };
        const predBytes = readFileSync(`${native.model}.pred.f32`);
        const expected = new Float32Array(predBytes.buffer.slice(predBytes.byteOffset, predBytes.byteOffset + predBytes.byteLength));
        const identical = expected.length === out.length && expected.every((v, i) => Object.is(v, out[i]));
        const row: GridRow = {
          features,
          trees,
          depth,
          engine: model.wasm.choice.engine,
          product: GRID_ROWS / cpu,
          walk,
          quickscorer: quick,
          native: GRID_ROWS / native.cpu,
          identical,
          modelPath: native.model,
          rowsPath,
        };
        found.push(row);
        const n = (v: number) => Math.round(v).toLocaleString("en-US").padStart(14);
        print(
          `${String(features).padStart(8)}  ${String(trees).padStart(5)}  ${String(depth).padStart(5)}  ${row.engine.padEnd(12)} ${n(row.product)} ${n(row.native)}  ${`${(row.product / row.native).toFixed(2)}×`.padStart(14)}  ${(identical ? "yes" : "NO").padEnd(13)}  ${n(walk)}  ${quick === undefined ? "-".padStart(18) : n(quick).padStart(18)}`,
        );
      }
    }
  }
  return found;
}
