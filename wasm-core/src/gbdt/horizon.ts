// A forecast that looks ahead: the horizon h, the lagged measured concentration as features and
// the target y(t + h), built from the history's rows by their time. Plain TypeScript, the same in
// the API, the browser and the default models' training script (tools/forecast-models/, which
// computes the first four lag columns in the same order of operations).
//
// A row at time t carries the readings of t; a model of horizon h is trained on the change
// y(t + h) − y(t) (forecastAhead adds y(t) back) and given,
// besides the readings, y(t), y(t − 1 step), y(t − 1 h), the mean of the measured y over the
// last hour (the rows at t, t − step, … down to t − 1 h + step that carry y) and its rate of change
// over the last 10, 30 and 60 minutes, y(t) − y(t − w) (a rise that has begun is what an event
// coming looks like, and a tree cannot subtract one feature from another). The history's step is
// the median gap between its successive times; a horizon is possible when it is a whole number of
// steps. Rows are found by their time, so a gap in the history gives a missing value, never the
// wrong row. Horizon 0 is the nowcast: the readings of t for y(t), no lags (the shipped model).
import type { TrainingData } from "./train";
import { HOUR_MS, MINUTE_MS } from "../dates";

/** The horizons a forecast may look ahead, in minutes (0: the nowcast, the same moment's readings). */
export const HORIZONS = [0, 10, 30, 60, 120, 360] as const;
export type Horizon = (typeof HORIZONS)[number];
/** A step number (a history without date-times) is this long: the upload's «шаг 10 минут». */
export const STEP_NUMBER_MS = 10 * 60 * 1000;

/** The lag features' names, as a lagged model's file lists them after the readings. */
export const LAG_FEATURES = ["y_now", "y_prev", "y_1h", "y_mean_1h", "dy_10m", "dy_30m", "dy_60m"] as const;
export type LagFeature = (typeof LAG_FEATURES)[number];
export const LAG_LABELS: Readonly<Record<LagFeature, string>> = {
  y_now: "Концентрация CH4, факт, в момент прогноза",
  y_prev: "Концентрация CH4, факт, шагом раньше",
  y_1h: "Концентрация CH4, факт, часом раньше",
  y_mean_1h: "Средняя концентрация CH4, факт, за последний час",
  dy_10m: "Изменение концентрации CH4, факт, за 10 мин",
  dy_30m: "Изменение концентрации CH4, факт, за 30 мин",
  dy_60m: "Изменение концентрации CH4, факт, за 1 ч",
};
/** The pressure features of a history that has the barometric pressure (кПа): its value at t and
 *  its change over the last hour, p(t) − p(t − 1 h) (a drop draws methane out of the goaf). */
export const PRESSURE_FEATURES = ["p_atm", "dp_atm_1h"] as const;
export type PressureFeature = (typeof PRESSURE_FEATURES)[number];
export const PRESSURE_LABELS: Readonly<Record<PressureFeature, string>> = {
  p_atm: "Барометрическое давление, кПа",
  dp_atm_1h: "Изменение барометрического давления за 1 ч, кПа",
};
/** The rate features' windows, minutes: dy_{w}m = y(t) − y(t − w), missing where either is. */
export const RATE_WINDOWS = { dy_10m: 10, dy_30m: 30, dy_60m: 60 } as const;

export const isHorizon = (value: unknown): value is Horizon => (HORIZONS as readonly unknown[]).includes(value);

/** «10 мин», «1 ч», «6 ч»; the nowcast «0 (текущий момент)». */
export function horizonLabel(minutes: number): string {
  if (minutes === 0) return "0 (текущий момент)";
  return minutes % 60 === 0 ? `${minutes / 60} ч` : `${minutes} мин`;
}

/** The rows' times in milliseconds: date-times as they are, step numbers as 10-minute steps. */
export function timesInMs(time: ArrayLike<number>, kind: "datetime" | "step"): Float64Array {
  return Float64Array.from({ length: time.length }, (_, i) => (kind === "step" ? time[i] * STEP_NUMBER_MS : time[i]));
}

/** The history's step: the median of the positive gaps between successive times (ms); undefined with fewer than two times. */
export function historyStep(timeMs: ArrayLike<number>): number | undefined {
  const sorted = Float64Array.from(timeMs).filter(Number.isFinite).sort();
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) if (sorted[i] > sorted[i - 1]) gaps.push(sorted[i] - sorted[i - 1]);
  if (gaps.length === 0) return undefined;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/** The horizons (above 0) a history of this step allows: whole numbers of steps. */
export function possibleHorizons(stepMs: number | undefined): Horizon[] {
  if (!stepMs) return [];
  return HORIZONS.filter((h) => h > 0 && (h * MINUTE_MS) % stepMs === 0);
}

/** Why a horizon cannot be forecast on this history, in the user's words; undefined when it can. */
export function horizonRefusal(horizon: number, stepMs: number | undefined): string | undefined {
  if (horizon === 0) return undefined;
  if (!isHorizon(horizon))
    return `горизонт прогноза: допустимы ${HORIZONS.filter((h) => h > 0)
      .map(horizonLabel)
      .join(", ")}`;
  if (!stepMs) return `для прогноза на ${horizonLabel(horizon)} вперед нужны столбец «Время» и не меньше двух строк с ним`;
  if ((horizon * MINUTE_MS) % stepMs !== 0) {
    return `горизонт ${horizonLabel(horizon)} не кратен шагу истории ${horizonLabel(stepMs / MINUTE_MS)}: возможны ${possibleHorizons(stepMs).map(horizonLabel).join(", ") || "только текущий момент"}`;
  }
  return undefined;
}

/** Row positions by time (the first row of a time wins; a row without a time is never found). */
function positions(timeMs: ArrayLike<number>): Map<number, number> {
  const at = new Map<number, number>();
  for (let i = 0; i < timeMs.length; i++) if (Number.isFinite(timeMs[i]) && !at.has(timeMs[i])) at.set(timeMs[i], i);
  return at;
}

const measuredAt = (y: ArrayLike<number>, at: Map<number, number>, time: number): number => {
  const i = at.get(time);
  return i === undefined ? Number.NaN : y[i];
};

/** y at t + offset for every row (NaN when no row has that time or it carries no y). */
export function shifted(y: ArrayLike<number>, timeMs: ArrayLike<number>, offsetMs: number): Float64Array {
  const at = positions(timeMs);
  return Float64Array.from({ length: y.length }, (_, i) => measuredAt(y, at, timeMs[i] + offsetMs));
}

/** The lag columns of every row (missing values NaN), LAG_FEATURES order. */
export function lagColumns(y: ArrayLike<number>, timeMs: ArrayLike<number>, stepMs: number): Record<LagFeature, Float64Array> {
  const n = y.length;
  const at = positions(timeMs);
  const out = {
    y_now: new Float64Array(n),
    y_prev: new Float64Array(n),
    y_1h: new Float64Array(n),
    y_mean_1h: new Float64Array(n),
    dy_10m: new Float64Array(n),
    dy_30m: new Float64Array(n),
    dy_60m: new Float64Array(n),
  };
  const window = Math.max(1, Math.round(HOUR_MS / stepMs));
  for (let i = 0; i < n; i++) {
    const t = timeMs[i];
    out.y_now[i] = Number.isFinite(t) ? y[i] : Number.NaN;
    out.y_prev[i] = measuredAt(y, at, t - stepMs);
    out.y_1h[i] = measuredAt(y, at, t - HOUR_MS);
    // Summed from t backwards, as the training script sums it.
    let sum = 0;
    let count = 0;
    for (let k = 0; k < window; k++) {
      const v = measuredAt(y, at, t - k * stepMs);
      if (Number.isFinite(v)) {
        sum += v;
        count += 1;
      }
    }
    out.y_mean_1h[i] = count > 0 ? sum / count : Number.NaN;
    for (const [name, minutes] of Object.entries(RATE_WINDOWS) as Array<[keyof typeof RATE_WINDOWS, number]>) {
      out[name][i] = out.y_now[i] - measuredAt(y, at, t - minutes * MINUTE_MS);
    }
  }
  return out;
}

/** The pressure columns of every row (PRESSURE_FEATURES order): p(t) and p(t) − p(t − 1 h) by the
 *  rows' time, NaN where the history has no pressure then. */
export function pressureColumns(pressure: ArrayLike<number>, timeMs: ArrayLike<number>): Record<PressureFeature, Float64Array> {
  const at = positions(timeMs);
  const p_atm = Float64Array.from({ length: pressure.length }, (_, i) => (Number.isFinite(timeMs[i]) ? pressure[i] : Number.NaN));
  const dp_atm_1h = Float64Array.from(p_atm, (p, i) => p - measuredAt(pressure, at, timeMs[i] - HOUR_MS));
  return { p_atm, dp_atm_1h };
}

/** Row-major rows of `width` readings with the lag columns appended (width + LAG_FEATURES.length per
 *  row), and the pressure columns after them when given. */
export function withLags(
  readings: ArrayLike<number>,
  width: number,
  lags: Record<LagFeature, Float64Array>,
  pressure?: Record<PressureFeature, Float64Array>,
): Float64Array {
  const n = lags.y_now.length;
  const extra: Float64Array[] = [
    ...LAG_FEATURES.map((name) => lags[name]),
    ...(pressure ? PRESSURE_FEATURES.map((name) => pressure[name]) : []),
  ];
  const columns = width + extra.length;
  const out = new Float64Array(n * columns);
  for (let r = 0; r < n; r++) {
    const base = r * columns;
    for (let f = 0; f < width; f++) out[base + f] = readings[r * width + f];
    for (let k = 0; k < extra.length; k++) out[base + width + k] = extra[k][r];
  }
  return out;
}

/** A model's horizon as its file records it (`learner.attributes.horizon_minutes`); 0 when none. */
export function modelHorizon(attributes: Readonly<Record<string, string>> | undefined): number {
  const text = attributes?.horizon_minutes;
  if (text === undefined) return 0;
  const value = Number(text);
  return Number.isFinite(value) ? value : Number.NaN;
}

export interface HorizonRows {
  /** The rows a model of this horizon learns from: its target present. */
  rows: Float64Array;
  featureNames: string[];
  target: Float64Array;
  /** The input rows kept, in input order. */
  kept: number[];
  /** Rows left out: no measured y at t + h. */
  skipped: number;
}

/**
 * Training rows for horizon h (minutes) from a history: the readings (`featureNames` order,
 * row-major), the measured y (NaN where none), the times (ms) and the barometric pressure where the
 * history has it (кПа, NaN where none). Horizon 0: the readings for y(t), no lags; above 0: the
 * readings, the lags and, with a pressure, PRESSURE_FEATURES for y(t + h) − y(t). Rows without that target (no y
 * at t + h, or none at t) are skipped and counted. A refused horizon throws a RangeError with horizonRefusal's words.
 */
export function horizonRows(
  readings: { featureNames: readonly string[]; rows: ArrayLike<number> },
  y: ArrayLike<number>,
  timeMs: ArrayLike<number> | null | undefined,
  horizon: number,
  pressure?: ArrayLike<number> | null,
): HorizonRows {
  const width = readings.featureNames.length;
  const n = y.length;
  let rows: ArrayLike<number> = readings.rows;
  let featureNames = [...readings.featureNames];
  let target: ArrayLike<number> = y;
  if (horizon > 0) {
    const step = timeMs ? historyStep(timeMs) : undefined;
    const refusal = horizonRefusal(horizon, step);
    if (refusal || !timeMs || !step) throw new RangeError(refusal);
    // The pressure where the history has any: its two columns after the lags.
    const withPressure = pressure ? Array.prototype.some.call(pressure, Number.isFinite) : false;
    rows = withLags(
      readings.rows,
      width,
      lagColumns(y, timeMs, step),
      withPressure && pressure ? pressureColumns(pressure, timeMs) : undefined,
    );
    featureNames = [...featureNames, ...LAG_FEATURES, ...(withPressure ? PRESSURE_FEATURES : [])];
    const ahead = shifted(y, timeMs, horizon * MINUTE_MS);
    target = Float64Array.from(ahead, (v, i) => v - y[i]);
  }
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(target[i])) kept.push(i);
  const columns = featureNames.length;
  const out = new Float64Array(kept.length * columns);
  kept.forEach((i, k) => {
    for (let f = 0; f < columns; f++) out[k * columns + f] = rows[i * columns + f];
  });
  return { rows: out, featureNames, target: Float64Array.from(kept, (i) => target[i]), kept, skipped: n - kept.length };
}

/**
 * What a model of horizon h trains on, from a history's training data (times in `t`, ms): the
 * rows with their target y(t + h) (horizonRows), their times kept for the validation split, and
 * how many rows were skipped for want of a measured target.
 */
export function horizonTrainingData(
  data: TrainingData,
  horizon: number,
  pressure?: ArrayLike<number> | null,
): { data: TrainingData; skipped: number } {
  const built = horizonRows(data, data.y, data.t, horizon, pressure);
  const t = data.t ? Float64Array.from(built.kept, (i) => (data.t as Float64Array)[i]) : data.t;
  return { data: { featureNames: built.featureNames, rows: built.rows, y: built.target, t }, skipped: built.skipped };
}

/**
 * A lagged model's output is the change y(t + h) − y(t) (trees do not extrapolate a level, and a
 * seam's gas drifts beyond any history's range); the forecast of y(t + h) is y(t) plus it, none
 * where y(t) was not measured.
 */
export function forecastAhead(changes: ArrayLike<number>, yNow: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: changes.length }, (_, i) => yNow[i] + changes[i]);
}

/** How many standard errors below its least-squares value a platform model's change weight is taken. */
export const CHANGE_WEIGHT_Z = 2;
/** Rows a company's own model's change weight is drawn towards 1 by (6 h of 10-minute rows). */
export const CHANGE_WEIGHT_PRIOR_ROWS = 36;

/** The change weight from the sums over `counted` rows (fromPersistence), within 0 … 1. */
function weightOf(cd: number, cc: number, dd: number, counted: number, overlap: number, prior: 0 | 1): number {
  if (!(cc > 0 && counted > 1)) return prior;
  const fitted = cd / cc;
  // Σ (d − fitted·c)² = Σ d² − fitted·Σ c·d.
  const residual = Math.max(0, dd - fitted * cd) / (counted - 1);
  const margin = CHANGE_WEIGHT_Z * Math.sqrt((residual * overlap) / cc);
  const drawn = (counted * fitted + CHANGE_WEIGHT_PRIOR_ROWS) / (counted + CHANGE_WEIGHT_PRIOR_ROWS);
  return Math.min(1, Math.max(0, prior === 0 ? fitted - margin : drawn));
}

/**
 * D96 (a), the change weight fitted once on a calibration's rows — fromPersistence's weight with
 * every row's measured change counted — kept with the calibration and applied to every request (withWeight), so
 * one row gets one forecast whatever rows come with it.
 */
export function changeWeight(
  changes: ArrayLike<number>,
  yNow: ArrayLike<number>,
  timeMs: ArrayLike<number>,
  aheadMs: number,
  stepMs: number,
  prior: 0 | 1 = 0,
): number {
  const targets = shifted(yNow, timeMs, aheadMs);
  let cd = 0;
  let cc = 0;
  let dd = 0;
  let counted = 0;
  for (let j = 0; j < changes.length; j++) {
    const c = changes[j];
    const d = targets[j] - yNow[j];
    if (!Number.isFinite(c) || !Number.isFinite(d)) continue;
    cd += c * d;
    cc += c * c;
    dd += d * d;
    counted += 1;
  }
  return weightOf(cd, cc, dd, counted, Math.max(1, aheadMs / stepMs), prior);
}

/** y(t) plus the change weighted by a fixed `weight` (changeWeight's), every row alike. */
export function withWeight(changes: ArrayLike<number>, yNow: ArrayLike<number>, weight: number): Float64Array {
  return Float64Array.from({ length: changes.length }, (_, i) => yNow[i] + weight * changes[i]);
}

/**
 * A forecast ahead that starts from persistence: y(t) plus the model's change c weighted
 * by as much of it as the history's own earlier rows bear out. Over the n rows whose y(t + h) was
 * measured before t, the least-squares weight of c for the measured change d is Σ c·d / Σ c². With
 * `prior` 0 (a platform model, trained on another mine) the weight used is that less CHANGE_WEIGHT_Z
 * standard errors (the residuals' variance over Σ c², times h / step, the rows a horizon's changes
 * overlap): 0 — the last reading — until the history bears the change out. With `prior` 1 (the
 * company's own model) it is drawn towards 1 by CHANGE_WEIGHT_PRIOR_ROWS rows, (n·w + P) / (n + P):
 * the model's change until the history shows it too large. Either is kept within 0 … 1, and a row's
 * weight uses only the facts measured when it was issued.
 */
export function fromPersistence(
  changes: ArrayLike<number>,
  yNow: ArrayLike<number>,
  timeMs: ArrayLike<number>,
  aheadMs: number,
  stepMs: number,
  prior: 0 | 1 = 0,
): { forecast: Float64Array; weight: Float64Array } {
  const n = changes.length;
  const targets = shifted(yNow, timeMs, aheadMs);
  const order = Int32Array.from({ length: n }, (_, k) => k).sort((a, b) => timeMs[a] - timeMs[b] || a - b);
  const overlap = Math.max(1, aheadMs / stepMs);
  const forecast = new Float64Array(n);
  const weight = new Float64Array(n);
  let cd = 0;
  let cc = 0;
  let dd = 0;
  let counted = 0;
  let next = 0;
  for (const i of order) {
    const now = timeMs[i];
    // The rows issued before this one whose target is measured by now.
    while (next < n && timeMs[order[next]] < now && timeMs[order[next]] + aheadMs <= now) {
      const j = order[next++];
      const c = changes[j];
      const d = targets[j] - yNow[j];
      if (!Number.isFinite(c) || !Number.isFinite(d)) continue;
      cd += c * d;
      cc += c * c;
      dd += d * d;
      counted += 1;
    }
    const w = weightOf(cd, cc, dd, counted, overlap, prior);
    weight[i] = w;
    forecast[i] = yNow[i] + w * changes[i];
  }
  return { forecast, weight };
}
