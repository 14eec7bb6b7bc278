// Four generated longwall histories for the forecast's bar, nobody's real data: 10-minute
// readings of the seven data columns the forecast reads and the measured CH4 in the longwall's
// outgoing air. «steady»: a face that does not change; «advancing»: the seam's gas release rising
// as the face advances; «events»: barometric pressure drops and roof falls pushing methane above
// 1 % for an hour or two; «faults»: the drainage's efficiency falling mid-series (more gas reaches
// the air) with stuck and empty sensor readings. Each is seeded, so a test sees the same rows. Each
// has a barometric pressure too (its own seeded stream, so the other columns are as they were without
// it), written only when asked: on the «events» longwall it falls by 0,4-0,8 kPa over the two hours
// before an event and recovers over the two after.
import { gaussian, seeded } from "@core/gbdt/longwall-history";
import { DRIFT_FEATURES, DRIFT_START_MS, DRIFT_STEP_MS, type DriftingLongwall } from "./drifting-longwall";

export const SCENARIOS = ["steady", "advancing", "events", "faults"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const PRESSURE_HEADER = "Барометрическое давление, кПа";

export const SCENARIO_HEADERS = [
  "Время",
  "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
  "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин",
  "Концентрация метана в каптируемой смеси, %",
  "Расход смеси, извлекаемой установкой, м³/мин",
  "Средняя концентрация CH4 в исходящей струе шахты, %",
  "Расход воздуха в исходящей струе шахты, м³/мин",
  "Расход метана, извлекаемого установкой, м³/мин",
  "Концентрация CH4 в исходящей струе лавы, факт, %",
];

/** `count` rows of the scenario, DRIFT_FEATURES order, from 01.01.2025 00:00. */
export function longwallScenario(kind: Scenario, count: number, seed = 76): DriftingLongwall & { pressure: Float64Array } {
  const normal = gaussian(seeded(seed * 7919 + SCENARIOS.indexOf(kind)));
  const random = seeded(seed * 104_729 + SCENARIOS.indexOf(kind));
  const ar = (mean: number, sd: number, keep: number) => {
    let deviation = sd * normal();
    const shock = sd * Math.sqrt(1 - keep * keep);
    return () => {
      deviation = keep * deviation + shock * normal();
      return mean + deviation;
    };
  };
  const air = ar(1400, 120, 0.96);
  const drainageCh4 = ar(38, 6, 0.98);
  const drainageFlow = ar(110, 12, 0.98);
  const mineAir = ar(16500, 600, 0.995);
  const seamNoise = ar(0, 0.35, 0.99);
  const width = DRIFT_FEATURES.length;
  const rows = new Float64Array(count * width);
  const y = new Float64Array(count);
  const time = new Float64Array(count);
  let inflow = 9;
  let daily = 1400;
  let event = 0;
  let eventPeak = 0;
  let outage = 0;
  let stuck = 0;
  let stuckValue = 0;
  const starts: number[] = [];
  for (let r = 0; r < count; r++) {
    const share = r / count;
    const x1 = Math.max(800, air());
    if (r % 144 === 0) daily = Math.round(x1 + 30 * normal());
    let x7 = Math.min(70, Math.max(8, drainageCh4()));
    const x8 = Math.max(30, drainageFlow());
    // Falling drainage efficiency: after mid-series the mixture carries less methane, the rest goes to the air.
    const efficiency = kind === "faults" && share > 0.5 ? 1 - 0.5 * Math.min(1, (share - 0.5) * 4) : 1;
    x7 *= efficiency;
    const x15 = (x7 * x8) / 100;
    let seam = 9 + 0.6 * Math.sin((2 * Math.PI * r) / 144) + seamNoise();
    if (kind === "advancing") seam *= 1 + 0.6 * share;
    if (kind === "faults") seam += (1 - efficiency) * 0.3 * 41.8;
    if (kind === "events") {
      // A pressure drop or a roof fall about every 1.5 days: methane climbs for half an hour, holds, decays.
      if (event === 0 && random() < 1 / 216) {
        starts.push(r);
        event = 18 + Math.floor(random() * 12);
        eventPeak = 5 + 6 * random();
      }
      if (event > 0) {
        seam += eventPeak * Math.min(1, (30 - event) / 4);
        event -= 1;
      }
    }
    const target = Math.max(1, seam - 0.05 * (x15 - 40));
    inflow += 0.45 * (target - inflow) + 0.06 * normal();
    const mineCh4 = (0.3 + (0.2 * inflow) / 10) * (1 + 0.02 * normal());
    const trueY = (100 * inflow) / x1;
    let measured = Math.max(0, Math.round((trueY + 0.012 * normal()) * 10_000) / 10_000);
    if (kind === "faults") {
      // A sensor stuck on its last value for up to an hour, or silent for up to half an hour.
      if (stuck === 0 && outage === 0 && random() < 0.004) stuck = 1 + Math.floor(random() * 6);
      if (stuck === 0 && outage === 0 && random() < 0.003) outage = 1 + Math.floor(random() * 3);
      if (stuck > 0) {
        if (stuckValue === 0) stuckValue = r > 0 && Number.isFinite(y[r - 1]) ? y[r - 1] : measured;
        measured = stuckValue;
        stuck -= 1;
        if (stuck === 0) stuckValue = 0;
      } else if (outage > 0) {
        measured = Number.NaN;
        outage -= 1;
      }
    }
    y[r] = measured;
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
  return { rows, y, time, pressure: scenarioPressure(count, seed * 31 + SCENARIOS.indexOf(kind), starts) };
}

/** The barometric pressure, кПа: a slow weather swing about 98,6 kPa, falling by 0,4-0,8 kPa over the
 *  12 rows before each of `starts` and recovering over the 12 after. */
function scenarioPressure(count: number, seed: number, starts: readonly number[]): Float64Array {
  const normal = gaussian(seeded(seed));
  const pressure = new Float64Array(count);
  let weather = 0;
  for (let r = 0; r < count; r++) {
    weather = 0.999 * weather + 0.02 * normal();
    pressure[r] = 98.6 + weather;
  }
  for (const start of starts) {
    const depth = 0.4 + 0.4 * Math.abs(normal());
    for (let k = -12; k <= 12; k++) {
      const r = start + k;
      if (r >= 0 && r < count) pressure[r] -= depth * (1 - Math.abs(k) / 12);
    }
  }
  return Float64Array.from(pressure, (p) => Math.round(p * 1000) / 1000);
}

const two = (n: number) => String(n).padStart(2, "0");
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};

/** Rows [from, to) as users keep them: «;», decimal commas, the time first, an empty fact as an
 *  empty cell; the barometric pressure last when `pressure` is given. */
export function scenarioCsv(history: DriftingLongwall, from = 0, to = history.y.length, pressure?: Float64Array): string {
  const width = DRIFT_FEATURES.length;
  const lines = [[...SCENARIO_HEADERS, ...(pressure ? [PRESSURE_HEADER] : [])].join(";")];
  for (let r = from; r < to; r++) {
    const readings = Array.from(history.rows.subarray(r * width, (r + 1) * width), (v) => String(v).replace(".", ","));
    const y = Number.isNaN(history.y[r]) ? "" : String(history.y[r]).replace(".", ",");
    lines.push([typed(history.time[r]), ...readings, y, ...(pressure ? [String(pressure[r]).replace(".", ",")] : [])].join(";"));
  }
  return lines.join("\n");
}

/** Independently of the product: RMSE of `forecast` (issued at each row for the row `steps` later;
 *  steps 0: for the row itself) and of persistence (the row's own fact; steps 0: the row before's),
 *  on the rows where the fact, the forecast and persistence all exist. */
export function rmseAgainstPersistence(forecast: ArrayLike<number>, y: ArrayLike<number>, steps: number) {
  let rows = 0;
  let model = 0;
  let persistence = 0;
  for (let r = 0; r < y.length; r++) {
    const issued = steps > 0 ? r : r - 1;
    const target = steps > 0 ? r + steps : r;
    if (issued < 0 || target >= y.length) continue;
    const f = forecast[r];
    const p = y[issued];
    const actual = y[target];
    if (!Number.isFinite(f) || !Number.isFinite(p) || !Number.isFinite(actual)) continue;
    rows += 1;
    model += (actual - f) ** 2;
    persistence += (actual - p) ** 2;
  }
  return { rows, model: Math.sqrt(model / rows), persistence: Math.sqrt(persistence / rows) };
}

/** The event table worked out by brute force, apart from the product's eventTable: rows in time
 *  order at `stepMs`, every onset checked against every alert row. */
export function eventsByHand(
  y: ArrayLike<number>,
  issued: ArrayLike<number>,
  timeMs: ArrayLike<number>,
  horizon: number,
  level: number,
  warning: number,
  stepMs: number,
) {
  const window = (horizon + 60) * 60_000;
  const n = y.length;
  const onsets: number[] = [];
  let last = Number.NaN;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(y[i])) continue;
    if (!Number.isNaN(last) && last < level && y[i] >= level) onsets.push(timeMs[i]);
    last = y[i];
  }
  const days = (timeMs[n - 1] - timeMs[0] + stepMs) / 86_400_000;
  const rule = (on: (i: number) => boolean) => {
    const start = (i: number) => {
      let s = i;
      while (s > 0 && on(s - 1) && timeMs[s] - timeMs[s - 1] <= stepMs) s -= 1;
      return timeMs[s];
    };
    const leads: number[] = [];
    for (const onset of onsets) {
      let latest = -1;
      for (let i = 0; i < n; i++) if (on(i) && timeMs[i] >= onset - window && timeMs[i] <= onset) latest = i;
      if (latest >= 0) leads.push((onset - start(latest)) / 60_000);
    }
    let falseAlerts = 0;
    for (let i = 0; i < n; i++) {
      if (!on(i) || (i > 0 && on(i - 1) && timeMs[i] - timeMs[i - 1] <= stepMs)) continue;
      let end = i;
      while (end + 1 < n && on(end + 1) && timeMs[end + 1] - timeMs[end] <= stepMs) end += 1;
      if (!onsets.some((o) => o >= timeMs[i] && o <= timeMs[end] + window)) falseAlerts += 1;
    }
    leads.sort((a, b) => a - b);
    const mid = leads.length >> 1;
    return {
      caught: leads.length,
      missed: onsets.length - leads.length,
      lead_median: leads.length === 0 ? null : leads.length % 2 ? leads[mid] : (leads[mid - 1] + leads[mid]) / 2,
      false_alerts: falseAlerts,
      false_per_day: falseAlerts / days,
    };
  };
  return {
    events: onsets.length,
    model: rule((i) => Number.isFinite(issued[i]) && issued[i] >= warning),
    current: rule((i) => !Number.isNaN(y[i]) && y[i] >= warning),
  };
}
