// GBDT inference speed: 100 000 rows (the 1000 golden test rows repeated, NaN rows included),
// WASM core vs the plain TypeScript evaluation of the same flattened trees vs native XGBoost
// (Debian python3-xgboost, inplace_predict, nthread=1, timed inside python) and native LightGBM
// (python3-lightgbm when installed, predict with num_threads=1). Also ns per split visited: the
// models' trees differ in shape (XGBoost's are depth-wise, LightGBM's leaf-wise and deeper), so
// rows/s alone does not compare the two walks. Best of several runs,
// by wall clock and by process CPU time: the machine is shared, and CPU time suffers less from
// other processes (both sides are single-threaded, so on an idle machine the two agree).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { modelFixture } from "../support/models";
import { readFeatureCsv } from "@core/gbdt/csv";
import { loadModel, parseModel, predict, predictTs, type ParsedModel } from "@core/gbdt/index";
import { LEAF } from "@core/gbdt/model";

const ROWS = 100_000;
const goldenCsv = modelFixture("golden-default.csv");

function repeatedRows(model: ParsedModel): Float64Array {
  const { rows } = readFeatureCsv(readFileSync(goldenCsv, "utf8"), model.featureNames);
  const out = new Float64Array(ROWS * model.featureNames.length);
  for (let at = 0; at < out.length; at += rows.length) out.set(rows.subarray(0, Math.min(rows.length, out.length - at)), at);
  return out;
}

/** Mean number of splits a row passes on its way through all trees (x as the core reads it). */
function splitsVisitedPerRow(model: ParsedModel, rows: Float64Array): number {
  const { forest } = model;
  const width = model.featureNames.length;
  const rowCount = rows.length / width;
  let visited = 0;
  for (let r = 0; r < rowCount; r++) {
    for (const root of forest.treeRoots) {
      let node = root;
      while (!(forest.nodeFlags[node] & LEAF)) {
        const raw = rows[r * width + forest.nodeFeature[node]];
        const x = forest.float32 ? Math.fround(raw) : raw;
        const threshold = forest.nodeThreshold[node];
        const left = Number.isNaN(x) ? (forest.nodeFlags[node] & 1) !== 0 : forest.leftWhenEqual ? x <= threshold : x < threshold;
        node = forest.nodeLeft[node] + (left ? 0 : 1);
        visited++;
      }
    }
  }
  return visited / rowCount;
}

interface Timing {
  wall: number;
  cpu: number;
}

function best(runs: number, work: () => unknown): Timing {
  work(); // warm-up: JIT and WASM tier-up, first-touch memory
  const timing = { wall: Infinity, cpu: Infinity };
  for (let i = 0; i < runs; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    work();
    timing.wall = Math.min(timing.wall, (performance.now() - start) / 1000);
    const cpu = process.cpuUsage(cpuStart);
    timing.cpu = Math.min(timing.cpu, (cpu.user + cpu.system) / 1e6);
  }
  return timing;
}

const NATIVE_XGBOOST = `
import json, resource, sys, time
import numpy as np, xgboost as xgb
model_path, csv_path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
booster = xgb.Booster(params={"nthread": 1}, model_file=model_path)
booster.set_param({"nthread": 1})
header = open(csv_path).readline().strip().split(",")
test = np.loadtxt(csv_path, delimiter=",", skiprows=1, usecols=[header.index(f) for f in booster.feature_names])
data = np.ascontiguousarray(np.tile(test, (rows // len(test) + 1, 1))[:rows])
booster.inplace_predict(data)
wall = cpu = float("inf")
for _ in range(7):
    start, cpu_start = time.perf_counter(), time.process_time()
    pred = booster.inplace_predict(data)
    wall, cpu = min(wall, time.perf_counter() - start), min(cpu, time.process_time() - cpu_start)
print(json.dumps({"wall": wall, "cpu": cpu, "version": xgb.__version__,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "first": [float(v) for v in pred[:len(test)]]}))
`;

const NATIVE_LIGHTGBM = `
import json, resource, sys, time
import numpy as np, lightgbm as lgb
model_path, csv_path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
booster = lgb.Booster(model_file=model_path, params={"num_threads": 1})
header = open(csv_path).readline().strip().split(",")
test = np.loadtxt(csv_path, delimiter=",", skiprows=1, usecols=[header.index(f) for f in booster.feature_name()])
data = np.ascontiguousarray(np.tile(test, (rows // len(test) + 1, 1))[:rows])
booster.predict(data, num_threads=1)
wall = cpu = float("inf")
for _ in range(7):
    start, cpu_start = time.perf_counter(), time.process_time()
    pred = booster.predict(data, num_threads=1)
    wall, cpu = min(wall, time.perf_counter() - start), min(cpu, time.process_time() - cpu_start)
print(json.dumps({"wall": wall, "cpu": cpu, "version": lgb.__version__,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "first": [float(v) for v in pred[:len(test)]]}))
`;

/** The first python3 that can import module: GBDT_BENCH_PYTHON, then PATH's, then Debian's own. */
function findPython(module: string): string | undefined {
  const candidates = [process.env.GBDT_BENCH_PYTHON, "python3", "/usr/bin/python3"].filter((p): p is string => !!p);
  return candidates.find((python) => spawnSync(python, ["-c", `import ${module}`], { stdio: "ignore" }).status === 0);
}

const NATIVE = {
  xgboost: { name: "XGBoost", module: "xgboost", script: NATIVE_XGBOOST, model: "methane-xgboost.json", apt: "python3-xgboost" },
  lightgbm: { name: "LightGBM", module: "lightgbm", script: NATIVE_LIGHTGBM, model: "methane-lightgbm.txt", apt: "python3-lightgbm" },
} as const;

/** Times the library itself on the same rows, or says why it cannot. */
function native(library: keyof typeof NATIVE, wasm: Timing, viaWasm: Float64Array): void {
  const { name, module, script, model, apt } = NATIVE[library];
  const python = findPython(module);
  if (!python) {
    console.log(`  native ${name}: skipped (python3 -c "import ${module}" fails; apt-get install -y ${apt} where Debian has it)`);
    return;
  }
  const result = spawnSync(python, ["-c", script, modelFixture(model), goldenCsv, String(ROWS)], { encoding: "utf8" });
  if (result.status !== 0) {
    console.log(`  native ${name}: failed: ${result.stderr.trim().split("\n").pop()}`);
    return;
  }
  const timing = JSON.parse(result.stdout) as Timing & { version: string; maxrss_kb: number; first: number[] };
  const agree = timing.first.every((v, i) => Object.is(v, viaWasm[i]));
  line(
    `native ${name} ${timing.version} (1 thread)`,
    timing,
    `WASM is ${times(timing, wasm)}; python RSS high-water ${(timing.maxrss_kb / 1024).toFixed(0)} MiB; ` +
      `outputs ${agree ? "identical" : "DIFFER"}`,
  );
}

/** Before the node records and the early stop (commit 2259810), median CPU rows/s on the 2-core dev machine. */
const BEFORE = { xgboost: 1_300_000, lightgbm: 796_000 } as const;

const rate = (seconds: number): string =>
  Math.round(ROWS / seconds)
    .toLocaleString("en-US")
    .padStart(10);

function line(label: string, timing: Timing, note = ""): void {
  console.log(`  ${label.padEnd(30)} ${rate(timing.wall)} rows/s wall ${rate(timing.cpu)} rows/s cpu  ${note}`);
}

const times = (baseline: Timing, wasm: Timing): string =>
  `${(baseline.wall / wasm.wall).toFixed(2)}x wall, ${(baseline.cpu / wasm.cpu).toFixed(2)}x cpu`;

export async function run(): Promise<void> {
  const xgbParsed = parseModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  const lgbParsed = parseModel(readFileSync(modelFixture("methane-lightgbm.txt"), "utf8"));

  for (const parsed of [xgbParsed, lgbParsed]) {
    const rows = repeatedRows(parsed);
    const model = await loadModel(parsed);
    const viaWasm = predict(model, rows);
    const viaTs = predictTs(parsed, rows);
    const same = viaWasm.every((v, i) => Object.is(v, viaTs[i]));
    const nodes = parsed.forest.nodeFeature.length;
    console.log(
      `${parsed.library} ${parsed.version}, ${parsed.numTrees} trees, ${nodes} nodes, ${ROWS} rows x ${parsed.featureNames.length} features`,
    );
    const wasm = best(9, () => predict(model, rows));
    const ts = best(3, () => predictTs(parsed, rows));
    line("WASM (gbdt.wasm)", wasm, `wasm memory ${(model.wasm.memoryBytes / 1024).toFixed(0)} KiB`);
    line("TypeScript (same flat trees)", ts, `WASM is ${times(ts, wasm)}; outputs ${same ? "identical" : "DIFFER"}`);

    const visited = splitsVisitedPerRow(parsed, rows.subarray(0, 1000 * parsed.featureNames.length));
    const nsPerSplit = (timing: Timing): string => ((timing.cpu * 1e9) / ROWS / visited).toFixed(2);
    const before = BEFORE[parsed.library];
    console.log(
      `  ${visited.toFixed(1)} splits visited per row: WASM ${nsPerSplit(wasm)} ns per split (cpu); ` +
        `before ${Math.round(before).toLocaleString("en-US")} rows/s, ${(1e9 / before / visited).toFixed(2)} ns per split (cpu)`,
    );
    native(parsed.library, wasm, viaWasm);
  }
  console.log(`node RSS high-water ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole bench process)`);
}
