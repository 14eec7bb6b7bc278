// GBDT inference speed, side by side in one run: the WASM tree walk and the WASM QuickScorer engine
// (prefix checkpoints), each forced, the product's figure the one of the engine loadModel picks
// (wasm-core/src/gbdt/engine.ts), and native XGBoost 1.7.4 from Debian's
// python3-xgboost (inplace_predict, nthread=1, timed inside python), on the default XGBoost and
// LightGBM models (the 1000 golden test rows repeated, NaN rows included) and on 500- and 1000-tree
// depth-6 XGBoost models made by ./synthetic-forest.ts. Rows/s are medians of RUNS runs, by process
// CPU time (the machine is shared; both sides are single-threaded) and by wall clock, native's the
// mean of its medians before and after the product's runs. Every engine's
// outputs are compared with the walk's and native XGBoost's, bit for bit. Then the grid of model
// shapes trained at bench time (./gbdt-grid.ts), in Node and in Chromium (./gbdt-grid-browser.ts),
// and the targets each met or not. `--write-docs` writes everything it printed into
// docs/performance.md («GBDT inference») with the machine, the Node version and the load average.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFeatureCsv } from "@core/gbdt/csv";
import { type GbdtModel, loadModel, parseModel, predict, type ParsedModel } from "@core/gbdt/index";
import { modelFixture } from "../support/models";
import { syntheticXGBoost } from "./synthetic-forest";
import { GRID_ROWS, runGrid, type GridRow } from "./gbdt-grid";
import { runGridInChromium } from "./gbdt-grid-browser";
import { PERFORMANCE_DOC, writeGeneratedBlock } from "../support/generated-doc";

// The targets, against native XGBoost inplace_predict on one thread, same run.
const TARGET_DEFAULT = 10;
const TARGET_7_FEATURES = 8;
const TARGET_20_FEATURES = 6;
const TARGET_CHROMIUM = 1.3;

const RUNS = 5;

// What the bench prints, kept for `--write-docs`.
const printed: string[] = [];
function print(line: string): void {
  console.log(line);
  printed.push(line);
}
const goldenCsv = modelFixture("golden-default.csv");

/** The processor's generation and its core's L2, which the block's machine line («AMD EPYC») does not
 *  tell apart: the ratios to native moved with the host's processor between rounds (Zen 4's 512 KiB L2
 *  a core, family 25, then family 26's 1 MiB; docs/performance.md), so a run says which it was on. */
export function processorLine(): string {
  const cpuinfo = existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "";
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, "m").exec(cpuinfo)?.[1]?.trim();
  const l2 = "/sys/devices/system/cpu/cpu0/cache/index2";
  const cache =
    existsSync(`${l2}/size`) && readFileSync(`${l2}/level`, "utf8").trim() === "2" ? readFileSync(`${l2}/size`, "utf8").trim() : undefined;
  return `processor: ${field("model name") ?? "unknown"}, family ${field("cpu family") ?? "?"} model ${field("model") ?? "?"}, L2 ${cache ?? "unknown"} a core`;
}

function repeatedRows(model: ParsedModel, count: number): Float64Array {
  const { rows } = readFeatureCsv(readFileSync(goldenCsv, "utf8"), model.featureNames);
  const out = new Float64Array(count * model.featureNames.length);
  for (let at = 0; at < out.length; at += rows.length) out.set(rows.subarray(0, Math.min(rows.length, out.length - at)), at);
  return out;
}

interface Timing {
  wall: number;
  cpu: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

function time(work: () => unknown): Timing {
  work(); // warm-up: WASM tier-up, first-touch memory
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    work();
    walls.push((performance.now() - start) / 1000);
    const cpu = process.cpuUsage(cpuStart);
    cpus.push((cpu.user + cpu.system) / 1e6);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

const NATIVE_XGBOOST = `
import json, sys, time
import numpy as np, xgboost as xgb
model_path, csv_path, rows, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
booster = xgb.Booster(params={"nthread": 1}, model_file=model_path)
booster.set_param({"nthread": 1})
header = open(csv_path).readline().strip().split(",")
test = np.loadtxt(csv_path, delimiter=",", skiprows=1, usecols=[header.index(f) for f in booster.feature_names])
data = np.ascontiguousarray(np.tile(test, (rows // len(test) + 1, 1))[:rows])
booster.inplace_predict(data)
walls, cpus = [], []
for _ in range(runs):
    start, cpu_start = time.perf_counter(), time.process_time()
    pred = booster.inplace_predict(data)
    walls.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu_start)
print(json.dumps({"wall": sorted(walls)[runs // 2], "cpu": sorted(cpus)[runs // 2], "version": xgb.__version__,
                  "first": [float(v) for v in pred[:len(test)]]}))
`;

/** The first python3 that can import xgboost: GBDT_BENCH_PYTHON, then PATH's, then Debian's own. */
function findPython(): string | undefined {
  const candidates = [process.env.GBDT_BENCH_PYTHON, "python3", "/usr/bin/python3"].filter((p): p is string => !!p);
  return candidates.find((python) => spawnSync(python, ["-c", "import xgboost"], { stdio: "ignore" }).status === 0);
}

interface Native extends Timing {
  version: string;
  first: number[];
}

function nativeXGBoost(python: string, modelPath: string, rows: number): Native | string {
  const result = spawnSync(python, ["-c", NATIVE_XGBOOST, modelPath, goldenCsv, String(rows), String(RUNS)], { encoding: "utf8" });
  if (result.status !== 0) return `failed: ${result.stderr.trim().split("\n").pop()}`;
  return JSON.parse(result.stdout) as Native;
}

/** The mean of native's medians before and after the product's runs (the first failure, if one failed). */
function meanOfTwo(before: Native | string, after: Native | string): Native | string {
  if (typeof before === "string") return before;
  if (typeof after === "string") return after;
  return { ...after, cpu: (before.cpu + after.cpu) / 2, wall: (before.wall + after.wall) / 2 };
}

const rate = (rows: number, seconds: number): string =>
  Math.round(rows / seconds)
    .toLocaleString("en-US")
    .padStart(11);
const kib = (bytes: number): string => `${Math.round(bytes / 1024).toLocaleString("en-US")} KiB`;
const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => Array.from(a).every((v, i) => Object.is(v, b[i]));

interface Case {
  label: string;
  text: string;
  rows: number;
  /** A model file native XGBoost can load, for XGBoost models. */
  file?: string;
}

async function engineLine(
  label: string,
  model: GbdtModel,
  rows: Float64Array,
  count: number,
): Promise<{ timing: Timing; out: Float64Array }> {
  const out = predict(model, rows);
  const timing = time(() => predict(model, rows));
  const { wasm } = model;
  const tables = wasm.choice.engine === "quickscorer" ? `tables ${kib(wasm.tableBytes)} built in ${wasm.buildMs.toFixed(1)} ms, ` : "";
  print(
    `  ${label.padEnd(12)} ${rate(count, timing.cpu)} rows/s cpu ${rate(count, timing.wall)} rows/s wall  ` +
      `${tables}instance memory ${kib(wasm.memoryBytes)}`,
  );
  return { timing, out };
}

export async function run(): Promise<void> {
  print(processorLine());
  const python = findPython();
  if (!python) {
    print("native XGBoost: skipped in every case (no python3 imports xgboost; apt-get install -y python3-xgboost)");
  }
  const synthetic = (trees: number): Case => {
    const file = join(tmpdir(), `gbdt-bench-${trees}-trees.json`);
    const text = syntheticXGBoost(trees);
    writeFileSync(file, text);
    return { label: `synthetic XGBoost, ${trees} trees of depth 6 (./synthetic-forest.ts)`, text, rows: 20_000, file };
  };
  const cases: Case[] = [
    {
      label: "default XGBoost model (methane-xgboost.json)",
      text: readFileSync(modelFixture("methane-xgboost.json"), "utf8"),
      rows: 100_000,
      file: modelFixture("methane-xgboost.json"),
    },
    {
      label: "default LightGBM model (methane-lightgbm.txt)",
      text: readFileSync(modelFixture("methane-lightgbm.txt"), "utf8"),
      rows: 100_000,
    },
    synthetic(500),
    synthetic(1000),
  ];

  let defaultRatio: number | undefined;
  for (const { label, text, rows: count, file } of cases) {
    const parsed = parseModel(text);
    const rows = repeatedRows(parsed, count);
    const nodes = parsed.forest.nodeFeature.length;
    print(
      `${label}: ${parsed.numTrees} trees, ${nodes} nodes, ${count.toLocaleString("en-US")} rows x ${parsed.featureNames.length} features`,
    );
    // Native is timed before and after the product's engines, so a load that changes meanwhile weighs on both sides.
    const nativeBefore = file && python ? nativeXGBoost(python, file, count) : undefined;
    // Each engine forced; the product's figure is the one of the engine loadModel picks.
    const walkModel = await loadModel(parsed, { engine: "walk" });
    const quickModel = await loadModel(parsed, { engine: "quickscorer" });
    const { choice } = (await loadModel(parsed)).wasm;
    print(`  engine loadModel picks: ${choice.reason}`);
    const walk = await engineLine("walk", walkModel, rows, count);
    const quick = await engineLine("QuickScorer", quickModel, rows, count);
    const product = choice.engine === "walk" ? walk : quick;
    const verdict = same(walk.out, quick.out) ? "identical" : "DIFFER";
    print(
      `  QuickScorer is ${(walk.timing.cpu / quick.timing.cpu).toFixed(2)}x the walk (cpu), ` +
        `${(walk.timing.wall / quick.timing.wall).toFixed(2)}x (wall); outputs ${verdict}`,
    );
    if (!file) {
      print("  native: no column (Debian ships no LightGBM; the bench times native XGBoost only)");
      continue;
    }
    if (!python) continue;
    const native = meanOfTwo(nativeBefore as Native | string, nativeXGBoost(python, file, count));
    if (typeof native === "string") {
      print(`  native XGBoost: ${native}`);
      continue;
    }
    const agree = same(native.first, product.out.subarray(0, native.first.length)) ? "identical" : "DIFFER";
    if (file === modelFixture("methane-xgboost.json")) defaultRatio = native.cpu / product.timing.cpu;
    print(
      `  ${`native ${native.version}`.padEnd(12)} ${rate(count, native.cpu)} rows/s cpu ${rate(count, native.wall)} rows/s wall  ` +
        `XGBoost 1 thread; product (${choice.engine}) ${(native.cpu / product.timing.cpu).toFixed(2)}x native (cpu), ` +
        `${(native.wall / product.timing.wall).toFixed(2)}x (wall), walk ${(native.cpu / walk.timing.cpu).toFixed(2)}x, ` +
        `QuickScorer ${(native.cpu / quick.timing.cpu).toFixed(2)}x (cpu); outputs ${agree}`,
    );
  }
  print(`node RSS high-water ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole bench process)`);
  if (!python) return;

  print("");
  const grid = await runGrid(python, print);
  print("");
  print("the same grid in Chromium (the browser entry, renderer CPU time, median of 5, Node timed again in turns with it):");
  print("features  trees  depth  engine        Chromium rows/s  Node rows/s  Node/Chromium  same bits as Node");
  const browser = await runGridInChromium(grid, GRID_ROWS).catch((error: unknown) => {
    print(`  Chromium: failed (${String(error)})`);
    return [];
  });
  grid.forEach((row, i) => {
    const figure = browser[i];
    if (!figure) return;
    const n = (v: number) => Math.round(v).toLocaleString("en-US").padStart(13);
    print(
      `${String(row.features).padStart(8)}  ${String(row.trees).padStart(5)}  ${String(row.depth).padStart(5)}  ${figure.engine.padEnd(12)} ${n(figure.rowsPerSecond)}  ${n(figure.nodeRowsPerSecond)}  ${`${figure.nodeOverChromium.toFixed(2)}×`.padStart(13)}  ${figure.identical ? "yes" : "NO"}`,
    );
  });
  summary(defaultRatio, grid, browser);
  if (process.argv.includes("--write-docs")) {
    writeGeneratedBlock("gbdt", printed, PERFORMANCE_DOC, new Date(), { checksum: true });
    console.log(`written to ${PERFORMANCE_DOC}`);
  }
}

/** The targets, each met or not, from this run's figures. */
function summary(
  defaultRatio: number | undefined,
  grid: readonly GridRow[],
  browser: readonly ({ nodeOverChromium: number } | undefined)[],
): void {
  const ratios = (features: number) => grid.filter((r) => r.features === features).map((r) => r.product / r.native);
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  const lowest = (values: number[]) => (values.length ? Math.min(...values) : Number.NaN);
  print("");
  if (defaultRatio !== undefined) {
    print(`default model: ${defaultRatio.toFixed(2)}× native (target ≥ ${TARGET_DEFAULT}×: ${verdict(defaultRatio >= TARGET_DEFAULT)})`);
  }
  for (const [features, target] of [
    [7, TARGET_7_FEATURES],
    [20, TARGET_20_FEATURES],
  ] as const) {
    const worst = lowest(ratios(features));
    print(`every ${features}-feature shape: lowest ${worst.toFixed(2)}× native (target ≥ ${target}×: ${verdict(worst >= target)})`);
  }
  const slowdowns = grid.flatMap((_, i) => (browser[i] ? [(browser[i] as { nodeOverChromium: number }).nodeOverChromium] : []));
  const worstBrowser = slowdowns.length ? Math.max(...slowdowns) : Number.NaN;
  print(
    `Chromium: at worst ${worstBrowser.toFixed(2)}× slower than Node (target ≤ ${TARGET_CHROMIUM}×: ${verdict(worstBrowser <= TARGET_CHROMIUM)})`,
  );
  const exact = grid.every((r) => r.identical);
  print(`every grid prediction bit-identical to native XGBoost: ${exact ? "yes" : "NO"}`);
  if (!exact) process.exitCode = 1;
}
