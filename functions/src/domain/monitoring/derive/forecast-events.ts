// D65's forecast events («прогноз превышения», advisory: protective cut-off stays with the mine's own
// АГК). The live forecaster (live.ts) hands each forecast of a working's meter at a horizon here with one
// call: where that horizon's alert rule is «P ≥ 0,5» (the back-test found it gains lead time at no more
// false alerts), an event opens at the forecast's minute once P(C(t+h) ≥ limit) ≥ 0,5 and closes at the
// first forecast with P below 0,3 (or once the rule is off, or P is not computed): a hysteresis, so a P
// wavering about 0,5 is one event, not one per crossing; «сбылся» (came_true) is set once the horizon has passed
// after the event's start: whether a minute of the meter's readings in [start, start + h] reached the
// limit. One event per (meter, horizon, start): its id carries the horizon. The company's webhooks get
// each opened and closed, as the detector's events.
import { minuteMeans } from "@core/monitoring";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import type { Deps } from "../../context";
import type { Sensor, SensorEvent } from "../../../ports";
import { readingsBetween } from "../ingest/stored-readings";
import { describer, facilityEventId } from "./events";
import { enqueueEventDeliveries } from "./webhooks";

/** D65: a forecast event opens at P(C(t+h) ≥ limit) ≥ this. */
export const FORECAST_EVENT_P = 0.5;
/** an open forecast event closes at the first forecast with P below this (hysteresis:
 *  it opened at FORECAST_EVENT_P; closing at the first P below 0,5 made 6 events in 18 h for two rises). */
export const FORECAST_EVENT_CLOSE_P = 0.3;
/** Stored forecast events this far back are still followed (an open one closed, came_true settled). */
const FOLLOW_DAYS = 2;

export interface ForecastIssued {
  company: string;
  facility: string;
  /** The methane meter forecast. */
  meter: Sensor;
  horizon: number;
  /** The limit the probability is of (% vol, the meter's A). */
  limit: number;
  /** The minute the forecast is issued at (the meter's latest minute), ms. */
  at: number;
  /** P(C(t+h) ≥ limit), null when the model is not calibrated. */
  p: number | null;
  /** Whether the horizon's alert rule is «P ≥ 0,5» (D65: on only where it adds something). */
  ruleOn: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Opens, closes and settles the meter's forecast events at the horizon for one forecast; answers the
 *  events written. Idempotent: the same forecast again writes nothing; a write another forecaster made
 *  meanwhile (a conditional put refused) is left to it. */
export async function recordForecast(
  deps: Pick<Deps, "repos" | "clock" | "runtime"> & Partial<Pick<Deps, "config">>,
  f: ForecastIssued,
): Promise<SensorEvent[]> {
  const at = Math.floor(f.at / MINUTE_MS) * MINUTE_MS;
  const stored = (
    await deps.repos.sensorEvents.listOfFacility(f.company, f.facility, iso(at - FOLLOW_DAYS * DAY_MS), iso(at + MINUTE_MS))
  ).filter((e) => e.kind === "forecast" && e.sensor === f.meter.id && e.forecast?.horizon_min === f.horizon);
  const changed: { event: SensorEvent; version: number }[] = [];
  const raised = f.ruleOn && f.p !== null && f.p >= FORECAST_EVENT_P;
  const lowered = !f.ruleOn || f.p === null || f.p < FORECAST_EVENT_CLOSE_P;
  const open = stored.find((e) => e.end === null);
  if (open && lowered && at > Date.parse(open.start)) {
    changed.push({
      event: { ...open, end: iso(at), minutes_above: Math.round((at - Date.parse(open.start)) / MINUTE_MS) },
      version: open.version,
    });
  }
  if (!open && raised && f.p !== null) {
    changed.push({
      event: {
        company: f.company,
        facility: f.facility,
        id: facilityEventId(f.facility, f.meter.id, "forecast", "alarm", at, f.horizon),
        sensor: f.meter.id,
        kind: "forecast",
        level: "alarm",
        threshold: f.limit,
        start: iso(at),
        end: null,
        peak: null,
        peak_at: null,
        minutes_above: 0,
        forecast: { horizon_min: f.horizon, probability: f.p, came_true: null },
        acknowledged_by: null,
        acknowledged_at: null,
        comment: "",
        version: 0,
      },
      version: 0,
    });
  }
  // «Сбылся»: once the horizon after its start has passed (by the meter's latest minute).
  for (const e of stored) {
    if (!e.forecast || e.forecast.came_true !== null) continue;
    const start = Date.parse(e.start);
    if (at < start + f.horizon * MINUTE_MS) continue;
    const base = changed.find((c) => c.event.id === e.id)?.event ?? e;
    const came_true = await reachedLimit(deps, f.company, f.meter, start, f.horizon, e.threshold ?? f.limit);
    const next = { ...base, forecast: { ...e.forecast, came_true } };
    const i = changed.findIndex((c) => c.event.id === e.id);
    if (i >= 0) changed[i] = { event: next, version: e.version };
    else changed.push({ event: next, version: e.version });
  }
  // Webhooks get it opened and closed as the detector's events (once per event and state), made before
  // the writes so a kill between them leaves the delivery, never the event without it.
  const events = changed.map((c) => c.event);
  if ((await enqueueEventDeliveries(deps, f.company, events, () => describer(deps, f.meter, at))) > 0) {
    // Sent by the host's webhook sender (the local server's request thread; the readings' function).
    await deps.runtime.changes.publish({ type: "DeliveriesDue", company: f.company });
  }
  const written: SensorEvent[] = [];
  for (const { event, version } of changed) if (await deps.repos.sensorEvents.put(event, version)) written.push(event);
  return written;
}

/** Whether a minute's mean of the meter's readings in [start, start + horizon] reached the limit. */
async function reachedLimit(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  meter: Pick<Sensor, "id" | "kind" | "facility">,
  start: number,
  horizon: number,
  limit: number,
): Promise<boolean> {
  const minutes = horizon + 1;
  const { times, values } = await readingsBetween(deps, company, meter, start, start + minutes * MINUTE_MS);
  // A minute without a valid reading is NaN: it reaches nothing.
  return minuteMeans(meter.kind, times, values, start, minutes).values.some((mean) => mean >= limit);
}
