// A forecast that looks ahead, on a generated longwall with drift and lagged dynamics: the lag
// columns and the shifted target as index arithmetic on the regular clock gives them, and the
// back-test at the same horizon as a plain loop over the rows computes it.
import { describe, expect, it } from "vitest";
import { DRIFT_FEATURES, DRIFT_STEP_MS, driftingLongwall } from "../../../tests/support/drifting-longwall";
import {
  backtest,
  historyStep,
  horizonLabel,
  horizonRefusal,
  horizonTrainingData,
  LAG_FEATURES,
  lagColumns,
  PRESSURE_FEATURES,
  pressureColumns,
  loadModel,
  possibleHorizons,
  predict,
  trainModel,
  trainParams,
  withLags,
} from "./index";
import { CHANGE_WEIGHT_PRIOR_ROWS, forecastAhead, fromPersistence } from "./horizon";
import { gaussian, seeded } from "./longwall-history";

const COUNT = 12_000;
const SPLIT = 8_400;
const history = driftingLongwall(COUNT);
const WIDTH = DRIFT_FEATURES.length;
const finite = Number.isFinite;

/** The lags by position: the clock is regular, so t − k steps is row i − k. */
function lagsByIndex(y: Float64Array, i: number) {
  const at = (k: number) => (i - k >= 0 ? y[i - k] : Number.NaN);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < 6; k++) {
    if (finite(at(k))) {
      sum += at(k);
      count += 1;
    }
  }
  // The rates over 10, 30 and 60 minutes: y(t) − y(t − 1, 3 and 6 steps).
  return [y[i], at(1), at(6), count ? sum / count : Number.NaN, y[i] - at(1), y[i] - at(3), y[i] - at(6)];
}

/** MAE and RMSE of forecasts issued at row i − k for row i, and of y(i − k), on the rows where all exist. */
function independentScores(forecast: Float64Array, y: Float64Array, from: number, k: number) {
  let n = 0;
  const sums = { model: [0, 0], persistence: [0, 0] };
  for (let i = from + k; i < y.length; i++) {
    const f = forecast[i - k];
    const p = y[i - k];
    if (!finite(y[i]) || !finite(f) || !finite(p)) continue;
    n += 1;
    sums.model[0] += Math.abs(y[i] - f);
    sums.model[1] += (y[i] - f) ** 2;
    sums.persistence[0] += Math.abs(y[i] - p);
    sums.persistence[1] += (y[i] - p) ** 2;
  }
  return {
    n,
    model: { mae: sums.model[0] / n, rmse: Math.sqrt(sums.model[1] / n) },
    persistence: { mae: sums.persistence[0] / n, rmse: Math.sqrt(sums.persistence[1] / n) },
  };
}

describe("horizons on a drifting longwall", () => {
  it("reads the step from the clock and allows the horizons that are whole steps", () => {
    expect(historyStep(history.time)).toBe(DRIFT_STEP_MS);
    expect(possibleHorizons(DRIFT_STEP_MS)).toEqual([10, 30, 60, 120, 360]);
    expect(possibleHorizons(20 * 60_000)).toEqual([60, 120, 360]);
    expect(horizonRefusal(30, 20 * 60_000)).toBe("горизонт 30 мин не кратен шагу истории 20 мин: возможны 1 ч, 2 ч, 6 ч");
    expect(horizonRefusal(60, undefined)).toMatch(/нужны столбец «Время»/);
    expect(horizonRefusal(45, DRIFT_STEP_MS)).toMatch(/допустимы 10 мин, 30 мин, 1 ч, 2 ч, 6 ч/);
    expect(horizonLabel(120)).toBe("2 ч");
  });

  it("builds y(t), y(t − step), y(t − 1 h), the hour's mean and the change over 10, 30 and 60 min as index arithmetic does, gaps and outages included", () => {
    const lags = lagColumns(history.y, history.time, DRIFT_STEP_MS);
    expect(history.y.some((v) => !finite(v))).toBe(true);
    // The cells that differ, gathered for one assertion: an expect per cell (84 000) was most of the file's time.
    const differing: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const expected = lagsByIndex(history.y, i);
      LAG_FEATURES.forEach((name, k) => {
        if (!Object.is(lags[name][i], expected[k]) && lags[name][i] !== expected[k])
          differing.push(`${name}[${i}]: ${lags[name][i]} ≠ ${expected[k]}`);
      });
    }
    expect(differing).toEqual([]);
    // A missing row (a gap in the clock) is a missing lag, never the row before it.
    const time = Float64Array.from([0, 1, 2, 4, 5, 6, 7], (k) => k * DRIFT_STEP_MS);
    const gap = lagColumns(Float64Array.from([1, 2, 3, 5, 6, 7, 8]), time, DRIFT_STEP_MS);
    expect(Number.isNaN(gap.y_prev[3])).toBe(true);
    expect(gap.y_prev[4]).toBe(5);
    // The hour before 70 min: 70, 60, 50, 40 and 20 min (30 min is the gap).
    expect(gap.y_mean_1h[6]).toBe((8 + 7 + 6 + 5 + 3) / 5);
    // The change over 30 min at 50 min is y(50) − y(20); over 10 min at 40 min none (no row at 30 min); over 1 h at 70 min y(70) − y(10).
    expect(gap.dy_30m[4]).toBe(6 - 3);
    expect(Number.isNaN(gap.dy_10m[3])).toBe(true);
    expect(gap.dy_60m[6]).toBe(8 - 2);
  });

  it("reads the barometric pressure and its change over the hour by the rows' time where the history has it", () => {
    const time = Float64Array.from([0, 1, 2, 4, 5, 6, 7], (k) => k * DRIFT_STEP_MS);
    const pressure = Float64Array.from([98, 97.9, Number.NaN, 97.5, 97.4, 97.2, 97]);
    const columns = pressureColumns(pressure, time);
    expect(Array.from(columns.p_atm.subarray(0, 2))).toEqual([98, 97.9]);
    // At 60 min the hour before is 0 min; at 70 min, 10 min; at 40 min nothing was an hour before.
    expect(columns.dp_atm_1h[5]).toBeCloseTo(97.2 - 98, 12);
    expect(columns.dp_atm_1h[6]).toBeCloseTo(97 - 97.9, 12);
    expect(Number.isNaN(columns.dp_atm_1h[3])).toBe(true);
    const data = { featureNames: [...DRIFT_FEATURES], rows: history.rows, y: history.y, t: history.time };
    const steady = Float64Array.from(history.y, (_, i) => 98 + 0.001 * i);
    const withPressure = horizonTrainingData(data, 60, steady).data;
    expect(withPressure.featureNames).toEqual([...DRIFT_FEATURES, ...LAG_FEATURES, ...PRESSURE_FEATURES]);
    const width = withPressure.featureNames.length;
    const first = [...Array(COUNT).keys()].find((i) => i + 6 < COUNT && finite(history.y[i + 6]) && finite(history.y[i]))!;
    expect(withPressure.rows[width - 2]).toBe(steady[first]);
    // Without a pressure, or a column with none, the model reads none; nor does the nowcast.
    expect(horizonTrainingData(data, 60).data.featureNames).toEqual([...DRIFT_FEATURES, ...LAG_FEATURES]);
    expect(horizonTrainingData(data, 60, new Float64Array(COUNT).fill(Number.NaN)).data.featureNames).toHaveLength(width - 2);
    expect(horizonTrainingData(data, 0, steady).data.featureNames).toEqual([...DRIFT_FEATURES]);
  });

  it("trains on y(t + h) − y(t), skipping and counting the rows without it", () => {
    const data = { featureNames: [...DRIFT_FEATURES], rows: history.rows, y: history.y, t: history.time };
    const { data: ahead, skipped } = horizonTrainingData(data, 60);
    let expectedSkipped = 0;
    for (let i = 0; i < COUNT; i++) if (i + 6 >= COUNT || !finite(history.y[i + 6]) || !finite(history.y[i])) expectedSkipped += 1;
    expect(skipped).toBe(expectedSkipped);
    expect(ahead.featureNames).toEqual([...DRIFT_FEATURES, ...LAG_FEATURES]);
    expect(ahead.y.length).toBe(COUNT - skipped);
    const first = [...Array(COUNT).keys()].find((i) => i + 6 < COUNT && finite(history.y[i + 6]) && finite(history.y[i]))!;
    expect(ahead.y[0]).toBe(history.y[first + 6] - history.y[first]);
    expect(Array.from(ahead.rows.subarray(WIDTH, WIDTH + LAG_FEATURES.length))).toEqual(
      lagsByIndex(history.y, first).map((v) => (finite(v) ? v : Number.NaN)),
    );
    expect(() => horizonTrainingData({ ...data, t: null }, 60)).toThrow(/нужны столбец «Время»/);
  });

  for (const [horizon, steps] of [
    [10, 1],
    [60, 6],
  ] as const) {
    it(`back-tests at ${horizonLabel(horizon)} as a plain loop does; the 1 h model with lags beats persistence`, async () => {
      const train = {
        featureNames: [...DRIFT_FEATURES],
        rows: history.rows.subarray(0, SPLIT * WIDTH),
        y: history.y.subarray(0, SPLIT),
        t: history.time.subarray(0, SPLIT),
      };
      const result = await trainModel(horizonTrainingData(train, horizon).data, trainParams({ n_estimators: 150 }));
      const model = await loadModel(result.json);
      expect(model.horizon).toBe(0); // the horizon is written by the caller (training.ts), not the trainer
      const lagged = withLags(history.rows, WIDTH, lagColumns(history.y, history.time, DRIFT_STEP_MS));
      const forecast = forecastAhead(predict(model, lagged, [...DRIFT_FEATURES, ...LAG_FEATURES]), history.y);
      const tail = (a: Float64Array) => a.subarray(SPLIT);
      const check = backtest({
        measured: tail(history.y),
        predicted: tail(forecast),
        time: tail(history.time),
        timeKind: "datetime",
        horizon,
      });
      const expected = independentScores(forecast, history.y, SPLIT, steps);
      expect(check.horizon).toBe(horizon);
      expect(check.model.rows).toBe(expected.n);
      expect(check.persistence.rows).toBe(expected.n);
      expect(check.mean.rows).toBe(expected.n);
      expect(check.model.mae).toBeCloseTo(expected.model.mae, 12);
      expect(check.model.rmse).toBeCloseTo(expected.model.rmse, 12);
      expect(check.persistence.mae).toBeCloseTo(expected.persistence.mae, 12);
      expect(check.persistence.rmse).toBeCloseTo(expected.persistence.rmse, 12);
      if (horizon === 60) {
        expect(check.model.rmse!).toBeLessThan(check.persistence.rmse!);
        expect(check.verdict).toMatch(
          /^На горизонте 1 ч модель точнее инерционного прогноза и среднего по истории: RMSE 0,\d{4} % против 0,\d{4} % и 0,\d{4} % \(ошибка на \d+,\d % меньше, чем у инерционного прогноза\)$/,
        );
      }
    });
  }

  it("gives a caught exceedance's lead time from when the forecast was issued, one horizon before its target", () => {
    const time = Float64Array.from({ length: 6 }, (_, k) => k * DRIFT_STEP_MS);
    // Forecasts issued at rows 0…5 for rows 1…6; the measured y crosses 1 % at row 3.
    const check = backtest({
      measured: [0.5, 0.6, 0.7, 1.1, 1.2, 0.6],
      predicted: [0.5, 0.9, 1.0, 0.7, 0.5, 0.5],
      time,
      timeKind: "datetime",
      horizon: 10,
    });
    // The warning for rows 2 and 3 was issued at rows 1 and 2: it began at 10 min, the onset is at 30 min.
    expect(check.model.lead_time).toMatchObject({ median: 20, unit: "min", onsets: 1, warned: 1 });
    expect(check.model.rows).toBe(5);
  });

  describe("a forecast that starts from persistence", () => {
    // A random walk of 2 000 ten-minute rows whose 1 h change a «model» knows (its change is the
    // measured one) or does not (its change is noise of the same size).
    const n = 2_000;
    const normal = gaussian(seeded(76));
    const y = new Float64Array(n);
    for (let i = 1; i < n; i++) y[i] = y[i - 1] + 0.01 * normal();
    const time = Float64Array.from({ length: n }, (_, k) => k * DRIFT_STEP_MS);
    const ahead = 6 * DRIFT_STEP_MS;
    const known = Float64Array.from(y, (v, i) => (i + 6 < n ? y[i + 6] - v : 0));
    const noise = Float64Array.from(y, () => 0.025 * normal());
    const rmse = (forecast: Float64Array) => {
      let sum = 0;
      for (let i = 0; i + 6 < n; i++) sum += (y[i + 6] - forecast[i]) ** 2;
      return Math.sqrt(sum / (n - 6));
    };
    const persistence = rmse(y);

    it("a platform model's change that the history does not bear out gives the last reading: weight 0, no worse than persistence", () => {
      const { forecast, weight } = fromPersistence(noise, y, time, ahead, DRIFT_STEP_MS);
      expect(weight[0]).toBe(0);
      expect(weight.filter((w) => w > 0).length).toBeLessThan(n / 20);
      expect(rmse(forecast)).toBeLessThanOrEqual(persistence * 1.001);
      // Its own change added in full is far worse.
      expect(rmse(forecastAhead(noise, y))).toBeGreaterThan(persistence * 1.3);
    });

    it("a change the history bears out is taken as its evidence grows, never from a fact not yet measured", () => {
      const { forecast, weight } = fromPersistence(known, y, time, ahead, DRIFT_STEP_MS);
      // Nothing is measured before the first hour's targets: the last reading.
      expect(Array.from(weight.subarray(0, 7))).toEqual([0, 0, 0, 0, 0, 0, 0]);
      expect(weight[n - 1]).toBeGreaterThan(0.95);
      expect(rmse(forecast)).toBeLessThan(persistence * 0.2);
      // Row 1 000's weight reads the targets measured up to its time (those of the rows issued up to
      // 1 h before it), none later.
      const changed = y.slice();
      for (let i = 1_001; i < n; i++) changed[i] += 1;
      const again = fromPersistence(known, changed, time, ahead, DRIFT_STEP_MS).weight;
      expect(again[1_000]).toBe(weight[1_000]);
      expect(again[1_007]).not.toBe(weight[1_007]);
    });

    it("a company's own model keeps its change until the history shows it too large", () => {
      const own = fromPersistence(noise, y, time, ahead, DRIFT_STEP_MS, 1).weight;
      expect(own[0]).toBe(1);
      // After n rows of evidence that the change is worth about 0, its weight is about P / (n + P).
      expect(own[n - 1]).toBeCloseTo(CHANGE_WEIGHT_PRIOR_ROWS / (n - 7 + CHANGE_WEIGHT_PRIOR_ROWS), 1);
      expect(fromPersistence(known, y, time, ahead, DRIFT_STEP_MS, 1).weight.every((w) => w > 0.95)).toBe(true);
    });
  });
});
