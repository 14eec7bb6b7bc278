// How far the chance of reaching the limit (p_exceed, conformal.ts) can be trusted: its Brier score
// on rows whose fact is known, against the Brier score of the base rate (the share of the
// calibration's rows at or above the limit, given to every row as its chance), and its reliability
// table (bins of the chance: rows, the mean chance, the share that reached the limit). A chance no
// better than the base rate is not a risk figure (issue 99: at 6 h the shown chance scored 0,132
// against the base rate's 0,094, and rows shown 0,3–0,5 reached 1 % in 15 % of cases). Plain
// TypeScript, the same in the API and in the browser.
import { adaptiveIntervalColumns, calibrate, DEFAULT_INTERVAL_LEVEL } from "./conformal";

/** Scored rows, and facts at or above the limit among them, from which the chance is judged (fewer:
 *  too early to say either way; with no fact at the limit any chance above 0 loses to a base rate near 0). */
export const PROBABILITY_CHECK_ROWS = 200;
export const PROBABILITY_CHECK_EVENTS = 20;
/** Bins of the reliability table: tenths of the chance, the last one closed at 1. */
export const RELIABILITY_BINS = 10;

export interface ReliabilityBin {
  /** The bin holds chances from `from` up to `to` (the last one with `to` itself). */
  from: number;
  to: number;
  rows: number;
  /** The mean chance of its rows and the share of them whose fact reached the limit; null without rows. */
  mean_p: number | null;
  observed: number | null;
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
): ProbabilityCheck | null {
  if (p.length !== targets.length) throw new Error("probabilityCheck: chances and facts differ in length");
  const chances: number[] = [];
  const outcomes: number[] = [];
  for (let i = 0; i < p.length; i++) {
    if (!finite(p[i]) || !finite(targets[i])) continue;
    chances.push(p[i]);
    outcomes.push(targets[i] >= limit ? 1 : 0);
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
  const check: Omit<ProbabilityCheck, "sentence"> = {
    limit,
    rows,
    events,
    base_rate: base,
    base_source: finite(baseRate) ? "calibration" : "history",
    brier,
    base_brier: baseBrier,
    skill: baseBrier > 0 ? 1 - brier / baseBrier : null,
    reliable: rows < PROBABILITY_CHECK_ROWS || events < PROBABILITY_CHECK_EVENTS ? null : brier < baseBrier,
    table: sums.map((s, k) => ({
      from: k / RELIABILITY_BINS,
      to: (k + 1) / RELIABILITY_BINS,
      rows: s.rows,
      mean_p: s.rows ? s.p / s.rows : null,
      observed: s.rows ? s.events / s.rows : null,
    })),
  };
  return { ...check, sentence: probabilitySentence(check) };
}

const ru = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace(/\s/g, "\u00a0");

/** «Вероятность достичь предела 1 % точнее доли таких случаев в калибровке: Brier 0,052 против 0,094 на 1 200 строках с фактом» or «… не точнее … — как риск не показывается». */
export function probabilitySentence(check: Omit<ProbabilityCheck, "sentence">): string {
  const limit = check.limit.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  const base = check.base_source === "calibration" ? "доли таких случаев в калибровке" : "доли таких случаев на этой истории";
  const figures = `Brier ${ru(check.brier, 3)} против ${ru(check.base_brier, 3)} (доля ${ru(check.base_rate * 100, 1)} %) на ${check.rows.toLocaleString("ru-RU").replace(/\s/g, "\u00a0")} строках с фактом`;
  if (check.reliable === null) {
    return (
      `О вероятности достичь предела ${limit} % судить рано: строк с фактом ${check.rows}, из них от предела ${check.events}; ` +
      `нужно не меньше ${PROBABILITY_CHECK_ROWS} и ${PROBABILITY_CHECK_EVENTS} (Brier ${ru(check.brier, 3)} против ${ru(check.base_brier, 3)} у ${base})`
    );
  }
  if (check.reliable) return `Вероятность достичь предела ${limit} % точнее ${base}: ${figures}`;
  return `Вероятность достичь предела ${limit} % не точнее ${base}: ${figures} — как риск не показывается`;
}

/** The check's words for a screen where the chance is not shown: «вероятность превышения не точнее доли случаев в калибровке (Brier 0,132 против 0,094) — не показывается». */
export function unreliableNote(check: Pick<ProbabilityCheck, "brier" | "base_brier" | "base_source">): string {
  const base = check.base_source === "calibration" ? "доли случаев превышения в калибровке" : "доли случаев превышения на истории";
  return `Вероятность превышения не точнее ${base} (Brier ${ru(check.brier, 3)} против ${ru(check.base_brier, 3)}) — не показывается.`;
}

/** Issue 108, item 1: a chance not yet judged is not shown either: «Вероятность превышения не показывается: судить
 *  рано — строк с фактом 1 840, из них от предела 19; нужно не меньше 200 и 20». Without a check at all, it says so. */
export function tooEarlyNote(check: Pick<ProbabilityCheck, "rows" | "events"> | null | undefined): string {
  const what = check
    ? `строк с фактом ${check.rows.toLocaleString("ru-RU").replace(/\s/g, "\u00a0")}, из них от предела ${check.events}; нужно не меньше ${PROBABILITY_CHECK_ROWS} и ${PROBABILITY_CHECK_EVENTS}`
    : "её не с чем сравнить: нет строк с фактом";
  return `Вероятность превышения не показывается: судить рано, точнее ли она доли случаев превышения — ${what}.`;
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

/**
 * The check a calibration stores (issue 99): its rows in time order split in two, the earlier half
 * calibrating the later one's chances at `limit` as a forecast with facts gets them (updated on the
 * facts as they come), against the earlier half's share at the limit: what the calibration's
 * chance did on rows it had not seen. Null with too few rows for either half.
 */
export function calibrationProbability(
  predicted: ArrayLike<number>,
  targets: ArrayLike<number>,
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
  const earlyTargets = pick(targets, early);
  const calibration = calibrate(pick(predicted, early), earlyTargets);
  if (calibration.rows === 0) return null;
  const lateTargets = pick(targets, late);
  const chances = adaptiveIntervalColumns(pick(predicted, late), calibration, DEFAULT_INTERVAL_LEVEL, limit, {
    targets: lateTargets,
    time: time ? pick(time, late) : undefined,
    ahead,
  }).pExceed;
  return probabilityCheck(chances, lateTargets, limit, shareAtLimit(earlyTargets, limit) ?? undefined);
}
