// a facility's workings at a glance — per working each methane meter's latest reading against
// its levels (D64: from 0,9·W), its air and drainage flow, «нет данных N мин» once a channel missed two
// expected intervals (D65), and the forecast of the models bound to the working per horizon, computed
// from the latest minutes with the lag features the model reads: the rows are those a user would POST
// to the forecast route (v1/regres_methane/, forecastRowsFromJson), run by the same runForecast, so the
// figure shown is the route's, bit for bit. Whether a forecast alert is on (D65) is settled per working
// and horizon by the back-test on the working's own history: «P ≥ 0,5» beside «current ≥ 0,9·limit».
// Advisory: protective cut-off stays with the mine's АГК (ADVISORY_NOTE).
import { createHash } from "node:crypto";
import { LEVEL_WORDS, silenceSpan, staleText } from "@core/monitoring-events";
import { ADVISORY_NOTE, PRE_WARNING_SHARE, SENSOR_KINDS, minuteMeans, type SensorKind, METHANE_KINDS } from "@core/monitoring";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import {
  DEFAULT_INTERVAL_LEVEL,
  DEFAULT_WARNING_PERCENT,
  HORIZONS,
  PRESSURE_FEATURES,
  eventTable,
  horizonLabel,
  leadNote,
  nearLimit,
  nearLimitNote,
  onsetLeads,
  chanceEventWords,
  probabilityCheck,
  windowMaxTargets,
  type EventRule,
  type NearLimit,
  type ProbabilityCheck,
  type ShownForecast,
} from "@core/gbdt";
import {
  FORECAST_METHOD_TITLES,
  FORECAST_PRESSURE,
  METHANE_LIMIT_PERCENT,
  REGISTRY,
  type ForecastMethod,
  type NumberField,
} from "@core/registry";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Forbidden, Invalid, invalidAt, NotFound } from "../../errors";
import { getFacility } from "../../company/facilities";
import { modelPeriodEnd as periodEnd } from "../../forecast/calibration";
import { forecastRowsFromJson, forecastRun, forecastTargets, judgedProbability, runForecast, stepMismatch } from "../../forecast/forecast";
import { type MinuteSource, readingsBetween, utcDay } from "../ingest/stored-readings";
import { facilityRegister } from "../ingest/kept-register";
import { keptMinutes } from "../minutes/minute-window";
import { workingReadings } from "./forecast-means";
import { recordForecast } from "../derive/forecast-events";
import { SENSOR_PLACE_NAMES, type SensorPlace } from "@core/sensor-places";
import type { AppliedReadings, LiveModelBinding, Sensor, SensorMeans, StoredLiveForecast } from "../../../ports";
import type { liveBindBodySchema, liveChartSchema, liveTileSchema, liveViewSchema } from "../../../contract/schemas/monitoring";
import { LIVE_FEATURE_BY_KIND, LIVE_FEATURE_COLUMNS, LIVE_FEATURE_KINDS, type LiveFeatureColumn } from "../../../contract/live-features";
import { keptState } from "../../../ports/runtime";
import { gassingLabel, openGassings, type OpenGassing } from "./live-gassing";
import { facilityProcessing } from "../ingest/processing";

/** What a page sees (kept in a host's live watches, live-watch.ts). */
export type LiveView = z.output<typeof liveViewSchema>;

/** What a facility's tiles are computed from: its sensors, bindings and the window's readings. */
export interface LiveInputs {
  facility: { id: string; name: string };
  sensors: Sensor[];
  bindings: LiveModelBinding[];
  readings: ReadonlyMap<string, Omit<AppliedReadings, "sensor">>;
  /** the latest instant kept (its head, live-head.ts) of a tile's sensor without a
   *  reading in the window, ms: it reads «нет данных N мин» from it. */
  silentSince?: ReadonlyMap<string, number>;
}
export type LiveTile = z.output<typeof liveTileSchema>;
type LiveForecast = LiveTile["forecasts"][number];
type Meter = LiveTile["meters"][number];
type Flow = LiveTile["air_flow"];

/** D65: a channel is stale after this many expected intervals without a reading. */
export const STALE_INTERVALS = 2;
/** The live forecast's rows: 24 h of 10-minute steps up to the latest minute (the default models' step). */
export const LIVE_STEP_MIN = 10;
export const LIVE_ROWS = 144;
/** A stored forecast this far behind its meter's latest minute is computed again by the tiles: the
 *  forecaster failed on it (a replay at 100× keeps it within a few minutes of readings). */
export const STORED_FORECAST_LAG_MS = 60 * MINUTE_MS;
/** D65's back-test of the alert rules reads this many days of the working's history. */
export const ALERT_HISTORY_DAYS = 7;
/** D65: a forecast alert at P(C(t+h) ≥ limit) ≥ this; the current reading's at ≥ this share of the limit. */
export const FORECAST_ALERT_P = 0.5;
export const READING_ALERT_SHARE = 0.9;
export const NO_MODEL_NOTE =
  "Модель прогноза для выработки не выбрана: прогноз не считается. Выберите модель для горизонта в настройке прогноза выработки.";

const ru = (n: number, digits = 2) => n.toLocaleString("ru-RU", { maximumFractionDigits: digits });

/** A sensor's readings in the window, in time order. */
export interface Readings {
  times: Float64Array;
  values: Float64Array;
}

/** The window the tiles read: the last 24 h up to the clock (a push may be up to 5 minutes ahead). */
export function liveWindow(now: number): { from: number; to: number; days: string[] } {
  const from = now - DAY_MS;
  const to = now + 10 * MINUTE_MS;
  return { from, to, days: [utcDay(from), utcDay(now), utcDay(to)].filter((d, i, all) => all.indexOf(d) === i) };
}

/**
 * the readings of each forecast's sensors reach back to the rows before its meter's
 * latest minute, not the clock's 24 h: a feed behind the clock (a gateway catching up, a file back-filled)
 * got rows empty at their start (106 of 110 tile forecasts differed from the route's of the same rows).
 * `groups`: each forecast's meter and the sensors its rows read; `from`: where `readings` begin. The
 * earlier readings are read once per sensor and put before those held.
 */
export async function readRowsBack(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  readings: Map<string, Readings>,
  groups: readonly { meter: Sensor; read: readonly Sensor[] }[],
  from: number,
): Promise<void> {
  const need = new Map<string, number>();
  const sensors = new Map(groups.flatMap((g) => g.read.map((s) => [s.id, s] as const)));
  for (const { meter, read } of groups) {
    const last = latest(readings.get(meter.id));
    if (!last) continue;
    const first = Math.floor(last.at / MINUTE_MS) * MINUTE_MS - (LIVE_ROWS - 1) * LIVE_STEP_MIN * MINUTE_MS;
    if (first >= from) continue;
    for (const sensor of read) need.set(sensor.id, Math.min(need.get(sensor.id) ?? from, first));
  }
  for (const [id, start] of need) {
    const before = await readingsBetween(deps, company, sensors.get(id)!, start, from);
    const held = readings.get(id) ?? { times: new Float64Array(0), values: new Float64Array(0) };
    const keep = before.times.findIndex((t) => t >= from);
    const n = keep < 0 ? before.times.length : keep;
    const times = new Float64Array(n + held.times.length);
    const values = new Float64Array(n + held.values.length);
    times.set(before.times.subarray(0, n));
    times.set(held.times, n);
    values.set(before.values.subarray(0, n));
    values.set(held.values, n);
    readings.set(id, { times, values });
  }
}

/** The active sensors of the facility that belong to a working, by working. */
export function workingsOf(sensors: readonly Sensor[]): Map<string, Sensor[]> {
  const out = new Map<string, Sensor[]>();
  const active = sensors.filter((s) => s.is_active && s.working.trim() !== "");
  active.sort((a, b) => a.working.localeCompare(b.working, "ru") || a.code.localeCompare(b.code, "ru"));
  for (const sensor of active) {
    const list = out.get(sensor.working) ?? [];
    list.push(sensor);
    out.set(sensor.working, list);
  }
  return out;
}

/** The places whose flow meter measures a pipeline's gas mixture (the tile's drainage flow), not air. */
const PIPELINE_PLACES: readonly SensorPlace[] = ["drainage_pipeline", "suction_pipeline"];

/** the active sensors without a working (the shaft's, the drainage line's, the main
 *  return's), by place in the register's order of places: its methane meters and flows, and (D101) every
 *  other channel as the tile's `channels`. */
export function placesOf(sensors: readonly Sensor[]): Map<SensorPlace, Sensor[]> {
  const out = new Map<SensorPlace, Sensor[]>();
  // D101: every channel the register holds there (a shaft's CO meter too), its other kinds as channels.
  const placed = sensors.filter((s) => s.is_active && s.working.trim() === "");
  placed.sort((a, b) => SENSOR_PLACE_NAMES.indexOf(a.place) - SENSOR_PLACE_NAMES.indexOf(b.place) || a.code.localeCompare(b.code, "ru"));
  for (const sensor of placed) out.set(sensor.place, [...(out.get(sensor.place) ?? []), sensor]);
  return out;
}

/** Whether the tiles show a sensor (D101): every active one, of a working's tile or of a place's (placesOf). */
export const onTiles = (s: Sensor): boolean => s.is_active;

/** The median gap of a sensor's latest readings (its expected interval), at least a minute. */
function expectedInterval(times: Float64Array): number {
  const gaps: number[] = [];
  for (let i = Math.max(1, times.length - 30); i < times.length; i++) if (times[i] > times[i - 1]) gaps.push(times[i] - times[i - 1]);
  if (gaps.length === 0) return MINUTE_MS;
  gaps.sort((a, b) => a - b);
  return Math.max(MINUTE_MS, gaps[gaps.length >> 1]);
}

/** D65: minutes since the last reading once two expected intervals passed without one; null while fresh. */
export function staleMinutes(times: Float64Array, now: number): number | null {
  if (times.length === 0) return null;
  const last = times[times.length - 1];
  if (now - last <= STALE_INTERVALS * expectedInterval(times)) return null;
  return Math.floor((now - last) / MINUTE_MS);
}

/** D64: a methane value's state against the meter's levels (0,9·W, W, A). */
export function levelState(value: number | null, warning: number | null, alarm: number | null): Pick<Meter, "state" | "state_label"> {
  if (value === null) return { state: "none", state_label: "нет показаний за сутки" };
  if (alarm !== null && value >= alarm) return { state: "alarm", state_label: `≥ A (${ru(alarm)} %): ${LEVEL_WORDS.alarm}` };
  if (warning !== null && value >= warning) return { state: "warning", state_label: `≥ W (${ru(warning)} %): ${LEVEL_WORDS.warning}` };
  if (warning !== null && value >= PRE_WARNING_SHARE * warning) {
    return { state: "pre_warning", state_label: `≥ 0,9·W (${ru(PRE_WARNING_SHARE * warning, 3)} %): ${LEVEL_WORDS.pre_warning}` };
  }
  return { state: "normal", state_label: "норма" };
}

/** a meter's state with its silence. A silent meter is never «норма» — what it reads
 *  now is not known — but a level it last reached stays said (the silence beside it). D98: a meter with
 *  an entry of the gassing book in force reads `gassing` whatever its W and A, the W/A state its reading
 *  reached said beside it (`levels_label`). */
export function meterState(
  value: number | null,
  warning: number | null,
  alarm: number | null,
  staleMinutes: number | null,
  gassing?: OpenGassing,
): Pick<Meter, "state" | "state_label"> & Partial<Pick<Meter, "levels_label">> {
  const state = levelState(value, warning, alarm);
  if (gassing && value !== null)
    return {
      state: "gassing",
      state_label: gassingLabel(value, gassing.norm),
      levels_label: state.state === "normal" || state.state === "none" ? null : state.state_label,
    };
  // A level above «норма» is said while the meter is silent; without a reading in the window (// item 6), its silence since its last reading kept.
  if (staleMinutes === null || (value !== null && state.state !== "normal")) return state;
  return { state: "none", state_label: staleText(staleMinutes) };
}

const latest = (r: Readings | undefined): { value: number; at: number } | null =>
  r && r.times.length > 0 ? { value: r.values[r.values.length - 1], at: r.times[r.times.length - 1] } : null;

/** The kept means' `minutes` minutes from `start` (NaN where they keep none): forecastRowsAt's series. */
function meansAt(kept: SensorMeans, start: number, minutes: number): Float64Array {
  const out = new Float64Array(minutes).fill(Number.NaN);
  const offset = Math.round((start - kept.from) / MINUTE_MS);
  for (let m = Math.max(0, -offset); m < minutes && offset + m < kept.means.length; m++) out[m] = kept.means[offset + m];
  return out;
}

/** A sensor's latest reading, from its readings or its kept means. */
const latestOf = (r: Readings | SensorMeans | undefined): { value: number; at: number } | null =>
  r && "means" in r ? (Number.isFinite(r.at) ? { value: r.value, at: r.at } : null) : latest(r);

/** Minutes since the latest instant kept of a sensor without a reading in the window; null where none is kept. */
const silentMinutes = (since: number | undefined, now: number) => (since === undefined ? null : Math.floor((now - since) / MINUTE_MS));

function meterOf(sensor: Sensor, readings: Readings | undefined, now: number, since?: number, gassing?: OpenGassing): Meter {
  const last = latest(readings);
  const value = last ? last.value : null;
  const stale = last && readings ? staleMinutes(readings.times, now) : silentMinutes(since, now);
  return {
    sensor: sensor.id,
    code: sensor.code,
    kind: sensor.kind as Meter["kind"],
    place: sensor.place,
    norm_place: sensor.norm_place ?? null,
    value,
    at: last ? new Date(last.at).toISOString() : null,
    warning: sensor.warning,
    alarm: sensor.alarm,
    levels_label: null,
    ...meterState(value, sensor.warning, sensor.alarm, stale, gassing),
    gassing_since: gassing && value !== null ? gassing.since : null,
    stale_minutes: stale,
  };
}

type Channel = LiveTile["channels"][number];
/** D101: the kinds whose W and A are read «≥» on a channel (oxygen's direction is the mine's own). */
const RISING_GASES: readonly SensorKind[] = ["carbon_monoxide", "carbon_dioxide"];

/** D101: a channel of a working the tile shows besides its methane meters and flows, with its silence. */
function channelOf(sensor: Sensor, readings: Readings | undefined, now: number, since?: number): Channel {
  const last = latest(readings);
  const stale = last && readings ? staleMinutes(readings.times, now) : silentMinutes(since, now);
  const kind = SENSOR_KINDS[sensor.kind];
  const at = last ? last.at : since;
  const value = last ? last.value : null;
  const level = (name: "W" | "A", limit: number | null, words: string) =>
    value !== null && limit !== null && RISING_GASES.includes(sensor.kind) && value >= limit
      ? `≥ ${name} (${ru(limit)} ${kind.unit}): ${words}`
      : null;
  const reached = level("A", sensor.alarm, LEVEL_WORDS.alarm) ?? level("W", sensor.warning, LEVEL_WORDS.warning);
  const silence = stale !== null ? staleText(stale) : value === null ? "нет показаний за сутки" : null;
  return {
    sensor: sensor.id,
    code: sensor.code,
    kind: sensor.kind,
    kind_label: kind.label,
    unit: kind.unit,
    value,
    at: at === undefined ? null : new Date(at).toISOString(),
    warning: sensor.warning,
    alarm: sensor.alarm,
    stale_minutes: stale,
    state_label: [reached, silence].filter((t) => t !== null).join("; ") || "в работе",
  };
}

/** m³/min of a flow meter, or of an anemometer over its cross-section. */
const flowValue = (sensor: Sensor, value: number) => (sensor.kind === "air_velocity" ? value * (sensor.area_m2 ?? Number.NaN) * 60 : value);

function flowOf(
  sensor: Sensor | undefined,
  readings: ReadonlyMap<string, Readings>,
  now: number,
  since?: ReadonlyMap<string, number>,
): Flow {
  if (!sensor) return null;
  const r = readings.get(sensor.id);
  const last = latest(r);
  // a sensor silent through the window is there, silent — never «нет датчика».
  if (!last || !r) {
    const at = since?.get(sensor.id);
    return {
      code: sensor.code,
      value: null,
      at: at === undefined ? null : new Date(at).toISOString(),
      stale_minutes: silentMinutes(at, now),
    };
  }
  const value = flowValue(sensor, last.value);
  if (!Number.isFinite(value)) return null;
  return { code: sensor.code, value, at: new Date(last.at).toISOString(), stale_minutes: staleMinutes(r.times, now) };
}

/** The forecast's data columns a working's sensors may feed (ML M1), the kinds each is read
 *  from and those read by kind without a binding's sensor: contract/live-features.ts. */
export type FeatureColumn = LiveFeatureColumn;
export const FEATURE_COLUMNS = LIVE_FEATURE_COLUMNS;
export const FEATURE_KINDS = LIVE_FEATURE_KINDS;
const BY_KIND = LIVE_FEATURE_BY_KIND;
/** Each column's name in words, as the forecast route's columns name them. */
export const FEATURE_LABELS: Readonly<Record<FeatureColumn, string>> = Object.fromEntries(
  [...((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]), FORECAST_PRESSURE].map(
    (c) => [c.name, c.label],
  ),
) as Record<FeatureColumn, string>;

/** Each column's sensor (FEATURE_COLUMNS), then each of the model's named features'. */
export type FeatureSensors = Record<FeatureColumn, Sensor | undefined> & Record<string, Sensor | undefined>;

/** The sensor each column is read from: the binding's (any active sensor of the facility of a kind the
 *  column takes), else by kind from the working's own (BY_KIND); undefined where there is none. And the
 *  sensor of the working each of the model's named features is bound to (`channels`: an earlier round). */
export function featureSensors(
  sensors: readonly Sensor[],
  binding?: Pick<LiveModelBinding, "features" | "channels">,
  facility: readonly Sensor[] = sensors,
): FeatureSensors {
  const named = binding?.features ?? {};
  const out = {} as FeatureSensors;
  for (const column of FEATURE_COLUMNS) {
    const id = named[column];
    const kind = BY_KIND[column];
    out[column] = id
      ? facility.find((s) => s.id === id && s.is_active && FEATURE_KINDS[column].includes(s.kind))
      : kind && sensors.find((s) => s.kind === kind);
  }
  for (const [name, id] of Object.entries(binding?.channels ?? {})) out[name] = sensors.find((s) => s.id === id && s.is_active);
  return out;
}

/** The data columns a model reads: the forecast route's it was trained on, and the pressure where it
 *  reads p_atm or its change. */
export function modelColumns(featureNames: readonly string[]): FeatureColumn[] {
  const pressure = (PRESSURE_FEATURES as readonly string[]).some((f) => featureNames.includes(f));
  return FEATURE_COLUMNS.filter((c) => (c === FORECAST_PRESSURE.name ? pressure : featureNames.includes(c)));
}

/** The meter a binding forecasts: the one it names, else the working's first methane meter by code. */
export function forecastMeter(sensors: readonly Sensor[], binding: Pick<LiveModelBinding, "sensor">): Sensor | undefined {
  if (binding.sensor) return sensors.find((s) => s.id === binding.sensor && METHANE_KINDS.has(s.kind));
  return sensors.find((s) => s.kind === "methane") ?? sensors.find((s) => s.kind === "methane_high");
}

const rowTime = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const COLUMN_NAMES: ReadonlySet<string> = new Set(FEATURE_COLUMNS);

/**
 * The rows a forecast of the working is computed from, as the forecast route takes them (`data` of
 * POST v1/regres_methane/): `count` 10-minute steps up to `last` (a minute), each with its time, the
 * meter's minute mean as y and each column's sensor's minute mean (`features`: by default the working's
 * by kind, featureSensors; D59's means, a minute without a valid reading left out of the row).
 */
export function forecastRowsAt(
  sensors: readonly Sensor[],
  meter: Sensor,
  readings: ReadonlyMap<string, Readings | SensorMeans>,
  last: number,
  count = LIVE_ROWS,
  features: Partial<FeatureSensors> = featureSensors(sensors),
): Record<string, number | string | null>[] {
  const start = last - (count - 1) * LIVE_STEP_MIN * MINUTE_MS;
  const minutes = (count - 1) * LIVE_STEP_MIN + 1;
  const series = (sensor: Sensor | undefined) => {
    const r = sensor && readings.get(sensor.id);
    if (!sensor || !r) return undefined;
    return "means" in r ? meansAt(r, start, minutes) : minuteMeans(sensor.kind, r.times, r.values, start, minutes).values;
  };
  const y = series(meter);
  const parts = Object.entries(features).map(([name, sensor]) => ({ name, sensor, values: series(sensor) }));
  const rows: Record<string, number | string | null>[] = [];
  for (let k = 0; k < count; k++) {
    const m = k * LIVE_STEP_MIN;
    const row: Record<string, number | string | null> = { t: rowTime(start + m * MINUTE_MS) };
    for (const part of parts) {
      const value = part.values?.[m];
      // A named feature's column is always in the row (the forecast refuses a row without it): empty, missing.
      if (!COLUMN_NAMES.has(part.name)) row[part.name] = null;
      if (part.sensor && value !== undefined && Number.isFinite(value)) {
        const v = flowValue(part.sensor, value);
        if (Number.isFinite(v)) row[part.name] = v;
      }
    }
    const yv = y?.[m];
    if (yv !== undefined && Number.isFinite(yv)) row.y = yv;
    rows.push(row);
  }
  return rows;
}

/**
 * D96 (e), the meter's highest minute mean in each row's interval — the LIVE_STEP_MIN minutes up to
 * and including the row's minute — of forecastRowsAt's rows ending at `last` (NaN where none): what events, lead
 * times, the alert rules' hits and P's events read, so a crossing between two sampled minutes (13:34–13:39 between
 * 13:30 and 13:40) is an event too.
 */
export function intervalPeaks(meter: Sensor, readings: ReadonlyMap<string, Readings>, last: number, count = LIVE_ROWS): Float64Array {
  const start = last - (count - 1) * LIVE_STEP_MIN * MINUTE_MS - (LIVE_STEP_MIN - 1) * MINUTE_MS;
  const minutes = count * LIVE_STEP_MIN;
  const r = readings.get(meter.id);
  const peaks = new Float64Array(count).fill(Number.NaN);
  if (!r) return peaks;
  const means = minuteMeans(meter.kind, r.times, r.values, start, minutes).values;
  for (let k = 0; k < count; k++) {
    for (let m = k * LIVE_STEP_MIN; m < (k + 1) * LIVE_STEP_MIN; m++) {
      const v = means[m];
      if (Number.isFinite(v) && !(v <= peaks[k])) peaks[k] = v;
    }
  }
  return peaks;
}

/** The limit and warning a working's forecast is computed with: the meter's A and W (1,0 % and 0,8 % without). */
export function forecastLevels(meter: Sensor): { limit: number; warning: number } {
  const limit = meter.alarm ?? METHANE_LIMIT_PERCENT;
  const w = meter.warning;
  return { limit, warning: w !== null && w > 0 && w <= limit ? w : Math.min(DEFAULT_WARNING_PERCENT, limit) };
}

type Run = Awaited<ReturnType<typeof forecastRun>>;

async function runFor(deps: Pick<Deps, "repos" | "runtime">, company: string, binding: LiveModelBinding, meter: Sensor): Promise<Run> {
  const { limit, warning } = forecastLevels(meter);
  return forecastRun(
    deps,
    company,
    binding.method,
    { level: DEFAULT_INTERVAL_LEVEL, limit, warning, horizon: binding.horizon },
    binding.model,
  );
}

/** The forecast issued at the meter's latest minute: the last row of runForecast over forecastRowsAt. */
export async function forecastNow(
  deps: Pick<Deps, "blobs" | "modelScoring" | "runtime">,
  run: Run,
  rows: Record<string, number | string | null>[],
  decided?: ShownForecast,
) {
  const done = await runForecast(deps, run, forecastRowsFromJson(rows, run.version.features), decided);
  return { ...done.rows[done.rows.length - 1], shown: done.backtest?.shown ?? "model" };
}

type Alert = LiveForecast["alert"];
const ruleOf = (rule: EventRule | undefined): Alert["forecast"] =>
  rule ? { caught: rule.caught, missed: rule.missed, lead_median: rule.lead_median, false_per_day: rule.false_per_day } : null;

/** ML M2: the one-sided sign test's level the forecast's gain must hold at. */
export const ALERT_GAIN_SIGNIFICANCE = 0.05;

/** The fewest of `n` onsets the forecast must warn of earlier than the reading for the gain to hold at
 *  ALERT_GAIN_SIGNIFICANCE (one-sided sign test: P(Binomial(n, ½) ≥ k) ≤ 0,05); null where even all
 *  `n` would not (fewer than 5). 5 of 5, 6 of 6, 7 of 7 or 8, 8 of 9, 9 of 10, 15 of 20, 17 of 24. */
export function onsetsNeeded(n: number): number | null {
  if (n <= 0) return null;
  // P(X ≥ k) summed from the top: C(n, j) / 2^n.
  let tail = 0;
  let c = 1; // C(n, n)
  for (let k = n; k >= 0; k--) {
    const next = tail + c / 2 ** n;
    if (next > ALERT_GAIN_SIGNIFICANCE) return k === n ? null : k + 1;
    tail = next;
    c = (c * k) / (n - k + 1);
  }
  return 0;
}

/**
 * D65: the two rules on the working's own history (ALERT_HISTORY_DAYS of 10-minute rows forecast by the
 * bound model): «forecast P ≥ 0,5» and «current reading ≥ 0,9·limit», events being the onsets of the
 * meter at or above the limit. The forecast's rule is on only where its gain holds with the margin the
 * onsets support (ML M2: on 3–9 onsets a week's gain was chance): it warned earlier than the
 * reading (or alone) on at least onsetsNeeded(n) of the n onsets where the two differ, caught at least as
 * many, at no more false alerts; with too few onsets to decide, «недостаточно событий для выбора правила».
 */
export function chooseAlertRule(input: {
  measured: ArrayLike<number | null>;
  pExceed: ArrayLike<number | null>;
  time: ArrayLike<number>;
  horizon: number;
  limit: number;
}): Omit<Alert, "raised"> {
  const issued = Float64Array.from({ length: input.pExceed.length }, (_, i) => input.pExceed[i] ?? Number.NaN);
  const common = { measured: input.measured, time: input.time, horizon: input.horizon, level: input.limit };
  const byForecast = eventTable({ ...common, issued, warning: FORECAST_ALERT_P });
  // the reading's rule forecasts nothing ahead, so it is judged with no horizon — an alert may come
  // within the hour before its onset, whatever the forecast's horizon: one rule, the same figures, on every horizon.
  const byReading = eventTable({ ...common, horizon: 0, issued, warning: READING_ALERT_SHARE * input.limit });
  const calibrated = issued.some(Number.isFinite);
  const forecast = calibrated ? ruleOf(byForecast?.model) : null;
  const reading = ruleOf(byReading?.current);
  const days = byReading?.days ?? 0;
  const events = byReading?.events ?? 0;
  const readingRule = `действует правило «текущее значение ≥ 0,9·предела» (${ru(READING_ALERT_SHARE * input.limit, 3)} %)`;
  const span = `на истории выработки за ${ru(days, 1)} сут.`;
  const base = { days, events, forecast, reading };
  if (!calibrated) {
    return {
      ...base,
      rule: "reading",
      reason: `Оповещение по прогнозу не включено: модель не откалибрована, вероятность превышения не рассчитывается; ${readingRule}.`,
    };
  }
  if (!forecast || !reading || events === 0) {
    return {
      ...base,
      rule: "reading",
      reason: `Оповещение по прогнозу не включено: ${span} не было превышений предела ${ru(input.limit)} %, выигрыш не доказан; ${readingRule}.`,
    };
  }
  const leadText = (r: NonNullable<Alert["forecast"]>) =>
    r.lead_median === null ? "не предупреждал" : `медиана ${ru(r.lead_median, 0)} мин`;
  const figures =
    `«прогноз P ≥ 0,5»: поймано ${forecast.caught} из ${events}, ${leadText(forecast)}, ложных ${ru(forecast.false_per_day)} в сутки; ` +
    `«текущее ≥ 0,9·предела»: поймано ${reading.caught} из ${events}, ${leadText(reading)}, ложных ${ru(reading.false_per_day)} в сутки`;
  // Onset by onset: which rule warned earlier (a missed onset warned of by the other is its win).
  const reads = { issued, warning: FORECAST_ALERT_P, reading: READING_ALERT_SHARE * input.limit };
  const leads = onsetLeads({ ...common, ...reads });
  const readingLeads = onsetLeads({ ...common, ...reads, horizon: 0 });
  let earlier = 0;
  let later = 0;
  leads?.forecast.forEach((f, k) => {
    const r = readingLeads?.reading[k] ?? null;
    const a = f ?? Number.NEGATIVE_INFINITY;
    const b = r ?? Number.NEGATIVE_INFINITY;
    if (a > b) earlier += 1;
    else if (b > a) later += 1;
  });
  const differ = earlier + later;
  const needed = onsetsNeeded(differ);
  if (needed === null) {
    return {
      ...base,
      rule: "reading",
      reason:
        `Недостаточно событий для выбора правила: ${span} превышений предела ${ru(input.limit)} %: ${events}, ` +
        `правила различаются на ${differ} из них, а выигрыш прогноза проверяется не менее чем на 5 (${figures}); ${readingRule}.`,
    };
  }
  const gains = earlier >= needed;
  const noMoreFalse = forecast.false_per_day <= reading.false_per_day;
  const noFewer = forecast.caught >= reading.caught;
  const tally = `раньше на ${earlier} из ${differ} превышений, где правила различаются, нужно не менее ${needed}`;
  if (gains && noMoreFalse && noFewer) {
    return {
      ...base,
      rule: "forecast",
      reason: `Оповещение по прогнозу включено: ${span} оно ${tally}, при не большем числе ложных (${figures}).`,
    };
  }
  const why = !noFewer ? "прогноз поймал меньше событий" : !gains ? `прогноз предупреждал ${tally}` : "у прогноза больше ложных оповещений";
  return { ...base, rule: "reading", reason: `Оповещение по прогнозу не включено: ${span} ${why} (${figures}); ${readingRule}.` };
}

/** «P ≥ 0,5» is no alert rule while P is not shown (judged no better than the base rate,
 *  or too early to judge): the reading's rule acts, and the reason says why. */
export function withChanceJudged(
  alert: Omit<Alert, "raised">,
  probability: { reliable: boolean; note: string | null } | null,
): Omit<Alert, "raised"> {
  if (alert.rule !== "forecast" || probability?.reliable === true) return alert;
  const why = probability?.note ?? "вероятность превышения не проверена.";
  return {
    ...alert,
    rule: "reading",
    reason: `Оповещение по прогнозу не включено: ${why.charAt(0).toLowerCase()}${why.slice(1)} Действует правило «текущее значение ≥ 0,9·предела».`,
  };
}

/** The alert rules chosen lately are kept per binding and meter (alertRules); the
 *  alert rule's back-test is read again after this long (it changes slowly: days of history). */
export const ALERT_REFRESH_MS = 10 * MINUTE_MS;

/** An alert rule chosen, when (UTC ms), and what it was judged on. */
interface AlertRule {
  at: number;
  alert: Omit<Alert, "raised">;
  probability: ProbabilityCheck | null;
  judged: { after: number | null; rows: number };
  near: NearLimit;
  lead: string | null;
  limitNote: string | null;
  shown: ShownForecast;
}

/** The alert rules chosen lately in this host, per binding and meter (alertRuleOf). */
export const alertRules = keptState("alert rules", () => new Map<string, AlertRule>());

/** an earlier round; D96 (b): the last minute of the model's own period (forecast/calibration.ts), as ms. */
export function modelPeriodEnd(run: Pick<Run, "version" | "calibration">): number | null {
  return periodEnd(run, "datetime");
}

async function alertRuleOf(
  deps: ForecastDeps,
  company: string,
  binding: LiveModelBinding,
  run: Run,
  sensors: readonly Sensor[],
  meter: Sensor,
  last: number,
  features: FeatureSensors,
  minutes: MinuteSource = keptMinutes(deps),
): Promise<{
  alert: Omit<Alert, "raised">;
  probability: ProbabilityCheck | null;
  judged: { after: number | null; rows: number };
  near: NearLimit;
  lead: string | null;
  limitNote: string | null;
  shown: ShownForecast;
}> {
  // the history's rows on the 10-minute grid of the clock, not of the meter's latest minute:
  // sampled at 11:23 or 11:25 the same readings give the same rows, so the same judgement.
  const step = LIVE_STEP_MIN * MINUTE_MS;
  const anchor = Math.floor(last / step) * step;
  const fed = Object.entries(features)
    .map(([c, s]) => `${c}=${s?.id ?? ""}`)
    .join(",");
  const key = `${company}|${binding.facility}|${binding.working}|${binding.horizon}|${run.version.id}|${meter.id}|${fed}|${anchor}`;
  const cache = deps.runtime.kept(alertRules);
  const now = deps.clock.now().getTime();
  const hit = cache.get(key);
  if (hit && now - hit.at < ALERT_REFRESH_MS) return hit;
  const count = (ALERT_HISTORY_DAYS * 1440) / LIVE_STEP_MIN;
  const from = anchor - count * step;
  // The same columns as the forecast shown (the back-test is on the columns the tile feeds).
  const wanted = [meter, ...Object.values(features).filter((s): s is Sensor => s !== undefined)];
  const history = new Map<string, Readings>();
  for (const sensor of wanted) history.set(sensor.id, await readingsBetween(deps, company, sensor, from, anchor + MINUTE_MS, minutes));
  const rows = forecastRowsAt(sensors, meter, history, anchor, count, features);
  const done = await runForecast(deps, run, forecastRowsFromJson(rows, run.version.features));
  const time = Float64Array.from(rows, (r) => Date.parse(`${r.t}:00Z`));
  // Only the rows after the model's own period are judged on.
  const after = modelPeriodEnd(run);
  const judged = (k: number) => after === null || time[k] > after;
  // D96 (e): events, lead times, the rules' hits and P's events read each interval's highest minute, not its sampled one.
  const peaks = intervalPeaks(meter, history, anchor, count);
  const measured = Float64Array.from(peaks, (v, k) => (judged(k) ? v : Number.NaN));
  const sampled = Float64Array.from(done.rows, (r, k) => (typeof r.y === "number" && judged(k) ? r.y : Number.NaN));
  const pExceed = Float64Array.from(done.rows, (r, k) => (typeof r.p_exceed === "number" && judged(k) ? r.p_exceed : Number.NaN));
  const alert = chooseAlertRule({ measured, pExceed, time, horizon: binding.horizon, limit: run.settings.limit });
  // The same rows judge the chance of reaching the limit against the base rate.
  const limit = run.settings.limit;
  // D108 (a): the chance is of any minute at or above the limit within the horizon — the window's maximum of the
  // intervals' highest minutes after the row up to its horizon (at 0, the row's own interval).
  const chanceEvents = windowMaxTargets(measured, time, binding.horizon * MINUTE_MS);
  // The band is of the value sampled at the row's minute: it is judged against that.
  const bandTargets = forecastTargets(binding.horizon, sampled, { time, timeKind: "datetime" });
  const stored = run.calibration?.probability;
  // D108 (b): judged with its day-block bootstrap over the week's days.
  const probability = probabilityCheck(pExceed, chanceEvents, limit, stored?.limit === limit ? stored.base_rate : undefined, {
    time,
    horizon: binding.horizon,
  });
  // The band near the limit on the same rows (D96 c): those whose forecast is at or above the
  // warning, and those whose fact is at or above the limit.
  let nearRows = 0;
  let held = 0;
  let factRows = 0;
  let factHeld = 0;
  done.rows.forEach((r, k) => {
    const [target, result, lo, hi] = [bandTargets[k], r.result, r.lo, r.hi];
    if (!Number.isFinite(target) || typeof result !== "number") return;
    if (typeof lo !== "number" || typeof hi !== "number") return;
    const inside = lo <= target && target <= hi ? 1 : 0;
    if (result >= run.settings.warning) {
      nearRows += 1;
      held += inside;
    }
    if (target >= limit) {
      factRows += 1;
      factHeld += inside;
    }
  });
  const share = (rows: number, n: number) => (rows > 0 ? { rows, coverage: n / rows } : null);
  const near = nearLimit(share(nearRows, held), run.settings.level, share(factRows, factHeld));
  // D96 (c): where the forecast shown under-forecast the facts at the limit on these rows, the tile says so.
  const limitNote = done.backtest?.limit_error?.note ?? null;
  // the lead time by the back-test's one definition (the forecast ≥ W against the current reading ≥ W).
  const issued = Float64Array.from(done.rows, (r) => (typeof r.result === "number" ? r.result : Number.NaN));
  const events = eventTable({ measured, issued, time, horizon: binding.horizon, level: limit, warning: run.settings.warning });
  const lead = events ? leadNote(binding.horizon, events) : null;
  const checked = {
    alert,
    probability,
    judged: { after, rows: measured.filter(Number.isFinite).length },
    near,
    lead,
    limitNote,
    shown: done.backtest?.shown ?? ("model" as ShownForecast),
  };
  cache.set(key, { at: now, ...checked });
  return checked;
}

const modelLabel = (run: Run) =>
  `${FORECAST_METHOD_TITLES[run.version.method as ForecastMethod]}, версия ${run.version.version}${run.version.company ? " (модель компании)" : " (модель платформы)"}`;

/** A digest of what a forecast is computed from: its model, meter, levels and rows. */
export function forecastRowsKey(binding: Pick<LiveModelBinding, "method" | "model" | "horizon">, meter: Sensor, rows: unknown): string {
  const what = JSON.stringify([binding.method, binding.model, binding.horizon, meter.id, meter.warning, meter.alarm, rows]);
  return createHash("sha256").update(what).digest("base64url").slice(0, 27);
}

/** The deps a working's forecast is computed with: the models are scored by the host's scoring where
 *  it has one (the local server's threads), else in this process. */
export type ForecastDeps = Pick<Deps, "repos" | "clock" | "blobs" | "runtime"> & Partial<Pick<Deps, "config" | "modelScoring">>;

/**
 * The forecast of a working at a binding's horizon from its readings (the last 24 h: liveWindow), as the
 * tile shows it, stored as the working's latest (StoredLiveForecast), its D65 forecast events opened,
 * closed and settled (forecast-events.ts). `stored`, the one kept before: when it was computed from the
 * same rows (rows_key) it is answered as it is and nothing is computed. Undefined when the working has
 * no methane meter the binding forecasts. Each data column is read from its sensor (featureSensors: the
 * binding's, any of `facility`'s, else the working's by kind), whose readings `readings` holds, or their
 * kept minute means (the forecaster's, forecast-means.ts: the same rows, bit for bit).
 */
export async function forecastWorking(
  deps: ForecastDeps,
  company: string,
  binding: LiveModelBinding,
  sensors: readonly Sensor[],
  readings: ReadonlyMap<string, Readings | SensorMeans>,
  stored?: StoredLiveForecast,
  facility: readonly Sensor[] = sensors,
  minutes?: MinuteSource,
): Promise<StoredLiveForecast | undefined> {
  const meter = forecastMeter(sensors, binding);
  if (!meter) return undefined;
  const features = featureSensors(sensors, binding, facility);
  const lastReading = latestOf(readings.get(meter.id));
  const last = lastReading ? Math.floor(lastReading.at / MINUTE_MS) * MINUTE_MS : null;
  const rows = last === null ? null : forecastRowsAt(sensors, meter, readings, last, LIVE_ROWS, features);
  const rowsKey = forecastRowsKey(binding, meter, rows);
  if (stored && stored.rows_key === rowsKey && stored.model === binding.model && stored.sensor === meter.id) return stored;
  const forecast = await tileForecast(deps, company, binding, sensors, meter, lastReading, last, rows, features, minutes);
  const next: StoredLiveForecast = {
    company,
    facility: binding.facility,
    working: binding.working,
    horizon: binding.horizon,
    method: binding.method,
    model: binding.model,
    sensor: meter.id,
    issued: last,
    rows_key: rowsKey,
    computed_at: deps.clock.now().toISOString(),
    forecast,
  };
  await deps.repos.liveBindings.putForecast(next);
  return next;
}

async function tileForecast(
  deps: ForecastDeps,
  company: string,
  binding: LiveModelBinding,
  sensors: readonly Sensor[],
  meter: Sensor,
  lastReading: { value: number; at: number } | null,
  last: number | null,
  rows: Record<string, number | string | null>[] | null,
  features: FeatureSensors,
  minutes?: MinuteSource,
): Promise<LiveForecast> {
  const run = await runFor(deps, company, binding, meter);
  // ML M1: the columns the model was trained on, each with the sensor that feeds it; one
  // without is named on the tile (it was left empty silently).
  // the model's named features after them, each with the working's sensor bound to it.
  const columns = [
    ...modelColumns(run.version.feature_names).map((column) => ({
      column: column as string,
      label: FEATURE_LABELS[column],
      sensor: features[column]?.code ?? null,
    })),
    ...(run.version.features ?? []).map((name) => ({ column: name, label: name, sensor: features[name]?.code ?? null })),
  ];
  const unfed = columns.filter((c) => c.sensor === null);
  const unfedNote =
    unfed.length === 0
      ? ""
      : `Модель обучена на столбцах, для которых не задан датчик: ${unfed.map(columnText).join(", ")} — ` +
        "прогноз считается без них. Задайте датчики в настройке прогноза выработки.";
  const base = {
    horizon: binding.horizon,
    horizon_label: horizonLabel(binding.horizon),
    model: { id: run.version.id, method: run.version.method, version: run.version.version, label: modelLabel(run) },
    sensor: meter.code,
    limit: run.settings.limit,
    level: run.settings.level,
    columns,
  };
  const none = { issued_at: null, for: null, result: null, lo: null, hi: null, p_exceed: null };
  const noAlert: Alert = {
    rule: "reading",
    reason: "Оповещение по прогнозу не включено: нет показаний метана за сутки.",
    days: 0,
    events: 0,
    forecast: null,
    reading: null,
    raised: false,
  };
  if (!lastReading || last === null || rows === null)
    return { ...base, ...none, note: `Нет показаний датчика ${meter.code} за сутки: прогноз не считается.`, alert: noAlert };
  const {
    alert: chosen,
    probability: history,
    judged,
    near,
    lead,
    limitNote,
    shown,
  } = await alertRuleOf(deps, company, binding, run, sensors, meter, last, features, minutes);
  // D96 (d): what is shown is what the working's 7-day back-test decided (a day is too short for the day-block test).
  const row = await forecastNow(deps, run, rows, shown);
  const result = typeof row.result === "number" ? row.result : null;
  const probability = run.calibration ? judgedProbability(history, run.calibration, run.settings.limit) : null;
  // D108 (c): the tile's data carries the chance only where it is shown (judged better than the base rate).
  const p = typeof row.p_exceed === "number" && probability?.reliable === true ? row.p_exceed : null;
  const alertRule = withChanceJudged(chosen, probability);
  // where the working's rows after the model's own period are too few yet, the tile says so.
  const fewAfter =
    judged.after !== null && (history === null || history.reliable === null)
      ? `После периода обучения и калибровки модели на истории выработки за ${ALERT_HISTORY_DAYS} сут. строк с фактом ` +
        `${ru(judged.rows, 0)}, из них от предела ${history?.events ?? 0} — пока мало, чтобы судить по ним о вероятности и правиле оповещения.`
      : "";
  const raised =
    alertRule.rule === "forecast" ? p !== null && p >= FORECAST_ALERT_P : lastReading.value >= READING_ALERT_SHARE * run.settings.limit;
  // D65's forecast events (forecast-events.ts): opened, closed and settled from this forecast.
  await recordForecast(deps, {
    company,
    facility: binding.facility,
    meter,
    horizon: binding.horizon,
    limit: run.settings.limit,
    at: last,
    p,
    ruleOn: alertRule.rule === "forecast",
  });
  const note =
    result === null
      ? `Нет показаний метана в последние минуты, нужные модели (${LIVE_STEP_MIN}-минутный шаг, лаги за час): прогноз не считается.`
      : !run.calibration
        ? "Модель не откалибрована: интервал и вероятность превышения не рассчитываются."
        : "";
  // D108, item f: the notes one by one (the tile shows each on a line of its own).
  const notes = [
    note,
    unfedNote,
    lead === null ? "" : `${lead}.`,
    probability?.note ?? "",
    fewAfter,
    !run.calibration ? "" : (nearLimitNote(near, run.settings.level, run.settings.warning, run.settings.limit) ?? ""),
    limitNote === null ? "" : `${limitNote}.`,
  ].filter((n) => n !== "");
  return {
    ...base,
    issued_at: new Date(last).toISOString(),
    for: new Date(last + binding.horizon * MINUTE_MS).toISOString(),
    result,
    // The last reading shown, the model losing to it on the history: its own figure too.
    ...("model_result" in row ? { model_result: typeof row.model_result === "number" ? row.model_result : null } : {}),
    shown: row.shown,
    lo: typeof row.lo === "number" ? row.lo : null,
    hi: typeof row.hi === "number" ? row.hi : null,
    p_exceed: p,
    ...(probability
      ? {
          probability: {
            event: binding.horizon > 0 ? ("window_max" as const) : ("value" as const),
            event_text: chanceEventWords(binding.horizon, run.settings.limit),
            gain: probability.gain
              ? { lo: probability.gain.lo, hi: probability.gain.hi, holds: probability.gain.holds, blocks: probability.gain.blocks }
              : null,
            reliable: probability.reliable,
            judgement: probability.judgement,
            brier: probability.brier ?? null,
            base_brier: probability.base_brier ?? null,
            rows: probability.rows ?? 0,
            events: probability.events ?? 0,
            judged_on: probability.judged_on,
            judged_after: judged.after === null ? null : new Date(judged.after).toISOString(),
          },
        }
      : {}),
    // a band that did not hold near the limit on the working's own rows is said not to be trusted there.
    near_limit: near,
    warning: run.settings.warning,
    lead_note: lead,
    limit_note: limitNote,
    note: notes.join(" "),
    notes,
    alert: { ...alertRule, raised },
  };
}

export async function liveInputs(deps: Deps, company: string, facility: { id: string; name: string }): Promise<LiveInputs> {
  const sensors = [...(await facilityRegister(deps, company, facility.id))];
  const bindings = await deps.repos.liveBindings.listOfFacility(company, facility.id);
  const { from, to } = liveWindow(deps.clock.now().getTime());
  const readings = new Map<string, Readings>();
  // The tiles' sensors (the workings' and the places'), and those a binding names for a column (the mine's
  // return, the barometer).
  const named = new Set(bindings.flatMap((b) => Object.values(b.features ?? {})));
  const minutes = keptMinutes(deps);
  for (const sensor of sensors) {
    if (onTiles(sensor) || (sensor.is_active && named.has(sensor.id)))
      readings.set(sensor.id, await readingsBetween(deps, company, sensor, from, to, minutes));
  }
  const head = await deps.repos.monitoring.getLiveHead(company, facility.id);
  const workings = workingsOf(sensors);
  const groups = bindings.flatMap((binding) => {
    const working = workings.get(binding.working);
    const meter = working && forecastMeter(working, binding);
    if (!working || !meter) return [];
    return [{ meter, read: [meter, ...Object.values(featureSensors(working, binding, sensors))].filter((s) => s !== undefined) }];
  });
  await readRowsBack(deps, company, readings, groups, from);
  return { facility, sensors, bindings, readings, silentSince: silentSince(head?.sensors, readings) };
}

/** the latest instant kept of each sensor read without a reading in the window. */
export function silentSince(
  heads: Readonly<Record<string, { at: number }>> | undefined,
  readings: ReadonlyMap<string, Readings>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, r] of readings) {
    const at = heads?.[id]?.at;
    if (r.times.length === 0 && at !== undefined) out.set(id, at);
  }
  return out;
}

/** The tiles of the facility from its inputs, and their ETag. Each bound model's forecast is the one the
 *  forecaster stored for the working (forecaster.ts, computed as each minute arrives, whether a page
 *  watches or not); computed here, and stored, only where none is stored for the binding's model and
 *  meter (a model bound since, or readings from before the forecaster ran). */
export async function liveFrom(deps: Deps, company: string, inputs: LiveInputs): Promise<LiveView>;
/** `keptForecastsOnly`: undefined where a bound model's forecast is not stored, nothing computed (the
 *  tiles from the kept heads, live-head.ts, computed on the request thread). */
export async function liveFrom(
  deps: Deps,
  company: string,
  inputs: LiveInputs,
  options: { keptForecastsOnly: true },
): Promise<LiveView | undefined>;
export async function liveFrom(
  deps: Deps,
  company: string,
  inputs: LiveInputs,
  options?: { keptForecastsOnly: true },
): Promise<LiveView | undefined> {
  const now = deps.clock.now().getTime();
  const tiles: LiveTile[] = [];
  const stored = inputs.bindings.length > 0 ? await deps.repos.liveBindings.forecastsOfFacility(company, inputs.facility.id) : [];
  // D98: the meters with an entry of the gassing book in force.
  const open = await openGassings(deps, company, inputs.facility.id);
  for (const [working, sensors] of workingsOf(inputs.sensors)) {
    const features = featureSensors(sensors);
    const meters = sensors
      .filter((s) => METHANE_KINDS.has(s.kind))
      .map((s) => meterOf(s, inputs.readings.get(s.id), now, inputs.silentSince?.get(s.id), open.get(s.code)));
    const bound = inputs.bindings.filter((b) => b.working === working).sort((a, b) => a.horizon - b.horizon);
    const forecasts: LiveForecast[] = [];
    let forecastNote = bound.length === 0 ? NO_MODEL_NOTE : "";
    for (const binding of bound) {
      try {
        const meter = forecastMeter(sensors, binding);
        // A forecast behind the meter's latest minute by more than STORED_FORECAST_LAG_MS (the forecaster
        // failed on it: a model archived since, say), or of a day ago, is not shown: computed again here, and its reason
        // said (its meter silent since, the model refused).
        const meterLast = meter ? latest(inputs.readings.get(meter.id))?.at : undefined;
        const current = (issued: number | null) =>
          meterLast === undefined
            ? issued === null || issued >= now - DAY_MS
            : issued !== null && Math.floor(meterLast / MINUTE_MS) * MINUTE_MS - issued <= STORED_FORECAST_LAG_MS;
        const kept = stored.find(
          (f) =>
            f.working === binding.working &&
            f.horizon === binding.horizon &&
            f.model === binding.model &&
            f.sensor === meter?.id &&
            // Bound again since (its columns' sensors changed): computed again.
            f.computed_at >= binding.bound_at &&
            current(f.issued),
        );
        if (!kept && meter && options?.keptForecastsOnly) return undefined;
        const forecast = kept ?? (await forecastWorking(deps, company, binding, sensors, inputs.readings, undefined, inputs.sensors));
        if (forecast)
          forecasts.push(withSilent(forecast.forecast, featureSensors(sensors, binding, inputs.sensors), meter, inputs.readings, now));
        else forecastNote = "В выработке нет датчика метана, который выбран для прогноза: прогноз не считается.";
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        forecastNote = `Прогноз на ${horizonLabel(binding.horizon)} не считается: ${error.message}`;
      }
    }
    tiles.push({
      working,
      place: null,
      meters,
      air_flow: flowOf(features.x1, inputs.readings, now, inputs.silentSince),
      drainage_flow: flowOf(features.x8, inputs.readings, now, inputs.silentSince),
      // D101: every other channel of the working the register holds, with its silence.
      channels: sensors
        .filter((s) => !METHANE_KINDS.has(s.kind) && s.id !== features.x1?.id && s.id !== features.x8?.id)
        .map((s) => channelOf(s, inputs.readings.get(s.id), now, inputs.silentSince?.get(s.id))),
      forecasts,
      forecast_note: forecastNote,
      updated_at: updatedAt(sensors, inputs.readings),
    });
  }
  // the sensors without a working, under their place: no model is bound to a place.
  for (const [place, sensors] of placesOf(inputs.sensors)) {
    const pipeline = PIPELINE_PLACES.includes(place);
    const air = pipeline ? undefined : (sensors.find((s) => s.kind === "air_velocity") ?? sensors.find((s) => s.kind === "flow"));
    const drainage = pipeline ? sensors.find((s) => s.kind === "flow") : undefined;
    tiles.push({
      working: "",
      place,
      meters: sensors
        .filter((s) => METHANE_KINDS.has(s.kind))
        .map((s) => meterOf(s, inputs.readings.get(s.id), now, inputs.silentSince?.get(s.id), open.get(s.code))),
      air_flow: flowOf(air, inputs.readings, now, inputs.silentSince),
      drainage_flow: flowOf(drainage, inputs.readings, now, inputs.silentSince),
      channels: sensors
        .filter((s) => !METHANE_KINDS.has(s.kind) && s !== air && s !== drainage)
        .map((s) => channelOf(s, inputs.readings.get(s.id), now, inputs.silentSince?.get(s.id))),
      forecasts: [],
      forecast_note: "",
      updated_at: updatedAt(sensors, inputs.readings),
    });
  }
  // What is taken and not yet read into the events and the book, said beside the tiles.
  const processing = await facilityProcessing(deps, company, inputs.facility.id);
  const etag = `"${createHash("sha256")
    .update(JSON.stringify([tiles, processing?.text ?? null]))
    .digest("base64url")
    .slice(0, 27)}"`;
  return {
    facility: inputs.facility.id,
    facility_name: inputs.facility.name,
    now: new Date(now).toISOString(),
    tiles,
    processing,
    advisory: ADVISORY_NOTE,
    etag,
  };
}

/** The latest reading of any of a tile's sensors (ISO); null without one in the window. */
function updatedAt(sensors: readonly Sensor[], readings: ReadonlyMap<string, Readings>): string | null {
  const lastAt = Math.max(...sensors.map((s) => latest(readings.get(s.id))?.at ?? Number.NEGATIVE_INFINITY));
  return Number.isFinite(lastAt) ? new Date(lastAt).toISOString() : null;
}

/** A column as the tile names it: «x1 («Расход воздуха …»)»; a named feature by its name alone. */
const columnText = (c: { column: string; label: string }) => (c.column === c.label ? `«${c.label}»` : `${c.column} («${c.label}»)`);

/** an earlier round [A]: a sensor feeding a bound model that has sent nothing for this long is silent. */
export const SILENT_MINUTES = 8;

/** The forecast as the tile shows it now: each column whose sensor (not the forecast's meter) has sent
 *  nothing for SILENT_MINUTES named silent, the forecast marked as made without it (ML audit: the tile
 *  listed such a sensor as feeding while its column was empty). */
export function withSilent(
  forecast: LiveForecast,
  features: FeatureSensors,
  meter: Sensor | undefined,
  readings: ReadonlyMap<string, Readings>,
  now: number,
): LiveForecast {
  if (!forecast.columns) return forecast;
  const lastOf = (sensor: Sensor | undefined) => (sensor ? latest(readings.get(sensor.id))?.at : undefined);
  // Silent as of the minute the forecast is made at (its meter's latest): a gateway gone quiet as a whole
  // leaves the meter stale, said on the meter; without a reading in the tiles' window (a day), since its start.
  const at = forecast.issued_at === null ? now : Math.min(now, Date.parse(forecast.issued_at));
  const silentOf = (sensor: Sensor | undefined): number | null => {
    if (!sensor || sensor.id === meter?.id) return null;
    const minutes = Math.floor((at - (lastOf(sensor) ?? liveWindow(now).from)) / MINUTE_MS);
    return minutes >= SILENT_MINUTES ? minutes : null;
  };
  const columns = forecast.columns.map((c) => ({ ...c, silent_minutes: c.sensor === null ? null : silentOf(features[c.column]) }));
  const silent = columns.filter((c) => c.silent_minutes !== null);
  if (silent.length === 0) return forecast;
  const said = silent.map(
    (c) =>
      `${c.sensor} (${c.column === c.label ? `«${c.label}»` : `${c.column}, «${c.label}»`}): ${
        lastOf(features[c.column]) === undefined ? "нет показаний за сутки" : `нет показаний ${silenceSpan(c.silent_minutes as number)}`
      }`,
  );
  const note = `Датчики модели молчат — ${said.join("; ")}: прогноз сделан без их показаний.`;
  return {
    ...forecast,
    columns,
    made_without: [...new Set(silent.map((c) => c.sensor as string))],
    note: [forecast.note, note].filter((n) => n !== "").join(" "),
    // D108 (f): the tile shows `notes`, a line each; the silence is one of them (not only in the joined note).
    ...(forecast.notes ? { notes: [...forecast.notes, note] } : {}),
  };
}

/** GET v1/telemetry/live/: the facility's tiles (another company's facility is 404). */
export async function liveView(deps: Deps, actor: Actor, facilityId: string): Promise<LiveView> {
  const facility = await getFacility(deps, actor, facilityId);
  return liveFrom(deps, actor.company, await liveInputs(deps, actor.company, facility));
}

export type LiveBindBody = z.output<typeof liveBindBodySchema>;

/** POST v1/telemetry/live/models/: binds a model to a working at a horizon (model null: unbinds). */
export async function bindLiveModel(deps: Deps, actor: Actor, body: LiveBindBody): Promise<LiveModelBinding[]> {
  if (actor.role === "reviewer")
    throw new Forbidden("Недостаточно прав: модель прогноза выработки выбирают сотрудники площадки, не проверяющий");
  const facility = await getFacility(deps, actor, body.facility);
  const horizons = HORIZONS.filter((h) => h > 0);
  if (!(horizons as readonly number[]).includes(body.horizon)) {
    throw invalidAt("horizon", `горизонт прогноза ${horizons.map(horizonLabel).join(", ")} (в минутах: ${horizons.join(", ")})`);
  }
  const sensors = await deps.repos.sensors.listOfFacility(actor.company, facility.id);
  const working = workingsOf(sensors).get(body.working.trim());
  if (!working) throw invalidAt("working", `на площадке нет выработки «${body.working}» с датчиками в работе`);
  const sensor = body.sensor ?? null;
  if (!forecastMeter(working, { sensor })) {
    throw sensor
      ? invalidAt("sensor", "такого датчика метана нет в выработке")
      : invalidAt("working", "в выработке нет датчика метана для прогноза");
  }
  // ML M1: a column's sensor, any active one of the facility of a kind the column takes.
  const features: Partial<Record<FeatureColumn, string>> = {};
  for (const [column, id] of Object.entries(body.features ?? {}) as [FeatureColumn, string][]) {
    const named = sensors.find((s) => s.id === id && s.is_active);
    if (!named) throw invalidAt(`features.${column}`, `такого датчика в работе нет на площадке`);
    if (!FEATURE_KINDS[column].includes(named.kind)) {
      const kinds = FEATURE_KINDS[column].map((k) => SENSOR_KINDS[k].label).join(" или ");
      throw invalidAt(`features.${column}`, `датчик ${named.code} не подходит для столбца «${FEATURE_LABELS[column]}»: нужен ${kinds}`);
    }
    features[column] = id;
  }
  if (body.model === null) await deps.repos.liveBindings.remove(actor.company, facility.id, body.working.trim(), body.horizon);
  else {
    const method = body.method ?? "xgboost";
    // The model must exist for the company, not archived, and be of the horizon (the forecast route's own check).
    const version = await forecastRun(
      deps,
      actor.company,
      method,
      { level: DEFAULT_INTERVAL_LEVEL, limit: METHANE_LIMIT_PERCENT, warning: DEFAULT_WARNING_PERCENT, horizon: body.horizon },
      body.model,
    );
    // the tile feeds 10-minute rows; a model ahead trained on another step is refused, named.
    const trainedStep = version.version.training?.step;
    if (body.horizon > 0 && trainedStep !== undefined && trainedStep !== LIVE_STEP_MIN)
      throw invalidAt("model", stepMismatch(trainedStep, LIVE_STEP_MIN));
    const channels = boundChannels(version.version.features ?? [], body.channels ?? {}, working, body.working.trim());
    await deps.repos.liveBindings.put({
      company: actor.company,
      facility: facility.id,
      working: body.working.trim(),
      horizon: body.horizon,
      method,
      model: version.version.id,
      sensor,
      ...(Object.keys(features).length > 0 ? { features } : {}),
      ...(Object.keys(channels).length > 0 ? { channels } : {}),
      bound_at: deps.clock.now().toISOString(),
      bound_by: actor.email,
    });
  }
  return listLiveModels(deps, actor, facility.id);
}

/**
 * the sensor of the working each of the model's named features is read from — every one
 * bound, none the model does not read, each an active sensor of this working (another working's, another
 * facility's or company's is refused alike: nothing is said of what it is).
 */
function boundChannels(
  features: readonly string[],
  asked: Readonly<Record<string, string>>,
  working: readonly Sensor[],
  name: string,
): Record<string, string> {
  const extra = Object.keys(asked).filter((f) => !features.includes(f));
  if (extra.length > 0) {
    throw invalidAt(
      "channels",
      `модель не читает ${extra.map((f) => `«${f}»`).join(", ")}: ${features.length > 0 ? `ее собственные столбцы — ${features.map((f) => `«${f}»`).join(", ")}` : "у нее нет собственных столбцов"}`,
    );
  }
  const channels: Record<string, string> = {};
  for (const feature of features) {
    const id = asked[feature];
    if (!id) throw invalidAt("channels", `выберите датчик выработки «${name}» для столбца модели «${feature}»`);
    if (!working.some((s) => s.id === id && s.is_active)) {
      throw invalidAt("channels", `столбец модели «${feature}»: такого датчика в работе нет в выработке «${name}»`);
    }
    channels[feature] = id;
  }
  return channels;
}

export async function listLiveModels(deps: Deps, actor: Actor, facilityId: string): Promise<LiveModelBinding[]> {
  const facility = await getFacility(deps, actor, facilityId);
  return deps.repos.liveBindings.listOfFacility(actor.company, facility.id);
}

export type LiveChart = z.output<typeof liveChartSchema>;

/** D108 (c): the rows a day chart forecasts before its day — the day each row's band is updated on, and the lags'
 *  two hours before it. */
export const CHART_DAY_BEFORE_ROWS = LIVE_ROWS + 12;

/** GET v1/telemetry/live/chart/: a working's last 24 h — its methane meters' minute means (D59) with W
 *  and A, and each bound model's forecasts over the same 144 rows, each at the time it is for. */
/**
 * what a working's day chart reads — its methane meters and the sensors its bound
 * models' rows read, not the facility's every sensor (200 meters' days for one working's chart): their
 * kept means where the working has a bound model (forecast-means.ts, the forecaster's, a push's minutes
 * read since), else their readings of the window, and the rows before a meter's latest minute where the
 * feed is behind the clock (readRowsBack).
 */
async function chartInputs(
  deps: Deps,
  company: string,
  facility: { id: string; name: string },
  working: string,
): Promise<{ sensors: Sensor[]; bindings: LiveModelBinding[]; readings: Map<string, Readings | SensorMeans> }> {
  const sensors = [...(await facilityRegister(deps, company, facility.id))];
  const bindings = (await deps.repos.liveBindings.listOfFacility(company, facility.id)).filter((b) => b.working === working);
  const own = workingsOf(sensors).get(working) ?? [];
  const groups = bindings.flatMap((binding) => {
    const meter = forecastMeter(own, binding);
    if (!meter) return [];
    return [{ meter, read: [meter, ...Object.values(featureSensors(own, binding, sensors))].filter((s) => s !== undefined) }];
  });
  const read = [
    ...new Map([...own.filter((s) => METHANE_KINDS.has(s.kind)), ...groups.flatMap((g) => g.read)].map((s) => [s.id, s])).values(),
  ];
  const window = liveWindow(deps.clock.now().getTime());
  const readings = await workingReadings(deps, company, facility.id, working, read, window, keptMinutes(deps));
  // The rows back of a meter read whole (none kept): its readings, and its columns', before the window.
  const raw = new Map<string, Readings>();
  for (const [id, r] of readings) if (!("means" in r)) raw.set(id, r);
  await readRowsBack(
    deps,
    company,
    raw,
    groups.filter((g) => raw.has(g.meter.id)),
    window.from,
  );
  for (const [id, r] of raw) readings.set(id, r);
  return { sensors, bindings, readings };
}

/**
 * D108 (c): a sensor's series from `from` (on a minute) for a day chart's rows: `held` (its kept means or
 * readings, chartInputs') with storage's readings before them put in front — a minute's mean is its own
 * readings' alone, so the series is the readings', bit for bit, and the day of minutes `held` covers is not
 * read again. Without `held`, storage's readings of the whole stretch.
 */
async function withEarlier(
  deps: Deps,
  company: string,
  sensor: Sensor,
  held: Readings | SensorMeans | undefined,
  from: number,
  to: number,
): Promise<Readings | SensorMeans> {
  const read = (until: number) => readingsBetween(deps, company, sensor, from, until, keptMinutes(deps));
  if (!held) return read(to);
  if ("means" in held) {
    if (held.from <= from) return held;
    const early = await read(held.from);
    const before = minuteMeans(sensor.kind, early.times, early.values, from, (held.from - from) / MINUTE_MS).values;
    const means = new Float64Array(before.length + held.means.length);
    means.set(before);
    means.set(held.means, before.length);
    return { ...held, from, means };
  }
  const first = held.times.length > 0 ? held.times[0] : to;
  if (first <= from) return held;
  const early = await read(first);
  const times = new Float64Array(early.times.length + held.times.length);
  const values = new Float64Array(times.length);
  times.set(early.times);
  times.set(held.times, early.times.length);
  values.set(early.values);
  values.set(held.values, early.values.length);
  return { times, values };
}

export async function liveChart(deps: Deps, actor: Actor, facilityId: string, working: string): Promise<LiveChart> {
  const facility = await getFacility(deps, actor, facilityId);
  const inputs = await chartInputs(deps, actor.company, facility, working);
  const sensors = workingsOf(inputs.sensors).get(working);
  if (!sensors) throw new NotFound(`На площадке нет выработки «${working}» с датчиками в работе`);
  const now = deps.clock.now().getTime();
  const start = Math.floor((now - DAY_MS) / MINUTE_MS) * MINUTE_MS;
  const minutes = DAY_MS / MINUTE_MS + 1;
  // D98: a meter's entry of the gassing book in force, said as the tile says it.
  const open = await openGassings(deps, actor.company, facility.id);
  const meters = sensors
    .filter((s) => METHANE_KINDS.has(s.kind))
    .map((s) => {
      const r = inputs.readings.get(s.id);
      const means = !r
        ? new Float64Array(0)
        : "means" in r
          ? meansAt(r, start, minutes)
          : minuteMeans(s.kind, r.times, r.values, start, minutes).values;
      const t: string[] = [];
      const v: number[] = [];
      means.forEach((value, m) => {
        if (Number.isFinite(value)) {
          t.push(new Date(start + m * MINUTE_MS).toISOString());
          v.push(value);
        }
      });
      const gassing = open.get(s.code);
      const last = v.at(-1);
      return {
        code: s.code,
        warning: s.warning,
        alarm: s.alarm,
        t,
        v,
        gassing: gassing ? { ...gassing, label: gassingLabel(last ?? gassing.norm, gassing.norm) } : null,
      };
    });
  const forecasts: LiveChart["forecasts"] = [];
  for (const binding of inputs.bindings.filter((b) => b.working === working).sort((a, b) => a.horizon - b.horizon)) {
    const meter = forecastMeter(sensors, binding);
    const last = meter && latestOf(inputs.readings.get(meter.id));
    if (!meter || !last) continue;
    try {
      const run = await runFor(deps, actor.company, binding, meter);
      const features = featureSensors(sensors, binding, inputs.sensors);
      const minute = Math.floor(last.at / MINUTE_MS) * MINUTE_MS;
      // D108 (c): one band per row. Each row's band is updated on the facts of the day before it (D96 a): the chart's
      // rows are forecast with that day and the lags' hours before them, and the day's 144 kept — each row's band the
      // route's and the tile's (the first rows of a 24 h request had less of their day: bands 15 % narrower at 1 h).
      // Of storage only the stretch before what the chart's inputs hold (its kept means, its readings) is read.
      const count = LIVE_ROWS + CHART_DAY_BEFORE_ROWS;
      const history = new Map<string, Readings | SensorMeans>();
      const wanted = [meter, ...Object.values(features).filter((s): s is Sensor => s !== undefined)];
      const from = minute - count * LIVE_STEP_MIN * MINUTE_MS;
      for (const sensor of wanted)
        history.set(sensor.id, await withEarlier(deps, actor.company, sensor, inputs.readings.get(sensor.id), from, minute + MINUTE_MS));
      const all = forecastRowsAt(sensors, meter, history, minute, count, features);
      // D96 (d): the series the tile shows, decided on the working's 7-day back-test.
      const { shown } = await alertRuleOf(deps, actor.company, binding, run, sensors, meter, minute, features);
      const whole = await runForecast(deps, run, forecastRowsFromJson(all, run.version.features), shown);
      const rows = all.slice(-LIVE_ROWS);
      const done = { rows: whole.rows.slice(-LIVE_ROWS) };
      const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
      forecasts.push({
        horizon: binding.horizon,
        horizon_label: horizonLabel(binding.horizon),
        sensor: meter.code,
        t: rows.map((r) => new Date(Date.parse(`${r.t}:00Z`) + binding.horizon * MINUTE_MS).toISOString()),
        result: done.rows.map((r) => num(r.result)),
        lo: done.rows.map((r) => num(r.lo)),
        hi: done.rows.map((r) => num(r.hi)),
      });
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
    }
  }
  return { working, from: new Date(start).toISOString(), to: new Date(now).toISOString(), meters, forecasts };
}
