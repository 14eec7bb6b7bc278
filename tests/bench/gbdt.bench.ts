// GBDT inference speed: 100 000 rows (the 1000 golden test rows repeated, NaN rows included),
// WASM core vs the plain TypeScript evaluation of the same flattened trees vs native XGBoost
// (Debian python3-xgboost, inplace_predict, nthread=1, timed inside python). Best of several runs,
// by wall clock and by process CPU time: the machine is shared, and CPU time suffers less from
// other processes (both sides are single-threaded, so on an idle machine the two agree).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { modelFixture } from "../support/models";
import { readFeatureCsv } from "../../wasm-core/src/gbdt/csv";
import { loadModel, parseModel, predict, predictTs, type ParsedModel } from "../../wasm-core/src/gbdt/index";

const ROWS = 100_000;
const goldenCsv = modelFixture("golden-default.csv");

function repeatedRows(model: ParsedModel): Float64Array {
  const { rows } = readFeatureCsv(readFileSync(goldenCsv, "utf8"), model.featureNames);
  const out = new Float64Array(ROWS * model.featureNames.length);
  for (let at = 0; at < out.length; at += rows.length) out.set(rows.subarray(0, Math.min(rows.length, out.length - at)), at);
  return out;
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

const NATIVE_SCRIPT = `
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

/** The first python3 that has xgboost: GBDT_BENCH_PYTHON, then PATH's, then Debian's own. */
function findPython(): string | undefined {
  const candidates = [process.env.GBDT_BENCH_PYTHON, "python3", "/usr/bin/python3"].filter((p): p is string => !!p);
  return candidates.find((python) => spawnSync(python, ["-c", "import xgboost"], { stdio: "ignore" }).status === 0);
}

const rate = (seconds: number): string => Math.round(ROWS / seconds).toLocaleString("en-US").padStart(10);

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
    console.log(`${parsed.library} ${parsed.version}, ${parsed.numTrees} trees, ${nodes} nodes, ${ROWS} rows x ${parsed.featureNames.length} features`);
    const wasm = best(9, () => predict(model, rows));
    const ts = best(3, () => predictTs(parsed, rows));
    line("WASM (gbdt.wasm)", wasm, `wasm memory ${(model.wasm.memoryBytes / 1024).toFixed(0)} KiB`);
    line("TypeScript (same flat trees)", ts, `WASM is ${times(ts, wasm)}; outputs ${same ? "identical" : "DIFFER"}`);

    if (parsed.library === "xgboost") {
      const python = findPython();
      if (!python) {
        console.log('  native XGBoost: skipped (python3 -c "import xgboost" fails; apt-get install -y python3-xgboost)');
      } else {
        const result = spawnSync(python, ["-c", NATIVE_SCRIPT, modelFixture("methane-xgboost.json"), goldenCsv, String(ROWS)], {
          encoding: "utf8",
        });
        if (result.status !== 0) {
          console.log(`  native XGBoost: failed: ${result.stderr.trim().split("\n").pop()}`);
        } else {
          const native = JSON.parse(result.stdout) as Timing & { version: string; maxrss_kb: number; first: number[] };
          const agree = native.first.every((v, i) => Object.is(v, viaWasm[i]));
          line(
            `native XGBoost ${native.version} (1 thread)`,
            native,
            `WASM is ${times(native, wasm)}; python RSS high-water ${(native.maxrss_kb / 1024).toFixed(0)} MiB; ` +
              `outputs ${agree ? "identical" : "DIFFER"}`,
          );
        }
      }
    }
  }
  console.log(`node RSS high-water ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole bench process)`);
}
