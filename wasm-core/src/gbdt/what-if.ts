// What-if along one feature and the air needed: one row of a longwall's readings, forecast again
// with one reading changed, with the calibrated interval and the chance of reaching the limit; and
// the least air flow x1 in the calibration's observed range at which the forecast's upper bound
// stays below the limit. Runs wherever the model runs (API and browser).
import { binHalfWidth, halfWidth, interval, levelBin, levelExceedance, type Calibration, type IntervalLevel } from "./conformal";
import { CATEGORICAL, LEAF } from "./model";
import { predict, type GbdtModel } from "./wasm-forest";

/** The feature air_needed varies: the air flow in the longwall's outgoing stream (from the АГК). */
export const AIR_FEATURE = "x1";
export const MAX_WHAT_IF_STEPS = 1000;

export type FeatureRow = Record<string, number | null | undefined>;

export interface WhatIfPoint {
  value: number;
  result: number;
  lo: number | null;
  hi: number | null;
  p_exceed: number | null;
}

/** Forecasts of `row` with `feature` set to each of `values` (one batch through the model). */
function forecastAlong(
  model: GbdtModel,
  row: FeatureRow,
  feature: string,
  values: readonly number[],
  calibration: Calibration | null,
  level: IntervalLevel,
  limit: number,
): WhatIfPoint[] {
  const names = model.featureNames;
  const column = names.indexOf(feature);
  const width = names.length;
  const matrix = new Float64Array(values.length * width);
  values.forEach((value, r) => {
    names.forEach((name, c) => {
      const v = row[name];
      matrix[r * width + c] = c === column ? value : typeof v === "number" ? v : Number.NaN;
    });
  });
  const predictions = predict(model, matrix);
  return values.map((value, i) => {
    const result = predictions[i];
    if (!calibration) return { value, result, lo: null, hi: null, p_exceed: null };
    // Each point's interval from the bin of its own forecast's level, as a forecast's row gets it.
    return {
      value,
      result,
      ...interval(result, binHalfWidth(calibration, levelBin(calibration, result), level, result)),
      // D108 (a): the chance of the calibration's event (any minute at or above the limit within the horizon) where it
      // keeps one, as a forecast's row gets it.
      p_exceed: levelExceedance(chanceCalibration(calibration), result, limit),
    };
  });
}

/** D108 (a): the calibration a chance is read from — its event's (eventCalibration) where it keeps one. */
function chanceCalibration(calibration: Calibration & { event?: Omit<Calibration, "ranges"> }): Calibration {
  return calibration.event ? { ...calibration.event, ranges: {} } : calibration;
}

/** The forecast along `feature` from `from` to `to` in `steps` equal steps (steps + 1 points). */
export function whatIf(
  model: GbdtModel,
  row: FeatureRow,
  vary: { feature: string; from: number; to: number; steps: number },
  calibration: Calibration | null,
  level: IntervalLevel,
  limit: number,
): WhatIfPoint[] {
  const { feature, from, to, steps } = vary;
  if (!Number.isInteger(steps) || steps < 1 || steps > MAX_WHAT_IF_STEPS) {
    throw new RangeError(`steps: целое число от 1 до ${MAX_WHAT_IF_STEPS}`);
  }
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError("from, to: ожидаются числа");
  const values = Array.from({ length: steps + 1 }, (_, i) => (i === steps ? to : from + ((to - from) * i) / steps));
  return forecastAlong(model, row, feature, values, calibration, level, limit);
}

/** The smallest double above x (the first value a LightGBM split `x ≤ t` sends right). */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, x > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/**
 * The values of `feature` in [min, max] at which the model's forecast can change, ascending: min,
 * and the first value past each of the model's split thresholds on it inside the range. Between
 * two of them every forecast is the same, so they are the whole range's steps.
 */
export function featureSteps(model: GbdtModel, feature: string, min: number, max: number): number[] {
  const { forest, featureNames } = model;
  const index = featureNames.indexOf(feature);
  const values = new Set<number>([min]);
  if (index >= 0) {
    for (let node = 0; node < forest.nodeFlags.length; node++) {
      const flags = forest.nodeFlags[node];
      if (flags & (LEAF | CATEGORICAL) || forest.nodeFeature[node] !== index) continue;
      const threshold = forest.nodeThreshold[node];
      // XGBoost goes right when x ≥ t (x rounded to float32, t is a float32); LightGBM when x > t.
      const first = forest.leftWhenEqual ? nextUp(threshold) : threshold;
      if (first > min && first <= max) values.add(first);
    }
  }
  return [...values].sort((a, b) => a - b);
}

export type AirNeeded =
  | { reachable: true; value: number; at: WhatIfPoint; below: WhatIfPoint | null; range: [number, number] }
  | { reachable: false; value: null; at: WhatIfPoint; below: null; range: [number, number] };

/**
 * The model's answer, shown beside the formula's (airFormula): the least air flow x1 within the
 * calibration's observed range (and the user's, where given) from which the forecast's upper
 * bound (at `level`) stays below `limit` up to the range's end, with the forecast there (`at`) and
 * at the next lower step (`below`, whose upper bound reaches the limit); unreachable when even the
 * range's top does not bring it below (`at` is then the top).
 */
export function airNeeded(
  model: GbdtModel,
  row: FeatureRow,
  calibration: Calibration,
  level: IntervalLevel,
  limit: number,
  /** The user's range: searched only where it overlaps the observed one (the model knows nothing beyond). */
  within?: [number, number],
): AirNeeded {
  const observed = calibration.ranges[AIR_FEATURE];
  if (!observed) throw new RangeError("в калибровке нет наблюдаемого диапазона расхода воздуха");
  const range: [number, number] = within ? [Math.max(observed[0], within[0]), Math.min(observed[1], within[1])] : observed;
  if (range[0] > range[1]) throw new RangeError(`диапазон не пересекается с данными обучения (${observed[0]}–${observed[1]})`);
  if (halfWidth(calibration, level) === null) throw new RangeError(`в калибровке мало строк для интервала ${level} %`);
  const steps = featureSteps(model, AIR_FEATURE, range[0], range[1]);
  const points = forecastAlong(model, row, AIR_FEATURE, steps, calibration, level, limit);
  let first = points.length;
  while (first > 0 && (points[first - 1].hi as number) < limit) first -= 1;
  if (first === points.length) return { reachable: false, value: null, at: points[points.length - 1], below: null, range };
  return { reachable: true, value: points[first].value, at: points[first], below: first > 0 ? points[first - 1] : null, range };
}

/** What a what-if point outside the model's training (calibration) range is flagged with. */
export const OUTSIDE_TRAINING = "вне данных обучения";

/** Whether `value` of `feature` lies outside the range the calibration observed (no range: outside). */
export function outsideTraining(calibration: Calibration | null, feature: string, value: number): boolean {
  const range = calibration?.ranges[feature];
  return !range || value < range[0] || value > range[1];
}

export interface AirFormula {
  /** Methane inflow into the longwall's air, m³/min: measured, or y·x1/100. */
  inflow: number;
  inflow_source: "measured" | "concentration";
  /** The concentration the inflow was computed from (%), when it was. */
  concentration: number | null;
  /** CH4 in the intake air, %. */
  intake: number;
  limit: number;
  /** The interval's half-width at the confidence (%), as inflow: half-width · x1 / 100, m³/min. */
  margin: number;
  /** Q = 100·(q + margin) / (C_limit − C_in), m³/min; null when the intake is at or above the limit. */
  needed: number | null;
}

/**
 * The air the longwall needs by the ventilation formula Q = 100·q / (C_limit − C_in): q the methane
 * inflow (m³/min; measured, else y·x1/100 from the row's measured or forecast concentration y and
 * its air flow x1), C_in the intake air's CH4 (%), with the margin of the forecast's interval at the
 * confidence added to q (the half-width in % times x1 / 100).
 */
export function airFormula(input: {
  inflow?: number | null;
  concentration?: number | null;
  airFlow?: number | null;
  intake?: number;
  limit: number;
  halfWidth: number;
}): AirFormula {
  const intake = input.intake ?? 0;
  const x1 = input.airFlow;
  const measured = typeof input.inflow === "number" && Number.isFinite(input.inflow);
  if (!measured && !(typeof input.concentration === "number" && typeof x1 === "number")) {
    throw new RangeError("для притока метана нужны концентрация (y) и расход воздуха (x1) или измеренный приток");
  }
  const inflow = measured ? (input.inflow as number) : ((input.concentration as number) * (x1 as number)) / 100;
  const margin = typeof x1 === "number" ? (input.halfWidth * x1) / 100 : 0;
  const room = input.limit - intake;
  return {
    inflow,
    inflow_source: measured ? "measured" : "concentration",
    concentration: measured ? null : (input.concentration as number),
    intake,
    limit: input.limit,
    margin,
    needed: room > 0 ? (100 * (inflow + margin)) / room : null,
  };
}

export interface AirRecommendation {
  /** The air to recommend, m³/min: the larger of the formula's (with its margin) and the model's
   *  figure; null when neither gives one (the intake at or above the limit, the model unreachable). */
  value: number | null;
  /** Which of the two it is. */
  source: "formula" | "model" | null;
  /** The model's figure is below the formula's: it is no lower bound and is shown only beside it. */
  model_below_formula: boolean;
}

/**
 * The recommendation of the air needed: never less than the ventilation formula with its
 * margin; the model's figure raises it where the model asks for more, and is never offered as «not
 * less than» where it is below the formula.
 */
export function airRecommendation(
  formula: Pick<AirFormula, "needed">,
  model: Pick<AirNeeded, "reachable" | "value"> | undefined,
): AirRecommendation {
  const byModel = model?.reachable ? model.value : null;
  const byFormula = formula.needed;
  if (byFormula === null) return { value: null, source: null, model_below_formula: false };
  if (byModel !== null && byModel > byFormula) return { value: byModel, source: "model", model_below_formula: false };
  return { value: byFormula, source: "formula", model_below_formula: byModel !== null && byModel < byFormula };
}
