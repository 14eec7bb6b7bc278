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
//
// Conditional on the forecast's level (Mondrian conformal): the calibration rows are split into
// bins of their forecast, with edges at the default warning level and the limit (and the
// forecasts' quartiles) wherever each bin keeps LEVEL_BIN_ROWS rows, and every bin has its own
// half-widths and residuals; a forecast takes its bin's, so the rows near the limit get the width
// the rows near the limit had, not the average's. A calibration stored before the bins has one.
// A bin's residuals are shares of the forecast's level, (y − ŷ) / max(ŷ, LEVEL_FLOOR), not % CH4
//: methane scatters about its forecast the more the higher it is, and the
// rows near the limit are too few for a bin of their own (8 of 201 calibration rows on the audit's
// longwall), so the band near the limit is the share its bin measured times the forecast's level.
// A calibration stored before (no level_floor) keeps its bins' residuals in % CH4.
//
// Adaptive (quantile tracking, the adaptive conformal inference of Gibbs & Candès 2021 on a scale):
// over a history in time order, each bin's half-width and residuals are multiplied by a scale that
// grows by e^(γ·(1 − α)) after each interval that missed its measured value and shrinks by e^(−γ·α)
// after each that held it, α the share the level allows to miss, a row's miss counted once its
// value is measured (one horizon after the forecast). Whatever the history does, the share of
// misses over T rows then differs from α by at most |log of the scale's change| / (γ·T): a seam
// whose gas drifts widens its intervals until they hold again. The chance of reaching the limit
// reads the same scaled residuals, so it agrees with the interval shown.

/** The interval levels a calibration stores, in percent. */
export const INTERVAL_LEVELS = [80, 90, 95] as const;
export type IntervalLevel = (typeof INTERVAL_LEVELS)[number];
export const DEFAULT_INTERVAL_LEVEL: IntervalLevel = 90;
/** At most this many signed residuals are stored: every one up to it, else evenly spaced order statistics. */
export const RESIDUAL_POINTS = 2001;

/** Least calibration rows in a bin of the forecast's level. A 90 % conformal band from n rows holds a new
 *  row with a chance that is itself random, Beta(k, n + 1 − k) with k = ⌈0,9·(n + 1)⌉: its spread is
 *  √(0,09 / (n + 2)), and 100 rows keep it within 85–95 % in 9 calibrations of 10 (1,645 × 0,030 ≈ 0,05);
 *  fewer rows give a bin's band that may hold 80 % as easily as 90 %. Bins are merged until each has this many. */
export const LEVEL_BIN_ROWS = 100;
/** Below this forecast, % CH4, its scatter is the meter's own error, not a share of the level: a bin's
 *  residuals are shares of max(ŷ, LEVEL_FLOOR). */
export const LEVEL_FLOOR = 0.1;
/** Edges tried first, %: the default warning level and the limit (then the forecasts' quartiles). */
const LEVEL_EDGES = [0.8, 1];
/** Signed residuals kept per bin (order statistics when more). */
export const BIN_RESIDUAL_POINTS = 501;
/** γ, the step of the adaptive scale's logarithm per measured row. */
export const ADAPTIVE_STEP = 0.05;
/** The adaptive scale stays within 1/MAX_SCALE … MAX_SCALE of the calibrated width: a sensor stuck far
 *  from every forecast widens the intervals twentyfold, not without end. */
export const MAX_SCALE = 20;

/** A bin of the forecast's level: the forecasts below `below` (null: no bound) and at or above the
 *  bin before it; its rows' half-widths and signed residuals (ascending). */
export interface LevelBin {
  below: number | null;
  rows: number;
  quantiles: Record<`${IntervalLevel}`, number | null>;
  residuals: number[];
}

export interface Calibration {
  /** Rows with a measured value and a finite forecast that the quantiles come from. */
  rows: number;
  /** Half-widths by level; null when too few rows for that level (⌈(n + 1)·α⌉ > n). */
  quantiles: Record<`${IntervalLevel}`, number | null>;
  /** Signed residuals y − ŷ, ascending (all of them, or RESIDUAL_POINTS order statistics). */
  residuals: number[];
  /** Each feature's observed [min, max] on the calibration rows (missing values left out). */
  ranges: Record<string, [number, number]>;
  /** Bins of the forecast's level in ascending order (absent on a calibration stored before them: one bin). */
  bins?: LevelBin[];
  /** Where present, the bins' half-widths and residuals are shares of max(ŷ, level_floor), not % CH4
   *  (absent on a calibration stored before an earlier release). */
  level_floor?: number;
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
  const quantiles = quantilesOf(signed);
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
  return {
    rows: signed.length,
    quantiles,
    residuals: orderStatistics(sortedSigned, RESIDUAL_POINTS),
    ranges,
    bins: levelBins(predicted, measured),
    level_floor: LEVEL_FLOOR,
  };
}

function quantilesOf(signed: readonly number[]): Calibration["quantiles"] {
  const sortedAbs = Float64Array.from(signed, Math.abs).sort();
  return Object.fromEntries(
    INTERVAL_LEVELS.map((level) => [String(level), conformalQuantile(sortedAbs, level)]),
  ) as Calibration["quantiles"];
}

/** Rows of ascending `sorted` below `edge`. */
function countBelow(sorted: Float64Array, edge: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < edge) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bins of the forecast's level: LEVEL_EDGES, then the quartiles, each edge kept only where every bin keeps LEVEL_BIN_ROWS. */
function levelBins(predicted: ArrayLike<number>, measured: ArrayLike<number | null>): LevelBin[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < predicted.length; i++) {
    const y = measured[i];
    const p = predicted[i];
    if (typeof y === "number" && Number.isFinite(y) && Number.isFinite(p)) pairs.push([p, (y - p) / Math.max(p, LEVEL_FLOOR)]);
  }
  const sorted = Float64Array.from(pairs, ([p]) => p).sort();
  const quartiles = [1, 2, 3].map((k) => sorted[Math.floor((k * sorted.length) / 4)]);
  let edges: number[] = [];
  for (const edge of [...LEVEL_EDGES, ...quartiles]) {
    if (edge === undefined || edges.includes(edge)) continue;
    const tried = [...edges, edge].sort((a, b) => a - b);
    const counts = [...tried, Infinity].map((e, k) => countBelow(sorted, e) - (k > 0 ? countBelow(sorted, tried[k - 1]) : 0));
    if (counts.every((c) => c >= LEVEL_BIN_ROWS)) edges = tried;
  }
  return [...edges, null].map((below, k) => {
    const from = k > 0 ? edges[k - 1] : -Infinity;
    const signed = pairs.filter(([p]) => p >= from && (below === null || p < below)).map(([, r]) => r);
    return {
      below,
      rows: signed.length,
      quantiles: quantilesOf(signed),
      residuals: orderStatistics(Float64Array.from(signed).sort(), BIN_RESIDUAL_POINTS),
    };
  });
}

/** The bin a forecast falls in (the whole calibration when it has no bins). */
export function levelBin(calibration: Calibration, predicted: number): Pick<LevelBin, "quantiles" | "residuals"> {
  const bins = calibration.bins;
  if (!bins || bins.length === 0) return calibration;
  for (const bin of bins) if (bin.below === null || predicted < bin.below) return bin;
  return bins[bins.length - 1];
}

/** What a bin's half-widths and residuals are multiplied by for a forecast: its level, max(ŷ, level_floor),
 *  where they are shares of it; 1 on a calibration stored before. */
export function levelScale(calibration: Pick<Calibration, "level_floor">, predicted: number): number {
  return calibration.level_floor === undefined ? 1 : Math.max(predicted, calibration.level_floor);
}

/** The half-width, % CH4, of a forecast `predicted` in its bin at `level` %, else the whole calibration's
 *  (a bin too small for it, or a calibration without bins). */
export function binHalfWidth(
  calibration: Calibration,
  bin: Pick<LevelBin, "quantiles">,
  level: IntervalLevel,
  predicted: number,
): number | null {
  const own = bin === calibration ? null : bin.quantiles[`${level}`];
  return own === null || own === undefined ? halfWidth(calibration, level) : own * levelScale(calibration, predicted);
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
export function exceedanceChance(predicted: number, residuals: readonly number[], limit: number, scale = 1): number | null {
  const n = residuals.length;
  if (n === 0 || !Number.isFinite(predicted)) return null;
  // predicted + scale·r ≥ limit.
  const needed = (limit - predicted) / scale;
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

/**
 * The chance of reaching `limit` for a forecast `predicted` of the calibration: the largest of the
 * chance by the residuals of its level's bin and those of every bin below it at that bin's top edge, so
 * that it never falls as the forecast rises (a bin's own residuals gave 0,170 at 0,878 % and
 * 0,099 at 0,904 %).
 */
export function levelExceedance(calibration: Calibration, predicted: number, limit: number, scale = 1): number | null {
  const bins = calibration.bins;
  if (!bins || bins.length === 0) return exceedanceChance(predicted, calibration.residuals, limit, scale);
  let chance: number | null = null;
  for (const bin of bins) {
    // A bin below the forecast's own gives its chance at its top edge, the most it gives within its rows'
    // levels: the chance does not fall across the edge, and is not the lower rows' scatter carried up.
    const at = bin.below === null || predicted < bin.below ? predicted : bin.below;
    const own = exceedanceChance(at, bin.residuals, limit, scale * levelScale(calibration, at));
    if (own !== null && (chance === null || own > chance)) chance = own;
    if (bin.below === null || predicted < bin.below) break;
  }
  return chance;
}

export interface IntervalColumns {
  lo: Float64Array;
  hi: Float64Array;
  pExceed: Float64Array;
}

/** lo, hi and p_exceed for every forecast from the calibration as stored, each from its level's bin (NaN where the forecast is missing). */
export function intervalColumns(
  predicted: ArrayLike<number>,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
): IntervalColumns {
  const n = predicted.length;
  const out = { lo: new Float64Array(n), hi: new Float64Array(n), pExceed: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = predicted[i];
    const bin = levelBin(calibration, p);
    const { lo, hi } = interval(p, binHalfWidth(calibration, bin, level, p));
    out.lo[i] = lo ?? Number.NaN;
    out.hi[i] = hi ?? Number.NaN;
    out.pExceed[i] = levelExceedance(calibration, p, limit) ?? Number.NaN;
  }
  return out;
}

const LOG_MAX_SCALE = Math.log(MAX_SCALE);
/** The facts at or above the limit whose needed scale an interval near the limit takes (the latest),
 *  and how many it waits for before taking any. */
const NEAR_WINDOW = 200;
const NEAR_MIN = 20;
/** γ of the scale the facts at or above the limit update on their own: they are few (tens to hundreds). */
const NEAR_STEP = 0.1;

export interface AdaptiveHistory {
  /** What each row's forecast is scored against: y at its time + horizon (NaN: not measured). */
  targets: ArrayLike<number>;
  /** Each row's time (milliseconds or step numbers; absent: the rows' order). */
  time?: ArrayLike<number>;
  /** The horizon in the time's units: a row's target is measured this long after the row. */
  ahead?: number;
  /** The level from which a forecast is near the limit (default 0,8 of the limit): its interval also
   *  takes the scale learned on the facts at or above the limit. */
  warning?: number;
}

export interface AdaptiveColumns extends IntervalColumns {
  /** Per row, the scale its bin's interval was multiplied by (1: as calibrated). */
  scale: Float64Array;
}

/**
 * lo, hi and p_exceed for every forecast of a history, each bin's interval scaled by what the
 * history's earlier rows measured (the file's header): a row's interval uses the misses of the rows
 * whose target was measured before it was issued, and its own counts only after its target time.
 */
export function adaptiveIntervalColumns(
  predicted: ArrayLike<number>,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
  history: AdaptiveHistory,
  step = ADAPTIVE_STEP,
  /** The scales the history starts from (D96 a: the calibration's fitted ones; absent: 1 and none at the limit). */
  start?: { slots: readonly number[]; near: number },
): AdaptiveColumns {
  const n = predicted.length;
  const { targets, time } = history;
  const ahead = history.ahead ?? 0;
  const out = { lo: new Float64Array(n), hi: new Float64Array(n), pExceed: new Float64Array(n), scale: new Float64Array(n) };
  const at = (k: number) => (time && Number.isFinite(time[k]) ? time[k] : k);
  // Rows in time order: as given when they already are (a history usually is).
  let ordered = true;
  for (let k = 1; k < n && ordered; k++) ordered = at(k - 1) <= at(k);
  const order = Int32Array.from({ length: n }, (_, k) => k);
  if (!ordered) order.sort((a, b) => at(a) - at(b) || a - b);
  const bins: Array<Pick<LevelBin, "quantiles" | "residuals"> & { below?: number | null }> = calibration.bins?.length
    ? calibration.bins
    : [calibration];
  // A scale per bin and side of the warning level: the few rows forecast near the limit
  // adapt on their own misses, not on those of their bin's many rows below the warning (on the audit's
  // longwall the busy weekdays' rows below it widened the band near the limit to hold 96 %).
  const logScale = new Float64Array(2 * bins.length);
  if (start) for (let b = 0; b < logScale.length; b++) logScale[b] = Math.log(start.slots[b] ?? 1);
  // Conditioned on the level (the rows at or above the limit were held in 0–62 %): the
  // facts at or above the limit update a scale of their own, whatever their forecast's bin, and a
  // forecast near the limit — where those facts come from — takes it besides its bin's.
  const near = history.warning ?? 0.8 * limit;
  const slotOf = (b: number, p: number) => 2 * b + (p >= near ? 1 : 0);
  // The scale each counted fact at or above the limit needed to be held (|y − forecast| / half-width),
  // the latest NEAR_WINDOW of them; their `level` quantile, recomputed as one comes in.
  const needed: number[] = [];
  let quantileScale = start?.near ?? 0;
  // And a scale of their own updated as each bin's is, on those facts alone (from their first
  // fact's bin's): up by NEAR_STEP·(1 − α) after one the interval shown missed, down by NEAR_STEP·α
  // after one it held, so the share of them missed tends to α where the quantile of the latest lags
  // behind (a seam whose gas keeps rising). The limit's scale is the larger of the two.
  let logNear = start && start.near > 0 ? Math.log(start.near) : 0;
  let nearStarted = start !== undefined && start.near > 0;
  let nearScale = start?.near ?? 0;
  const last = bins.length - 1;
  const binOf = (p: number) => {
    for (let b = 0; b < last; b++) {
      const below = bins[b].below;
      if (below === null || below === undefined || p < below) return b;
    }
    return last;
  };
  // Each row's half-width as calibrated, % CH4 (its bin's share of its level), and its scale's slot.
  const rowWidth = new Float64Array(n);
  const rowSlot = new Int32Array(n);
  const allowed = 1 - level / 100;
  // Rows issued, in time order, whose targets are not yet counted.
  const waiting = new Int32Array(n);
  let issued = 0;
  let next = 0;
  for (const k of order) {
    const now = at(k);
    while (next < issued && at(waiting[next]) < now && at(waiting[next]) + ahead <= now) {
      const j = waiting[next++];
      const y = targets[j];
      if (!Number.isFinite(y) || !Number.isFinite(out.lo[j])) continue;
      const b = rowSlot[j];
      const qj = rowWidth[j];
      const missed = y < out.lo[j] || y > out.hi[j] ? 1 : 0;
      logScale[b] = Math.min(LOG_MAX_SCALE, Math.max(-LOG_MAX_SCALE, logScale[b] + step * (missed - allowed)));
      if (y >= limit && Number.isFinite(qj) && qj > 0) {
        needed.push(Math.max(0, y - predicted[j]) / qj);
        if (needed.length > NEAR_WINDOW) needed.shift();
        if (needed.length >= NEAR_MIN) {
          const sorted = needed.slice().sort((a, c) => a - c);
          quantileScale = Math.min(MAX_SCALE, sorted[Math.min(sorted.length - 1, Math.ceil((level / 100) * sorted.length) - 1)]);
        }
        if (!nearStarted) logNear = logScale[b];
        nearStarted = true;
        logNear = Math.min(LOG_MAX_SCALE, Math.max(-LOG_MAX_SCALE, logNear + NEAR_STEP * (missed - allowed)));
        nearScale = Math.max(quantileScale, Math.exp(logNear));
      }
    }
    const p = predicted[k];
    out.lo[k] = out.hi[k] = out.pExceed[k] = out.scale[k] = Number.NaN;
    if (!Number.isFinite(p)) continue;
    const b = binOf(p);
    rowSlot[k] = slotOf(b, p);
    const q = binHalfWidth(calibration, bins[b], level, p);
    rowWidth[k] = q ?? Number.NaN;
    // Near the limit — the forecast at or above the warning level, or within the limit's scale of
    // the limit, where a fact at or above it may come from — the upper side takes the limit's scale
    // when it is the wider (the rows whose fact reached 1 % from a forecast below 0,8 % were missed).
    const scale = Math.exp(logScale[rowSlot[k]]);
    const upper = p >= near || (q !== null && p + q * nearScale >= limit) ? Math.max(scale, nearScale) : scale;
    const { lo } = interval(p, q === null ? null : q * scale);
    const { hi } = interval(p, q === null ? null : q * upper);
    out.lo[k] = lo ?? Number.NaN;
    out.hi[k] = hi ?? Number.NaN;
    // Reaching the limit from below takes a residual above the forecast (the upper side's scale),
    // falling short of it from above one below (the lower side's): p_exceed agrees with the interval.
    out.pExceed[k] = levelExceedance(calibration, p, limit, p < limit ? upper : scale) ?? Number.NaN;
    out.scale[k] = scale;
    waiting[issued++] = k;
  }
  return out;
}

/**
 * D96 (a), the band's scales fitted once on the calibration's own rows and kept with it, so
 * every request — the tile's 24 h, a week's route, the back-test — gives one band and one chance for one row.
 * Per level: each bin's scale below the warning level and at or above it (the slots adaptiveIntervalColumns
 * updates), the `level` conformal quantile of |y − ŷ| / the row's half-width over the slot's rows (1 with fewer
 * than NEAR_MIN of them), and the limit's scale, the same quantile of (y − ŷ)⁺ / half-width over the rows whose
 * fact reached the limit (0 with fewer than NEAR_MIN: none), which widens the upper side near the limit.
 */
export interface FittedScales {
  /** The limit they were fitted at (a request at another limit takes the bins as calibrated) and its warning level. */
  limit: number;
  warning: number;
  levels: Record<`${IntervalLevel}`, { slots: number[]; near: number }>;
}

/** How far back a row's band reads the history's facts (D96 a): a day, what the tile carries. */
export const ADAPTIVE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** γ of the day's update: twice ADAPTIVE_STEP, since a day of 10-minute rows is all the update has (at 0,05 the
 *  band could fall to half its width at most in a day; the generated longwalls' nowcasts held 96–100 % of facts). */
export const WINDOW_STEP = 0.1;

/**
 * D96 (a), lo, hi and p_exceed of every forecast of a history, each row's band the adaptive
 * update's (adaptiveIntervalColumns) replayed over the rows issued in the day before it (`windowMs`, the rows
 * after t − windowMs and before t), starting from the calibration's fitted scales: a row's band depends on that
 * day alone, so the tile (its 24 h) and a week's request give one band for one row. A row with less of the day
 * in the request starts from the fitted scales all the same, on the rows it has.
 */
export function windowedIntervalColumns(
  predicted: ArrayLike<number>,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
  history: AdaptiveHistory & { time: ArrayLike<number> },
  fitted: FittedScales,
  windowMs = ADAPTIVE_WINDOW_MS,
): AdaptiveColumns {
  const n = predicted.length;
  const { time, targets } = history;
  const ahead = history.ahead ?? 0;
  const out = { lo: new Float64Array(n), hi: new Float64Array(n), pExceed: new Float64Array(n), scale: new Float64Array(n) };
  out.lo.fill(Number.NaN);
  out.hi.fill(Number.NaN);
  out.pExceed.fill(Number.NaN);
  out.scale.fill(Number.NaN);
  const order = Int32Array.from({ length: n }, (_, k) => k)
    .filter((k) => Number.isFinite(time[k]))
    .sort((a, b) => time[a] - time[b] || a - b);
  const start = fitted.levels[`${level}`];
  const near = fitted.warning;
  const allowed = 1 - level / 100;
  // What does not depend on the replay: each row's slot and half-width as calibrated (NaN: none).
  const slot = new Int32Array(n);
  const width = new Float64Array(n).fill(Number.NaN);
  for (let k = 0; k < n; k++) {
    const p = predicted[k];
    if (!Number.isFinite(p)) continue;
    slot[k] = 2 * binIndex(calibration, p) + (p >= near ? 1 : 0);
    width[k] = rowHalfWidth(calibration, p, level) ?? Number.NaN;
  }
  const startLog = Float64Array.from({ length: 2 * Math.max(1, calibration.bins?.length ?? 0) }, (_, b) => Math.log(start.slots[b] ?? 1));
  const logScale = new Float64Array(startLog.length);
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  const waiting = new Int32Array(n);
  const needed: number[] = [];
  let from = 0;
  for (let o = 0; o < order.length; o++) {
    const k = order[o];
    if (!Number.isFinite(predicted[k])) continue;
    const tk = time[k];
    while (time[order[from]] <= tk - windowMs) from += 1;
    let end = o;
    while (end > from && time[order[end - 1]] === tk) end -= 1;
    // The adaptive update (adaptiveIntervalColumns) replayed over the day's rows from the fitted scales, then k.
    logScale.set(startLog);
    let quantileScale = start.near;
    let logNear = start.near > 0 ? Math.log(start.near) : 0;
    let nearStarted = start.near > 0;
    let nearScale = start.near;
    needed.length = 0;
    let issued = 0;
    let next = 0;
    for (let r = from; r <= end; r++) {
      const j = r === end ? k : order[r];
      const now = time[j];
      while (next < issued && time[waiting[next]] < now && time[waiting[next]] + ahead <= now) {
        const i = waiting[next++];
        const y = targets[i];
        if (!Number.isFinite(y) || !Number.isFinite(lo[i])) continue;
        const b = slot[i];
        const qi = width[i];
        const missed = y < lo[i] || y > hi[i] ? 1 : 0;
        logScale[b] = Math.min(LOG_MAX_SCALE, Math.max(-LOG_MAX_SCALE, logScale[b] + WINDOW_STEP * (missed - allowed)));
        if (y >= limit && Number.isFinite(qi) && qi > 0) {
          // Kept ascending as they come (a day holds fewer than NEAR_WINDOW of them).
          const v = Math.max(0, y - predicted[i]) / qi;
          let at = needed.length;
          needed.push(v);
          while (at > 0 && needed[at - 1] > v) {
            needed[at] = needed[at - 1];
            at -= 1;
          }
          needed[at] = v;
          if (needed.length >= NEAR_MIN) {
            quantileScale = Math.min(MAX_SCALE, needed[Math.min(needed.length - 1, Math.ceil((level / 100) * needed.length) - 1)]);
          }
          if (!nearStarted) logNear = logScale[b];
          nearStarted = true;
          logNear = Math.min(LOG_MAX_SCALE, Math.max(-LOG_MAX_SCALE, logNear + NEAR_STEP * (missed - allowed)));
          nearScale = Math.max(quantileScale, Math.exp(logNear));
        }
      }
      const p = predicted[j];
      lo[j] = hi[j] = Number.NaN;
      if (!Number.isFinite(p)) continue;
      const q = width[j];
      const scale = Math.exp(logScale[slot[j]]);
      const upper = p >= near || (Number.isFinite(q) && p + q * nearScale >= limit) ? Math.max(scale, nearScale) : scale;
      if (Number.isFinite(q)) {
        lo[j] = Math.max(0, p - q * scale);
        hi[j] = p + q * upper;
      }
      if (j === k) {
        out.lo[k] = lo[k];
        out.hi[k] = hi[k];
        out.scale[k] = scale;
        out.pExceed[k] = levelExceedance(calibration, p, limit, p < limit ? upper : scale) ?? Number.NaN;
      }
      waiting[issued++] = j;
    }
  }
  return out;
}

/** The scales of a calibration stored before they were fitted: its bins as they are (1), none at the limit. */
export function unitScales(calibration: Calibration, limit: number): FittedScales {
  const slots = new Array<number>(2 * Math.max(1, calibration.bins?.length ?? 0)).fill(1);
  const levels = Object.fromEntries(INTERVAL_LEVELS.map((level) => [`${level}`, { slots, near: 0 }])) as FittedScales["levels"];
  return { limit, warning: 0.8 * limit, levels };
}

/** The bin of a calibration a forecast falls in, by index (the whole calibration: 0). */
function binIndex(calibration: Calibration, p: number): number {
  const bins = calibration.bins;
  if (!bins || bins.length === 0) return 0;
  for (let b = 0; b < bins.length - 1; b++) {
    const below = bins[b].below;
    if (below === null || p < below) return b;
  }
  return bins.length - 1;
}

/** The row's half-width at `level` as calibrated (its bin's share of its level), % CH4; null where none. */
function rowHalfWidth(calibration: Calibration, p: number, level: IntervalLevel): number | null {
  const bins = calibration.bins?.length ? calibration.bins : null;
  return binHalfWidth(calibration, bins ? bins[binIndex(calibration, p)] : calibration, level, p);
}

/** The `level` % conformal quantile of `values` (unsorted), or `fallback` with fewer than NEAR_MIN. */
function scaleQuantile(values: number[], level: number, fallback: number): number {
  if (values.length < NEAR_MIN) return fallback;
  const sorted = Float64Array.from(values).sort();
  const q = conformalQuantile(sorted, level) ?? sorted[sorted.length - 1];
  return Math.min(MAX_SCALE, Math.max(1 / MAX_SCALE, q));
}

/** The scales of a calibration fitted on its rows: their forecasts and the facts they forecast (targets). */
export function fitScales(
  predicted: ArrayLike<number>,
  targets: ArrayLike<number>,
  calibration: Calibration,
  limit: number,
  warning = 0.8 * limit,
): FittedScales {
  const slots = 2 * Math.max(1, calibration.bins?.length ?? 0);
  const levels = {} as FittedScales["levels"];
  for (const level of INTERVAL_LEVELS) {
    const ratios: number[][] = Array.from({ length: slots }, () => []);
    const needed: number[] = [];
    for (let i = 0; i < predicted.length; i++) {
      const [p, y] = [predicted[i], targets[i]];
      if (!Number.isFinite(p) || !Number.isFinite(y)) continue;
      const q = rowHalfWidth(calibration, p, level);
      if (q === null || !(q > 0)) continue;
      ratios[2 * binIndex(calibration, p) + (p >= warning ? 1 : 0)].push(Math.abs(y - p) / q);
      if (y >= limit) needed.push(Math.max(0, y - p) / q);
    }
    levels[`${level}`] = { slots: ratios.map((r) => scaleQuantile(r, level, 1)), near: scaleQuantile(needed, level, 0) };
  }
  return { limit, warning, levels };
}

/**
 * lo, hi and p_exceed for every forecast by the calibration's fitted scales: the same for a row whatever rows
 * come with it. The lower side takes its slot's scale; the upper side, near the limit (the forecast at or above
 * the warning level, or within the limit's scale of the limit), the larger of it and the limit's; p_exceed reads
 * the residuals at the scale of the side that reaches the limit, as adaptiveIntervalColumns does.
 */
export function fittedIntervalColumns(
  predicted: ArrayLike<number>,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
  fitted: FittedScales,
): AdaptiveColumns {
  const n = predicted.length;
  const out = { lo: new Float64Array(n), hi: new Float64Array(n), pExceed: new Float64Array(n), scale: new Float64Array(n) };
  const { slots, near } = fitted.levels[`${level}`];
  for (let k = 0; k < n; k++) {
    const p = predicted[k];
    out.lo[k] = out.hi[k] = out.pExceed[k] = out.scale[k] = Number.NaN;
    if (!Number.isFinite(p)) continue;
    const q = rowHalfWidth(calibration, p, level);
    const scale = slots[2 * binIndex(calibration, p) + (p >= fitted.warning ? 1 : 0)] ?? 1;
    const upper = p >= fitted.warning || (q !== null && p + q * near >= limit) ? Math.max(scale, near) : scale;
    const { lo } = interval(p, q === null ? null : q * scale);
    const { hi } = interval(p, q === null ? null : q * upper);
    out.lo[k] = lo ?? Number.NaN;
    out.hi[k] = hi ?? Number.NaN;
    out.pExceed[k] = levelExceedance(calibration, p, limit, p < limit ? upper : scale) ?? Number.NaN;
    out.scale[k] = scale;
  }
  return out;
}
