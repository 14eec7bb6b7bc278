// How far the chance of reaching the limit (p_exceed, conformal.ts) can be trusted: its Brier score
// on rows whose fact is known, against the Brier score of the base rate (the share of the
// calibration's rows at or above the limit, given to every row as its chance), and its reliability
// table (bins of the chance: rows, the mean chance, the share that reached the limit). A chance no
// better than the base rate is not a risk figure (at 6 h the shown chance scored 0,132
// against the base rate's 0,094, and rows shown 0,3–0,5 reached 1 % in 15 % of cases). Plain
// TypeScript, the same in the API and in the browser.
//
// D108 (a): the event is «any minute mean at or above the limit within the horizon» — the window's maximum
// (windowMaxTargets), at a horizon of 0 the row's own value: what an engineer reads «within the hour» as.
// D108 (b): one Brier score below the base rate's is not enough; the chance is judged better only where a
// day-block bootstrap's 90 % interval of (Brier − base Brier) lies below zero (`gain`) and no reliability bin
// with RELIABILITY_BIN_ROWS rows or more strays from its mean chance (a bin «0,1–0,2: predicted 0,146,
// observed 0,012» is not a chance to act on).
import { type Calibration, calibrate, levelExceedance } from "./conformal";
import { DAY_MS } from "../dates";
import { horizonLabel } from "./horizon";

/** Scored rows, and facts at or above the limit among them, from which the chance is judged (fewer:
 *  too early to say either way; with no fact at the limit any chance above 0 loses to a base rate near 0). */
export const PROBABILITY_CHECK_ROWS = 200;
export const PROBABILITY_CHECK_EVENTS = 20;
/** Bins of the reliability table: tenths of the chance, the last one closed at 1. */
export const RELIABILITY_BINS = 10;
/** D108 (b) [A]: a reliability bin is judged with this many rows or more; its observed share may stray from its
 *  mean chance by RELIABILITY_TOLERANCE plus 2,576 binomial standard deviations (99 %), no more. */
export const RELIABILITY_BIN_ROWS = 30;
export const RELIABILITY_TOLERANCE = 0.1;
/** D108 (b): the day-block bootstrap of (Brier − base Brier): resamples, level, fewest days, seed. */
export const CHANCE_GAIN_RESAMPLES = 2000;
export const CHANCE_GAIN_LEVEL = 90;
export const CHANCE_GAIN_MIN_BLOCKS = 2;
const CHANCE_GAIN_SEED = 108;
/** A day of rows without times (144 ten-minute rows), and of date-times in ms. */
const DAY_ROWS = 144;

/** D108 (a): the event a chance is of — the window's maximum ahead, or the row's own value at a horizon of 0. */
export type ChanceEvent = "window_max" | "value";

export interface ReliabilityBin {
  /** The bin holds chances from `from` up to `to` (the last one with `to` itself). */
  from: number;
  to: number;
  rows: number;
  /** The mean chance of its rows and the share of them whose fact reached the limit; null without rows. */
  mean_p: number | null;
  observed: number | null;
  /** D108 (b): whether the observed share agrees with the mean chance; null with fewer than RELIABILITY_BIN_ROWS rows. */
  holds?: boolean | null;
}

/** D108 (b): the day-block bootstrap's interval of (Brier − base Brier) on the scored rows. */
export interface ChanceGain {
  /** Brier − base Brier on all the rows. */
  difference: number;
  /** The CHANCE_GAIN_LEVEL % interval; null with fewer than CHANCE_GAIN_MIN_BLOCKS days. */
  lo: number | null;
  hi: number | null;
  blocks: number;
  /** The interval lies below zero. */
  holds: boolean;
}

export interface ProbabilityCheck {
  limit: number;
  /** Rows with a chance and a known fact. */
  rows: number;
  /** Of them, facts at or above the limit. */
  events: number;
  /** The base rate every row is given instead: the calibration's share of rows at or above the limit,
   *  else (a calibration stored before it was kept, or at another limit) the scored rows' own. */
  base_rate: number;
  base_source: "calibration" | "history";
  brier: number;
  base_brier: number;
  /** 1 − brier / base_brier; null where the base rate scores 0 (nothing to beat). */
  skill: number | null;
  /** Whether the chance is better than the base rate (a smaller Brier score); null with fewer than
   *  PROBABILITY_CHECK_ROWS rows or PROBABILITY_CHECK_EVENTS facts at the limit. */
  reliable: boolean | null;
  table: ReliabilityBin[];
  /** D108 (a): the event judged; absent in a check stored before it (the value at the target minute). */
  event?: ChanceEvent;
  /** Minutes ahead of the event's window (0: the row's own value). */
  horizon?: number;
  /** D108 (b): the bootstrap's interval of Brier − base Brier; absent in a check stored before it. */
  gain?: ChanceGain;
  /** What the check found, in one Russian sentence. */
  sentence: string;
}

const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** The share of `targets` (NaN: not measured) at or above `limit`; null with none measured. */
export function shareAtLimit(targets: ArrayLike<number>, limit: number): number | null {
  let rows = 0;
  let at = 0;
  for (let i = 0; i < targets.length; i++) {
    if (!finite(targets[i])) continue;
    rows += 1;
    if (targets[i] >= limit) at += 1;
  }
  return rows ? at / rows : null;
}

/**
 * The check of chances `p` (0 … 1, NaN: none) against the facts `targets` each was given for (NaN:
 * not measured): Brier score, the base rate's Brier score on the same rows and the reliability
 * table. `baseRate` absent: the scored rows' own share (which knows the answer: the harder bar).
 * Null without a row to score.
 */
export function probabilityCheck(
  p: ArrayLike<number>,
  targets: ArrayLike<number>,
  limit: number,
  baseRate?: number,
  options: ChanceCheckOptions = {},
): ProbabilityCheck | null {
  if (p.length !== targets.length) throw new Error("probabilityCheck: chances and facts differ in length");
  const chances: number[] = [];
  const outcomes: number[] = [];
  const at: number[] = [];
  const { time } = options;
  for (let i = 0; i < p.length; i++) {
    if (!finite(p[i]) || !finite(targets[i])) continue;
    chances.push(p[i]);
    outcomes.push(targets[i] >= limit ? 1 : 0);
    at.push(time && finite(time[i]) ? time[i] : i);
  }
  const rows = chances.length;
  if (rows === 0) return null;
  const events = outcomes.reduce((s, o) => s + o, 0);
  const base = finite(baseRate) ? baseRate : events / rows;
  let brier = 0;
  let baseBrier = 0;
  const sums = Array.from({ length: RELIABILITY_BINS }, () => ({ rows: 0, p: 0, events: 0 }));
  for (let i = 0; i < rows; i++) {
    brier += (chances[i] - outcomes[i]) ** 2;
    baseBrier += (base - outcomes[i]) ** 2;
    const bin = sums[Math.min(RELIABILITY_BINS - 1, Math.max(0, Math.floor(chances[i] * RELIABILITY_BINS)))];
    bin.rows += 1;
    bin.p += chances[i];
    bin.events += outcomes[i];
  }
  brier /= rows;
  baseBrier /= rows;
  const span = options.span ?? (time ? DAY_MS : DAY_ROWS);
  const gain = chanceGain(chances, outcomes, base, at, span);
  const table = sums.map((s, k) => {
    const mean = s.rows ? s.p / s.rows : null;
    const observed = s.rows ? s.events / s.rows : null;
    return {
      from: k / RELIABILITY_BINS,
      to: (k + 1) / RELIABILITY_BINS,
      rows: s.rows,
      mean_p: mean,
      observed,
      holds: binHolds(s.rows, mean, observed),
    };
  });
  const horizon = options.horizon ?? 0;
  const enough = rows >= PROBABILITY_CHECK_ROWS && events >= PROBABILITY_CHECK_EVENTS;
  const check: Omit<ProbabilityCheck, "sentence"> = {
    limit,
    rows,
    events,
    base_rate: base,
    base_source: finite(baseRate) ? "calibration" : "history",
    brier,
    base_brier: baseBrier,
    skill: baseBrier > 0 ? 1 - brier / baseBrier : null,
    reliable: enough ? gain.holds && table.every((bin) => bin.holds !== false) : null,
    table,
    event: horizon > 0 ? "window_max" : "value",
    horizon,
    gain,
  };
  return { ...check, sentence: probabilitySentence(check) };
}

export interface ChanceCheckOptions {
  /** Each row's time (ms of date-times, else steps): the bootstrap's days; absent: the rows' order. */
  time?: ArrayLike<number>;
  /** A day in `time`'s units (default: 86 400 000 with times, 144 rows without). */
  span?: number;
  /** Minutes ahead of the event's window (D108 a); 0 or absent: the row's own value. */
  horizon?: number;
}

/** D108 (b): a bin holds where its observed share is within RELIABILITY_TOLERANCE + 2,576 σ of its mean chance. */
function binHolds(rows: number, mean: number | null, observed: number | null): boolean | null {
  if (rows < RELIABILITY_BIN_ROWS || mean === null || observed === null) return null;
  const sigma = Math.sqrt((mean * (1 - mean)) / rows);
  return Math.abs(observed - mean) <= RELIABILITY_TOLERANCE + 2.576 * sigma;
}

/** A small seeded generator (mulberry32): the same draws on every host. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * D108 (b): the rows grouped in days counted from the first (`span` of `at`), resampled with replacement
 * CHANCE_GAIN_RESAMPLES times with a fixed seed, Brier − base Brier on each; `holds` where the upper end of its
 * CHANCE_GAIN_LEVEL % interval is below zero. Per day only three sums are kept, so a resample costs one draw a
 * day: 2 000 resamples of a week are 14 000 draws.
 */
export function chanceGain(
  chances: readonly number[],
  outcomes: readonly number[],
  base: number,
  at: readonly number[],
  span: number,
): ChanceGain {
  let origin = Number.POSITIVE_INFINITY;
  for (const t of at) if (t < origin) origin = t;
  const blocks = new Map<number, [number, number]>();
  let total = 0;
  for (let i = 0; i < chances.length; i++) {
    const key = Math.floor((at[i] - origin) / span);
    const sums = blocks.get(key) ?? [0, 0];
    const d = (chances[i] - outcomes[i]) ** 2 - (base - outcomes[i]) ** 2;
    sums[0] += 1;
    sums[1] += d;
    total += d;
    blocks.set(key, sums);
  }
  const days = [...blocks.values()];
  const difference = chances.length ? total / chances.length : 0;
  if (days.length < CHANCE_GAIN_MIN_BLOCKS) return { difference, lo: null, hi: null, blocks: days.length, holds: false };
  const random = seeded(CHANCE_GAIN_SEED);
  const draws = new Float64Array(CHANCE_GAIN_RESAMPLES);
  for (let b = 0; b < CHANCE_GAIN_RESAMPLES; b++) {
    let rows = 0;
    let sum = 0;
    for (let d = 0; d < days.length; d++) {
      const day = days[Math.floor(random() * days.length)];
      rows += day[0];
      sum += day[1];
    }
    draws[b] = sum / rows;
  }
  draws.sort();
  const tail = (100 - CHANCE_GAIN_LEVEL) / 200;
  const lo = draws[Math.floor(tail * (CHANCE_GAIN_RESAMPLES - 1))];
  const hi = draws[Math.ceil((1 - tail) * (CHANCE_GAIN_RESAMPLES - 1))];
  return { difference, lo, hi, blocks: days.length, holds: hi < 0 };
}

/**
 * D108 (a): each row's event fact — the largest of `values` over the rows after its time up to its time +
 * `aheadMs` (the window's maximum: any minute mean at or above the limit within the horizon shows in it), NaN
 * where the row at time + aheadMs is not measured; at 0 the row's own value. `time` in ms (absent: the rows'
 * order, `aheadMs` then in rows).
 */
export function windowMaxTargets(values: ArrayLike<number>, time: ArrayLike<number> | undefined, aheadMs: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n).fill(Number.NaN);
  if (!(aheadMs > 0)) {
    for (let i = 0; i < n; i++) out[i] = finite(values[i]) ? values[i] : Number.NaN;
    return out;
  }
  const at = (i: number) => (time ? time[i] : i);
  const order = Array.from({ length: n }, (_, i) => i)
    .filter((i) => finite(at(i)))
    .sort((a, b) => at(a) - at(b) || a - b);
  const measured = new Set<number>();
  for (const i of order) if (finite(values[i])) measured.add(at(i));
  // The window (t, t + ahead] in time order: a few rows to a few hundred, scanned forward from each row.
  for (let o = 0; o < order.length; o++) {
    const i = order[o];
    const end = at(i) + aheadMs;
    if (!measured.has(end)) continue;
    let max = Number.NEGATIVE_INFINITY;
    for (let r = o + 1; r < order.length && at(order[r]) <= end; r++) {
      const v = values[order[r]];
      if (finite(v) && v > max) max = v;
    }
    out[i] = max === Number.NEGATIVE_INFINITY ? Number.NaN : max;
  }
  return out;
}

const ru = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace(/\s/g, "\u00a0");

/** D108 (a): the event in words: «хотя бы одна минута от 1 % за 1 ч вперёд», at 0 «текущее значение от 1 %». */
export function chanceEventWords(horizon: number | undefined, limit: number): string {
  const at = limit.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  return horizon && horizon > 0 ? `хотя бы одна минута от ${at} % за ${horizonLabel(horizon)} вперёд` : `текущее значение от ${at} %`;
}

/** A signed figure with as many digits as tell `lo` from `hi` and from zero (D108, item f: never «+0,0000…+0,0000»). */
export function signedPair(lo: number, hi: number, least = 3): string {
  const largest = Math.max(Math.abs(lo), Math.abs(hi), 1e-12);
  let digits = Math.max(least, Math.min(6, Math.ceil(-Math.log10(largest)) + 1));
  while (digits < 6 && ru(Math.abs(lo), digits) === ru(Math.abs(hi), digits) && lo !== hi) digits += 1;
  const signed = (v: number) => `${v < 0 ? "−" : "+"}${ru(Math.abs(v), digits)}`;
  return `${signed(lo)}…${signed(hi)}`;
}

/** Why a judged chance is not better: the bootstrap's interval not below zero, or a bin that strays; null where it is. */
export function chanceFault(check: Pick<ProbabilityCheck, "gain" | "table" | "brier" | "base_brier">): string {
  const gain = check.gain;
  if (gain && !gain.holds) {
    if (gain.lo === null || gain.hi === null)
      return `преимущество перед долей не проверить: строк с фактом меньше чем за ${CHANCE_GAIN_MIN_BLOCKS} сут.`;
    return `разность Brier с долей ${signedPair(gain.lo, gain.hi)} (${CHANCE_GAIN_LEVEL} %, бутстреп по ${gain.blocks} сут.) не ниже нуля`;
  }
  const stray = check.table.find((bin) => bin.holds === false);
  if (stray && stray.mean_p !== null && stray.observed !== null) {
    return `в строках с вероятностью ${ru(stray.from, 1)}–${ru(stray.to, 1)} предсказано ${ru(stray.mean_p, 3)}, сбылось ${ru(stray.observed, 3)} (${stray.rows} строк)`;
  }
  return `Brier ${ru(check.brier, 3)} против ${ru(check.base_brier, 3)}`;
}

/** «Вероятность (хотя бы одна минута от 1 % за 1 ч вперёд) точнее доли таких случаев в калибровке: Brier 0,052 против 0,094 …, разность −0,012…−0,004 (90 %, бутстреп по 7 сут.)» or «… не точнее …: <why> — как риск не показывается». */
export function probabilitySentence(check: Omit<ProbabilityCheck, "sentence">): string {
  const what = `Вероятность (${chanceEventWords(check.horizon, check.limit)})`;
  const base = check.base_source === "calibration" ? "доли таких случаев в калибровке" : "доли таких случаев на этой истории";
  const figures = `Brier ${ru(check.brier, 3)} против ${ru(check.base_brier, 3)} (доля ${ru(check.base_rate * 100, 1)} %) на ${check.rows.toLocaleString("ru-RU").replace(/\s/g, "\u00a0")} строках с фактом`;
  if (check.reliable === null) {
    return (
      `О вероятности (${chanceEventWords(check.horizon, check.limit)}) судить рано: строк с фактом ${check.rows}, из них с событием ${check.events}; ` +
      `нужно не меньше ${PROBABILITY_CHECK_ROWS} и ${PROBABILITY_CHECK_EVENTS}`
    );
  }
  if (check.reliable) {
    const gain = check.gain;
    const interval =
      gain && gain.lo !== null && gain.hi !== null
        ? `; разность ${signedPair(gain.lo, gain.hi)} (${CHANCE_GAIN_LEVEL} %, бутстреп по ${gain.blocks} сут.)`
        : "";
    return `${what} точнее ${base}: ${figures}${interval}`;
  }
  return `${what} не точнее ${base}: ${chanceFault(check)} — как риск не показывается`;
}

/** The check's words for a screen where the chance is not shown: «Вероятность превышения не показывается: разность Brier с долей −0,0010…+0,0031 (90 %, бутстреп по 7 сут.) не ниже нуля». One line. */
export function unreliableNote(
  check: Pick<ProbabilityCheck, "brier" | "base_brier" | "base_source"> & Partial<Pick<ProbabilityCheck, "gain" | "table">>,
): string {
  return `Вероятность превышения не показывается: ${chanceFault({ table: [], ...check })}.`;
}

/** a chance not yet judged is not shown either: «Вероятность превышения не показывается: судить
 *  рано — строк с фактом 1 840, из них от предела 19; нужно не меньше 200 и 20». Without a check at all, it says so. */
export function tooEarlyNote(check: Pick<ProbabilityCheck, "rows" | "events"> | null | undefined): string {
  const what = check
    ? `строк с фактом ${check.rows.toLocaleString("ru-RU").replace(/\s/g, "\u00a0")}, из них от предела ${check.events}; нужно не меньше ${PROBABILITY_CHECK_ROWS} и ${PROBABILITY_CHECK_EVENTS}`
    : "её не с чем сравнить: нет строк с фактом";
  return `Вероятность превышения не показывается: судить рано — ${what}.`;
}

/** Why a calibration's chance at `limit` is not shown (null: it is — judged better than the base rate at that limit). */
export function calibrationChanceNote(check: ProbabilityCheck | null | undefined, limit: number): string | null {
  if (check && check.limit !== limit) {
    const at = check.limit.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
    return `Вероятность превышения не показывается: калибровка проверила её только для предела ${at} %.`;
  }
  if (check?.reliable === true) return null;
  return check?.reliable === false ? unreliableNote(check) : tooEarlyNote(check);
}

/** D108 (a): each forecast's chance of the event from the event's calibration (the window maxima's residuals about
 *  the forecast, by its level's bin), fitted once: the same for a row on every request. NaN where no forecast. */
export function eventChances(predicted: ArrayLike<number>, events: Calibration, limit: number): Float64Array {
  return Float64Array.from({ length: predicted.length }, (_, i) =>
    finite(predicted[i]) ? (levelExceedance(events, predicted[i], limit) ?? Number.NaN) : Number.NaN,
  );
}

/** D108 (a): the event's calibration kept with a version's: the window maxima's residuals about the forecast by level bin. */
export function eventCalibration(predicted: ArrayLike<number>, events: ArrayLike<number>): EventCalibration {
  const { rows, quantiles, residuals, bins, level_floor } = calibrate(predicted, events);
  return { rows, quantiles, residuals, bins, level_floor, ranges: {} };
}
export type EventCalibration = Calibration;

/**
 * The check a calibration stores (D108 a, b): its rows in time order split in two, the earlier half's
 * event calibration (eventCalibration: the window maxima `events` about the forecast) giving the later half's
 * chances, judged against the later half's events and the earlier half's share of them: what the calibration's
 * chance did on rows it had not seen. Null with too few rows for either half.
 */
export function calibrationProbability(
  predicted: ArrayLike<number>,
  events: ArrayLike<number>,
  limit: number,
  time?: ArrayLike<number>,
  ahead = 0,
): ProbabilityCheck | null {
  const n = predicted.length;
  const order = Array.from({ length: n }, (_, i) => i);
  if (time) order.sort((a, b) => (finite(time[a]) ? time[a] : Infinity) - (finite(time[b]) ? time[b] : Infinity) || a - b);
  const half = n >> 1;
  if (half === 0) return null;
  const pick = (source: ArrayLike<number>, part: number[]) => Float64Array.from(part, (i) => source[i]);
  const [early, late] = [order.slice(0, half), order.slice(half)];
  const earlyEvents = pick(events, early);
  const calibration = eventCalibration(pick(predicted, early), earlyEvents);
  if (calibration.rows === 0) return null;
  const chances = eventChances(pick(predicted, late), calibration, limit);
  return probabilityCheck(chances, pick(events, late), limit, shareAtLimit(earlyEvents, limit) ?? undefined, {
    time: time ? pick(time, late) : undefined,
    horizon: Math.round(ahead / 60_000),
  });
}
