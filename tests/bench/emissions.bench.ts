// Evaluations per second of the `underground` type (docs/methodology.md, Calculation types) over 1 M rows:
// - the facade in place: the columns live in the core's memory (openBatch's views, filled once by
//   the caller as it would fill them from its source), and each call checks every input against
//   the registry bounds in the kernel's pass and computes;
// - the WASM kernel alone over the same rows in the same memory (no check, no facade);
// - the facade copying (calculateBatch: Float64Array columns in, result arrays reused or new);
// - the same formulas in plain TypeScript.
// The variants run in turns, best of RUNS each, so a load that changes during the run weighs on all.
// Targets: the facade in place ≥ 1.2× plain TypeScript and within 1.5× of the kernel alone; the
// bench exits 1 when the facade is below plain TypeScript. `--write-docs` writes the figures into
// docs/performance.md with the machine, the Node version and the load average.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { emissionsCore } from "@core/emissions";
import { PERFORMANCE_DOC, writeGeneratedBlock } from "../support/generated-doc";

const ROWS = 1_000_000;
const RUNS = 15;
const GWP = 25;
const TARGET_OVER_TYPESCRIPT = 1.2;
const TARGET_OVER_KERNEL = 1.5;

type Columns = Record<"volume" | "p_co2" | "p_ch4" | "ef_co2" | "ef_ch4", Float64Array>;

function columns(): Columns {
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
function undergroundInTypeScript(c: Columns, out: Float64Array[]): void {
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

/** Evaluations per second of each variant: one warm-up each, then RUNS turns; the best of each. */
function rates<K extends string>(variants: Record<K, () => void>): Record<K, number> {
  const names = Object.keys(variants) as K[];
  const best = Object.fromEntries(names.map((name) => [name, Number.POSITIVE_INFINITY])) as Record<K, number>;
  for (const name of names) variants[name]();
  for (let i = 0; i < RUNS; i++) {
    for (const name of names) {
      const start = performance.now();
      variants[name]();
      best[name] = Math.min(best[name], performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((name) => [name, ROWS / (best[name] / 1000)])) as Record<K, number>;
}

export async function run(): Promise<void> {
  const core = emissionsCore();
  const data = columns();
  const loadBefore = loadavg()[0];

  // The caller's rows written where the core reads them.
  const inPlace = core.openBatch("underground", ROWS);
  for (const [name, column] of Object.entries(data)) inPlace.inputs[name as keyof Columns].set(column);
  // The kernel alone over the same block: its addresses, as the views show them.
  const input = inPlace.inputs.volume.byteOffset;
  const output = inPlace.results.res_co2.byteOffset;
  const stride = (inPlace.inputs.p_co2.byteOffset - input) / 8;

  const reused = {
    res_co2: new Float64Array(ROWS),
    res_ch4: new Float64Array(ROWS),
    res_ch4_to_co2: new Float64Array(ROWS),
    sum_co2: new Float64Array(ROWS),
  };
  const out = Array.from({ length: 4 }, () => new Float64Array(ROWS));
  const measured = rates({
    inPlace: () => inPlace.run(),
    kernel: () => core.exports.kernel_underground(input, output, stride, ROWS, GWP, false),
    copied: () => core.calculateBatch("underground", data, undefined, reused),
    fresh: () => core.calculateBatch("underground", data),
    typescript: () => undergroundInTypeScript(data, out),
  });

  // Every path gives the TypeScript loop's numbers, bit for bit.
  undergroundInTypeScript(data, out);
  const copied = core.calculateBatch("underground", data, undefined, reused);
  const viaFacade = inPlace.run();
  const same = out[3].every((v, i) => Object.is(v, viaFacade.sum_co2[i]) && Object.is(v, copied.sum_co2[i]));

  const overTypeScript = measured.inPlace / measured.typescript;
  const kernelOverFacade = measured.kernel / measured.inPlace;
  const m = (r: number) => `${(r / 1e6).toFixed(1).padStart(7)} M evaluations/s`;
  const lines = [
    `underground, ${ROWS.toLocaleString("en")} rows, best of ${RUNS} in turns:`,
    `  WASM through the facade, columns in place (check fused into the kernel's pass) ${m(measured.inPlace)}`,
    `  WASM kernel alone, same rows in the same memory, no check                     ${m(measured.kernel)}`,
    `  WASM through the facade, columns copied in, result arrays reused             ${m(measured.copied)}`,
    `  WASM through the facade, columns copied in, new result arrays                ${m(measured.fresh)}`,
    `  plain TypeScript, same formulas                                              ${m(measured.typescript)}`,
    `  facade in place / plain TypeScript: ${overTypeScript.toFixed(2)}× (target ≥ ${TARGET_OVER_TYPESCRIPT}×: ${overTypeScript >= TARGET_OVER_TYPESCRIPT ? "met" : "NOT met"})`,
    `  kernel alone / facade in place: ${kernelOverFacade.toFixed(2)}× (target ≤ ${TARGET_OVER_KERNEL}×: ${kernelOverFacade <= TARGET_OVER_KERNEL ? "met" : "NOT met"})`,
    `  results identical to TypeScript: ${same ? "yes" : "NO"}`,
    `  load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
  ];
  for (const line of lines) console.log(line);
  if (measured.inPlace < measured.typescript || !same) {
    console.log(!same ? "  FAILED: a result differs from TypeScript's" : "  FAILED: the facade is below plain TypeScript");
    process.exitCode = 1;
  }
  if (process.argv.includes("--write-docs")) {
    writeGeneratedBlock("emissions", lines, PERFORMANCE_DOC, new Date(), { checksum: true });
    console.log(`  written to ${PERFORMANCE_DOC}`);
  }
}
