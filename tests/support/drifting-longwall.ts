// A generated longwall history with drift and lagged dynamics, for the horizon tests and the bench
// (nobody's real data, no model in the loop): 10-minute readings on a regular clock, the seam's gas
// rising over the history, the methane inflow answering the drainage with a delay and the air flow
// reverting to its mean, so the readings at t tell something of y an hour later that y(t) alone
// does not. Sensor outages leave y empty in short runs (the rows stay, their readings too).
import { gaussian, seeded } from "@core/gbdt/longwall-history";

export const DRIFT_FEATURES = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"] as const;
export const DRIFT_STEP_MS = 10 * 60 * 1000;
export const DRIFT_START_MS = Date.UTC(2025, 0, 1);

export interface DriftingLongwall {
  /** Row-major readings, DRIFT_FEATURES order. */
  rows: Float64Array;
  /** Measured CH4 in the longwall's outgoing air, %; NaN during an outage. */
  y: Float64Array;
  /** Milliseconds, DRIFT_STEP_MS apart, no gaps. */
  time: Float64Array;
}

/** `count` rows; the seam's gas rises by `drift` (a share: 0.3 = 30 %) from the first row to the last. */
export function driftingLongwall(count: number, seed = 20260060, drift = 0.3): DriftingLongwall {
  const normal = gaussian(seeded(seed));
  const random = seeded(seed ^ 0x9e3779b9);
  const ar = (mean: number, sd: number, keep: number) => {
    let deviation = sd * normal();
    const shock = sd * Math.sqrt(1 - keep * keep);
    return () => {
      deviation = keep * deviation + shock * normal();
      return mean + deviation;
    };
  };
  const air = ar(1350, 160, 0.97);
  const drainageCh4 = ar(35, 8, 0.97);
  const drainageFlow = ar(105, 15, 0.98);
  const mineAir = ar(17000, 700, 0.995);
  const seamNoise = ar(0, 0.3, 0.995);
  const width = DRIFT_FEATURES.length;
  const rows = new Float64Array(count * width);
  const y = new Float64Array(count);
  const time = new Float64Array(count);
  // The methane inflow into the longwall's air, m³/min: it moves half the way each step towards what
  // the seam gives, which follows the drainage mixture's CH4 of an hour before (the gas reaches the
  // face an hour after the drainage sees it) less what the drainage takes.
  let inflow = 10;
  const LAG = 6;
  const pastX7: number[] = [];
  let daily = 1350;
  let outage = 0;
  for (let r = 0; r < count; r++) {
    const x1 = Math.max(700, air());
    if (r % 144 === 0) daily = Math.round(x1 + 25 * normal());
    const x7 = Math.min(60, Math.max(10, drainageCh4()));
    const x8 = Math.max(20, drainageFlow());
    const x15 = (x7 * x8) / 100;
    pastX7.push(x7);
    const leading = pastX7.length > LAG ? (pastX7.shift() as number) : x7;
    const seam = 12 * (1 + (drift * r) / count) * (leading / 35) + 0.8 * Math.sin((2 * Math.PI * r) / 72) + seamNoise();
    const target = Math.max(1, seam - 0.08 * (x15 - 36));
    inflow += 0.5 * (target - inflow) + 0.05 * normal();
    const mineCh4 = (0.35 + (0.2 * inflow) / 12) * (1 + 0.02 * normal());
    const trueY = (100 * inflow) / x1;
    if (outage === 0 && random() < 0.002) outage = 1 + Math.floor(random() * 6);
    y[r] = outage > 0 ? Number.NaN : Math.max(0, Math.round((trueY + 0.01 * normal()) * 10_000) / 10_000);
    if (outage > 0) outage -= 1;
    rows.set(
      [
        Math.round(x1 * 10) / 10,
        daily,
        Math.round(x7 * 100) / 100,
        Math.round(x8 * 100) / 100,
        Math.round(mineCh4 * 1000) / 1000,
        Math.round(mineAir()),
        Math.round(x15 * 1000) / 1000,
      ],
      r * width,
    );
    time[r] = DRIFT_START_MS + r * DRIFT_STEP_MS;
  }
  return { rows, y, time };
}
