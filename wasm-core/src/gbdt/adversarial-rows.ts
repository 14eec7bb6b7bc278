// Rows that probe every decision of a forest at its edges (not a test itself): every threshold of
// every split, the nearest doubles and floats on either side of each (XGBoost compares float32),
// NaN, infinities, signed zeros and denormals. quickscorer.test.ts runs both engines on them.
import type { ParsedModel } from "./model";
import { LEAF } from "./model";

const f64 = new Float64Array(1);
const u64 = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Int32Array(f32.buffer);

/** The next double after x towards +inf (up) or -inf. */
export function nextDouble(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = x;
  u64[0] += x > 0 === up ? 1n : -1n;
  return f64[0];
}

/** The next float32 after fround(x) towards +inf (up) or -inf. */
export function nextFloat(x: number, up: boolean): number {
  const v = Math.fround(x);
  if (v === 0) return up ? 2 ** -149 : -(2 ** -149);
  f32[0] = v;
  u32[0] += v > 0 === up ? 1 : -1;
  return f32[0];
}

const SPECIALS = [
  Number.NaN,
  Infinity,
  -Infinity,
  0,
  -0,
  Number.MIN_VALUE, // smallest denormal double
  -Number.MIN_VALUE,
  2 ** -149, // smallest denormal float
  -(2 ** -149),
  2 ** -126 - 2 ** -149, // largest denormal float
  2 ** -1022 - Number.MIN_VALUE, // largest denormal double
  -(2 ** -1022 - Number.MIN_VALUE),
];

/** Per feature: every threshold, its neighbours as double and as float, and the special values. */
function edgeValues(model: ParsedModel): number[][] {
  const { forest } = model;
  const values = model.featureNames.map(() => new Set<number>());
  forest.nodeFlags.forEach((flags, i) => {
    if (flags & LEAF) return;
    const t = forest.nodeThreshold[i];
    const set = values[forest.nodeFeature[i]];
    set.add(t);
    if (Number.isFinite(t)) {
      for (const up of [true, false]) set.add(nextDouble(t, up)).add(nextFloat(t, up));
    }
  });
  // The specials after the set: a Set keeps only one of 0 and -0.
  return values.map((set) => [...set, ...SPECIALS]);
}

/** Rows that put each edge value into its feature once (other features from base rows), then random mixes. */
export function adversarialRows(model: ParsedModel, base: Float64Array): Float64Array {
  const width = model.featureNames.length;
  const edges = edgeValues(model);
  const rows: number[] = [];
  let seed = 20240611;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const baseCount = base.length / width;
  edges.forEach((values, f) => {
    for (const v of values) {
      const row = new Array<number>(width);
      const from = random(baseCount) * width;
      for (let c = 0; c < width; c++) row[c] = base[from + c];
      row[f] = v;
      rows.push(...row);
    }
  });
  for (let r = 0; r < 3000; r++) {
    for (let c = 0; c < width; c++) rows.push(edges[c][random(edges[c].length)]);
  }
  return Float64Array.from(rows);
}
