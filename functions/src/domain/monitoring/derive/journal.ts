// The АГК operator's day. The operator's journal of a shift day (D99: from the day's first
// shift's start by the facility's calendar, D90, to the next day's), in the layout of the methodological
// recommendations' journal: per methane sensor its code, place and set-point, the mean of the valid minute
// means (D59) of each hour on the company's clock in the order worked, of each shift (D64) and of the shift
// day, with its completeness; and the shift day's gassings. A gassing opens at the first minute a
// sensor's mean reaches the norm of where it hangs (D87: never its kind nor its W/A) and closes
// after 2 minutes below (D65's rule), every reading counted (D88: a minute D58 sets aside for the means
// opens and extends it and marks it); overlapping gassings of two or more sensors of one working
// are one «общее загазирование» (the safety rules, pp. 622–624). Gassings are found from the minutes at
// each read, as the shift report's figures are; what is stored is the dispatcher's registration of each,
// the entry of the gassing book (gassing-entry.ts, gassing-book.ts). Advisory: protective cut-off stays
// with the mine's own АГК.
import { instantOfWallTime, isoDateIn, zoneOf } from "@core/company-clock";
import {
  everyMinuteMeans,
  GAS_KINDS,
  METHANE_KINDS,
  SENSOR_KINDS,
  flagQuality,
  minuteMeans,
  validMeans,
  type MinuteSeries,
} from "@core/monitoring";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@core/dates";
import { gassings as groupGassings, sensorGassings, type Gassing } from "@core/monitoring-events";
import { limitOfPlace, normOf, type AppliedLimit } from "@core/methane-limits";
import { shiftDay, type ShiftDayHour } from "@core/shift-calendar";
import { opensNoGassing, SENSOR_PLACES } from "@core/sensor-places";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { invalidAt, NotFound } from "../../errors";
import { getFacility } from "../../company/facilities";
import type { Facility, Sensor } from "../../../ports";
import type { gassingListQuerySchema, gassingListSchema, journalQuerySchema, journalSchema } from "../../../contract/schemas/journal";
import { gassingViews, type GassingView } from "./gassing-entry";
import { readingsBetween, sharedMinutes } from "../ingest/stored-readings";
import { registerAt } from "../ingest/register";
import { limitsOnDay } from "./methane-limits";
import { LIMITS } from "../../../contract/schemas/limits";
import { checkStates, doubtOfDay } from "../instruments/check-states";
import { questionsOf } from "./suspect";
import { initialsByEmail } from "../../person-name";
import { facilityProcessing } from "../ingest/processing";

export type Journal = z.output<typeof journalSchema>;
export type { GassingView };
export type GassingList = z.output<typeof gassingListSchema>;
type LimitSource = Journal["sensors"][number]["limit_source"];
/** The longest register of gassings asked at once, days. */
export const GASSING_PERIOD_DAYS = LIMITS.monitoring.gassingsPeriodDays;
const iso = (ms: number) => new Date(ms).toISOString();

/** The instant a company day (ГГГГ-ММ-ДД) starts, and hour `h` of it, on the company's clock. */
function wallHour(date: string, hour: number, zone: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return instantOfWallTime(y, m, d, hour, 0, zone);
}

interface SensorRead {
  sensor: Sensor;
  register: ReturnType<typeof registerAt>;
  series: MinuteSeries;
  /** D88: every reading's minute means (everyMinuteMeans), what the book's gassings are found from. */
  every: MinuteSeries;
  /** A methane meter's norm by its place (D87); another gas's A; null for another gas without A. */
  limit: number | null;
  limitSource: LimitSource;
  demo: boolean;
}

/** The limit a sensor is read against (D87): a methane meter's is the norm of where it hangs,
 *  that day's row (@core/methane-limits) with its act, point and edition — whatever its kind or its W/A,
 *  which are alarms and never move the norm; a meter of another gas is read against its A. */
function sensorLimit(register: ReturnType<typeof registerAt>, limits: readonly AppliedLimit[]): Pick<SensorRead, "limit" | "limitSource"> {
  if (!METHANE_KINDS.has(register.kind))
    return register.alarm === null
      ? { limit: null, limitSource: null }
      : {
          limit: register.alarm,
          limitSource: { by: "alarm", place: null, act: null, point: null, edition: null, text_read: true, standing: null },
        };
  // At «другое место» the row the register names, else the place's own.
  const norm = normOf(register.place, register.norm_place);
  const row = norm === null ? undefined : limitOfPlace(limits, norm);
  if (!row) return { limit: null, limitSource: null };
  const { place, act, point, edition, text_read, standing } = row;
  return { limit: row.limit_pct, limitSource: { by: "place", place, act, point, edition, text_read, standing } };
}

/** How far back a gassing in force at a period's start is followed to its start, days: one
 *  begun before is listed with its own start and id, carried over. */
export const GASSING_LOOKBACK_DAYS = LIMITS.monitoring.eventsLookbackDays;

/** Whether the series' first minute with a reading is at or above `limit` (D88: every reading counts): a
 *  gassing may have begun before it. */
function openAtStart(series: MinuteSeries, limit: number): boolean {
  for (let m = 0; m < series.values.length; m++) if (!Number.isNaN(series.values[m])) return series.values[m] >= limit;
  return false;
}

/** The facility's gas sensors (methane and the АГК's other gases) of the workings in service over
 *  [from, to) — a degassing pipeline's meter opens no gassing and is not the journal's — with
 *  their minutes read from an hour before `from` (D58's jump needs the minute before; further back, a day
 *  at a time, while a methane meter's gassing is in force at the read's start) to a day after `to` (what
 *  closes a gassing past midnight), never past the minute now runs in. */
async function readSensors(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
  from: number,
  to: number,
  now: number,
  limits: readonly AppliedLimit[],
  register?: readonly Sensor[],
): Promise<SensorRead[]> {
  const thisMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const readTo = Math.max(from - HOUR_MS, Math.min(to + DAY_MS, thisMinute + MINUTE_MS));
  const out: SensorRead[] = [];
  // The facility's minutes of the window read once for all its sensors.
  const shared = sharedMinutes(deps.repos.monitoring);
  for (const sensor of register ?? (await deps.repos.sensors.listOfFacility(company, facility))) {
    const register = registerAt(sensor, from);
    if (!GAS_KINDS.has(register.kind) || opensNoGassing(register.place)) continue;
    const fromDay = iso(from).slice(0, 10);
    const toDay = iso(to).slice(0, 10);
    if ((register.in_service_from && register.in_service_from > toDay) || (register.in_service_to && register.in_service_to < fromDay))
      continue;
    const limit = sensorLimit(register, limits);
    const gassing = METHANE_KINDS.has(register.kind) ? limit.limit : null;
    let readFrom = from - HOUR_MS;
    for (;;) {
      const read = await readingsBetween(deps, company, sensor, readFrom, readTo, shared);
      const minutes = Math.round((readTo - readFrom) / MINUTE_MS);
      const series = flagQuality(register.kind, minuteMeans(register.kind, read.times, read.values, readFrom, minutes));
      const every = everyMinuteMeans(register.kind, read.times, read.values, readFrom, minutes);
      if (gassing !== null && openAtStart(every, gassing) && from - readFrom < GASSING_LOOKBACK_DAYS * DAY_MS) {
        readFrom -= DAY_MS;
        continue;
      }
      if (sensor.is_active || read.times.length > 0) out.push({ sensor, register, series, every, ...limit, demo: read.demo });
      break;
    }
  }
  return out.sort(
    (a, b) => a.register.working.localeCompare(b.register.working, "ru") || a.register.code.localeCompare(b.register.code, "ru"),
  );
}

/** The gassings the sensors' minutes give: those starting in [from, to), or with `inForce` every one in
 *  force during it (begun before, still open, or ending in it). */
function gassingsIn(read: readonly SensorRead[], from: number, to: number, inForce = false): Gassing[] {
  const found = read.flatMap((r) =>
    METHANE_KINDS.has(r.register.kind) && r.limit !== null
      ? sensorGassings(
          r.every,
          {
            id: r.sensor.id,
            code: r.register.code,
            working: r.register.working,
            section: r.register.section,
            place: SENSOR_PLACES[r.register.place] ?? "",
          },
          r.limit,
          SENSOR_KINDS[r.register.kind].max,
        )
      : [],
  );
  return groupGassings(found).filter((g) => g.start < to && (inForce ? g.end === null || g.end > from : g.start >= from));
}

/** Each hour's mean at the wall hour it starts at (null where the shift day has no such hour). */
function byWallHour(hours: readonly ShiftDayHour[], means: readonly (number | null)[]): (number | null)[] {
  const out: (number | null)[] = Array.from({ length: 24 }, () => null);
  hours.forEach((h, k) => {
    out[h.hour] = means[k] ?? null;
  });
  return out;
}

/** The АГК operator's journal of `query.date` (D99: the mine's shift day of that date) at the facility. */
export async function operatorJournal(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: Pick<z.output<typeof journalQuerySchema>, "facility" | "date">,
): Promise<Journal> {
  const facility = await getFacility(deps, actor, query.facility);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const now = deps.clock.now().getTime();
  // D99: the journal's day is the mine's shift day, from the day's first shift's start (D90: the facility's
  // calendar in force on it) to the next day's, its hours in the order worked.
  const shiftDayOf = shiftDay(facility.shift_calendar, query.date, zone);
  const { from, to } = shiftDayOf;
  if (from >= now) throw invalidAt("date", "сутки еще не начались");
  const nowMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const until = Math.min(to, nowMinute);
  const clip = (edges: number[]) => edges.map((e) => Math.min(e, until));
  const hourEdges = clip([...shiftDayOf.hours.map((h) => h.from), to]);
  const shiftEdges = shiftDayOf.shifts;
  // A past day is read against its own day's edition, never today's.
  const read = await readSensors(deps, actor.company, facility.id, from, to, now, await limitsOnDay(deps, query.date));
  const minutes = Math.max(1, Math.round((until - from) / MINUTE_MS));
  // each sensor's checks as they stood at the day's last instant (or now).
  const checks = new Map((await checkStates(deps, actor.company, facility.id, until - 1)).states.map((s) => [s.sensor, s.problems]));
  const doubt = await doubtOfDay(deps, actor.company, facility.id, from, until);
  const sensors = read.map(({ sensor, register, series, limit, limitSource }) => {
    const day = validMeans(series, [from, until])[0];
    return {
      sensor: sensor.id,
      code: register.code,
      kind: register.kind,
      working: register.working,
      place: SENSOR_PLACES[register.place] ?? "",
      warning: register.warning,
      alarm: register.alarm,
      unit: SENSOR_KINDS[register.kind].unit,
      limit,
      limit_source: limitSource,
      // By the wall hour (0–23) each of the shift day's hours starts at.
      hourly: byWallHour(
        shiftDayOf.hours,
        validMeans(series, hourEdges).map((m) => m.mean),
      ),
      shifts: shiftEdges.map(
        (s) =>
          validMeans(
            series,
            [s.from, s.to].map((e) => Math.min(e, nowMinute)),
          )[0].mean,
      ),
      day: day.mean,
      completeness: day.valid / minutes,
      checks: checks.get(sensor.id) ?? [],
      doubt: doubt.get(sensor.id)?.text ?? null,
    };
  });
  return {
    facility: facility.id,
    facility_name: facility.name,
    date: query.date,
    zone,
    running: until < to,
    demo: read.some((r) => r.demo),
    shift_list: shiftEdges.map((shift) => ({
      number: shift.number,
      name: shift.name,
      from: iso(shift.from),
      to: iso(shift.to),
      // D99: its hours in the order worked (a 02:00–08:00 shift: 2, 3, 4, 5, 6, 7), each in one shift.
      hours: shiftDayOf.hours.filter((h) => h.from >= shift.from && h.from < shift.to).map((h) => h.hour),
    })),
    sensors,
    gassings: await gassingViews(deps, actor.company, facility.id, gassingsIn(read, from, to, true), from, to, true),
    // Item 7 (D102–D105): the day's readings questioned, answered or not.
    questions: await questionsOf(deps, actor.company, facility.id, from, until, now, await initialsByEmail(deps.repos, actor.company)),
    processing: await facilityProcessing(deps, actor.company, facility.id),
    issued_at: iso(now),
  };
}

/** The register of gassings starting in the company days from..to (inclusive) at the facility. */
export async function listGassings(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: Pick<z.output<typeof gassingListQuerySchema>, "facility" | "from" | "to">,
): Promise<GassingList> {
  const facility = await getFacility(deps, actor, query.facility);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const now = deps.clock.now().getTime();
  const from = wallHour(query.from, 0, zone);
  const to = wallHour(query.to, 24, zone);
  if (!(from < to)) throw invalidAt("to", "конец периода раньше начала");
  if (to - from > GASSING_PERIOD_DAYS * DAY_MS) throw invalidAt("to", `период не длиннее ${GASSING_PERIOD_DAYS} дней`);
  const read = await readSensors(
    deps,
    actor.company,
    facility.id,
    from,
    Math.min(to, now + MINUTE_MS),
    now,
    // A register over days is read against its first day's edition (one edition per place and day).
    await limitsOnDay(deps, query.from),
  );
  return {
    facility: facility.id,
    facility_name: facility.name,
    from: query.from,
    to: query.to,
    zone,
    results: await gassingViews(deps, actor.company, facility.id, gassingsIn(read, from, to), from, to),
    processing: await facilityProcessing(deps, actor.company, facility.id),
    issued_at: iso(now),
  };
}

/** D89: the gassings the facility's minutes give in force during [from, to) (UTC ms), read
 *  against the limits of the company day `from` falls in — what the record keeper (gassing-record.ts)
 *  makes the book's entries of. */
export async function gassingsFound(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
  from: number,
  to: number,
  sensors?: readonly Sensor[],
): Promise<Gassing[]> {
  const now = deps.clock.now().getTime();
  // On whole minutes, as the journal's days are: a gassing's start is a minute's.
  const [start, end] = [from, to].map((t) => Math.floor(t / MINUTE_MS) * MINUTE_MS);
  const day = isoDateIn(new Date(start), zoneOf(await deps.repos.companies.get(company)));
  const read = await readSensors(deps, company, facility, start, end, now, await limitsOnDay(deps, day), sensors);
  return gassingsIn(read, start, end, true);
}

/** The facility and start of a gassing's id (`{facility}.{sensor}.g.{start}`), or undefined. */
function readGassingId(id: string): { facility: string; start: number } | undefined {
  const match = /^([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.g\.([0-9a-z]{1,12})$/.exec(id);
  return match ? { facility: match[1], start: Number.parseInt(match[2], 36) * MINUTE_MS } : undefined;
}

/** The gassing of `id` as the minutes give it now, with its facility; NotFound when they give none. */
export async function findGassing(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  id: string,
): Promise<{ facility: Facility; gassing: Gassing }> {
  const missing = new NotFound("Загазирование не найдено");
  const parts = readGassingId(id);
  if (!parts) throw missing;
  const facility: Facility | undefined = await deps.repos.facilities.get(company, parts.facility);
  if (!facility) throw missing;
  const now = deps.clock.now().getTime();
  const read = await readSensors(
    deps,
    company,
    facility.id,
    parts.start,
    parts.start + MINUTE_MS,
    now,
    await limitsOnDay(deps, isoDateIn(new Date(parts.start), zoneOf(await deps.repos.companies.get(company)))),
  );
  const gassing = gassingsIn(read, parts.start, parts.start + MINUTE_MS).find((g) => `${facility.id}.${g.id}` === id);
  if (!gassing) throw missing;
  return { facility, gassing };
}
