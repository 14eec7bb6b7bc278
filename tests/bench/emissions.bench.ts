// Evaluations per second of the `underground` type (docs/methodology.md, Calculation types) over 1 M rows: the WASM batch
// through the facade (copy into the core's buffer, one-pass check there, kernel, copy out) into
// result arrays reused across calls and into new ones, the WASM kernel alone (columns already in
// the core's buffer), and the same formulas in plain TypeScript. Goal (issue 20, item 4): the
// batch ≥ plain TypeScript.
import { performance } from "node:perf_hooks";
import { emissionsCore } from "@core/emissions";

const ROWS = 1_000_000;
const RUNS = 7;
const GWP = 25;

function columns(): Record<"volume" | "p_co2" | "p_ch4" | "ef_co2" | "ef_ch4", Float64Array> {
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const column = (min: number, max: number) => Float64Array.from({ length: ROWS }, () => min + random() * (max - min));
  return {
    volume: column(0, 500_000),
    p_co2: column(1.8393, 1.9768),
    p_ch4: column(0.668, 0.717),
    ef_co2: column(0, 15),
    ef_ch4: column(0.1, 95),
  };
}

// The 4.5 formulas as the core writes them, for the plain-TypeScript side of the comparison.
function undergroundInTypeScript(c: ReturnType<typeof columns>, out: Float64Array[]): void {
  const [resCo2, resCh4, resCh4ToCo2, sumCo2] = out;
  for (let i = 0; i < ROWS; i++) {
    const co2 = (c.volume[i] * c.ef_co2[i] * c.p_co2[i]) / 100;
    const ch4 = (c.volume[i] * c.ef_ch4[i] * c.p_ch4[i]) / 100;
    const co2e = ch4 * GWP;
    resCo2[i] = co2;
    resCh4[i] = ch4;
    resCh4ToCo2[i] = co2e;
    sumCo2[i] = co2 + co2e;
  }
}

/** Best of RUNS after one warm-up, in evaluations per second. */
function rate(run: () => void): number {
  run();
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return ROWS / (best / 1000);
}

export async function run(): Promise<void> {
  const core = emissionsCore();
  const data = columns();

  // The facade filling result arrays kept across calls (as the TypeScript loop does), and
  // allocating new ones on every call.
  const reused = {
    res_co2: new Float64Array(ROWS),
    res_ch4: new Float64Array(ROWS),
    res_ch4_to_co2: new Float64Array(ROWS),
    sum_co2: new Float64Array(ROWS),
  };
  const batch = rate(() => {
    core.calculateBatch("underground", data, undefined, reused);
  });
  const fresh = rate(() => {
    core.calculateBatch("underground", data);
  });

  // Kernel alone: the core's own buffer filled once, then batch() called chunk by chunk.
  const chunk = core.batchRows;
  const input = new Float64Array(core.exports.memory.buffer, core.exports.input_ptr(), chunk * core.exports.input_columns());
  ["volume", "p_co2", "p_ch4", "ef_co2", "ef_ch4"].forEach((name, column) => {
    input.set(data[name as keyof typeof data].subarray(0, chunk), column * chunk);
  });
  const code = (core.exports["EmissionType.underground"] as WebAssembly.Global).value as number;
  const kernel = rate(() => {
    for (let start = 0; start < ROWS; start += chunk) core.exports.batch(code, Math.min(chunk, ROWS - start), GWP);
  });

  const out = Array.from({ length: 4 }, () => new Float64Array(ROWS));
  const typescript = rate(() => undergroundInTypeScript(data, out));

  const check = core.calculateBatch("underground", data, undefined, reused).sum_co2;
  undergroundInTypeScript(data, out);
  const same = check.every((v, i) => v === out[3][i]);

  const m = (r: number) => `${(r / 1e6).toFixed(1).padStart(7)} M evaluations/s`;
  console.log(`underground, ${ROWS.toLocaleString("en")} rows, best of ${RUNS}:`);
  console.log(
    `  WASM batch (facade: copy + check + kernel, result arrays reused) ${m(batch)}${batch >= typescript ? "" : "  (below plain TypeScript)"}`,
  );
  console.log(`  WASM batch, new result arrays on every call                  ${m(fresh)}`);
  console.log(`  WASM kernel alone                                            ${m(kernel)}`);
  console.log(`  plain TypeScript, same formulas                              ${m(typescript)}`);
  console.log(`  results identical to TypeScript: ${same ? "yes" : "NO"}`);
}
