// A generated longwall history for the forecast's tests and bench (not a test itself): 10-minute
// readings of the seven features, mean-reverting around a working longwall's values, and a known
// truth: the measured concentration is the model's forecast plus Gaussian noise of a known σ, so
// a calibrated interval's width and a row's chance of reaching the limit are known in advance.
import { predict, type GbdtModel } from "./wasm-forest";
import { seeded } from "./train";

export const HISTORY_FEATURES = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"] as const;
export const HISTORY_STEP_MS = 10 * 60 * 1000;
export const HISTORY_START_MS = Date.UTC(2025, 0, 1);

export interface LongwallHistory {
  /** Row-major, HISTORY_FEATURES order. */
  matrix: Float64Array;
  columns: Record<(typeof HISTORY_FEATURES)[number], Float64Array>;
  forecast: Float64Array;
  measured: Float64Array;
  /** Milliseconds of the rows' clock, 10 minutes apart. */
  time: Float64Array;
}

export { seeded };

export function gaussian(random: () => number): () => number {
  return () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** `rows` readings; y = model forecast + N(0, sigma²), cut at 0. */
export function longwallHistory(model: GbdtModel, rows: number, sigma: number, seed = 20260046): LongwallHistory {
  const normal = gaussian(seeded(seed));
  // An AR(1) process around `mean` with stationary deviation `sd`; `keep` is the share of the last
  // deviation kept each step (0.98 ≈ a few hours of memory at 10-minute steps).
  const process = (mean: number, sd: number, keep: number) => {
    let deviation = 0;
    const shock = sd * Math.sqrt(1 - keep * keep);
    return () => {
      deviation = keep * deviation + shock * normal();
      return mean + deviation;
    };
  };
  const air = process(1350, 180, 0.98);
  const drainageCh4 = process(35, 3, 0.99);
  const drainageFlow = process(105, 12, 0.97);
  const mineCh4 = process(0.5, 0.06, 0.99);
  const mineAir = process(17000, 700, 0.995);
  const width = HISTORY_FEATURES.length;
  const matrix = new Float64Array(rows * width);
  const time = new Float64Array(rows);
  let daily = 0;
  for (let r = 0; r < rows; r++) {
    const x1 = air();
    // x2 is the day's manual measurement: taken at the day's first reading, held all day.
    if (r % 144 === 0) daily = Math.round(x1 + 20 * normal());
    const x7 = drainageCh4();
    const x8 = drainageFlow();
    const row = [x1, daily, x7, x8, mineCh4(), mineAir(), (x7 * x8) / 100];
    matrix.set(row, r * width);
    time[r] = HISTORY_START_MS + r * HISTORY_STEP_MS;
  }
  const forecast = predict(model, matrix);
  const measured = Float64Array.from(forecast, (f) => Math.max(0, f + sigma * normal()));
  const columns = Object.fromEntries(
    HISTORY_FEATURES.map((name, c) => [name, Float64Array.from({ length: rows }, (_, r) => matrix[r * width + c])]),
  ) as LongwallHistory["columns"];
  return { matrix, columns, forecast, measured, time };
}
