// D65's events of a facility's sensors (advisory: protective cut-off stays with the mine's own АГК).
// The detector is a consumer of each changed sensor-day (the readings' consumer calls it once a batch's
// days are written): it reads the sensor's minutes around the day again, finds the threshold events at
// 0,9·W, W and A and the stale channels with the core (@core/monitoring-events), and makes the stored
// events starting in those days equal to them: the same id for the same (sensor, kind, level, start),
// so reading the same minutes again, or batches in another order, leaves the same events; a person's
// acknowledgement stays on its event. The list by facility, period, working, level and shift, and the
// acknowledgement with a comment (who, when), are here too.
import { UNNAMED_PERSON, initialsByEmail } from "../../person-name";
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import { flagQuality, METHANE_KINDS, minuteMeans } from "@core/monitoring";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { shiftAt, shiftFinder, type Shift, type ShiftCalendarEntry } from "@core/shift-calendar";
import {
  EVENT_LEVELS,
  STALE_INTERVALS,
  eventId,
  faultEvents,
  parseEventId,
  staleEvents,
  thresholdEvents,
  type EventLevel,
} from "@core/monitoring-events";
import { SUSPECT_ANSWER_REQUIRED, stuckText } from "@core/monitoring-suspect";
import type * as z from "zod";
import type { Deps, Actor } from "../../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../../errors";
import { getFacility } from "../../company/facilities";
import type { CutoffRecord, Sensor, SensorEvent } from "../../../ports";
import type {
  eventAcknowledgeSchema,
  eventListQuerySchema,
  eventListSchema,
  eventSchema,
  eventsAcknowledgeSchema,
} from "../../../contract/schemas/monitoring";
import { LIMITS } from "../../../contract/schemas/limits";
import { registerAt } from "../ingest/register";
import { facilityRegister, registerOfChange } from "../ingest/kept-register";
import { enqueueEventDeliveries, type EventDescriber } from "./webhooks";
import { auditCutoffs } from "./cutoff-audit";
import {
  isDemoDay,
  isDemoMinute,
  isOpenDay,
  type MinuteSource,
  cachedReadings,
  type ReadingsCache,
  utcDay,
  utcMinute,
} from "../ingest/stored-readings";
import { keptMinutes } from "../minutes/minute-window";
import { detectSuspects } from "./suspect";
import { WRITE_ATTEMPTS, sameDetection, writeDetected } from "./event-writes";
import { minuteStart, openDayMoved } from "../minutes/minutes";

export type EventView = z.output<typeof eventSchema>;
export type EventListQuery = z.output<typeof eventListQuerySchema>;

/** Open events older than this are not followed any more by a later day's detection. */
const FOLLOW_OPEN_DAYS = 7;

const iso = (ms: number) => new Date(ms).toISOString();
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The event's id as the API names it: the facility, then the core's id of (sensor, kind, level, start). */
export const facilityEventId = (
  facility: string,
  sensor: string,
  kind: SensorEvent["kind"],
  level: EventLevel | null,
  start: number,
  horizon?: number,
) => `${facility}.${eventId(sensor, kind, level, start, horizon)}`;

/** The facility and the stored key's start of an id facilityEventId made, or undefined. */
export function readEventId(id: string): { facility: string; sensor: string; start: string } | undefined {
  const dot = id.indexOf(".");
  if (dot <= 0) return undefined;
  const parts = parseEventId(id.slice(dot + 1));
  return parts ? { facility: id.slice(0, dot), sensor: parts.sensor, start: iso(parts.start) } : undefined;
}

/** The events of one sensor starting in [from, to) as its minutes give them (threshold, fault and stale), read
 *  from `windowStart` (by default the day before `from`: the history an event at `from` continues). */
export async function sensorEvents(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  from: number,
  to: number,
  now: number,
  windowStart = from - DAY_MS,
): Promise<SensorEvent[]> {
  return (await eventsRead(deps, sensor, from, windowStart, to, now, deps.repos.monitoring)).filter((e) => {
    const start = Date.parse(e.start);
    return start >= from && start < to;
  });
}

/** Every event the sensor's minutes from `windowStart` give (those at its very start may be cut). */
async function eventsRead(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  from: number,
  windowStart: number,
  to: number,
  now: number,
  minutes: MinuteSource,
  reads?: ReadingsCache,
  /** Given the meter's minute means read (D104's cut-off audit reads the same minutes). */
  seen?: (series: { start: number; values: Float64Array }) => void,
): Promise<SensorEvent[]> {
  // The day after `to` closes an event that runs over midnight; up to the minute now began, the current
  // minute too once it has a reading (a reading that just came closes a stale channel at once, while a
  // minute still waiting for its reading is not yet missing).
  const thisMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const readUntil = Math.min(to + DAY_MS, thisMinute + MINUTE_MS);
  if (readUntil <= windowStart) return [];
  const { times, values } = await cachedReadings(deps, sensor.company, sensor, windowStart, readUntil, minutes, reads);
  if (times.length === 0) return [];
  const windowEnd = Math.min(readUntil, Math.max(thisMinute, Math.floor(times[times.length - 1] / MINUTE_MS) * MINUTE_MS + MINUTE_MS));
  if (windowEnd <= windowStart) return [];
  const register = registerAt(sensor, from);
  const series = flagQuality(
    register.kind,
    minuteMeans(register.kind, times, values, windowStart, Math.round((windowEnd - windowStart) / MINUTE_MS)),
  );
  seen?.(series);
  const found: SensorEvent[] = [];
  const base = {
    company: sensor.company,
    facility: sensor.facility,
    sensor: sensor.id,
    acknowledged_by: null,
    acknowledged_at: null,
    comment: "",
  };
  // The kinds whose minutes are read against W and A (D56: methane meters carry the levels).
  if (METHANE_KINDS.has(register.kind)) {
    for (const e of thresholdEvents(series, register)) {
      found.push({
        ...base,
        id: facilityEventId(sensor.facility, sensor.id, "threshold", e.level, e.start),
        kind: "threshold",
        level: e.level,
        threshold: e.threshold,
        start: iso(e.start),
        end: e.end === null ? null : iso(e.end),
        peak: e.peak,
        peak_at: iso(e.peak_at),
        minutes_above: e.minutes_above,
        version: 0,
      });
    }
  }
  /** An event of no level (a sensor's fault, a stale channel): its id, span and minutes. */
  const levelless = (
    kind: "fault" | "stale",
    e: { start: number; end: number | null },
    minutes_above: number,
    fault?: SensorEvent["fault"],
  ) => ({
    ...base,
    id: facilityEventId(sensor.facility, sensor.id, kind, null, e.start),
    kind,
    level: null,
    threshold: null,
    start: iso(e.start),
    end: e.end === null ? null : iso(e.end),
    peak: null,
    peak_at: null,
    minutes_above,
    ...(fault ? { fault } : {}),
    version: 0,
  });
  // readings set aside as faults (out of range, jumps) are an event of their own.
  for (const e of faultEvents(series)) {
    found.push(levelless("fault", e, e.range_minutes + e.jump_minutes, { range_minutes: e.range_minutes, jump_minutes: e.jump_minutes }));
  }
  // Open, a stale channel's minutes run on: the view counts them to now (what is stored depends on the readings only).
  for (const e of staleEvents(series)) found.push(levelless("stale", e, e.end === null ? 0 : e.minutes));
  return found;
}

/** What changed sensor-days are handed to the day consumers with: the days, and where the batch knows
 *  it, each sensor's earliest instant changed (UTC ms), from which the detector reads again. */
export interface DaysChange {
  company: string;
  facility: string;
  days: readonly { sensor: string; day: string }[];
  since?: Readonly<Record<string, number>>;
  /** The facility's register the days were written with (ReadingsWritten's). */
  register?: readonly Sensor[];
}

/** A change cut where a sensor's changed days leave more than FOLLOW_OPEN_DAYS + 1 days between them,
 *  the runs with the same first and last day taken together, earliest first: the detector reads each
 *  run (and the hours before it), not every day between a reading two years back and today's (issue
 *  85, R1); within a shorter gap it follows an event open across it back anyway. A sensor's earliest
 *  instant goes with the run it falls in. */
export function changeRuns(change: DaysChange): DaysChange[] {
  const bySensor = new Map<string, Set<string>>();
  for (const { sensor, day } of change.days) bySensor.set(sensor, (bySensor.get(sensor) ?? new Set<string>()).add(day));
  const runs = new Map<string, { days: { sensor: string; day: string }[]; since: Record<string, number> }>();
  for (const [sensor, set] of bySensor) {
    const days = [...set].sort();
    for (let from = 0; from < days.length; ) {
      let to = from + 1;
      while (to < days.length && Date.parse(days[to]) - Date.parse(days[to - 1]) <= (FOLLOW_OPEN_DAYS + 1) * DAY_MS) to++;
      const key = `${days[from]}|${days[to - 1]}`;
      const run = runs.get(key) ?? { days: [], since: {} };
      runs.set(key, run);
      for (const day of days.slice(from, to)) run.days.push({ sensor, day });
      const since = change.since?.[sensor];
      if (since !== undefined && utcDay(since) >= days[from] && utcDay(since) <= days[to - 1]) run.since[sensor] = since;
      from = to;
    }
  }
  return [...runs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, run]) => ({
      company: change.company,
      facility: change.facility,
      days: run.days,
      since: run.since,
      register: change.register,
    }));
}

/** Minutes before the earliest changed one that the detector reads again, and before that the history
 *  it reads for D58's flags (a run of 60 identical values) and an event's close: nothing a change at
 *  `since` moves starts earlier, unless an event open across it (followed from its start). */
export const DETECT_LOOKBACK_MS = 3 * 3_600_000;

/** D65 as a consumer of changed sensor-days: for each sensor, the stored threshold, fault and stale events
 *  starting from the earliest minute changed (less DETECT_LOOKBACK_MS; without it, from the day before
 *  the first changed day) to the end of the last changed day, and any stored or found open across that
 *  start (followed from their own start), are made equal to what the minutes give. The register and the
 *  facility's stored events are read once for all the sensors. Idempotent and order-independent: it
 *  depends on the stored minutes only. Answers the events written (new or changed). */
export async function detectEvents(
  deps: Pick<Deps, "repos" | "clock" | "runtime"> & Partial<Pick<Deps, "config">>,
  change: DaysChange,
): Promise<SensorEvent[]> {
  // Days far apart read run by run (changeRuns): what a batch makes the detector read is the days it touches.
  const runs = changeRuns(change);
  if (runs.length > 1) {
    const found: SensorEvent[] = [];
    for (const run of runs) found.push(...(await detectEvents(deps, run)));
    return found;
  }
  const bySensor = new Map<string, string[]>();
  for (const { sensor, day } of change.days) bySensor.set(sensor, [...(bySensor.get(sensor) ?? []), day]);
  if (bySensor.size === 0) return [];
  const now = deps.clock.now().getTime();
  const written: SensorEvent[] = [];
  const gone: SensorEvent[] = [];
  const register = new Map((await registerOfChange(deps, change)).map((s) => [s.id, s]));
  // D104: the cut-off audit where the facility has run channels; their records read once, when first asked.
  const registerList = [...register.values()];
  const audited = registerList.some((s) => s.revisions.some((r) => r.kind === "run_status"));
  let cutoffsRead: Promise<CutoffRecord[]> | undefined;
  const storedCutoffs = () => {
    cutoffsRead ??= deps.repos.readingsAudit.cutoffsOfFacility(change.company, change.facility);
    return cutoffsRead;
  };
  const ranges = new Map<string, { from: number; to: number; windowStart: number }>();
  const minutes = keptMinutes(deps);
  // The readings each sensor's window gives, read once for the threshold detector and the suspect checks.
  const reads: ReadingsCache = new Map();
  for (const [sensorId, days] of bySensor) {
    const sorted = [...days].sort();
    const to = dayStart(sorted[sorted.length - 1]) + DAY_MS;
    const since = change.since?.[sensorId];
    if (since !== undefined && Number.isFinite(since)) {
      const from = Math.floor(since / MINUTE_MS) * MINUTE_MS - DETECT_LOOKBACK_MS;
      ranges.set(sensorId, { from, to, windowStart: from - DETECT_LOOKBACK_MS });
    } else {
      const from = dayStart(sorted[0]) - DAY_MS;
      ranges.set(sensorId, { from, to, windowStart: from - DAY_MS });
    }
  }
  // The open days read have their day items written before an earlier release moved into minutes (once per host and facility-day, as a push's
  // are): their day items hold nothing then, and are not read (stored-readings.ts readingsBetween).
  for (const day of [utcDay(now - DAY_MS), utcDay(now)])
    if (isOpenDay(day, now)) await openDayMoved(deps, change.company, change.facility, day).catch(() => undefined);
  // One Query of the facility's events for every sensor: from the week before the earliest range (an
  // event still open then may close in it) to the end of the latest.
  const earliest = Math.min(...[...ranges.values()].map((r) => r.from));
  const latest = Math.max(...[...ranges.values()].map((r) => r.to));
  const facilityEvents = await deps.repos.sensorEvents.listOfFacility(
    change.company,
    change.facility,
    iso(earliest - FOLLOW_OPEN_DAYS * DAY_MS),
    iso(latest),
  );
  for (const [sensorId, range] of ranges) {
    const sensor = register.get(sensorId);
    if (!sensor) continue;
    let { from, windowStart } = range;
    const { to } = range;
    const stored = facilityEvents.filter(
      (e) =>
        e.sensor === sensorId &&
        e.kind !== "forecast" &&
        // D102–D105: a suspect event is the suspect checks' (derive/suspect.ts) or a hand measurement's.
        e.kind !== "suspect" &&
        Date.parse(e.start) < to &&
        Date.parse(e.start) >= from - FOLLOW_OPEN_DAYS * DAY_MS,
    );
    // An event stored open, or closing after the range's start, may change in it: followed from its start.
    for (const e of stored) {
      const start = Date.parse(e.start);
      if (start < from && (e.end === null || Date.parse(e.end) >= from)) {
        windowStart = Math.min(
          windowStart,
          range.windowStart === range.from - DAY_MS ? dayStart(e.start.slice(0, 10)) - DAY_MS : start - DETECT_LOOKBACK_MS,
        );
        from = start;
      }
    }
    let seen: { start: number; values: Float64Array } | undefined;
    const read = await eventsRead(deps, sensor, from, windowStart, to, now, minutes, reads, (series) => {
      seen = series;
    });
    if (audited && seen && METHANE_KINDS.has(registerAt(sensor, from).kind))
      await auditCutoffs(deps, { sensor, series: seen, from: range.from, to }, registerList, storedCutoffs, minutes);
    // One the minutes give open across the range's start (a silence the sweep has not stored yet): from its start.
    for (const e of read) {
      const start = Date.parse(e.start);
      if (start < from && start > windowStart && (e.end === null || Date.parse(e.end) > from)) from = start;
    }
    const found = read.filter((e) => {
      const start = Date.parse(e.start);
      return start >= from && start < to;
    });
    const before = new Map(stored.filter((e) => Date.parse(e.start) >= from).map((e) => [e.id, e]));
    const changed: { event: SensorEvent; kept: SensorEvent | undefined }[] = [];
    for (const event of found) {
      const kept = before.get(event.id);
      before.delete(event.id);
      if (!(kept && sameDetection(kept, event))) changed.push({ event, kept });
    }
    if (changed.length === 0 && before.size === 0) continue;
    // Webhooks' deliveries first (once per event and state): a kill before the events are written
    // leaves them made, and the run again writes the events.
    const changes = changed.map((c) => c.event);
    if ((await enqueueEventDeliveries(deps, change.company, changes, () => describer(deps, sensor, now))) > 0) {
      await deps.runtime.changes.publish({ type: "DeliveriesDue", company: change.company });
    }
    for (const { event, kept } of changed) if (await writeDetected(deps, event, kept)) written.push(event);
    // What the minutes no longer give (a correction moved it, a push filled a silence): removed.
    gone.push(...before.values());
  }
  // D102, D103: the stuck and airway checks over the same minutes, for the sensors read (and their air paths).
  if (ranges.size > 0) {
    const thisMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    written.push(
      ...(await detectSuspects(deps, {
        company: change.company,
        facility: change.facility,
        register: [...register.values()],
        changed: new Set(ranges.keys()),
        windowStart: Math.min(...[...ranges.values()].map((r) => r.windowStart)),
        readUntil: Math.min(latest + DAY_MS, thisMinute + MINUTE_MS),
        minutes,
        now,
        events: facilityEvents,
        reads,
      })),
    );
  }
  // Removed together, at whatever version each is stored (an acknowledgement does not keep an event the
  // minutes no longer give): a facility's push that closes its sensors' «no reading» takes a write per
  // 25 events, not one an event (547 of a late-day run's 946 commits).
  await deps.repos.sensorEvents.removeAll(gone);
  return written;
}

/** Whether the sensor is in service on the UTC day of `now` or the day before (its dates are the
 *  company's; a day's leeway either side is harmless: the sweep only looks at its latest minute). */
const inServiceAround = (sensor: Sensor, now: number) =>
  (!sensor.in_service_from || sensor.in_service_from <= utcDay(now + DAY_MS)) &&
  (!sensor.in_service_to || sensor.in_service_to >= utcDay(now - DAY_MS));

/** D65's stale channel when the readings simply stop: no batch comes to run the detector, so each
 *  minute (the local host's timer; in AWS the schedule's function, lambda/monitoring-minute.ts) every
 *  facility's sensors in service are read from the register, and each one's latest reading from the
 *  facility's kept heads (where none are kept, its minutes of the last 2 h), else from its
 *  stored days (today's, and yesterday's when today has none); once 2 expected intervals passed without
 *  one, and no stale event of it is open from after that reading, the detector runs on that day and
 *  finds the channel stale and open (and posts it to the webhooks). Once per silence: the open event
 *  stored is the mark, so a restart or another process finds the same. A sensor silent for more than a
 *  day was swept when its silence began. Answers the events written. */
export async function sweepStaleChannels(deps: Pick<Deps, "repos" | "clock" | "runtime"> & Partial<Pick<Deps, "config">>): Promise<number> {
  const now = deps.clock.now().getTime();
  let found = 0;
  for (const company of await deps.repos.companies.list()) {
    for (const facility of await deps.repos.facilities.list(company.id)) {
      const sensors = (await facilityRegister(deps, company.id, facility.id)).filter((s) => inServiceAround(s, now));
      const silent: { sensor: Sensor; lastMinute: number }[] = [];
      // each sensor's latest reading from the facility's kept heads (one read, as the
      // tiles read them: live/live-head.ts); the facility's minutes only where none are kept yet.
      const head = sensors.length > 0 ? await deps.repos.monitoring.getLiveHead(company.id, facility.id) : undefined;
      const recent =
        head !== undefined
          ? new Map(Object.entries(head.sensors).map(([id, kept]) => [id, kept.at]))
          : sensors.length > 0
            ? await latestInMinutes(deps, company.id, facility.id, now)
            : new Map<string, number>();
      for (const sensor of sensors) {
        const last = recent.get(sensor.id) ?? (await latestReading(deps, company.id, sensor.id, now));
        const lastMinute = Math.floor(last / MINUTE_MS) * MINUTE_MS;
        if (last > 0 && now >= lastMinute + (STALE_INTERVALS + 1) * MINUTE_MS) silent.push({ sensor, lastMinute });
      }
      if (silent.length === 0) continue;
      // One Query of the facility's events since the earliest silence: which are already open.
      const since = Math.min(...silent.map((s) => s.lastMinute));
      const open = (await deps.repos.sensorEvents.listOfFacility(company.id, facility.id, iso(since), iso(now + MINUTE_MS))).filter(
        (e) => e.kind === "stale" && e.end === null,
      );
      // The facility's newly silent sensors in one run of the detector (one Query of its events, not one
      // a sensor: an earlier round, a silent gateway of 5 000 sensors).
      const days = silent
        .filter(({ sensor, lastMinute }) => !open.some((e) => e.sensor === sensor.id && Date.parse(e.start) > lastMinute))
        .flatMap(({ sensor, lastMinute }) =>
          [...new Set([utcDay(lastMinute), utcDay(lastMinute + MINUTE_MS)])].map((day) => ({ sensor: sensor.id, day })),
        );
      if (days.length > 0) found += (await detectEvents(deps, { company: company.id, facility: facility.id, days })).length;
    }
  }
  return found;
}

/** How far back the sweep reads a facility's minute items for its sensors' latest readings. */
const RECENT_MINUTES_MS = 2 * 3_600_000;

/** Each sensor's latest reading (ms) in the facility's minutes of the last RECENT_MINUTES_MS, for all its
 *  sensors at once. */
async function latestInMinutes(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  company: string,
  facility: string,
  now: number,
): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  // The host's window: each minute only the minutes written since the last sweep are read.
  const minutes = keptMinutes(deps);
  const from = now - RECENT_MINUTES_MS;
  for (const day of [...new Set([utcDay(from), utcDay(now)])]) {
    const first = day === utcDay(from) ? utcMinute(from) : "00:00";
    const last = day === utcDay(now) ? utcMinute(now) : "23:59";
    for (const minute of await minutes.minutesOf(company, facility, day, first, last)) {
      const start = minuteStart(minute);
      for (let k = 0; k < minute.values.length; k++) {
        const sensor = minute.sensors[minute.sensor[k]];
        const t = start + minute.offsets[k];
        if (t > (latest.get(sensor) ?? 0)) latest.set(sensor, t);
      }
    }
  }
  return latest;
}

/** The sensor's latest reading (ms) in today's stored day, or yesterday's when today has none; 0 for none. */
async function latestReading(deps: Pick<Deps, "repos">, company: string, sensor: string, now: number): Promise<number> {
  for (const day of [utcDay(now), utcDay(now - DAY_MS)]) {
    const [stored] = await deps.repos.monitoring.getDays(company, sensor, [day]);
    if (stored && stored.offsets.length > 0) return dayStart(day) + stored.offsets[stored.offsets.length - 1];
  }
  return 0;
}

/** How a webhook's message names the facility and shows an event of `sensor`. */
export async function describer(deps: Pick<Deps, "repos">, sensor: Sensor, now: number): Promise<EventDescriber> {
  const facility = await deps.repos.facilities.get(sensor.company, sensor.facility);
  const zone = zoneOf(await deps.repos.companies.get(sensor.company));
  const nameOf = await initialsByEmail(deps.repos, sensor.company);
  return {
    facility: { id: sensor.facility, name: facility?.name ?? "" },
    view: (event) => eventView(event, sensor, zone, now, facility?.shift_calendar, undefined, nameOf),
  };
}

/** The instant a query's bound names: an ISO instant, or a date at 00:00 on the company's clock. */
function boundOf(value: string, zone: string, field: string): number {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d || m < 1 || m > 12) throw invalidAt(field, "нет такой даты");
    return instantOfWallTime(y, m, d, 0, 0, zone);
  }
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) throw invalidAt(field, "дата ГГГГ-ММ-ДД или момент ISO 8601");
  return at;
}

export type EventList = z.output<typeof eventListSchema>;

/** The facility's events overlapping [from, to), filtered by working, level, kind and shift number on the
 *  company's clock, by start; a page of at most LIMITS.monitoring.eventsPage from `offset` (count says how
 *  many matched): what is read per event beyond the filters (its demo origin) is read for the page only. */
export async function listEvents(deps: Pick<Deps, "repos" | "clock">, actor: Actor, query: EventListQuery): Promise<EventList> {
  const facility = await getFacility(deps, actor, query.facility);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const now = deps.clock.now().getTime();
  const to = query.to ? boundOf(query.to, zone, "to") : now;
  const from = query.from ? boundOf(query.from, zone, "from") : to - DAY_MS;
  if (!(from < to)) throw invalidAt("to", "конец периода должен быть позже начала");
  if (to - from > LIMITS.monitoring.eventsPeriodDays * DAY_MS)
    throw invalidAt("to", `период не длиннее ${LIMITS.monitoring.eventsPeriodDays} дней`);
  const stored = await deps.repos.sensorEvents.listOfFacility(
    actor.company,
    facility.id,
    iso(from - LIMITS.monitoring.eventsLookbackDays * DAY_MS),
    iso(to),
  );
  const sensors = new Map((await deps.repos.sensors.listOfFacility(actor.company, facility.id)).map((s) => [s.id, s]));
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const shiftOf = shiftFinder(facility.shift_calendar, zone);
  // Filtered and ordered on the stored events, each one's view (its register, its shift on the company's
  // clock, each day's shifts made once) made for the page only; a working or a shift filter reads what it
  // filters on.
  const matched: SensorEvent[] = [];
  for (const event of stored) {
    const start = Date.parse(event.start);
    const end = event.end === null ? Number.POSITIVE_INFINITY : Date.parse(event.end);
    if (!(start < to && end > from)) continue;
    if (query.level && event.level !== query.level) continue;
    if (query.kind && event.kind !== query.kind) continue;
    if (query.working !== undefined) {
      const sensor = sensors.get(event.sensor);
      if ((sensor ? registerAt(sensor, event.start).working : "") !== query.working) continue;
    }
    if (query.shift && shiftOf(start).number !== Number(query.shift)) continue;
    matched.push(event);
  }
  matched.sort((a, b) => a.start.localeCompare(b.start) || levelOrder(a) - levelOrder(b) || a.id.localeCompare(b.id));
  const offset = query.offset ?? 0;
  const results = matched
    .slice(offset, offset + (query.limit ?? LIMITS.monitoring.eventsPage))
    .map((event) => eventView(event, sensors.get(event.sensor), zone, now, shiftOf, codeIn(sensors), nameOf));
  return { results, count: matched.length, demo: await fromDemoReadings(deps, actor.company, facility.id, results) };
}

/** Whether an event listed started on a day of the demo's simulated readings (ingest/stored-readings.ts DEMO_BATCH): one
 *  read of each sensor's days, and of the minute each began in where that day is not compacted. */
async function fromDemoReadings(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  events: readonly EventView[],
): Promise<boolean> {
  const days = new Map<string, Set<string>>();
  for (const e of events) days.set(e.sensor, (days.get(e.sensor) ?? new Set()).add(utcDay(Date.parse(e.start))));
  for (const [sensor, of] of days) {
    if ((await deps.repos.monitoring.getDays(company, sensor, [...of])).some(isDemoDay)) return true;
  }
  // One read a minute: the events a gateway's silence opens begin in the same minute.
  const read = new Set<string>();
  for (const e of events) {
    const start = Date.parse(e.start);
    const minute = utcMinute(start);
    const day = utcDay(start);
    if (read.has(`${day} ${minute}`)) continue;
    read.add(`${day} ${minute}`);
    for (const m of await deps.repos.monitoring.minutesOf(company, facility, day, minute, minute)) if (isDemoMinute(m)) return true;
  }
  return false;
}

/** The code of a facility's sensor in the register at an instant (a suspect event's other meter). */
export const codeIn =
  (sensors: ReadonlyMap<string, Sensor>) =>
  (sensor: string, at: string): string | null => {
    const s = sensors.get(sensor);
    return s ? registerAt(s, at).code : null;
  };

const levelOrder = (e: Pick<EventView, "level">) => (e.level === null ? EVENT_LEVELS.length : EVENT_LEVELS.indexOf(e.level));

/** An event as the API answers it: its sensor's code and working (the register at its start) and the
 *  shift it started in on the company's clock. */
export function eventView(
  event: SensorEvent,
  sensor: Sensor | undefined,
  zone: string,
  now: number,
  /** The facility's shift calendar, or where a page of events is made a finder over it (shiftFinder:
   *  each day's shifts made once). */
  calendar?: readonly ShiftCalendarEntry[] | ((instant: number) => Shift),
  codeOf?: (sensor: string, at: string) => string | null,
  /** Who acknowledged it, by surname and initials (initialsByEmail), never the e-mail kept. */
  nameOf: (email: string) => string = () => UNNAMED_PERSON,
): EventView {
  const register = sensor ? registerAt(sensor, event.start) : undefined;
  // D90: the shift by the facility's calendar in force on the day.
  const at = Date.parse(event.start);
  const { date, number } = typeof calendar === "function" ? calendar(at) : shiftAt(calendar, at, zone);
  return {
    id: event.id,
    facility: event.facility,
    sensor: event.sensor,
    sensor_code: register?.code ?? "",
    working: register?.working ?? "",
    kind: event.kind,
    level: event.level,
    threshold: event.threshold,
    start: event.start,
    end: event.end,
    peak: event.peak,
    peak_at: event.peak_at,
    minutes_above:
      (event.kind === "stale" || event.kind === "suspect") && event.end === null
        ? Math.max(0, Math.floor((now - Date.parse(event.start)) / MINUTE_MS))
        : event.minutes_above,
    shift: { date, number },
    forecast: event.forecast ?? null,
    fault: event.fault ?? null,
    suspect: event.suspect
      ? {
          ...event.suspect,
          // Open, a stuck meter's minutes run on: counted to now (what is stored depends on the readings only).
          text:
            event.suspect.reason === "stuck" && event.end === null
              ? stuckText(Math.max(0, Math.floor((now - Date.parse(event.start)) / MINUTE_MS)))
              : event.suspect.text,
          other_code: event.suspect.other_sensor ? (codeOf?.(event.suspect.other_sensor, event.start) ?? null) : null,
        }
      : null,
    acknowledged_by: event.acknowledged_by ? nameOf(event.acknowledged_by) : null,
    acknowledged_at: event.acknowledged_at,
    comment: event.comment,
  };
}

/** A person acknowledges an event with a comment (who, when); once: a second is refused. */
export async function acknowledgeEvent(
  deps: Deps,
  actor: Actor,
  id: string,
  input: z.output<typeof eventAcknowledgeSchema>,
): Promise<EventView> {
  if (actor.role === "reviewer") throw new Forbidden("Недостаточно прав: события квитируют сотрудники площадки, не проверяющий");
  const parts = readEventId(id);
  const missing = new NotFound("Событие не найдено");
  if (!parts) throw missing;
  const facility = await deps.repos.facilities.get(actor.company, parts.facility);
  if (!facility) throw missing;
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const event = await deps.repos.sensorEvents.get(actor.company, facility.id, id, parts.start);
    if (!event) throw missing;
    if (event.acknowledged_at)
      throw new Conflict(`Событие уже квитировано: ${event.acknowledged_by ? nameOf(event.acknowledged_by) : UNNAMED_PERSON}`);
    // D102–D105: a questioned reading is answered with what was done, kept with who and when.
    if (event.kind === "suspect" && !(input.comment ?? "").trim()) throw invalidAt("comment", SUSPECT_ANSWER_REQUIRED);
    const next: SensorEvent = {
      ...event,
      acknowledged_by: actor.email,
      acknowledged_at: deps.clock.now().toISOString(),
      comment: input.comment ?? "",
    };
    if (await deps.repos.sensorEvents.put(next, event.version)) {
      const sensors = new Map((await deps.repos.sensors.listOfFacility(actor.company, facility.id)).map((s) => [s.id, s]));
      return eventView(next, sensors.get(event.sensor), zone, deps.clock.now().getTime(), facility.shift_calendar, codeIn(sensors), nameOf);
    }
  }
  throw new Conflict("Событие изменяли одновременно: повторите");
}

/** several events acknowledged at once with one comment, as a dispatcher does. Every id
 *  is found first (one not the company's: 404, nothing acknowledged); one acknowledged before keeps its
 *  own acknowledgement and is answered as it is. */
export async function acknowledgeEvents(deps: Deps, actor: Actor, input: z.output<typeof eventsAcknowledgeSchema>): Promise<EventView[]> {
  if (actor.role === "reviewer") throw new Forbidden("Недостаточно прав: события квитируют сотрудники площадки, не проверяющий");
  const ids = [...new Set(input.events)];
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const found: { id: string; event: SensorEvent }[] = [];
  for (const id of ids) {
    const parts = readEventId(id);
    const event =
      parts && (await deps.repos.facilities.get(actor.company, parts.facility))
        ? await deps.repos.sensorEvents.get(actor.company, parts.facility, id, parts.start)
        : undefined;
    if (!event) throw new NotFound("Событие не найдено");
    found.push({ id, event });
  }
  const out: EventView[] = [];
  for (const { id, event } of found) {
    if (event.acknowledged_at) {
      const calendar = (await deps.repos.facilities.get(actor.company, event.facility))?.shift_calendar;
      out.push(
        eventView(
          event,
          await deps.repos.sensors.get(actor.company, event.facility, event.sensor),
          zone,
          deps.clock.now().getTime(),
          calendar,
          undefined,
          nameOf,
        ),
      );
      continue;
    }
    try {
      out.push(await acknowledgeEvent(deps, actor, id, { comment: input.comment }));
    } catch (error) {
      // Acknowledged by another meanwhile: answered as it now is.
      if (!(error instanceof Conflict)) throw error;
      const now = await deps.repos.sensorEvents.get(actor.company, event.facility, id, event.start);
      out.push(
        eventView(
          now ?? event,
          await deps.repos.sensors.get(actor.company, event.facility, event.sensor),
          zone,
          deps.clock.now().getTime(),
          (await deps.repos.facilities.get(actor.company, event.facility))?.shift_calendar,
          undefined,
          nameOf,
        ),
      );
    }
  }
  return out;
}
