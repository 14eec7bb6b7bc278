// A shift's report of a facility's monitoring (methodology D62, D64, D65), on the company's clock: per
// working and sensor the completeness of its minutes, the highest CH4 and the minutes at or above
// 0,9·W, W and A of every minute mean (D88, as the book reads them); the gassings in force during the
// shift, as the gassing book has them; the events of the shift with their acknowledgements; the forecast events with whether they came true. Written as xlsx
// and PDF by export/shift-report.ts. Advisory: protective cut-off stays with the mine's own АГК.
import { zoneOf } from "@core/company-clock";
import { everyMinuteMeans, PRE_WARNING_SHARE, sensorMinutes, METHANE_KINDS } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { shiftsOfDay } from "@core/shift-calendar";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { invalidAt } from "../../errors";
import { getFacility } from "../../company/facilities";
import type { shiftReportQuerySchema } from "../../../contract/schemas/monitoring";
import { LIMITS } from "../../../contract/schemas/limits";
import { readingsBetween, sharedMinutes } from "../ingest/stored-readings";
import { listEvents, type EventView } from "./events";
import { registerAt } from "../ingest/register";
import { DOUBT_LOOKBACK_DAYS, doubtText, facilityDoubt } from "../minutes/doubt";
import { gassingsFound } from "./journal";
import { gassingViews, type GassingView } from "./gassing-entry";

export type ShiftReportQuery = z.output<typeof shiftReportQuerySchema>;

export interface ShiftReportRow {
  working: string;
  sensor_code: string;
  /** W and A, % vol; null where the sensor has none. */
  warning: number | null;
  alarm: number | null;
  /** (valid + substituted) / the shift's minutes, 0–1 (D62). */
  completeness: number;
  /** The highest minute mean of every reading (D88: a jump or a reading past the span that D58 sets aside
   *  for the volumes counts, as the journal's book reads it), % vol; null without one. */
  max: number | null;
  above: { pre_warning: number; warning: number; alarm: number };
  /** D94: the shift's minutes «под сомнением» (after a failed check until the next passed one, or out of
   *  verification) — counted, kept and used above, never substituted — and why; 0 and null when none. */
  doubt_minutes: number;
  doubt: string | null;
}

export interface ShiftReport {
  facility: string;
  zone: string;
  date: string;
  shift: number;
  from: string;
  to: string;
  /** Whether the shift is still running: its figures are up to `to`. */
  running: boolean;
  /** Whether its readings or events are the demo mine's simulated ones («демонстрационные данные»). */
  demo: boolean;
  rows: ShiftReportRow[];
  /** D90: «Смена 2 (12:00–18:00)», by the facility's calendar. */
  shift_name: string;
  /** The gassings in force during the shift (begun in it, or before and still open or ending in it), as
   *  the gassing book has them (D87, D88, D89): what the journal lists for the shift. */
  gassings: GassingView[];
  /** Threshold and stale events overlapping the shift. */
  events: EventView[];
  /** Forecast events of the shift (none until a forecaster raises them). */
  forecasts: EventView[];
  issued_at: string;
}

/** The shift `number` of local `date` at the facility: its figures, events and forecasts. */
export async function shiftReport(deps: Pick<Deps, "repos" | "clock">, actor: Actor, query: ShiftReportQuery): Promise<ShiftReport> {
  const facility = await getFacility(deps, actor, query.facility);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const [y, m, d] = query.date.split("-").map(Number);
  if (new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d) throw invalidAt("date", "нет такой даты");
  const number = Number(query.shift);
  // D90: the day's shifts by the facility's calendar in force on it.
  const shifts = shiftsOfDay(facility.shift_calendar, query.date, zone);
  const span = shifts[number - 1];
  if (!span) throw invalidAt("shift", `смен в сутках ${shifts.length}`);
  const now = Math.floor(deps.clock.now().getTime() / MINUTE_MS) * MINUTE_MS;
  if (span.from >= now) throw invalidAt("date", "смена еще не началась");
  const until = Math.min(span.to, now);
  const minutes = Math.round((until - span.from) / MINUTE_MS);
  const fromDate = new Date(span.from).toISOString().slice(0, 10);
  const sensors = (await deps.repos.sensors.listOfFacility(actor.company, facility.id)).filter((s) => {
    const register = registerAt(s, span.from);
    return (
      METHANE_KINDS.has(register.kind) &&
      (!register.in_service_from || register.in_service_from <= query.date) &&
      (!register.in_service_to || register.in_service_to >= fromDate)
    );
  });
  const rows: ShiftReportRow[] = [];
  const doubtOf = await facilityDoubt(deps, actor.company, facility.id, span.from - DOUBT_LOOKBACK_DAYS * 86_400_000, zone);
  let demo = false;
  // The facility's minutes of the shift read once for all its sensors.
  const shared = sharedMinutes(deps.repos.monitoring);
  for (const sensor of sensors) {
    const register = registerAt(sensor, span.from);
    const read = await readingsBetween(deps, actor.company, sensor, span.from, until, shared);
    const { times, values } = read;
    if (read.demo) demo = true;
    // A retired sensor is listed for a shift it still read in.
    if (!sensor.is_active && times.length === 0) continue;
    const series = sensorMinutes(register.kind, times, values, span.from, minutes);
    // D88: the maximum and the minutes at the levels of every minute mean — a 4,5 % jump D58 sets aside for
    // the volumes is what the meter read, and the book's gassing (it read «макс. 0,50 %, минут ≥ A: 0»).
    const every = everyMinuteMeans(register.kind, times, values, span.from, minutes).values;
    let max: number | null = null;
    const above = { pre_warning: 0, warning: 0, alarm: 0 };
    for (const v of every) {
      if (!Number.isFinite(v)) continue;
      if (max === null || v > max) max = v;
      if (register.warning !== null && v >= PRE_WARNING_SHARE * register.warning) above.pre_warning++;
      if (register.warning !== null && v >= register.warning) above.warning++;
      if (register.alarm !== null && v >= register.alarm) above.alarm++;
    }
    const doubt = doubtOf(sensor.id, span.from, until);
    rows.push({
      working: register.working,
      sensor_code: register.code,
      warning: register.warning,
      alarm: register.alarm,
      completeness: minutes > 0 ? (series.valid + series.substituted) / minutes : 0,
      max,
      above,
      doubt_minutes: doubt.minutes,
      doubt: doubt.minutes > 0 ? doubtText(doubt.why, doubt.minutes) : null,
    });
  }
  rows.sort((a, b) => a.working.localeCompare(b.working, "ru") || a.sensor_code.localeCompare(b.sensor_code, "ru"));
  const listed = await listEvents(deps, actor, {
    facility: facility.id,
    from: new Date(span.from).toISOString(),
    to: new Date(span.to).toISOString(),
    limit: LIMITS.monitoring.shiftReportEvents,
  });
  // The book's gassings in force during the shift, as the journal lists them for it.
  const found = await gassingsFound(deps, actor.company, facility.id, span.from, until);
  const gassings = await gassingViews(deps, actor.company, facility.id, found, span.from, span.to, true);
  return {
    facility: facility.name,
    zone,
    date: query.date,
    shift: number,
    shift_name: span.name,
    from: new Date(span.from).toISOString(),
    to: new Date(span.to).toISOString(),
    running: until < span.to,
    demo: demo || listed.demo,
    rows,
    gassings,
    events: listed.results.filter((e) => e.kind !== "forecast"),
    forecasts: listed.results.filter((e) => e.kind === "forecast"),
    issued_at: deps.clock.now().toISOString(),
  };
}
