// The demo mine's own monitoring (methodology section 12): a sensor register of Шахта «Демонстрационная»
// and the last 30 days of one-minute readings made by a deterministic simulator, so that a newcomer
// opens «Датчики» and «Данные АГК» on something to see. Every figure they give is labelled
// «демонстрационные данные»: the days the simulator wrote carry its batch mark (DEMO_BATCH), which the
// offers and the accepted month's evidence print. docs/methodology.md «Демонстрационные данные АГК»
// describes the simulator: the same seed and window give the same readings to the bit.
import { isoDateIn, zoneOffsetMs, zoneOf } from "@core/company-clock";
import { seeded } from "@core/gbdt/train";
import { MINUTES_PER_DAY, type SensorKind } from "@core/monitoring";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import type { Actor, Deps } from "./domain/context";
import type { SensorCreateInput } from "./contract/schemas/sensor";
import { createSensor } from "./domain/monitoring/ingest/register";
import { kickReadings, mergeDay } from "./domain/monitoring/minutes/consumer";
import { detectEvents } from "./domain/monitoring/derive/events";
import { recheckAcceptances } from "./domain/monitoring/minutes/accepted-changes";
import { DEMO_BATCH, emptyDay, readingsBetween, utcDay } from "./domain/monitoring/ingest/stored-readings";
import { storeBatch } from "./domain/monitoring/ingest/readings";
import { LIVE_HEAD_GAPS, keepLiveHeads } from "./domain/monitoring/live/live-head";
import { newId } from "./domain/ids";
import { LIMITS } from "./contract/schemas/limits";
import type { AppliedReadings, DemoFeed } from "./ports";
import {
  bindLiveModel,
  featureSensors,
  forecastMeter,
  forecastRowsAt,
  LIVE_STEP_MIN,
  type FeatureColumn,
  type Readings,
} from "./domain/monitoring/live/live";
import { defaultLaggedModels } from "./domain/forecast/models";
import { calibrateOnRows } from "./domain/forecast/calibrating";
import { forecastRowsFromJson } from "./domain/forecast/forecast";

/** How many days back from the clock's minute the demo's readings reach. */
export const DEMO_DAYS = 30;
/** The simulator's seed: another seed, other noise, the same events. */
export const DEMO_SEED = 20_260_301;

const LONGWALL = "Лава 24-15";
const SECTION = "Выемочный участок 24-15";

/** Which of the demo year's emission points a sensor measures (demo-year.ts MINE_POINTS); a longwall's
 *  meters measure its air and name none. */
export type DemoPoint = "shaft" | "drainage";

/** A sensor of the demo register and how the simulator makes its minute values. */
export interface DemoSensor {
  readonly register: Omit<SensorCreateInput, "point"> & { kind: SensorKind };
  readonly point: DemoPoint | null;
  /** The value at minute m from its parts: `level` + `shift` × production(m) + `diurnal` × cos(2π(h − 15)/24). */
  readonly level: number;
  readonly shift?: number;
  /** The production factor lags the face by this many minutes (air takes its time to the shaft). */
  readonly lag?: number;
  readonly diurnal?: number;
  /** AR(1) noise: the persistent part's innovation (φ = 0.97) and the white part's deviation. */
  readonly drift: number;
  readonly noise: number;
  /** The meter's resolution: values are rounded to it, as the АГК's dispatch server keeps them. */
  readonly resolution: number;
  /** D104: a run channel (`run_status`) made from the others, not drawn: 1 while the working cuts coal,
   *  0 from the minute a methane meter of the working reaches its alarm (the АГК's cut-off) until
   *  CUT_LATCH_MIN after it falls below, except where an event «nocut» says the cut was not made. */
  readonly run?: true;
}

/** D56: the demo mine's register. The shaft's and the drainage line's own meters give their points'
 *  volumes (D61); the longwall's meters, with their warning and alarm levels, measure its section's air. */
export const DEMO_SENSORS: readonly DemoSensor[] = [
  {
    point: "shaft",
    register: { code: "ВС2-V", kind: "air_velocity", role: "recording", area_m2: 12.6 },
    level: 2.4,
    diurnal: 0.035,
    drift: 0.004,
    noise: 0.012,
    resolution: 0.01,
  },
  {
    point: "shaft",
    register: { code: "ВС2-CH4", kind: "methane", role: "signalling", warning: 0.75, alarm: 1 },
    level: 0.46,
    shift: 0.08,
    lag: 20,
    drift: 0.003,
    noise: 0.012,
    resolution: 0.01,
  },
  {
    point: null,
    register: {
      code: "АС-24",
      kind: "air_velocity",
      role: "recording",
      working: LONGWALL,
      section: SECTION,
      place: "longwall_return",
      area_m2: 10.5,
    },
    level: 1.9,
    diurnal: 0.02,
    drift: 0.004,
    noise: 0.015,
    resolution: 0.01,
  },
  {
    point: null,
    register: {
      code: "М-11",
      kind: "methane",
      role: "cut_off",
      working: LONGWALL,
      section: SECTION,
      place: "face_10_20m",
      warning: 0.8,
      alarm: 1,
    },
    level: 0.32,
    shift: 0.3,
    drift: 0.004,
    noise: 0.015,
    resolution: 0.01,
  },
  {
    point: null,
    register: {
      code: "М-12",
      kind: "methane",
      role: "signalling",
      working: LONGWALL,
      section: SECTION,
      place: "longwall_return",
      // D103: the longwall's return is freshened («подсвежение»): it reads less than the face meter's air, and
      // the airway check does not compare the two (the scheme draws the junction).
      fresh_air_joins: true,
      warning: 0.6,
      alarm: 1,
    },
    level: 0.25,
    shift: 0.18,
    lag: 5,
    drift: 0.004,
    noise: 0.012,
    resolution: 0.01,
  },
  {
    point: "drainage",
    register: { code: "ДГ-Q", kind: "flow", role: "recording", conditions: "actual" },
    level: 21,
    diurnal: 0.6,
    drift: 0.05,
    noise: 0.12,
    resolution: 0.1,
  },
  {
    point: "drainage",
    register: { code: "ДГ-CH4", kind: "methane_high", role: "recording" },
    level: 39,
    shift: -1.6,
    drift: 0.08,
    noise: 0.25,
    resolution: 0.1,
  },
  {
    point: "drainage",
    register: { code: "ДГ-P", kind: "pressure", role: "recording" },
    level: 92,
    drift: 0.05,
    noise: 0.15,
    resolution: 0.1,
  },
  {
    point: "drainage",
    register: { code: "ДГ-T", kind: "temperature", role: "recording" },
    level: 12,
    diurnal: 3,
    drift: 0.02,
    noise: 0.05,
    resolution: 0.1,
  },
  // Last, and drawing nothing: the noisy sensors' draws stay as they were before it (D104's demo).
  {
    point: null,
    register: { code: "РК-24", kind: "run_status", role: "recording", working: LONGWALL, section: SECTION },
    level: 0,
    drift: 0,
    noise: 0,
    resolution: 1,
    run: true,
  },
];

/** D104's demo: minutes the shearer stays cut after the meter that cut it fell below its alarm. */
const CUT_LATCH_MIN = 10;

/** What the simulator does to one sensor over a stretch of local minutes of a day of the window. */
export interface DemoEvent {
  readonly code: string;
  /** The day of the window (0: the first whole local day) and the local time it starts at, minutes. */
  readonly day: number;
  readonly at: number;
  readonly minutes: number;
  /** «peak»: a raised-cosine rise of `size` (a gas release crossing W or A); «gap»: no readings (the
   *  line to the dispatch server down); «stuck»: the value frozen at the stretch's first (залипание);
   *  «nocut» (a run channel's): the АГК's cut-off not made, the shearer runs on through an alarm. */
  readonly kind: "peak" | "gap" | "stuck" | "nocut";
  readonly size?: number;
}

const hm = (h: number, m = 0) => h * 60 + m;

/** The demo's events: crossings of the longwall meters' warning and alarm levels, a short gap and a
 *  stuck stretch of the shaft's methane meter (D58 flags it, D60 substitutes both), a gap of the
 *  drainage line's flow; D102's stuck stretch of the longwall return's meter while the face's moves, and
 *  D104's cut-off not made: М-11 over its alarm on day 9 while the shearer's run channel reads 1 (on
 *  day 16 М-12's alarm cuts it, as the АГК should). */
export const DEMO_EVENTS: readonly DemoEvent[] = [
  { code: "М-11", day: 3, at: hm(10, 40), minutes: 24, kind: "peak", size: 0.3 },
  { code: "М-11", day: 9, at: hm(18, 5), minutes: 30, kind: "peak", size: 0.75 },
  { code: "М-11", day: 21, at: hm(11, 20), minutes: 18, kind: "peak", size: 0.3 },
  { code: "М-12", day: 9, at: hm(18, 12), minutes: 34, kind: "peak", size: 0.45 },
  { code: "М-12", day: 16, at: hm(13, 30), minutes: 20, kind: "peak", size: 0.82 },
  { code: "ВС2-CH4", day: 11, at: hm(14, 5), minutes: 25, kind: "gap" },
  { code: "ВС2-CH4", day: 18, at: hm(3, 10), minutes: 95, kind: "stuck" },
  { code: "ДГ-Q", day: 23, at: hm(9, 0), minutes: 40, kind: "gap" },
  { code: "М-12", day: 14, at: hm(8, 50), minutes: 90, kind: "stuck" },
  { code: "РК-24", day: 9, at: hm(17, 50), minutes: 60, kind: "nocut" },
];

/** The production factor of a local minute of the day on the default shift calendar (D64: three 8-hour
 *  shifts from 00:00): the first is the repair shift (0.3), the others cut coal (1) from 40 minutes after
 *  their start to 20 minutes before their end, ramping over 30 minutes. */
export function production(minuteOfDay: number): number {
  const shift = Math.floor(minuteOfDay / 480);
  if (shift === 0) return 0.3;
  const into = minuteOfDay - shift * 480;
  if (into < 40 || into >= 460) return 0.3;
  return 0.3 + 0.7 * Math.min(1, (into - 40) / 30);
}

/** A normal deviate of `random` (Box–Muller). */
function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Draws of the seeded generator each sensor takes a minute: two normals (the drift's innovation, the
 *  white noise) of two each. Minute m's draws of sensor i start at (m × sensors + i) × DRAWS: a minute's
 *  value needs only its index, the drift before it and a stuck stretch's value, never the minutes before. */
const DRAWS = 4;
/** The drift's persistence, φ of AR(1). */
const PHI = 0.97;

/** What the simulator makes its minutes from: its seed, the clock its shifts and events follow (the
 *  company's zone at the seed) and its first minute, from which minutes, draws and event days count. */
export interface DemoSimulation {
  readonly seed: number;
  readonly zone: string;
  /** UTC ms, on a minute. */
  readonly anchor: number;
}

/** Where the simulator stands before a minute: that minute (UTC ms), each sensor's AR(1) drift and,
 *  inside a stuck stretch, the value it holds (null outside). Stored between the server's minutes
 *  (DemoFeed), so the next minute goes on from it without the minutes before. */
export interface DemoState {
  readonly next: number;
  readonly drift: readonly number[];
  readonly held: readonly (number | null)[];
}

/** The state before the simulation's first minute. */
export const initialDemoState = (simulation: DemoSimulation): DemoState => ({
  next: simulation.anchor,
  drift: DEMO_SENSORS.map(() => 0),
  held: DEMO_SENSORS.map(() => null),
});

/** The local day number and minute of the day of an instant on the zone's clock, its offset read once
 *  an hour (at the hour's start, as rollUp reads it), so a minute's is the same whatever minute came before. */
function localClock(zone: string) {
  const offsets = new Map<number, number>();
  return (instant: number) => {
    const hour = Math.floor(instant / 3_600_000);
    let offset = offsets.get(hour);
    if (offset === undefined) offsets.set(hour, (offset = zoneOffsetMs(hour * 3_600_000, zone)));
    const local = Math.floor((instant + offset) / MINUTE_MS);
    return { day: Math.floor(local / MINUTES_PER_DAY), minute: ((local % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY };
  };
}

export interface SimulatedSeries {
  readonly sensor: DemoSensor;
  /** One value per minute from the stretch's start; NaN where the sensor gave no reading. */
  readonly values: Float64Array;
}

/** The simulated minutes of every demo sensor for `minutes` minutes from `state` (its `next`) and the
 *  state after them: a function of each minute's index from the anchor, so the minutes made in one
 *  stretch or in many (the seed's 30 days, then the server's each minute) are the same to the bit.
 *  The events (DEMO_EVENTS) fall on their day of every DEMO_DAYS from the anchor's first whole local day. */
export function simulateMinutes(
  simulation: DemoSimulation,
  state: DemoState,
  minutes: number,
): { series: SimulatedSeries[]; state: DemoState } {
  const clock = localClock(simulation.zone);
  const firstDay = clock(simulation.anchor).day + 1;
  // The run channel draws nothing: the others' draws are counted without it.
  const sensors = DEMO_SENSORS.filter((s) => !s.run).length;
  const series = DEMO_SENSORS.map((sensor) => ({ sensor, values: new Float64Array(minutes) }));
  const drift = DEMO_SENSORS.map((_, i) => state.drift[i] ?? 0);
  const held = DEMO_SENSORS.map((_, i) => state.held[i] ?? null);
  for (let k = 0; k < minutes; k++) {
    const instant = state.next + k * MINUTE_MS;
    const m = Math.round((instant - simulation.anchor) / MINUTE_MS);
    const local = clock(instant);
    const cycleDay = (((local.day - firstDay) % DEMO_DAYS) + DEMO_DAYS) % DEMO_DAYS;
    for (let i = 0; i < DEMO_SENSORS.length; i++) {
      const sensor = DEMO_SENSORS[i];
      if (sensor.run) {
        series[i].values[k] = runValue(series, k, i, local.minute, cycleDay, held);
        continue;
      }
      const random = seeded(simulation.seed, (m * sensors + i) * DRAWS);
      const lagged = (local.minute - (sensor.lag ?? 0) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
      drift[i] = PHI * drift[i] + sensor.drift * normal(random);
      let value =
        sensor.level +
        (sensor.shift ?? 0) * production(lagged) +
        (sensor.diurnal ?? 0) * Math.cos((2 * Math.PI * (local.minute / 60 - 15)) / 24) +
        drift[i] +
        sensor.noise * normal(random);
      // A sensor's events never overlap: at most one holds a minute.
      const event = DEMO_EVENTS.find(
        (e) => e.code === sensor.register.code && e.day === cycleDay && local.minute >= e.at && local.minute < e.at + e.minutes,
      );
      if (event?.kind === "stuck") value = held[i] ??= value;
      else held[i] = null;
      if (event?.kind === "gap") value = Number.NaN;
      else if (event?.kind === "peak") {
        value += ((event.size ?? 0) * (1 - Math.cos((2 * Math.PI * (local.minute - event.at + 0.5)) / event.minutes))) / 2;
      }
      const step = sensor.resolution;
      if (!Number.isNaN(value)) value = Math.max(0, Math.round(value / step) * step);
      // Rounded to the resolution's decimals, as the dispatch server writes them (0.43, not 0.43000000000000005).
      series[i].values[k] = Number(value.toFixed(step < 0.1 ? 2 : 1));
    }
  }
  return { series, state: { next: state.next + minutes * MINUTE_MS, drift, held } };
}

/** D104's demo run channel at minute k (the working's meters of that minute made before it): 1 while
 *  coal is cut; 0 from a meter of its working at or above its alarm until CUT_LATCH_MIN minutes after it
 *  fell below (the latch kept in `held`), unless an event «nocut» holds the minute. */
function runValue(
  series: readonly SimulatedSeries[],
  k: number,
  i: number,
  minuteOfDay: number,
  cycleDay: number,
  held: (number | null)[],
): number {
  const run = DEMO_SENSORS[i];
  const nocut = DEMO_EVENTS.some(
    (e) =>
      e.code === run.register.code && e.kind === "nocut" && e.day === cycleDay && minuteOfDay >= e.at && minuteOfDay < e.at + e.minutes,
  );
  const alarm = series.some(
    ({ sensor, values }) =>
      sensor.register.working === run.register.working &&
      sensor.register.kind === "methane" &&
      sensor.register.alarm !== undefined &&
      sensor.register.alarm !== null &&
      values[k] >= sensor.register.alarm,
  );
  if (alarm && !nocut) held[i] = CUT_LATCH_MIN;
  else if ((held[i] ?? 0) > 0) held[i] = (held[i] ?? 0) - 1;
  if ((held[i] ?? 0) > 0 && !nocut) return 0;
  return production(minuteOfDay) > 0.3 ? 1 : 0;
}

/** The simulated minutes of every demo sensor over `minutes` minutes from `start` (UTC ms, on a minute)
 *  on the clock of `zone`, `start` the simulation's first minute: deterministic in (seed, start,
 *  minutes, zone). */
export function simulateReadings(start: number, minutes: number, zone: string, seed = DEMO_SEED): SimulatedSeries[] {
  const simulation = { seed, zone, anchor: start };
  return simulateMinutes(simulation, initialDemoState(simulation), minutes).series;
}

/** The window the demo's readings cover: the last DEMO_DAYS days up to the clock's minute. */
export function demoWindow(now: Date): { start: number; minutes: number } {
  const end = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  return { start: end - DEMO_DAYS * DAY_MS, minutes: DEMO_DAYS * MINUTES_PER_DAY };
}

/** The columns the demo's models are fed from sensors outside the longwall (ML M1): the
 *  surface drainage station's CH4 (x7) and mixture flow (x8), the ventilation shaft's methane meter (x12)
 *  and anemometer (x13). The longwall's air measured daily (x2) and a methane flow meter (x15) the demo
 *  mine has not: the tile names them. */
const DEMO_COLUMNS: Readonly<Partial<Record<FeatureColumn, string>>> = { x7: "ДГ-CH4", x8: "ДГ-Q", x12: "ВС2-CH4", x13: "ВС2-V" };

/** The binding's column sensors of the demo mine: DEMO_COLUMNS's codes as the register's ids. */
async function demoFeatures(deps: Pick<Deps, "repos">, company: string, facility: string) {
  const all = await deps.repos.sensors.listOfFacility(company, facility);
  const features: Partial<Record<FeatureColumn, string>> = {};
  for (const [column, code] of Object.entries(DEMO_COLUMNS) as [FeatureColumn, string][]) {
    const sensor = all.find((s) => s.code === code && s.is_active);
    if (sensor) features[column] = sensor.id;
  }
  return { all, features };
}

/** Binds the platform's default lagged model of every horizon it ships (defaultLaggedModels: 10 min … 6 h)
 *  to the demo's longwall, through the binding «Модель прогноза» makes (POST v1/telemetry/live/models/). */
export async function bindDemoModels(deps: Deps, actor: Actor, facility: string): Promise<number> {
  const models = (await defaultLaggedModels(deps)).filter((m) => m.horizon);
  const { features } = await demoFeatures(deps, actor.company, facility);
  for (const { horizon, method, id } of models) {
    await bindLiveModel(deps, actor, { facility, working: LONGWALL, horizon: horizon!, method, model: id, features });
  }
  return models.length;
}

/** The demo's days the bound models are calibrated on: the first DEMO_DAYS − this many, so that the
 *  alert rules' back-test (ALERT_HISTORY_DAYS, the last 7) reads days the calibration did not. */
export const DEMO_CALIBRATION_HOLDOUT_DAYS = 7;

/** Calibrates each default model bound to the demo's longwall for the demo company on the longwall's own
 *  readings (the rows «Калибровка модели» would take: 10-minute steps of М-11's minute means with the
 *  working's air and drainage readings, forecastRowsAt) of the window's first days, as a user would with
 *  the export of the mine's monitoring: the tile then gives each forecast its interval and P(exceed),
 *  and the back-test which alert rule is on. Scored in this process (not the server's scoring threads,
 *  which the seed runs before). Answers the rows each calibration took. */
export async function calibrateDemoModels(deps: Deps, actor: Actor, facility: string): Promise<number> {
  const { all, features: named } = await demoFeatures(deps, actor.company, facility);
  const sensors = all.filter((s) => s.working === LONGWALL);
  const meter = forecastMeter(sensors, { sensor: null });
  if (!meter) return 0;
  // The columns the tile feeds (bindDemoModels), so the calibration's rows are the tile's.
  const features = featureSensors(sensors, { features: named }, all);
  const { start } = demoWindow(deps.clock.now());
  const days = DEMO_DAYS - DEMO_CALIBRATION_HOLDOUT_DAYS;
  const last = start + days * DAY_MS - LIVE_STEP_MIN * MINUTE_MS;
  const readings = new Map<string, Readings>();
  for (const sensor of [meter, ...Object.values(features)]) {
    if (sensor) readings.set(sensor.id, await readingsBetween(deps, actor.company, sensor, start, last + MINUTE_MS));
  }
  const rows = forecastRowsFromJson(forecastRowsAt(sensors, meter, readings, last, (days * MINUTES_PER_DAY) / LIVE_STEP_MIN, features));
  const inProcess = { ...deps, modelScoring: undefined };
  let calibrated = 0;
  for (const model of (await defaultLaggedModels(deps)).filter((m) => m.horizon)) {
    const done = await calibrateOnRows(inProcess, actor, model, rows, "company", `Демонстрационные данные АГК, ${LONGWALL}`);
    calibrated = done.rows;
  }
  return calibrated;
}

/** The demo mine's register and its simulated readings, each sensor's UTC day packed in one item through
 *  the consumer's merge (not an item per minute), marked DEMO_BATCH, then handed to the consumer's day
 *  consumers as a push's days are. `points`: the demo year's emission
 *  points of the mine by kind. */
export async function seedDemoReadings(
  deps: Deps,
  actor: Actor,
  facility: string,
  points: Record<DemoPoint, string>,
): Promise<{ sensors: number; readings: number; days: number }> {
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const { start, minutes } = demoWindow(deps.clock.now());
  const inService = isoDateIn(new Date(start - DAY_MS), zone);
  let readings = 0;
  const written: { sensor: string; day: string }[] = [];
  const applied: AppliedReadings[] = [];
  const simulation = { seed: DEMO_SEED, zone, anchor: start };
  const simulated = simulateMinutes(simulation, initialDemoState(simulation), minutes);
  for (const { sensor, values } of simulated.series) {
    const created = await createSensor(deps, actor, facility, {
      ...sensor.register,
      point: sensor.point ? points[sensor.point] : null,
      in_service_from: inService,
    });
    // Grouped by the UTC day's number (a date's text once a day, not once a minute: 2 s of the seed).
    const byDay = new Map<string, { times: number[]; values: number[] }>();
    let dayNumber = Number.NaN;
    let list = { times: [] as number[], values: [] as number[] };
    for (let m = 0; m < minutes; m++) {
      if (Number.isNaN(values[m])) continue;
      const t = start + m * MINUTE_MS;
      if (Math.floor(t / DAY_MS) !== dayNumber) {
        dayNumber = Math.floor(t / DAY_MS);
        byDay.set(utcDay(t), (list = { times: [], values: [] }));
      }
      list.times.push(t);
      list.values.push(values[m]);
      readings++;
    }
    await Promise.all(
      [...byDay].map(async ([day, list]) => {
        await deps.repos.monitoring.putDay(mergeDay(emptyDay(actor.company, created.id, day), DEMO_BATCH, list).day, 0);
        written.push({ sensor: created.id, day });
      }),
    );
    // Its latest readings, what a head keeps of them.
    const times = [...byDay.values()].flatMap((l) => l.times).slice(-(LIVE_HEAD_GAPS + 1));
    const kept = [...byDay.values()].flatMap((l) => l.values).slice(-(LIVE_HEAD_GAPS + 1));
    if (times.length > 0) applied.push({ sensor: created.id, times: Float64Array.from(times), values: Float64Array.from(kept) });
  }
  // The tiles' kept heads: the seeded days are written here, not by the consumer.
  await keepLiveHeads(deps, {
    type: "ReadingsWritten",
    company: actor.company,
    facility,
    batches: [],
    days: written,
    since: {},
    readings: applied,
  });
  // The longwall's forecast on «Мониторинг» from the first look: the platform's default model of each
  // horizon bound to it as «Модель прогноза» binds one; the tile computes and stores the forecasts on
  // its first view (live.ts). Not the forecaster here: at the local server's start, before its model
  // scoring runs, forecastFacility never settled and the process ended with code 13.
  await bindDemoModels(deps, actor, facility);
  await calibrateDemoModels(deps, actor, facility);
  // D65's events as after a push (the longwall meters' crossings, the gaps), and the acceptances'
  // recheck: the seed's own step, not a «readings written» on the host's stream (the forecaster and the
  // tiles are the binding's business above; at the server's start no scoring runs yet).
  const change = { company: actor.company, facility, days: written };
  await detectEvents(deps, change);
  await recheckAcceptances(deps, change);
  // The mark that this mine's readings are the simulator's, and where it stands: the local server's
  // feed goes on from here (feedDemoReadings).
  await deps.repos.monitoring.putDemoFeed(
    {
      company: actor.company,
      facility,
      ...simulation,
      ...feedState(simulated.state),
      updated_at: deps.clock.now().toISOString(),
      version: 0,
    },
    0,
  );
  return { sensors: DEMO_SENSORS.length, readings, days: written.length };
}

const feedState = (state: DemoState) => ({ next: state.next, drift: [...state.drift], held: [...state.held] });

/** Minutes one batch of the feed carries: as many as a push may (LIMITS.monitoring.readingsPerRequest). */
export const FEED_BATCH_MINUTES = Math.floor(LIMITS.monitoring.readingsPerRequest / DEMO_SENSORS.length);

type FeedDeps = Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> & Partial<Pick<Deps, "readingsConsumer" | "readingsQueue">>;

/** The demo mines' readings carried on to the clock's minute (the local server calls it each
 *  quarter-minute: local/demo-feed.ts): for each feed the demo's seed stored (DemoFeed; a data folder
 *  it did not seed has none, so nothing is ever simulated beside a company's own readings), the minutes
 *  from where it stands to the clock's, at most the last DEMO_DAYS days (the minutes before are run
 *  through, not stored: a minute is the same however long the server was down), pushed as a gateway
 *  pushes them: a batch of at most FEED_BATCH_MINUTES minutes stored with its queue mark (storeBatch),
 *  named as the demo's (DEMO_BATCH, so what they give stays «демонстрационные данные»), the feed's new
 *  state stored, the consumer kicked. A mine archived or gone is left alone. Answers what it stored. */
export async function feedDemoReadings(deps: FeedDeps): Promise<{ batches: number; readings: number }> {
  const clock = Math.floor(deps.clock.now().getTime() / MINUTE_MS) * MINUTE_MS;
  let batches = 0;
  let readings = 0;
  for (let feed of await deps.repos.monitoring.demoFeeds()) {
    if (feed.next > clock) continue;
    const facility = await deps.repos.facilities.get(feed.company, feed.facility);
    if (!facility || facility.is_active === false) continue;
    const simulation = { seed: feed.seed, zone: feed.zone, anchor: feed.anchor };
    // A mine seeded before a channel joined the simulator (D104's run channel) is not pushed readings of it.
    const registered = new Set((await deps.repos.sensors.listOfFacility(feed.company, feed.facility)).map((s) => s.code));
    let state: DemoState = feed;
    const keepFrom = clock - DEMO_DAYS * DAY_MS + MINUTE_MS;
    // Down longer than the window: its minutes before are run through a day at a time, not stored.
    while (state.next < keepFrom)
      state = simulateMinutes(simulation, state, Math.min(MINUTES_PER_DAY, (keepFrom - state.next) / MINUTE_MS)).state;
    while (state.next <= clock) {
      const from = state.next;
      const minutes = Math.min(FEED_BATCH_MINUTES, (clock - from) / MINUTE_MS + 1);
      const made = simulateMinutes(simulation, state, minutes);
      const lines: { sensor: string; t: string; value: number }[] = [];
      for (let k = 0; k < minutes; k++) {
        const t = new Date(from + k * MINUTE_MS).toISOString();
        for (const { sensor, values } of made.series) {
          if (!Number.isNaN(values[k]) && registered.has(sensor.register.code))
            lines.push({ sensor: sensor.register.code, t, value: values[k] });
        }
      }
      const batch =
        lines.length > 0
          ? await storeBatch(deps, feed.company, feed.facility, { json: { readings: lines } }, undefined, {
              id: `${DEMO_BATCH}-${newId()}`,
            })
          : undefined;
      const next: DemoFeed = { ...feed, ...feedState(made.state), updated_at: deps.clock.now().toISOString() };
      // Another process moved the feed on meanwhile: this one leaves it to that one, its batch stored
      // all the same left marked in the table's queue for the sweep (never announced here).
      if (!(await deps.repos.monitoring.putDemoFeed(next, feed.version))) {
        if (batch?.queue_mark === false) await deps.repos.monitoring.markQueued(batch, true);
        break;
      }
      feed = { ...next, version: feed.version + 1 };
      state = made.state;
      if (batch) {
        batches++;
        readings += lines.length;
        await kickReadings(deps, batch);
      }
    }
  }
  return { batches, readings };
}
