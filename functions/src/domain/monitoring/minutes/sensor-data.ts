// What the mine's readings give per sensor, for the «Датчики» screens (methodology D58–D62, D64): each
// sensor's completeness by month of a year, its gaps in a month with how each was substituted (D60 as
// 40 CFR 98.325(b)) or left «нет данных», and its day minute by minute with the quality flags (D58) and
// the levels W, A and 0,9·W. The minutes are the offers' (offers.ts): a sensor's month on the company's
// clock within its dates in service, a methane meter's «залипание» read against its point's flow, so a
// month's gaps here are the ones behind the month's offer. Advisory: the cut-off stays with the АГК.
import { instantOfWallTime, isoDateIn, zoneOf } from "@core/company-clock";
import {
  Flag,
  flagQuality,
  MAX_SUBSTITUTED_GAP_MIN,
  MinuteState,
  minuteMeans,
  PRE_WARNING_SHARE,
  rollUp,
  SENSOR_KINDS,
  sensorMinutes,
  substitute,
  NEVER_SUBSTITUTED_KINDS,
  type MinuteSeries,
  type SensorKind,
  type Substituted,
} from "@core/monitoring";
import { DAY_MS, MINUTE_MS, ruDate } from "@core/dates";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Invalid, invalidAt } from "../../errors";
import { getFacility } from "../../company/facilities";
import type { Sensor } from "../../../ports";
import type { gapSchema, sensorCompletenessSchema, sensorDayViewSchema, sensorGapsSchema } from "../../../contract/schemas/sensor-data";
import { LIMITS } from "../../../contract/schemas/limits";
import { readingsBetween, sharedMinutes, type MinuteSource } from "../ingest/stored-readings";
import { monthWindow, sensorsOf, type MonthWindow } from "./offers";
import { getSensor, registerAt } from "../ingest/register";

export type SensorCompleteness = z.output<typeof sensorCompletenessSchema>;
export type SensorGaps = z.output<typeof sensorGapsSchema>;
export type SensorDayView = z.output<typeof sensorDayViewSchema>;
type Gap = z.output<typeof gapSchema>;

const CONTENT_KINDS: readonly SensorKind[] = ["methane", "methane_high", "methane_flow"];

/** The local midnight (company clock) that starts an ISO date. */
function midnight(date: string, zone: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return instantOfWallTime(y, m, d, 0, 0, zone);
}

/** The month's minutes the sensor was in service (D62's expected), or undefined for none. */
function serviceWindow(sensor: Sensor, month: MonthWindow, zone: string): MonthWindow | undefined {
  let start = month.start;
  let end = month.start + month.minutes * MINUTE_MS;
  if (sensor.in_service_from) start = Math.max(start, midnight(sensor.in_service_from, zone));
  if (sensor.in_service_to) end = Math.min(end, midnight(sensor.in_service_to, zone) + DAY_MS);
  if (end <= start) return undefined;
  return { ...month, start, minutes: Math.round((end - start) / MINUTE_MS) };
}

/**
 * a month's minutes in service where no date put in service is registered. The service
 * then begins on the day the sensor was registered, or on the day of its first reading where one came
 * before (an export back-filled): a month before both is no month of service («—»), never 0 %; a month
 * after a month whose service began (`begunBefore`) is in service whole, read or not. With a date put in
 * service, or a month after the registration, the window as it is.
 */
async function begunWindow(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  sensors: readonly Sensor[],
  window: MonthWindow,
  zone: string,
  minutes?: MinuteSource,
  begunBefore = false,
): Promise<(Computed & { window: MonthWindow }) | undefined> {
  const computed = await sensorWindow(deps, sensor, sensors, window, minutes);
  const registered = midnight(isoDateIn(sensor.created_at, zone), zone);
  if (begunBefore || sensor.in_service_from || registered <= window.start) return { ...computed, window };
  const first = computed.series.flags.findIndex((f) => f !== Flag.NONE);
  const read = first < 0 ? Number.POSITIVE_INFINITY : midnight(isoDateIn(new Date(window.start + first * MINUTE_MS), zone), zone);
  const begin = Math.min(registered, read);
  const end = window.start + window.minutes * MINUTE_MS;
  if (begin >= end) return undefined;
  if (begin === window.start) return { ...computed, window };
  const begun = { ...window, start: begin, minutes: Math.round((end - begin) / MINUTE_MS) };
  return { ...(await sensorWindow(deps, sensor, sensors, begun, minutes)), window: begun };
}

interface Computed {
  /** D59 minute means with D58's flags. */
  series: MinuteSeries;
  /** D60: the valid values and their substitutes. */
  result: Substituted;
  /** The readings are the demo's simulated ones (ingest/stored-readings.ts DEMO_BATCH): «демонстрационные данные». */
  demo: boolean;
}

/** A sensor's minutes over `window`: its readings' minute means flagged (a methane meter's «залипание»
 *  read against its point's flow, as the offers read it) and substituted. */
async function sensorWindow(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  sensors: readonly Sensor[],
  window: MonthWindow,
  minutes: MinuteSource = deps.repos.monitoring,
): Promise<Computed> {
  const to = window.start + window.minutes * MINUTE_MS;
  let paired: Float64Array | undefined;
  if (CONTENT_KINDS.includes(sensor.kind) && sensor.point) {
    const flow = sensorsOf(
      sensors,
      sensor.point,
      new Date(window.start).toISOString().slice(0, 10),
      new Date(to).toISOString().slice(0, 10),
    ).flow;
    if (flow) {
      const read = await readingsBetween(deps, sensor.company, flow, window.start, to, minutes);
      paired = Float64Array.from(sensorMinutes(flow.kind, read.times, read.values, window.start, window.minutes).values);
    }
  }
  const read = await readingsBetween(deps, sensor.company, sensor, window.start, to, minutes);
  const series = flagQuality(
    sensor.kind,
    minuteMeans(sensor.kind, read.times, read.values, window.start, window.minutes),
    paired ? { paired } : {},
  );
  // D101: a channel that feeds no volume is never substituted: its silent minutes are missing.
  return { series, result: substitute(series, NEVER_SUBSTITUTED_KINDS.has(sensor.kind) ? 0 : MAX_SUBSTITUTED_GAP_MIN), demo: read.demo };
}

async function headOf(deps: Pick<Deps, "repos">, sensor: Sensor) {
  const point = sensor.point ? await deps.repos.emissionPoints.get(sensor.company, sensor.facility, sensor.point) : undefined;
  return {
    id: sensor.id,
    code: sensor.code,
    kind: sensor.kind,
    unit: SENSOR_KINDS[sensor.kind].unit,
    point: sensor.point,
    point_name: point?.name ?? "",
    working: sensor.working,
    section: sensor.section,
    place: sensor.place,
    is_active: sensor.is_active,
  };
}

const zoneOfCompany = async (deps: Pick<Deps, "repos">, company: string) => zoneOf(await deps.repos.companies.get(company));

/** D62 for every sensor of the facility and month of `year` it was in service in, up to now. */
export async function sensorCompleteness(deps: Deps, actor: Actor, facilityId: string, year: number): Promise<SensorCompleteness[]> {
  await getFacility(deps, actor, facilityId);
  const [sensors, zone] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
    zoneOfCompany(deps, actor.company),
  ]);
  const now = deps.clock.now().getTime();
  const out: SensorCompleteness[] = [];
  // The facility's minutes of a month read once for all its sensors.
  const shared = sharedMinutes(deps.repos.monitoring);
  for (const sensor of sensors) {
    const months: SensorCompleteness["months"] = [];
    let demo = false;
    for (let month = 1; month <= 12; month++) {
      const whole = monthWindow(year, month, zone, now);
      const window = whole && serviceWindow(sensor, whole, zone);
      if (!window) continue;
      // Once its service began (a month read or registered), every later month is in service whole.
      const computed = await begunWindow(deps, sensor, sensors, window, zone, shared, months.length > 0);
      if (!computed) continue;
      const { result, demo: simulated } = computed;
      if (simulated) demo = true;
      months.push({
        month: window.month,
        minutes: { expected: computed.window.minutes, valid: result.valid, substituted: result.substituted, missing: result.missing },
        completeness: computed.window.minutes > 0 ? (result.valid + result.substituted) / computed.window.minutes : 0,
        longest_gap_min: result.longestGap,
      });
    }
    if (months.length > 0 || sensor.is_active) out.push({ ...(await headOf(deps, sensor)), months, demo });
  }
  return out;
}

/** Each run of minutes without a valid value, as D60 treated it. */
export function gapsOf({ series, result }: Computed): Gap[] {
  const gaps: Gap[] = [];
  const n = result.state.length;
  let m = 0;
  while (m < n) {
    if (result.state[m] === MinuteState.VALID) {
      m++;
      continue;
    }
    let end = m;
    const flags = { none: 0, range: 0, stuck: 0, jump: 0 };
    while (end < n && result.state[end] !== MinuteState.VALID) {
      const flag = series.flags[end];
      if (flag === Flag.RANGE) flags.range++;
      else if (flag === Flag.STUCK) flags.stuck++;
      else if (flag === Flag.JUMP) flags.jump++;
      else flags.none++;
      end++;
    }
    const before = m > 0 ? result.values[m - 1] : null;
    const after = end < n ? result.values[end] : null;
    const substituted = result.state[m] === MinuteState.SUBSTITUTED;
    const length = end - m;
    gaps.push({
      start: new Date(result.start + m * MINUTE_MS).toISOString(),
      end: new Date(result.start + end * MINUTE_MS).toISOString(),
      minutes: length,
      state: substituted ? "substituted" : "missing",
      rule: !substituted
        ? length > MAX_SUBSTITUTED_GAP_MIN
          ? "too_long"
          : "no_data"
        : before !== null && after !== null
          ? "mean"
          : before === null
            ? "first_after"
            : "last_before",
      before,
      after,
      value: substituted ? result.values[m] : null,
      flags,
    });
    m = end;
  }
  return gaps;
}

function monthOf(text: string, zone: string, now: number): MonthWindow {
  const window = monthWindow(Number(text.slice(0, 4)), Number(text.slice(5, 7)), zone, now);
  if (!window) throw invalidAt("month", `месяц ${text.slice(5, 7)}.${text.slice(0, 4)} еще не наступил`);
  return window;
}

async function sensorOf(deps: Deps, actor: Actor, facilityId: string, sensorId: string) {
  const sensor = await getSensor(deps, actor, facilityId, sensorId);
  const [sensors, zone] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
    zoneOfCompany(deps, actor.company),
  ]);
  return { sensor, sensors, zone };
}

/** Whether a sensor without a date put in service began its service in a month of the year before `window`'s
 *  (its grid's rule: a month after one whose service began is in service whole). */
async function begunEarlierInYear(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  sensors: readonly Sensor[],
  window: MonthWindow,
  zone: string,
): Promise<boolean> {
  if (sensor.in_service_from || midnight(isoDateIn(sensor.created_at, zone), zone) <= window.start) return false;
  const [year, month] = window.month.split("-").map(Number);
  const now = deps.clock.now().getTime();
  for (let earlier = 1; earlier < month; earlier++) {
    const whole = monthWindow(year, earlier, zone, now);
    const served = whole && serviceWindow(sensor, whole, zone);
    if (served && (await begunWindow(deps, sensor, sensors, served, zone))) return true;
  }
  return false;
}

const notInService = (code: string, period: string) => new Invalid(`Датчик «${code}» не был в эксплуатации ${period}`);

/** A sensor's gaps in a month (yyyy-MM on the company's clock), a page of them from `offset`. */
export async function sensorGaps(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  query: { month: string; limit?: number; offset?: number },
): Promise<SensorGaps> {
  const { sensor, sensors, zone } = await sensorOf(deps, actor, facilityId, sensorId);
  const whole = monthOf(query.month, zone, deps.clock.now().getTime());
  const served = serviceWindow(sensor, whole, zone);
  const computed =
    served &&
    (await begunWindow(deps, sensor, sensors, served, zone, undefined, await begunEarlierInYear(deps, sensor, sensors, served, zone)));
  if (!computed) throw notInService(sensor.code, `в ${query.month.slice(5)}.${query.month.slice(0, 4)}`);
  const { result, window } = computed;
  const gaps = gapsOf(computed);
  const offset = query.offset ?? 0;
  return {
    sensor: await headOf(deps, sensor),
    month: window.month,
    minutes: { expected: window.minutes, valid: result.valid, substituted: result.substituted, missing: result.missing },
    completeness: window.minutes > 0 ? (result.valid + result.substituted) / window.minutes : 0,
    longest_gap_min: result.longestGap,
    gaps: gaps.slice(offset, offset + (query.limit ?? LIMITS.monitoring.gapsListed)),
    count: gaps.length,
    demo: computed.demo,
  };
}

const nullable = (value: number) => (Number.isNaN(value) ? null : value);

/** A sensor's day (yyyy-MM-dd on the company's clock) minute by minute, as its month's computation has
 *  it (a gap over midnight is substituted from both sides, as the month's volume takes it). */
export async function sensorDay(deps: Deps, actor: Actor, facilityId: string, sensorId: string, date: string): Promise<SensorDayView> {
  const { sensor, sensors, zone } = await sensorOf(deps, actor, facilityId, sensorId);
  const now = deps.clock.now().getTime();
  const [y, m, d] = date.split("-").map(Number);
  const start = instantOfWallTime(y, m, d, 0, 0, zone);
  if (isoDateIn(new Date(start), zone) !== date) throw invalidAt("date", `дня ${date} нет в календаре`);
  const end = instantOfWallTime(y, m, d + 1, 0, 0, zone);
  const ru = ruDate(date);
  const whole = monthWindow(y, m, zone, now);
  if (!whole || start >= now) throw invalidAt("date", `день ${ru} еще не наступил`);
  const window = serviceWindow(sensor, whole, zone);
  if (!window || window.start >= end || window.start + window.minutes * MINUTE_MS <= start) throw notInService(sensor.code, ru);
  const { series, result, demo } = await sensorWindow(deps, sensor, sensors, window);
  const length = Math.round((end - start) / MINUTE_MS);
  const value: (number | null)[] = [];
  const flag: number[] = [];
  const used: (number | null)[] = [];
  const state: number[] = [];
  const inDay = { start, values: new Float64Array(length).fill(Number.NaN), state: new Uint8Array(length).fill(MinuteState.MISSING) };
  const minutes = { expected: 0, valid: 0, substituted: 0, missing: 0 };
  const flagged = { range: 0, stuck: 0, jump: 0 };
  let validSum = 0;
  const inWindow: { from?: number; to?: number } = {};
  for (let i = 0; i < length; i++) {
    const k = Math.round((start - window.start) / MINUTE_MS) + i;
    if (k < 0 || k >= window.minutes) {
      value.push(null);
      flag.push(Flag.NONE);
      used.push(null);
      state.push(MinuteState.MISSING);
      continue;
    }
    value.push(nullable(series.values[k]));
    flag.push(series.flags[k]);
    used.push(nullable(result.values[k]));
    state.push(result.state[k]);
    inWindow.from ??= i;
    inWindow.to = i + 1;
    inDay.values[i] = result.values[k];
    inDay.state[i] = result.state[k];
    minutes.expected++;
    if (result.state[k] === MinuteState.VALID) {
      minutes.valid++;
      validSum += result.values[k];
    } else if (result.state[k] === MinuteState.SUBSTITUTED) minutes.substituted++;
    else minutes.missing++;
    if (series.flags[k] === Flag.RANGE) flagged.range++;
    else if (series.flags[k] === Flag.STUCK) flagged.stuck++;
    else if (series.flags[k] === Flag.JUMP) flagged.jump++;
  }
  const register = registerAt(sensor, start);
  const levels = { warning: register.warning, alarm: register.alarm };
  const bucket = rollUp(inDay, zone, levels).days[0];
  return {
    sensor: await headOf(deps, sensor),
    date,
    start: new Date(start).toISOString(),
    window: { from: inWindow.from ?? 0, to: inWindow.to ?? 0 },
    levels: { pre_warning: register.warning === null ? null : PRE_WARNING_SHARE * register.warning, ...levels },
    value,
    flag,
    used,
    state,
    summary: {
      minutes,
      flagged,
      mean_with_substituted: bucket ? bucket.mean : null,
      mean_valid: minutes.valid > 0 ? validSum / minutes.valid : null,
      min: bucket ? bucket.min : null,
      max: bucket ? bucket.max : null,
      above_pre_warning: bucket?.above_pre_warning ?? 0,
      above_warning: bucket?.above_warning ?? 0,
      above_alarm: bucket?.above_alarm ?? 0,
    },
    demo,
  };
}
