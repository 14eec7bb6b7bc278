// How far to trust a forecast: split-conformal intervals and the chance of reaching the limit,
// from a model version's residuals on rows it was not trained on (its calibration). Plain
// TypeScript, the same in the API and in the browser.
//
// Split conformal (absolute residuals): with n calibration residuals |y − ŷ| sorted ascending, the
// half-width at level α is the ⌈(n + 1)·α⌉-th smallest; [ŷ − q, ŷ + q] then covers a new row's y
// with probability at least α whenever the new row is exchangeable with the calibration rows. A
// concentration is never negative, so the lower end is cut at 0 (which changes no coverage).
// The chance of reaching the limit L is the share of calibration residuals r = y − ŷ with
// ŷ + r ≥ L, read from the stored residual distribution.

/** The interval levels a calibration stores, in percent. */
export const INTERVAL_LEVELS = [80, 90, 95] as const;
export type IntervalLevel = (typeof INTERVAL_LEVELS)[number];
export const DEFAULT_INTERVAL_LEVEL: IntervalLevel = 90;
/** At most this many signed residuals are stored: every one up to it, else evenly spaced order statistics. */
export const RESIDUAL_POINTS = 2001;

export interface Calibration {
  /** Rows with a measured value and a finite forecast that the quantiles come from. */
  rows: number;
  /** Half-widths by level; null when too few rows for that level (⌈(n + 1)·α⌉ > n). */
  quantiles: Record<`${IntervalLevel}`, number | null>;
  /** Signed residuals y − ŷ, ascending (all of them, or RESIDUAL_POINTS order statistics). */
  residuals: number[];
  /** Each feature's observed [min, max] on the calibration rows (missing values left out). */
  ranges: Record<string, [number, number]>;
}

export function isIntervalLevel(value: unknown): value is IntervalLevel {
  return (INTERVAL_LEVELS as readonly unknown[]).includes(value);
}

/** The split-conformal half-width at `level` % from ascending absolute residuals; null when n is too small. */
export function conformalQuantile(sortedAbs: ArrayLike<number>, level: number): number | null {
  const n = sortedAbs.length;
  const k = Math.ceil(((n + 1) * level) / 100 - 1e-9);
  if (k < 1) return n > 0 ? sortedAbs[0] : null;
  return k > n ? null : sortedAbs[k - 1];
}

/** Evenly spaced order statistics of an ascending array, ends included (the array itself when short enough). */
function orderStatistics(sorted: Float64Array, points: number): number[] {
  if (sorted.length <= points) return Array.from(sorted);
  const out = new Array<number>(points);
  for (let k = 0; k < points; k++) out[k] = sorted[Math.round((k * (sorted.length - 1)) / (points - 1))];
  return out;
}

/**
 * The calibration of a model on rows it has not seen: `predicted` and `measured` per row (NaN or a
 * missing value skips a row); `features` (column name → values per row) gives the observed ranges.
 */
export function calibrate(
  predicted: ArrayLike<number>,
  measured: ArrayLike<number | null>,
  features: Record<string, ArrayLike<number | null>> = {},
): Calibration {
  if (predicted.length !== measured.length) throw new Error("calibrate: forecasts and measured values differ in length");
  const signed: number[] = [];
  for (let i = 0; i < predicted.length; i++) {
    const y = measured[i];
    const p = predicted[i];
    if (typeof y === "number" && Number.isFinite(y) && Number.isFinite(p)) signed.push(y - p);
  }
  const sortedSigned = Float64Array.from(signed).sort();
  const sortedAbs = Float64Array.from(signed, Math.abs).sort();
  const quantiles = Object.fromEntries(
    INTERVAL_LEVELS.map((level) => [String(level), conformalQuantile(sortedAbs, level)]),
  ) as Calibration["quantiles"];
  const ranges: Record<string, [number, number]> = {};
  for (const [name, values] of Object.entries(features)) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === "number" && Number.isFinite(v)) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    if (min <= max) ranges[name] = [min, max];
  }
  return { rows: signed.length, quantiles, residuals: orderStatistics(sortedSigned, RESIDUAL_POINTS), ranges };
}

/** The half-width at `level` %, or null when the calibration cannot give one. */
export function halfWidth(calibration: Calibration, level: IntervalLevel = DEFAULT_INTERVAL_LEVEL): number | null {
  return calibration.quantiles[`${level}`] ?? null;
}

/** The interval of one forecast: [max(0, ŷ − q), ŷ + q]; nulls without a half-width or forecast. */
export function interval(predicted: number, q: number | null): { lo: number | null; hi: number | null } {
  if (q === null || !Number.isFinite(predicted)) return { lo: null, hi: null };
  return { lo: Math.max(0, predicted - q), hi: predicted + q };
}

/** The chance that the measured value reaches `limit` given the forecast: the share of stored
 *  residuals r with predicted + r ≥ limit (0 … 1); null without residuals or forecast. */
export function exceedanceChance(predicted: number, residuals: readonly number[], limit: number): number | null {
  const n = residuals.length;
  if (n === 0 || !Number.isFinite(predicted)) return null;
  const needed = limit - predicted;
  // The first residual ≥ needed, by binary search over the ascending residuals.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (residuals[mid] >= needed) hi = mid;
    else lo = mid + 1;
  }
  return (n - lo) / n;
}

export interface IntervalColumns {
  lo: Float64Array;
  hi: Float64Array;
  pExceed: Float64Array;
}

/** lo, hi and p_exceed for every forecast (NaN where the forecast is missing). */
export function intervalColumns(
  predicted: ArrayLike<number>,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
): IntervalColumns {
  const q = halfWidth(calibration, level);
  const n = predicted.length;
  const out = { lo: new Float64Array(n), hi: new Float64Array(n), pExceed: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = predicted[i];
    const { lo, hi } = interval(p, q);
    out.lo[i] = lo ?? Number.NaN;
    out.hi[i] = hi ?? Number.NaN;
    out.pExceed[i] = exceedanceChance(p, calibration.residuals, limit) ?? Number.NaN;
  }
  return out;
}
