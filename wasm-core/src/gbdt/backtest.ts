// The back-test of a forecast on a longwall's own history: rows that carry the measured
// concentration y beside the forecast, scored for the model and for the persistence baseline (the
// previous row's measured y, the forecast an engineer gets for free) side by side. Plain
// TypeScript, the same in the API and in the browser.
//
// Errors: MAE, RMSE, MAPE (over rows with y > 0) and, where an interval is given, its coverage.
// Exceedances of the limit (y ≥ limit) against warnings (forecast ≥ warning level), counted per
// 12-hour shift (00:00–12:00 and 12:00–24:00 of the rows' clock) when the rows carry date-times,
// else per row: a unit with an exceedance and a warning is caught, one with an exceedance and no
// warning missed, one with a warning and no exceedance a false alarm. The lead time of a caught
// exceedance's onset (the first row at or above the limit after one below it) runs from the start
// of the unbroken warning that is on at the onset or at the row before; its median is reported, in
// minutes for date-times, steps for step numbers, rows otherwise.
import { METHANE_LIMIT_PERCENT } from "../registry";
import { horizonLabel, STEP_NUMBER_MS } from "./horizon";
import { DAY_MS, MINUTE_MS } from "../dates";
import { probabilityCheck, type ProbabilityCheck, signedPair, windowMaxTargets } from "./probability";

export const DEFAULT_WARNING_PERCENT = 0.8;
/** The latest rows with an interval on which a calibration is checked, and how far below its level
 *  their coverage may fall before the calibration is stale (a 90 % interval holding y in under 85 %). */
export const RECENT_ROWS = 500;
export const STALE_TOLERANCE = 0.05;
export const SHIFT_MS = 12 * 60 * 60 * 1000;

export type TimeKind = "datetime" | "step";

export interface BacktestInput {
  /** Measured y per row; NaN (or null) where not measured. */
  measured: ArrayLike<number | null>;
  /** The model's forecast per row; NaN where it has none. */
  predicted: ArrayLike<number>;
  /** The model's interval per row (NaN where none), for the coverage. */
  lo?: ArrayLike<number>;
  hi?: ArrayLike<number>;
  /** How those intervals were made, and the calibration's own as stored (before the adaptive update):
   *  their coverage on the same rows says whether the calibration still holds. */
  intervalMethod?: IntervalMethod;
  level?: number;
  storedLo?: ArrayLike<number>;
  storedHi?: ArrayLike<number>;
  /** The chance of reaching the limit each row's forecast gave (NaN where none), and the calibration's
   *  share of rows at or above the limit it is judged against (absent: the scored rows' own). */
  pExceed?: ArrayLike<number>;
  baseRate?: number;
  /** Per row: milliseconds of the rows' wall clock (datetime) or a step number (step). */
  time?: ArrayLike<number>;
  timeKind?: TimeKind;
  limit?: number;
  warning?: number;
  /** D108 (e): the version's time-of-day means (timeOfDayMeans: its calibration's mean y at each hour of the day),
   *  the «time_of_day» baseline's forecast of each row by its hour. Absent: no such baseline. */
  timeOfDay?: ArrayLike<number | null>;
  /** The mean measured y of the model's training rows: the «mean» baseline's forecast of every row.
   *  Absent (a model without a training summary): the scored rows' own mean. */
  trainingMean?: number;
  /**
   * Minutes ahead (horizon.ts): each row's forecast is for its time + horizon, scored against the
   * y measured then; persistence is the row's own y (y(t) for y(t + h)). Needs the times. 0 or
   * absent: the nowcast, scored against the row's own y, persistence the previous row's y.
   */
  horizon?: number;
  /**
   * D96 (b): the last time (the rows' units: ms for date-times, the step number for steps) of the model's own
   * period — the rows it was trained and calibrated on. A forecast issued at or before it, and a fact measured
   * then, judge nothing: they are counted apart (`seen_rows`) and enter no score, verdict, note, band or chance.
   * Absent or NaN: every row is judged.
   */
  seenUntil?: number;
}

export interface ForecastScore {
  /** Rows scored: measured y and a forecast both present. */
  rows: number;
  mae: number | null;
  rmse: number | null;
  /** Percent, over the scored rows with y > 0 (mape_rows of them). */
  mape: number | null;
  mape_rows: number;
  /** Share (0 … 1) of scored rows with an interval whose interval holds y; null without intervals. */
  coverage: number | null;
  /** The same share on the latest RECENT_ROWS of them (by time): whether the calibration still holds. */
  recent_coverage: { rows: number; coverage: number } | null;
  /** The same share on the rows whose forecast is at or above the warning level: the rows near the limit. */
  high_coverage: { rows: number; coverage: number } | null;
  /** The same share on the rows whose measured y is at or above the limit (the interval must
   *  hold them too; LIMIT_COVERAGE_ROWS of them are enough to judge). Absent in a back-test stored before. */
  limit_coverage?: { rows: number; coverage: number } | null;
  /** D96 (c), the forecast's error on the rows whose fact is at or above the limit (and so the
   *  warning level): the mean of forecast − fact (negative: it under-forecast there) and the RMSE. Absent in a
   *  back-test stored before it. */
  at_limit?: { rows: number; mean_error: number; rmse: number } | null;
  /** What caught, missed and false alarms count: 12-hour shifts or rows. */
  unit: "shift" | "row";
  units: number;
  exceedances: number;
  caught: number;
  missed: number;
  false_alarms: number;
  lead_time: { median: number | null; unit: "min" | "step" | "row"; onsets: number; warned: number };
}

export interface Backtest {
  limit: number;
  warning: number;
  /** Minutes ahead; 0 for the nowcast. */
  horizon: number;
  model: ForecastScore;
  persistence: ForecastScore;
  /** The mean measured y as the forecast of every row (climatology): the training rows' where the
   *  model keeps it, else the scored rows' own (`mean_source`). */
  mean: ForecastScore;
  mean_source?: "training" | "history";
  /** D108 (e): the time-of-day mean's scores (the version's, timeOfDayForecast) on the same rows; null without them. */
  time_of_day?: ForecastScore | null;
  /** Which is better and by how much, in one Russian sentence. */
  verdict: string;
  /** The model's interval: how it was made and what it held; null without intervals. */
  interval: IntervalCheck | null;
  /** The event table (eventTable): the model's rule beside the current reading's; null without date-times. */
  events?: EventTable | null;
  /** What the forecast shows: the best of the three on these rows by RMSE — the
   *  model's figure, persistence's or the training mean's (shownForecast; the model's figure is then kept
   *  beside it). Absent: the model's. */
  shown?: ShownForecast;
  /** where the forecast ahead warns no earlier than the meter, in one Russian sentence; null
   *  where it does, or without date-times. Absent in a back-test stored before it. */
  lead_note?: string | null;
  /** The chance of reaching the limit against the base rate (probability.ts), on the rows the model is
   *  scored on; null without chances. Absent in a back-test stored before it. */
  probability?: ProbabilityCheck | null;
  /** D96 (b): rows with a fact inside the model's own period (`seenUntil`), counted apart and judging nothing;
   *  `seen_note` says it on the screen («Строки периода обучения: 4 032 — не оцениваются»), null with none.
   *  Absent in a back-test stored before it. */
  seen_rows?: number;
  seen_note?: string | null;
  /** D96 (c): the forecast's error where the fact reached the limit, beside persistence's; null with no such row.
   *  Absent in a back-test stored before it. */
  limit_error?: LimitError | null;
  /** D96 (d): the model against the best baseline in the day-block bootstrap; null without rows both score.
   *  `gain_note` says where it does not hold (the model adds nothing at this horizon). Absent: stored before. */
  model_gain?: ModelGain | null;
  gain_note?: string | null;
}

/** «Строки периода обучения: 4 032 — не оцениваются»: the rows inside a model's own period, said apart; null with none. */
export function seenNote(rows: number): string | null {
  return rows > 0 ? `Строки периода обучения: ${percent(rows, 0)} — не оцениваются` : null;
}

/**
 * D96 (b): the input with every row at or before `seenUntil` set aside — its forecast, interval and chance removed
 * (a forecast issued then is not judged) and its fact removed (an event then is not counted) — and how many of
 * them carried a fact. The input itself where nothing is set aside.
 */
export function unseenInput(input: BacktestInput): { input: BacktestInput; seen: number } {
  const until = input.seenUntil;
  const time = input.time;
  if (!time || !finite(until)) return { input, seen: 0 };
  const n = input.measured.length;
  let seen = 0;
  const inside = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (finite(time[i]) && time[i] <= until) {
      inside[i] = 1;
      if (finite(input.measured[i])) seen += 1;
    }
  }
  if (!inside.includes(1)) return { input, seen: 0 };
  const apart = (source: ArrayLike<number | null> | undefined) =>
    source && Float64Array.from({ length: n }, (_, i) => (inside[i] || !finite(source[i]) ? Number.NaN : (source[i] as number)));
  return {
    input: {
      ...input,
      measured: apart(input.measured)!,
      predicted: apart(input.predicted)!,
      lo: apart(input.lo),
      hi: apart(input.hi),
      storedLo: apart(input.storedLo),
      storedHi: apart(input.storedHi),
      pExceed: apart(input.pExceed),
      // Their times too: the event table's days and false alerts per day are the judged rows'.
      time: apart(time),
      seenUntil: undefined,
    },
    seen,
  };
}

/**
 * The forecast persistence gives each row, as the back-test scores it: ahead, the row's own
 * measured y (y(t) for y(t + h)); for the nowcast, the measured y of the row before in time order.
 * NaN where there is none.
 */
export function persistenceForecast(
  measured: ArrayLike<number | null>,
  time: ArrayLike<number> | undefined,
  horizon: number,
): Float64Array {
  const n = measured.length;
  const y = Float64Array.from({ length: n }, (_, i) => (finite(measured[i]) ? (measured[i] as number) : Number.NaN));
  if (horizon > 0) return y;
  const out = new Float64Array(n).fill(Number.NaN);
  const order = timeOrder(n, time);
  for (let k = 1; k < n; k++) out[order[k]] = y[order[k - 1]];
  return out;
}

/** D108 (e) [A]: the time-of-day mean's slots — the hours of the day. */
export const TIME_OF_DAY_SLOTS = 24;

const hourSlot = (t: number) => Math.floor((((t % DAY_MS) + DAY_MS) % DAY_MS) / (DAY_MS / TIME_OF_DAY_SLOTS));

/**
 * D108 (e): the time-of-day mean of a version's own period — the mean measured y at each hour of the day (the rows'
 * clock) over the rows it was calibrated on (null: an hour without a fact). Like the training mean it is fixed with
 * the version: a row's figure is the same on every request (the tile's day, a week's route, the day chart).
 */
export function timeOfDayMeans(measured: ArrayLike<number | null>, time: ArrayLike<number>): (number | null)[] {
  const sums = new Float64Array(TIME_OF_DAY_SLOTS);
  const counts = new Float64Array(TIME_OF_DAY_SLOTS);
  for (let i = 0; i < measured.length; i++) {
    const v = measured[i];
    if (!finite(v) || !finite(time[i])) continue;
    const slot = hourSlot(time[i]);
    sums[slot] += v as number;
    counts[slot] += 1;
  }
  return Array.from(sums, (sum, k) => (counts[k] > 0 ? sum / counts[k] : null));
}

/** D108 (e): each row's time-of-day forecast — the version's mean at the hour of the time forecast (the row's time +
 *  `aheadMs`, ms of the rows' clock); NaN where the hour has none. */
export function timeOfDayForecast(means: ArrayLike<number | null>, time: ArrayLike<number>, aheadMs: number): Float64Array {
  return Float64Array.from({ length: time.length }, (_, i) => {
    if (!finite(time[i])) return Number.NaN;
    const v = means[hourSlot(time[i] + aheadMs)];
    return finite(v) ? (v as number) : Number.NaN;
  });
}

/** One alert rule's part of the event table. */
export interface EventRule {
  /** The events (onsets at or above the level) with an alert of the rule in the window before them. */
  caught: number;
  missed: number;
  /** Median minutes from the start of the alert that caught an event to the event; null with none caught. */
  lead_median: number | null;
  /** Alerts (unbroken runs of the rule) that no event followed within the window, per 24 h of the rows. */
  false_alerts: number;
  false_per_day: number;
}

/**
 * The back-test's event table: the onsets of the measured y at or above `level` (a row at
 * or above it after a measured row below it), and for each rule (the forecast shown ≥ `warning`, as
 * issued; the current reading ≥ `warning`) how many it caught, how early and how many false alerts
 * it raised per 24 h. An alert is issued at a row's time; an event at T is caught when an alert was
 * issued at a time in [T − h − 1 h, T]; its lead runs from the start of the unbroken run of alerts
 * (rows one step apart) holding the latest alert in that window. A run is false when no onset lies
 * within [its start, its end + h + 1 h]. Needs date-times (minutes) and the history's step.
 */
export interface EventTable {
  level: number;
  warning: number;
  horizon: number;
  /** Minutes an alert may come before its event: the horizon plus an hour. */
  window: number;
  events: number;
  days: number;
  model: EventRule;
  current: EventRule;
}

interface EventInput {
  measured: ArrayLike<number | null>;
  /** The forecast each row issued (for its time + horizon). */
  issued: ArrayLike<number>;
  time: ArrayLike<number>;
  horizon: number;
  level: number;
  warning: number;
}

/** The rows in time order, their step, the window an alert may come before its event, the onsets and
 *  the days; null where the rows allow no table. */
function eventRows(input: EventInput) {
  const n = input.measured.length;
  const order = timeOrder(n, input.time).filter((i) => finite(input.time[i]));
  if (order.length < 2) return null;
  const t = order.map((i) => input.time[i]);
  const y = order.map((i) => (finite(input.measured[i]) ? (input.measured[i] as number) : Number.NaN));
  const f = order.map((i) => (finite(input.issued[i]) ? input.issued[i] : Number.NaN));
  const gaps = t
    .slice(1)
    .map((v, k) => v - t[k])
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  if (gaps.length === 0) return null;
  const step = gaps[gaps.length >> 1];
  const window = input.horizon * MINUTE_MS + 60 * MINUTE_MS;
  const onsets: number[] = [];
  let before = Number.NaN;
  for (let k = 0; k < y.length; k++) {
    if (!finite(y[k])) continue;
    if (y[k] >= input.level && finite(before) && before < input.level) onsets.push(t[k]);
    before = y[k];
  }
  const days = (t[t.length - 1] - t[0] + step) / (24 * 3600 * 1000);
  /** Unbroken runs of alerts: [start, end] times. */
  const runsOf = (alert: boolean[]): Array<[number, number]> => {
    const runs: Array<[number, number]> = [];
    for (let k = 0; k < alert.length; k++) {
      if (!alert[k]) continue;
      const last = runs[runs.length - 1];
      if (last && k > 0 && alert[k - 1] && t[k] - t[k - 1] <= step) last[1] = t[k];
      else runs.push([t[k], t[k]]);
    }
    return runs;
  };
  /** Each onset's lead, minutes, by the rule's runs; null where it was missed. */
  const leadsOf = (runs: Array<[number, number]>): (number | null)[] => {
    // Runs and onsets are in time order and runs do not overlap: the latest run started by the onset
    // is the only one that can hold an alert in its window.
    let r = -1;
    return onsets.map((onset) => {
      while (r + 1 < runs.length && runs[r + 1][0] <= onset) r += 1;
      if (r < 0 || runs[r][1] < onset - window) return null;
      return (onset - runs[r][0]) / MINUTE_MS;
    });
  };
  const byForecast = () => f.map((v) => finite(v) && v >= input.warning);
  const byReading = () => y.map((v) => finite(v) && v >= input.warning);
  return { t, y, f, step, window, onsets, days, runsOf, leadsOf, byForecast, byReading };
}

export function eventTable(input: EventInput): EventTable | null {
  const rows = eventRows(input);
  if (!rows) return null;
  const { window, onsets, days, runsOf, leadsOf } = rows;
  const rule = (alert: boolean[]): EventRule => {
    const runs = runsOf(alert);
    const leads = leadsOf(runs).filter((lead): lead is number => lead !== null);
    let o = 0;
    let falseAlerts = 0;
    for (const [start, end] of runs) {
      while (o < onsets.length && onsets[o] < start) o += 1;
      if (!(o < onsets.length && onsets[o] <= end + window)) falseAlerts += 1;
    }
    return {
      caught: leads.length,
      missed: onsets.length - leads.length,
      lead_median: median(leads),
      false_alerts: falseAlerts,
      false_per_day: days > 0 ? falseAlerts / days : 0,
    };
  };
  return {
    level: input.level,
    warning: input.warning,
    horizon: input.horizon,
    window: window / MINUTE_MS,
    events: onsets.length,
    days,
    model: rule(rows.byForecast()),
    current: rule(rows.byReading()),
  };
}

/**
 * Each onset's lead by the forecast's rule (issued ≥ `warning`) and by the reading's (measured ≥ `reading`),
 * minutes, null where the rule missed it (ML M2: which warned earlier, onset by onset).
 */
export function onsetLeads(input: EventInput & { reading: number }): { forecast: (number | null)[]; reading: (number | null)[] } | null {
  const rows = eventRows(input);
  if (!rows) return null;
  const byReading = rows.y.map((v) => finite(v) && v >= input.reading);
  return { forecast: rows.leadsOf(rows.runsOf(rows.byForecast())), reading: rows.leadsOf(rows.runsOf(byReading)) };
}

/** The three forecasts a back-test scores on the same rows: the model's, persistence's
 *  (the last reading) and the mean's (the training period's mean measured y). */
export type ShownForecast = "model" | "persistence" | "mean" | "time_of_day";

/**
 * The forecast shown. D96 (d), the model only where its advantage over the best baseline holds
 * (`model_gain.holds`: the day-block bootstrap's 90 % interval of its RMSE minus the baseline's lies below zero),
 * else that baseline — persistence, or the training mean where it is the training period's and the lower. A
 * back-test stored before the test (no `model_gain`): the one of the three with the smallest RMSE, the model on
 * a tie, persistence before the mean.
 */
export function bestForecast(
  check: Pick<Backtest, "model" | "persistence" | "mean" | "mean_source" | "model_gain" | "time_of_day">,
): ShownForecast {
  if (check.model.rmse === null) return "model";
  if (check.model_gain) return check.model_gain.holds ? "model" : check.model_gain.baseline;
  const candidates: Array<[ShownForecast, number | null]> = [
    ["model", check.model.rmse],
    ["persistence", check.persistence.rmse],
    ["mean", check.mean_source === "training" ? check.mean.rmse : null],
    ["time_of_day", check.time_of_day?.rmse ?? null],
  ];
  let best: ShownForecast = "model";
  let bestRmse = check.model.rmse ?? Infinity;
  for (const [name, rmse] of candidates) {
    if (rmse !== null && rmse < bestRmse) {
      best = name;
      bestRmse = rmse;
    }
  }
  return best;
}

/** Resamples of the day-block bootstrap, its level, and the fewest days it is made on (D96 d). */
export const GAIN_RESAMPLES = 2000;
export const GAIN_LEVEL = 90;
export const GAIN_MIN_BLOCKS = 2;
const GAIN_SEED = 117;

/**
 * D96 (d): whether the model beats the best baseline on a back-test's rows, in a stated test. The baseline is
 * persistence or, where it is the training period's (`fromTraining`) and its RMSE lower, the training mean. The
 * rows are grouped in blocks of a day (24 h of date-times, 144 steps, else 144 rows in order) counted from the first
 * row scored, the blocks resampled with replacement GAIN_RESAMPLES times (a fixed seed: the same rows give the same
 * answer), and the model's RMSE minus the baseline's taken on each resample; `holds` where the upper end of its
 * GAIN_LEVEL % interval is below zero. Null without rows both score.
 */
export interface ModelGain {
  baseline: Exclude<ShownForecast, "model">;
  /** RMSE of the model minus the baseline's on the rows, % CH4. */
  difference: number;
  /** The bootstrap's interval of that difference; null with fewer than GAIN_MIN_BLOCKS days. */
  lo: number | null;
  hi: number | null;
  /** Days (blocks) it was made on. */
  blocks: number;
  holds: boolean;
}

function modelGain(
  y: Float64Array,
  model: Float64Array,
  persistence: Float64Array,
  mean: Float64Array,
  fromTraining: boolean,
  t: Float64Array | undefined,
  timeKind: TimeKind | undefined,
  timeOfDay?: Float64Array,
): ModelGain | null {
  const n = y.length;
  const sq = (f: Float64Array) => {
    let sum = 0;
    let rows = 0;
    for (let k = 0; k < n; k++) {
      if (finite(y[k]) && finite(model[k]) && finite(f[k])) {
        sum += (y[k] - f[k]) ** 2;
        rows += 1;
      }
    }
    return rows ? Math.sqrt(sum / rows) : null;
  };
  // D108 (e): the best of persistence, the training mean and the time-of-day mean by RMSE on the rows each scores.
  const candidates: Array<[ModelGain["baseline"], Float64Array, number | null]> = [
    ["persistence", persistence, sq(persistence)],
    ["mean", mean, fromTraining ? sq(mean) : null],
    ["time_of_day", timeOfDay ?? persistence, timeOfDay ? sq(timeOfDay) : null],
  ];
  let chosen: [ModelGain["baseline"], Float64Array, number] | null = null;
  for (const [name, f, rmse] of candidates) if (rmse !== null && (chosen === null || rmse < chosen[2])) chosen = [name, f, rmse];
  if (chosen === null) return null;
  const [baseline, base] = chosen;
  // Per block (a day): the rows, the model's and the baseline's sums of squared errors. The days are counted from
  // the first row scored, not from a calendar midnight: a day's rows are one block whatever hour they end at (on
  // calendar days the tile's 24 h made two after midnight and one before, and the same minutes were shown the
  // model or the last reading by the hour of the request).
  const span = timeKind === "datetime" ? 86_400_000 : 144;
  const at = (k: number) => (t && timeKind && finite(t[k]) ? t[k] : k);
  const scored = (k: number) => finite(y[k]) && finite(model[k]) && finite(base[k]);
  let origin = Number.POSITIVE_INFINITY;
  for (let k = 0; k < n; k++) if (scored(k) && at(k) < origin) origin = at(k);
  const blocks = new Map<number, [number, number, number]>();
  for (let k = 0; k < n; k++) {
    if (!scored(k)) continue;
    const key = Math.floor((at(k) - origin) / span);
    const sums = blocks.get(key) ?? [0, 0, 0];
    sums[0] += 1;
    sums[1] += (y[k] - model[k]) ** 2;
    sums[2] += (y[k] - base[k]) ** 2;
    blocks.set(key, sums);
  }
  const days = [...blocks.values()];
  const total = days.reduce((a, [r, m, b]) => [a[0] + r, a[1] + m, a[2] + b], [0, 0, 0]);
  const difference = Math.sqrt(total[1] / total[0]) - Math.sqrt(total[2] / total[0]);
  if (days.length < GAIN_MIN_BLOCKS) return { baseline, difference, lo: null, hi: null, blocks: days.length, holds: false };
  // mulberry32: a small seeded generator, the same draws on every host.
  let state = GAIN_SEED;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const draws = new Float64Array(GAIN_RESAMPLES);
  for (let b = 0; b < GAIN_RESAMPLES; b++) {
    let rows = 0;
    let m = 0;
    let s2 = 0;
    for (let d = 0; d < days.length; d++) {
      const day = days[Math.floor(random() * days.length)];
      rows += day[0];
      m += day[1];
      s2 += day[2];
    }
    draws[b] = Math.sqrt(m / rows) - Math.sqrt(s2 / rows);
  }
  draws.sort();
  const tail = (100 - GAIN_LEVEL) / 200;
  const lo = draws[Math.floor(tail * (GAIN_RESAMPLES - 1))];
  const hi = draws[Math.ceil((1 - tail) * (GAIN_RESAMPLES - 1))];
  return { baseline, difference, lo, hi, blocks: days.length, holds: hi < 0 };
}

/** «разность RMSE с инерционным прогнозом −0,0120…+0,0050 % (90 %, бутстреп по суткам, 7 сут.)», or why there is none. */
function gainInterval(gain: ModelGain): string {
  if (gain.lo === null || gain.hi === null) return `преимущество не проверить: строк с фактом меньше чем за ${GAIN_MIN_BLOCKS} сут.`;
  // D108, item f: as many digits as tell the ends apart (never «+0,0000…+0,0000»).
  return (
    `разность RMSE ${FORECAST_NAMES[gain.baseline].instrumental} ${signedPair(gain.lo, gain.hi, 4)} % ` +
    `(${GAIN_LEVEL} %, бутстреп по суткам, ${gain.blocks} сут.) не ниже нуля`
  );
}

/** «На горизонте 6 ч модель ничего не добавляет к среднему за период обучения: разность RMSE … не ниже нуля»: where the
 *  model's advantage does not hold (D96 d); null where it does. */
export function gainNote(horizon: number, gain: ModelGain | null | undefined): string | null {
  if (!gain || gain.holds) return null;
  return `На горизонте ${horizonLabel(horizon)} модель ничего не добавляет к ${FORECAST_NAMES[gain.baseline].dative}: ${gainInterval(gain)}`;
}

/** The sentence's end when another forecast than the model's is shown. */
export const SHOWN_INSTEAD: Record<Exclude<ShownForecast, "model">, string> = {
  persistence: "Прогнозом показан инерционный: последний замер; прогноз модели — рядом, в отдельном столбце.",
  mean: "Прогнозом показано среднее за период обучения модели; прогноз модели — рядом, в отдельном столбце.",
  time_of_day:
    "Прогнозом показано среднее по времени суток (замеры того же часа за период калибровки модели); прогноз модели — рядом, в отдельном столбце.",
};

/** How a forecast's intervals were made (conformal.ts): conditional on the forecast's level, from the
 *  scales the calibration fitted on its own rows updated on the facts of the day before each row, or those
 *  scales alone without facts (D96 a: the same band for a row on every request);
 *  for a calibration stored before them, updated on the history's own facts, conditional on the level
 *  alone, or one width for all (a calibration stored before the bins). */
export type IntervalMethod = "daily" | "calibrated" | "adaptive" | "level" | "split";

export const INTERVAL_METHOD_LABEL: Record<IntervalMethod, string> = {
  daily: "конформный по уровню прогноза, от масштаба калибровки подстроенный по фактам предыдущих суток",
  calibrated: "конформный по уровню прогноза, масштаб подобран на калибровке",
  adaptive: "конформный по уровню прогноза, подстроенный по фактам истории",
  level: "конформный по уровню прогноза",
  split: "конформный, одна ширина для всех строк",
};

/** Rows with the measured y at or above the limit from which the interval's coverage there is judged
 *  (85–95 % by the 90 % interval where at least this many exist). */
export const LIMIT_COVERAGE_ROWS = 200;

/** Rows whose forecast is at or above the warning level from which the interval's coverage near the limit
 *  is judged (48,7 % of 39 such rows at 1 h, 15,4 % of 13 at 6 h, under a 90 % band). */
export const NEAR_LIMIT_ROWS = 100;
/** Rows whose fact is at or above the limit from which the band there is judged (D96 c: 30). */
export const FACT_LIMIT_ROWS = 30;
/** How far the coverage near the limit may stray from the level, either way: 85–95 % for a 90 % band. */
export const NEAR_LIMIT_TOLERANCE = 0.05;

/** A band's coverage on some rows: how many and what share it held (null without rows). */
export interface NearShare {
  rows: number;
  coverage: number | null;
}

/**
 * The interval near the limit (D96 c): on the rows whose forecast is at or above the warning
 * level (`by_forecast`, also `rows` and `coverage` as before) and on the rows whose fact is at or above the limit
 * (`by_fact`: where methane was near the limit, whatever was forecast); `reliable` only where both hold within the
 * level ± the tolerance, on NEAR_LIMIT_ROWS and FACT_LIMIT_ROWS rows.
 */
export interface NearLimit {
  rows: number;
  coverage: number | null;
  reliable: boolean;
  /** Absent in a back-test stored before an earlier release. */
  by_forecast?: NearShare;
  by_fact?: NearShare;
}

const within = (share: NearShare, level: number) =>
  share.coverage !== null && Math.abs(share.coverage - level / 100) <= NEAR_LIMIT_TOLERANCE + 1e-12;

const nearShare = (held: { rows: number; coverage: number } | null | undefined): NearShare => {
  const rows = held?.rows ?? 0;
  return { rows, coverage: held && rows > 0 ? held.coverage : null };
};

export function nearLimit(
  high: { rows: number; coverage: number } | null | undefined,
  level: number,
  atLimit?: { rows: number; coverage: number } | null,
): NearLimit {
  const byForecast = nearShare(high);
  const byFact = nearShare(atLimit);
  const reliable =
    byForecast.rows >= NEAR_LIMIT_ROWS && within(byForecast, level) && byFact.rows >= FACT_LIMIT_ROWS && within(byFact, level);
  return { rows: byForecast.rows, coverage: byForecast.coverage, reliable, by_forecast: byForecast, by_fact: byFact };
}

/** «Интервалу 90 % у предела не доверять: он накрыл факт в 98,0 % из 51 строк с прогнозом от 0,8 % (должен в
 *  85–95 %); строк с фактом от 1 % 11 (накрыто 18,2 %), судить можно не меньше чем по 30»; null where it holds.
 *  A back-test stored before an earlier release (no `by_fact`) is judged on the rows by the forecast alone. */
export function nearLimitNote(near: NearLimit, level: number, warning: number, limit = METHANE_LIMIT_PERCENT): string | null {
  if (near.reliable) return null;
  const head = `Интервалу ${level} % у предела не доверять`;
  const band = `${level - NEAR_LIMIT_TOLERANCE * 100}–${level + NEAR_LIMIT_TOLERANCE * 100} %`;
  const part = (share: NearShare, what: string, least: number, judged: (s: NearShare) => boolean) => {
    if (share.rows >= least && share.coverage !== null) {
      return judged(share)
        ? null
        : `он накрыл факт в ${percent(share.coverage * 100, 1)} % из ${share.rows} строк ${what} (должен в ${band})`;
    }
    const held = share.coverage === null ? "" : ` (накрыто ${percent(share.coverage * 100, 1)} %)`;
    return `строк ${what} ${share.rows}${held}, судить можно не меньше чем по ${least}`;
  };
  const byForecast = near.by_forecast ?? { rows: near.rows, coverage: near.coverage };
  const parts = [
    part(byForecast, `с прогнозом от ${percent(warning, 1)} %`, NEAR_LIMIT_ROWS, (s) => within(s, level)),
    near.by_fact ? part(near.by_fact, `с фактом от ${percent(limit, 1)} %`, FACT_LIMIT_ROWS, (s) => within(s, level)) : null,
  ].filter((p): p is string => p !== null);
  return `${head}: ${parts.join("; ")}.`;
}

/** D96 (c): the error of the forecast shown where the fact reached the limit, beside persistence's there, and
 *  where it under-forecast the sentence the screens and the tile say. */
export interface LimitError {
  rows: number;
  model: { mean_error: number; rmse: number } | null;
  persistence: { mean_error: number; rmse: number } | null;
  /** «У предела прогноз занижает: в среднем на 0,30 %; ориентир — тренд, не потолок» where the forecast's mean error there is
   *  below zero; null otherwise. */
  note: string | null;
}

export function limitError(model: ForecastScore, persistence: ForecastScore): LimitError | null {
  const own = model.at_limit;
  if (!own) return null;
  const base = persistence.at_limit;
  return {
    rows: own.rows,
    model: { mean_error: own.mean_error, rmse: own.rmse },
    persistence: base ? { mean_error: base.mean_error, rmse: base.rmse } : null,
    note: underForecastNote(own.mean_error),
  };
}

/** «У предела прогноз занижает: в среднем на 0,30 %; ориентир — тренд, не потолок»; null where it does not under-forecast. */
export function underForecastNote(meanError: number): string | null {
  // D108, item f: an under-forecast that rounds to 0,00 % says nothing («занижает на 0,00 %»): not said.
  if (!(meanError <= -0.005)) return null;
  return `У предела прогноз занижает: в среднем на ${percent(-meanError, 2)} %; ориентир — тренд, не потолок`;
}

export interface IntervalCheck {
  method: IntervalMethod;
  level: number;
  coverage: number | null;
  high_coverage: ForecastScore["high_coverage"];
  /** the band on the rows whose forecast is at or above the warning level, judged. Absent in a back-test stored before it. */
  near_limit?: NearLimit;
  limit_coverage?: ForecastScore["limit_coverage"];
  /** The calibration's intervals as stored, on the same rows (null when they are the intervals shown). */
  stored: {
    coverage: number | null;
    recent_coverage: ForecastScore["recent_coverage"];
    high_coverage: ForecastScore["high_coverage"];
  } | null;
  /** What the interval held, in one Russian sentence. */
  sentence: string;
}

const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** Row positions in time order (stable); rows without a time go last in their given order. */
function timeOrder(n: number, time: ArrayLike<number> | undefined): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  if (!time) return order;
  return order.sort((a, b) => {
    const ta = finite(time[a]) ? time[a] : Infinity;
    const tb = finite(time[b]) ? time[b] : Infinity;
    return ta === tb ? a - b : ta - tb;
  });
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Scores forecasts `f` of measured `y`, both already in time order (NaN where absent). */
function score(
  y: Float64Array,
  f: Float64Array,
  lo: Float64Array | undefined,
  hi: Float64Array | undefined,
  t: Float64Array | undefined,
  timeKind: TimeKind | undefined,
  limit: number,
  warning: number,
  /** Added to every lead time, in the time's units: a forecast for t + h was issued h earlier. */
  leadOffset = 0,
): ForecastScore {
  const byShift = t !== undefined && timeKind === "datetime";
  let rows = 0;
  let absSum = 0;
  let sqSum = 0;
  let apeSum = 0;
  let apeRows = 0;
  let intervalRows = 0;
  let covered = 0;
  let highRows = 0;
  let highCovered = 0;
  let limitRows = 0;
  let limitCovered = 0;
  let atLimit = 0;
  let atLimitSum = 0;
  let atLimitSq = 0;
  const held: boolean[] = [];
  // Per unit: bit 1 = an exceedance measured, bit 2 = a warning given.
  const units = new Map<number, number>();
  const leads: number[] = [];
  let onsets = 0;
  let previousY = Number.NaN;
  let previousWarned = false;
  let warnStart = Number.NaN;
  for (let k = 0; k < y.length; k++) {
    const yk = y[k];
    const fk = f[k];
    if (!finite(yk) || !finite(fk)) continue;
    rows += 1;
    const error = yk - fk;
    absSum += Math.abs(error);
    sqSum += error * error;
    if (yk > 0) {
      apeSum += Math.abs(error) / yk;
      apeRows += 1;
    }
    if (yk >= limit && yk >= warning) {
      atLimit += 1;
      atLimitSum -= error;
      atLimitSq += error * error;
    }
    if (lo && hi && finite(lo[k]) && finite(hi[k])) {
      intervalRows += 1;
      const inside = lo[k] <= yk && yk <= hi[k];
      if (inside) covered += 1;
      held.push(inside);
      if (fk >= warning) {
        highRows += 1;
        if (inside) highCovered += 1;
      }
      if (yk >= limit) {
        limitRows += 1;
        if (inside) limitCovered += 1;
      }
    }
    const position = t && finite(t[k]) ? t[k] : k;
    const exceeded = yk >= limit;
    const warned = fk >= warning;
    const unit = byShift ? Math.floor(position / SHIFT_MS) : k;
    units.set(unit, (units.get(unit) ?? 0) | (exceeded ? 1 : 0) | (warned ? 2 : 0));
    // The unbroken warning on at this row started at warnStart (or the one that ended at the row before).
    const runStart = warnStart;
    if (warned && !previousWarned) warnStart = position;
    if (exceeded && finite(previousY) && previousY < limit) {
      onsets += 1;
      if (warned) leads.push(position - warnStart + leadOffset);
      else if (previousWarned) leads.push(position - runStart + leadOffset);
    }
    previousWarned = warned;
    previousY = yk;
  }
  let caught = 0;
  let missed = 0;
  let falseAlarms = 0;
  for (const bits of units.values()) {
    if (bits === 3) caught += 1;
    else if (bits === 1) missed += 1;
    else if (bits === 2) falseAlarms += 1;
  }
  const leadUnit = t === undefined || timeKind === undefined ? "row" : timeKind === "datetime" ? "min" : "step";
  const leadMedian = median(leads);
  return {
    rows,
    mae: rows ? absSum / rows : null,
    rmse: rows ? Math.sqrt(sqSum / rows) : null,
    mape: apeRows ? (apeSum / apeRows) * 100 : null,
    mape_rows: apeRows,
    coverage: intervalRows ? covered / intervalRows : null,
    recent_coverage: recentCoverage(held),
    high_coverage: highRows ? { rows: highRows, coverage: highCovered / highRows } : null,
    limit_coverage: limitRows ? { rows: limitRows, coverage: limitCovered / limitRows } : null,
    at_limit: atLimit ? { rows: atLimit, mean_error: atLimitSum / atLimit, rmse: Math.sqrt(atLimitSq / atLimit) } : null,
    unit: byShift ? "shift" : "row",
    units: units.size,
    exceedances: caught + missed,
    caught,
    missed,
    false_alarms: falseAlarms,
    lead_time: {
      median: leadMedian === null ? null : leadUnit === "min" ? leadMedian / 60_000 : leadMedian,
      unit: leadUnit,
      onsets,
      warned: leads.length,
    },
  };
}

function recentCoverage(held: boolean[]): ForecastScore["recent_coverage"] {
  if (held.length === 0) return null;
  const recent = held.slice(-RECENT_ROWS);
  return { rows: recent.length, coverage: recent.filter(Boolean).length / recent.length };
}

/** Whether a calibration no longer holds: its interval's coverage on the latest rows below its
 *  level by more than the tolerance. The calibration's intervals as stored are judged where the
 *  back-test has them (an adaptive update may hold what the calibration alone no longer does). */
export function calibrationStale(check: Pick<Backtest, "model" | "interval"> | ForecastScore, level: number): boolean {
  const recent = "model" in check ? (check.interval?.stored ?? check.model).recent_coverage : check.recent_coverage;
  return recent !== null && recent.coverage < level / 100 - STALE_TOLERANCE;
}

/** The model's, the persistence baseline's and the history mean's scores on rows that carry the measured y,
 *  each one's lead time by the event table's one definition where the rows carry date-times. */
export function backtest(given: BacktestInput): Backtest {
  const { input, seen } = unseenInput(given);
  const scored = withEventLeads(scoredBacktest(input), input);
  const check = {
    ...scored,
    limit_error: limitError(scored.model, scored.persistence),
    gain_note: gainNote(scored.horizon, scored.model_gain),
  };
  return finite(given.seenUntil) ? { ...check, seen_rows: seen, seen_note: seenNote(seen) } : check;
}

/**
 * one lead time on every screen. The scores' own (from the start of the warning on at the
 * onset) gave the 1 h model «—» where the event table, whose alert may come up to the horizon and an hour
 * before the event, gave 10 min: with date-times each score's lead is the event table's — the model's and the
 * mean's forecast ≥ warning as issued, persistence's the current reading ≥ warning — and `lead_note` says
 * where a forecast ahead warns no earlier than the meter.
 */
function withEventLeads(check: Backtest, input: BacktestInput): Backtest {
  const events = check.events;
  if (!events || !input.time) return { ...check, lead_note: null };
  const lead = (rule: EventRule): ForecastScore["lead_time"] => ({
    median: rule.lead_median,
    unit: "min",
    onsets: events.events,
    warned: rule.caught,
  });
  let sum = 0;
  let count = 0;
  for (let i = 0; i < input.measured.length; i++) {
    const v = input.measured[i];
    if (finite(v)) {
      sum += v;
      count += 1;
    }
  }
  const meanValue = finite(input.trainingMean) ? input.trainingMean : count ? sum / count : Number.NaN;
  const mean = eventTable({
    measured: input.measured,
    issued: Float64Array.from(input.predicted, (p) => (finite(p) ? meanValue : Number.NaN)),
    time: input.time,
    horizon: check.horizon,
    level: check.limit,
    warning: check.warning,
  });
  return {
    ...check,
    model: { ...check.model, lead_time: lead(events.model) },
    persistence: { ...check.persistence, lead_time: lead(events.current) },
    mean: mean ? { ...check.mean, lead_time: lead(mean.model) } : check.mean,
    lead_note: leadNote(check.horizon, events),
  };
}

/** «Прогноз на 1 ч не предупреждает раньше датчика: медиана упреждения 10 мин против 15 мин у текущего замера»:
 *  where a forecast ahead caught no event earlier (by the median lead) than the current reading; null where it
 *  did, for the nowcast, or with no event caught by either. */
export function leadNote(horizon: number, events: Pick<EventTable, "model" | "current">): string | null {
  const [forecast, reading] = [events.model.lead_median, events.current.lead_median];
  if (horizon === 0 || (forecast === null && reading === null)) return null;
  if (forecast !== null && (reading === null || forecast > reading)) return null;
  const minutes = (v: number | null) => (v === null ? "нет (не предупредил)" : `${percent(v, 0)} мин`);
  return (
    `Прогноз на ${horizonLabel(horizon)} не предупреждает раньше датчика: медиана упреждения ${minutes(forecast)} ` +
    `против ${minutes(reading)} у текущего замера`
  );
}

function scoredBacktest(input: BacktestInput): Backtest {
  const limit = input.limit ?? METHANE_LIMIT_PERCENT;
  const warning = input.warning ?? DEFAULT_WARNING_PERCENT;
  const horizon = input.horizon ?? 0;
  const n = input.measured.length;
  if (input.predicted.length !== n) throw new Error("backtest: forecasts and measured values differ in length");
  const order = timeOrder(n, input.time);
  const pick = (source: ArrayLike<number | null> | undefined) =>
    source ? Float64Array.from(order, (i) => (finite(source[i]) ? (source[i] as number) : Number.NaN)) : undefined;
  const y = pick(input.measured)!;
  const t = pick(input.time);
  let sum = 0;
  let measuredRows = 0;
  for (const v of y) {
    if (finite(v)) {
      sum += v;
      measuredRows += 1;
    }
  }
  // The training period's mean where known (the scored period's own mean knew the answer).
  const fromTraining = finite(input.trainingMean);
  const mean = new Float64Array(n).fill(fromTraining ? (input.trainingMean as number) : measuredRows ? sum / measuredRows : Number.NaN);
  const scoreOf = (f: Float64Array, lo?: Float64Array, hi?: Float64Array, leadOffset = 0) =>
    score(y, f, lo, hi, t, input.timeKind, limit, warning, leadOffset);
  if (horizon === 0) {
    // Persistence: the previous row's measured y (in time order) is the forecast of this one.
    // All three are scored on the same rows: a fact, the model's forecast and the row before's fact.
    const previous = new Float64Array(n).fill(Number.NaN);
    for (let k = 1; k < n; k++) previous[k] = y[k - 1];
    const f = pick(input.predicted)!;
    for (let k = 0; k < n; k++) {
      if (!(finite(y[k]) && finite(f[k]) && finite(previous[k]))) {
        f[k] = Number.NaN;
        previous[k] = Number.NaN;
        mean[k] = Number.NaN;
      }
    }
    const model = scoreOf(f, pick(input.lo), pick(input.hi));
    const stored = input.storedLo && input.storedHi ? scoreOf(f, pick(input.storedLo), pick(input.storedHi)) : null;
    const persistence = scoreOf(previous);
    const meanScore = scoreOf(mean);
    const chances = pick(input.pExceed);
    const tod = timeOfDayOf(input, t, f, 0);
    const todScore = tod && tod.some(finite) ? scoreOf(tod) : null;
    const gain = modelGain(y, f, previous, mean, fromTraining, t, input.timeKind, tod);
    return {
      time_of_day: todScore,
      model_gain: gain,
      limit,
      warning,
      horizon,
      model,
      persistence,
      mean: meanScore,
      verdict: verdictOf(horizon, model, persistence, meanScore, fromTraining ? "training" : "history", gain, todScore),
      interval: intervalCheck(input, model, stored, warning),
      events: eventsOf(input, limit, warning, horizon),
      mean_source: fromTraining ? "training" : "history",
      probability: chances ? chanceCheck(chances, f, y, limit, input.baseRate, t, input.timeKind, 0) : null,
    };
  }
  if (!t || !input.timeKind) throw new RangeError(`back-test at ${horizon} min: the rows need their times`);
  // Each row is the target of the forecast issued one horizon earlier: the model's forecast and
  // the measured y of the row at t − h. All three are scored on the rows where all three exist.
  const ahead = input.timeKind === "datetime" ? horizon * MINUTE_MS : (horizon * MINUTE_MS) / STEP_NUMBER_MS;
  const at = new Map<number, number>();
  t.forEach((time, k) => {
    if (finite(time) && !at.has(time)) at.set(time, k);
  });
  const predicted = pick(input.predicted)!;
  const [lo, hi] = [pick(input.lo), pick(input.hi)];
  const issued = (source: Float64Array | undefined) => {
    if (!source) return undefined;
    return Float64Array.from(t, (time) => {
      const k = at.get(time - ahead);
      return k === undefined ? Number.NaN : source[k];
    });
  };
  const f = issued(predicted)!;
  const persistence = issued(y)!;
  for (let k = 0; k < n; k++) {
    if (!(finite(y[k]) && finite(f[k]) && finite(persistence[k]))) {
      f[k] = Number.NaN;
      persistence[k] = Number.NaN;
      mean[k] = Number.NaN;
    }
  }
  const model = scoreOf(f, issued(lo), issued(hi), ahead);
  const stored = input.storedLo && input.storedHi ? scoreOf(f, issued(pick(input.storedLo)), issued(pick(input.storedHi)), ahead) : null;
  const baseline = scoreOf(persistence, undefined, undefined, ahead);
  const meanScore = scoreOf(mean);
  const chances = issued(pick(input.pExceed));
  // D108 (a): the chance is of the window's maximum — any fact after the issue up to the row's time.
  const events = chances ? issued(windowMaxTargets(y, t, ahead)) : undefined;
  // The time-of-day mean of the target's hour: the target rows' own times.
  const tod = timeOfDayOf(input, t, f, 0);
  const todScore = tod && tod.some(finite) ? scoreOf(tod) : null;
  const gain = modelGain(y, f, persistence, mean, fromTraining, t, input.timeKind, tod);
  return {
    time_of_day: todScore,
    model_gain: gain,
    limit,
    warning,
    horizon,
    model,
    persistence: baseline,
    mean: meanScore,
    verdict: verdictOf(horizon, model, baseline, meanScore, fromTraining ? "training" : "history", gain, todScore),
    interval: intervalCheck(input, model, stored, warning),
    events: eventsOf(input, limit, warning, horizon),
    mean_source: fromTraining ? "training" : "history",
    probability: chances && events ? chanceCheck(chances, f, events, limit, input.baseRate, t, input.timeKind, horizon) : null,
  };
}

/** D108 (e): the version's time-of-day means at the scored rows' hours (the rows the model scores), where the version
 *  keeps them and the rows carry date-times; undefined otherwise, or where an hour scored has none. */
function timeOfDayOf(input: BacktestInput, t: Float64Array | undefined, f: Float64Array, aheadMs: number): Float64Array | undefined {
  if (!input.timeOfDay || !t || input.timeKind !== "datetime") return undefined;
  const tod = timeOfDayForecast(input.timeOfDay, t, aheadMs);
  for (let k = 0; k < tod.length; k++) {
    if (!finite(f[k])) tod[k] = Number.NaN;
    else if (!finite(tod[k])) return undefined;
  }
  return tod;
}

/** The chances' check on the rows the model's forecast is scored on (`f` finite), against each row's event (D108 a:
 *  the window's maximum ahead, the row's own value at 0), its bootstrap over days (D108 b). */
function chanceCheck(
  chances: Float64Array,
  f: Float64Array,
  events: Float64Array,
  limit: number,
  baseRate: number | undefined,
  t: Float64Array | undefined,
  timeKind: TimeKind | undefined,
  horizon: number,
): ProbabilityCheck | null {
  return probabilityCheck(
    chances.map((p, k) => (finite(f[k]) ? p : Number.NaN)),
    events,
    limit,
    baseRate,
    { time: t && timeKind ? t : undefined, span: timeKind === "step" ? 144 : undefined, horizon },
  );
}

/** The event table of a back-test's rows with date-times (none for step numbers or rows without a time). */
function eventsOf(input: BacktestInput, limit: number, warning: number, horizon: number): EventTable | null {
  if (!input.time || input.timeKind !== "datetime") return null;
  return eventTable({ measured: input.measured, issued: input.predicted, time: input.time, horizon, level: limit, warning });
}

function intervalCheck(input: BacktestInput, model: ForecastScore, stored: ForecastScore | null, warning: number): IntervalCheck | null {
  if (model.coverage === null) return null;
  const method = input.intervalMethod ?? "split";
  const level = input.level ?? 90;
  const check: Omit<IntervalCheck, "sentence"> = {
    method,
    level,
    coverage: model.coverage,
    high_coverage: model.high_coverage,
    near_limit: nearLimit(model.high_coverage, level, model.limit_coverage),
    limit_coverage: model.limit_coverage ?? null,
    stored: stored && { coverage: stored.coverage, recent_coverage: stored.recent_coverage, high_coverage: stored.high_coverage },
  };
  return { ...check, sentence: intervalSentence(check, warning, input.limit ?? METHANE_LIMIT_PERCENT) };
}

/** «Интервал 90 % (конформный по уровню прогноза, подстроенный по фактам истории) накрыл факт в 89,9 % строк, в 90,1 % строк с прогнозом от 0,8 %, в 88,7 % из 309 строк с фактом от 1 %; калибровка без подстройки — в 82,5 %»; with fewer than LIMIT_COVERAGE_ROWS facts at the limit it says so. */
export function intervalSentence(check: Omit<IntervalCheck, "sentence">, warning: number, limit = METHANE_LIMIT_PERCENT): string {
  const share = (v: number) => `${percent(v * 100, 1)} %`;
  let text = `Интервал ${check.level} % (${INTERVAL_METHOD_LABEL[check.method]}) накрыл факт в ${share(check.coverage ?? 0)} строк`;
  if (check.high_coverage) text += `, в ${share(check.high_coverage.coverage)} строк с прогнозом от ${percent(warning, 1)} %`;
  const atLimit = check.limit_coverage;
  const level = limit.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  if (atLimit && atLimit.rows >= LIMIT_COVERAGE_ROWS) {
    text += `, в ${share(atLimit.coverage)} из ${atLimit.rows} строк с фактом от ${level} %`;
  } else if (atLimit) {
    text += `; о покрытии на пределе судить рано: строк с фактом от ${level} % ${atLimit.rows}, нужно не меньше ${LIMIT_COVERAGE_ROWS} (накрыто ${share(atLimit.coverage)})`;
  }
  if (check.stored?.coverage != null) text += `; калибровка без подстройки — в ${share(check.stored.coverage)}`;
  const near = check.near_limit && nearLimitNote(check.near_limit, check.level, warning, limit);
  return near ? `${text}. ${near}` : text;
}

const percent = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace(/\s/g, "\u00a0");

const FORECAST_NAMES: Record<ShownForecast, { nominative: string; genitive: string; dative: string; instrumental: string }> = {
  model: { nominative: "модель", genitive: "модели", dative: "модели", instrumental: "с моделью" },
  persistence: {
    nominative: "инерционный прогноз",
    genitive: "инерционного прогноза",
    dative: "инерционному прогнозу",
    instrumental: "с инерционным прогнозом",
  },
  mean: {
    nominative: "среднее за период обучения",
    genitive: "среднего за период обучения",
    dative: "среднему за период обучения",
    instrumental: "со средним за период обучения",
  },
  time_of_day: {
    nominative: "среднее по времени суток",
    genitive: "среднего по времени суток",
    dative: "среднему по времени суток",
    instrumental: "со средним по времени суток",
  },
};
/** «a», «a и b», «a, b и c». */
const listed = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} и ${items[items.length - 1]}`);
const HISTORY_MEAN = { nominative: "среднее по истории", genitive: "среднего по истории" };

/**
 * The back-test's verdict naming all three (at 6 h the model lost to the training mean and
 * the verdict, comparing it with persistence alone, read «модель точнее»): «На горизонте 1 ч модель точнее
 * инерционного прогноза и среднего за период обучения: RMSE 0,1730 % против 0,1820 % и 0,2100 % (ошибка на
 * 4,9 % меньше, чем у инерционного прогноза)»; where the model is not the best, how much larger its error is.
 */
export function verdictOf(
  horizon: number,
  model: ForecastScore,
  persistence: ForecastScore,
  mean: ForecastScore,
  meanSource: "training" | "history" = "training",
  gain?: ModelGain | null,
  timeOfDay?: ForecastScore | null,
): string {
  const where = `На горизонте ${horizonLabel(horizon)}`;
  const names = { ...FORECAST_NAMES, mean: meanSource === "training" ? FORECAST_NAMES.mean : HISTORY_MEAN };
  const scored = (
    [
      ["model", model.rmse],
      ["persistence", persistence.rmse],
      ["mean", mean.rmse],
      ["time_of_day", timeOfDay?.rmse ?? null],
    ] as Array<[ShownForecast, number | null]>
  ).filter((e): e is [ShownForecast, number] => e[1] !== null);
  if (model.rmse === null || scored.length < 2)
    return `${where} сравнить модель с инерционным прогнозом и средним не на чем: нет строк с фактом`;
  // Stable: on a tie the model first, then persistence.
  const ranked = scored.slice().sort((a, b) => a[1] - b[1]);
  const [best, ...rest] = ranked;
  const rmse = (v: number) => `${percent(v, 4)} %`;
  const by = (low: number, high: number) => percent(high > 0 ? ((high - low) / high) * 100 : 0, 1);
  const tied = rest.filter((r) => r[1] === best[1]);
  let text: string;
  if (tied.length > 0) {
    const same = [best, ...tied].map(([name]) => names[name].nominative).join(" и ");
    const others = rest.filter((r) => r[1] !== best[1]);
    text = `${where} ${same} одинаково точны: RMSE ${rmse(best[1])}`;
    if (others.length > 0) text += `, у ${names[others[0][0]].genitive} ${rmse(others[0][1])}`;
  } else {
    const against = listed(rest.map(([name]) => names[name].genitive));
    text =
      `${where} ${names[best[0]].nominative} точнее ${against}: RMSE ${rmse(best[1])} против ${listed(rest.map(([, v]) => rmse(v)))}` +
      ` (ошибка на ${by(best[1], rest[0][1])} % меньше, чем у ${names[rest[0][0]].genitive})`;
  }
  if (best[0] !== "model" && model.rmse > best[1]) {
    text += `; ошибка модели на ${percent(((model.rmse - best[1]) / best[1]) * 100, 1)} % больше`;
  }
  // D96 (d): «точнее» only where the advantage holds in the day-block bootstrap.
  const rmseOf = (name: ShownForecast) =>
    name === "mean" ? mean.rmse : name === "time_of_day" ? (timeOfDay?.rmse ?? null) : name === "model" ? model.rmse : persistence.rmse;
  const baselineRmse = gain ? rmseOf(gain.baseline) : null;
  if (best[0] !== "model" && gain && !gain.holds && baselineRmse !== null && model.rmse <= baselineRmse) {
    text += `; модель точнее ${names[gain.baseline].genitive} без уверенности: ${gainInterval(gain)} — модель на этом горизонте ничего не добавляет`;
  }
  if (best[0] === "model" && gain && !gain.holds) {
    const against = rmseOf(gain.baseline);
    text =
      `${where} модель не точнее ${names[gain.baseline].genitive} с уверенностью: RMSE ${rmse(best[1])} против ` +
      `${rmse(against ?? best[1])}, ${gainInterval(gain)} — модель на этом горизонте ничего не добавляет`;
  }
  return text;
}

// Excel keeps a date-time as days since 1899-12-30; a date cell read as a number lands in this range.
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const EXCEL_SERIALS = { min: 20_000, max: 80_000 };

/** A row's time as stored: a date-time of the rows' clock (ISO, no zone) or a step number. */
export type RowTime = string | number;

/** Milliseconds of an ISO wall-clock date-time (no zone: read as UTC, so shifts fall on the rows' own clock; a trained
 *  model's validation rows carry the UTC «Z» already). */
export const timeMs = (iso: string): number => Date.parse(iso.endsWith("Z") ? iso : `${iso}Z`);

const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * A row's time as written: «01.01.2025 08:10[:00]», «2025-01-01 08:10», «2025-01-01T08:10:00», a
 * date alone, or an Excel date-time cell (a number with a fraction in Excel's date range) → the
 * ISO date-time; a whole number → a step number. Undefined when it is none of these.
 */
export function readRowTime(value: unknown): RowTime | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    if (Number.isInteger(value)) return value;
    if (value < EXCEL_SERIALS.min || value > EXCEL_SERIALS.max) return undefined;
    // To the second: Excel's fractions of a day carry float noise.
    return isoOf(EXCEL_EPOCH_MS + Math.round(value * (DAY_MS / 1000)) * 1000);
  }
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^-?\d+$/.test(text)) return Number(text);
  if (/^\d+[.,]\d+$/.test(text)) return readRowTime(Number(text.replace(",", ".")));
  const parts =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text) ??
    /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!parts) return undefined;
  const [y, mo, d] = parts[1].length === 4 ? [parts[1], parts[2], parts[3]] : [parts[3], parts[2], parts[1]];
  const [h, mi, s] = [parts[4] ?? "0", parts[5] ?? "0", parts[6] ?? "0"].map(Number);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), h, mi, s);
  const iso = isoOf(ms);
  // 31.02.2025 rolls over to March: not a real date.
  return iso.slice(0, 10) === `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}` ? iso : undefined;
}

/** The times of rows as the back-test takes them: all date-times or all step numbers, else none. */
export function rowTimes(times: ReadonlyArray<RowTime | null | undefined>): { time: Float64Array; timeKind: TimeKind } | undefined {
  const given = times.filter((t): t is RowTime => t !== null && t !== undefined);
  if (given.length === 0) return undefined;
  const kind: TimeKind = typeof given[0] === "string" ? "datetime" : "step";
  if (given.some((t) => (typeof t === "string") !== (kind === "datetime"))) return undefined;
  const time = Float64Array.from(times, (t) => (t === null || t === undefined ? Number.NaN : typeof t === "string" ? timeMs(t) : t));
  return { time, timeKind: kind };
}
