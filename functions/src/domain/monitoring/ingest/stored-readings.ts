// A sensor's stored readings read back (D57): the UTC day of an instant, and the readings of a window in
// time order, as the core's minute values, volumes, roll-ups and events are computed from: its day items,
// and for an open or not yet compacted day its facility's minute items over them (// minutes/minutes.ts).
import type { Deps } from "../../context";
import type { MinuteReadings, SensorDay, MonitoringRepository } from "../../../ports";
import { keptState } from "../../../ports/runtime";
import { DAY_MS, MINUTE_MS } from "@core/dates";

/** A sensor's day with nothing stored yet (version 0: written only if still none is). */
export const emptyDay = (company: string, sensor: string, day: string): SensorDay => ({
  company,
  sensor,
  day,
  offsets: new Uint32Array(0),
  values: new Float64Array(0),
  applied: {},
  corrections: [],
  version: 0,
});

export const utcDay = (t: number) => new Date(Math.floor(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
/** The UTC minute of an instant as a minute item names it (HH:mm). */
export const utcMinute = (t: number) => new Date(Math.floor(t / MINUTE_MS) * MINUTE_MS).toISOString().slice(11, 16);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** how long after its end a UTC day's readings are still written to its facility's minute
 *  items (minutes.ts); later ones go to the sensor's day item. A day long enough for a gateway's backlog
 *  after a night without its link. */
export const OPEN_GRACE_MS = DAY_MS;
/** The days back (from today) whose minute items a read looks for when the day is not compacted, and
 *  the compaction's sweep compacts: a host stopped for longer compacts them as it starts. */
export const MINUTES_HORIZON_DAYS = 7;
/** How long after a day stops taking minutes it is compacted (minutes/minutes.ts): far longer than an
 *  application takes between reading the clock and writing its minute, so no minute is written after its
 *  day's compaction. */
export const SETTLE_MS = 3_600_000;
/** How long after its day begins a facility's minute item is kept (DynamoDB's TTL; the local host
 *  removes it itself): the compaction looks back as far, so a day is compacted before its minutes go. */
export const MINUTES_KEPT_DAYS = 10;
/** Whether a day's readings go to minute items at `now`. */
export const isOpenDay = (day: string, now: number) => now < dayStart(day) + DAY_MS + OPEN_GRACE_MS;

/** The batch's name in a minute's order key (`{received_at}#{batch}`: an ISO instant has no «#»). */
export const batchOfKey = (key: string) => key.slice(key.indexOf("#") + 1);
export const isDemoMinute = (minute: Pick<MinuteReadings, "batches">) =>
  minute.batches.some((b) => batchOfKey(b.key).startsWith(DEMO_BATCH));

/** The batch mark of the days the demo's simulator wrote (demo-readings.ts): readings of such a day are
 *  «демонстрационные данные» wherever they show. The seed's days carry it as it is, the minutes the
 *  local server's feed pushes after it as their batches' names' start (`demo-simulator-…`). */
export const DEMO_BATCH = "demo-simulator";

/** Whether a stored day holds the demo's simulated readings: a batch of the demo's applied to it. */
export const isDemoDay = (day: Pick<SensorDay, "applied">) => Object.keys(day.applied).some((batch) => batch.startsWith(DEMO_BATCH));

/** Where a read finds a facility's minutes: storage (the repository), or the host's window of them
 *  (minutes/minute-window.ts keptMinutes), which the event detector, the live tiles and the forecaster
 *  read each sensor of a push from. */
export type MinuteSource = Pick<MonitoringRepository, "minutesOf"> & {
  /** Each sensor's readings' places in a minute, by its id: a source read for many sensors makes them
   *  once a minute, where each sensor's read went through all the minute's readings. */
  placesOf?(minute: MinuteReadings): ReadonlyMap<string, readonly number[]>;
};

/** A page's source of a facility's minutes: each window of a day read once for all
 *  its sensors, and each minute's places made once. On an open day the journal, the gassings, the
 *  completeness, the shift report and the offers read the facility's minute items once per sensor (1 530
 *  × the meters: today's journal of 60 meters 2,4–2,8 s). Kept for one page's reads, then dropped. */
export function sharedMinutes(source: Pick<MonitoringRepository, "minutesOf">): MinuteSource {
  const windows = new Map<string, Promise<MinuteReadings[]>>();
  const places = new Map<MinuteReadings, Map<string, number[]>>();
  return {
    minutesOf(company, facility, day, from, to) {
      const key = `${company}|${facility}|${day}|${from ?? ""}|${to ?? ""}`;
      let read = windows.get(key);
      if (!read) windows.set(key, (read = source.minutesOf(company, facility, day, from, to)));
      return read;
    },
    placesOf(minute) {
      let made = places.get(minute);
      if (!made) places.set(minute, (made = sensorPlaces(minute)));
      return made;
    },
  };
}

/** One sensor's readings' places in a minute, or undefined when it has none. */
function placesIn(minute: MinuteReadings, id: string): number[] | undefined {
  const index = minute.sensors.indexOf(id);
  if (index < 0) return undefined;
  const places: number[] = [];
  for (let k = 0; k < minute.sensor.length; k++) if (minute.sensor[k] === index) places.push(k);
  return places;
}

/** Each sensor's readings' places in a minute, by its id. */
export function sensorPlaces(minute: MinuteReadings): Map<string, number[]> {
  const places = new Map<string, number[]>();
  for (let k = 0; k < minute.sensor.length; k++) {
    const id = minute.sensors[minute.sensor[k]];
    const list = places.get(id);
    if (list) list.push(k);
    else places.set(id, [k]);
  }
  return places;
}

/** The facilities' open days whose day items written before an earlier release are moved into minutes, or being
 *  moved, by company, facility and day (minutes/minutes.ts openDayMoved keeps them). */
export const movedDays = keptState("moved days", () => new Map<string, Promise<void>>());

/** Whether no day item of the facility's `day` can hold readings at `now`: the day is open for another
 *  SETTLE_MS (no host closes it meanwhile, so none compacts it or writes it a closed
 *  day's late readings) and this host knows its day items written before an earlier release moved into its minutes
 *  (openDayMoved, which leaves them empty). */
async function dayItemsEmpty(deps: Partial<Pick<Deps, "runtime">>, company: string, facility: string, day: string, now: number) {
  const moved = deps.runtime?.kept(movedDays).get(`${company}|${facility}|${day}`);
  if (!moved || !isOpenDay(day, now + SETTLE_MS)) return false;
  return moved.then(
    () => true,
    () => false,
  );
}
/** A sensor known by its id alone (a tool's, a test's call) with its facility, found among the company's. */
async function sensorAt(deps: Pick<Deps, "repos">, company: string, id: string): Promise<{ id: string; facility: string }> {
  for (const facility of await deps.repos.facilities.list(company))
    if (await deps.repos.sensors.get(company, facility.id, id)) return { id, facility: facility.id };
  return { id, facility: "" };
}

/** A sensor's stored readings from `from` to before `to` (ms), in time order: what the core's minute
 *  values, volumes and roll-ups are computed from (@core/monitoring); `demo` when a day of them holds the
 *  demo's simulated readings. */
export async function readingsBetween(
  deps: Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "runtime">>,
  company: string,
  at: { id: string; facility: string } | string,
  from: number,
  to: number,
  minutes: MinuteSource = deps.repos.monitoring,
): Promise<{ times: Float64Array; values: Float64Array; demo: boolean }> {
  const sensor = typeof at === "string" ? await sensorAt(deps, company, at) : at;
  const now = deps.clock.now().getTime();
  const days: string[] = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS; t < to; t += DAY_MS) days.push(utcDay(t));
  // An open day moved over has its readings in its minutes alone: its day item is not read.
  const withItems: string[] = [];
  for (const day of days) if (!(await dayItemsEmpty(deps, company, sensor.facility, day, now))) withItems.push(day);
  const stored = withItems.length > 0 ? await deps.repos.monitoring.getDays(company, sensor.id, withItems) : [];
  const horizon = utcDay(now - MINUTES_HORIZON_DAYS * DAY_MS);
  const times: number[] = [];
  const values: number[] = [];
  let demo = false;
  for (const name of days) {
    const day = stored.find((d) => d.day === name);
    if (day && !demo && isDemoDay(day)) demo = true;
    const start = dayStart(name);
    const at = new Map<number, number>();
    if (day)
      for (let i = 0; i < day.offsets.length; i++) {
        const t = start + day.offsets[i];
        if (t >= from && t < to) at.set(t, day.values[i]);
      }
    // A day not yet compacted: its facility's minutes of the window, later than anything in its day item.
    // (An empty window reads none: storage refuses a Query from a minute to the one before.)
    const lo = Math.max(from, start);
    const hi = Math.min(to, start + DAY_MS);
    if (name >= horizon && !day?.compacted && lo < hi) {
      for (const minute of await minutes.minutesOf(company, sensor.facility, name, utcMinute(lo), utcMinute(hi - 1))) {
        const places = minutes.placesOf ? minutes.placesOf(minute).get(sensor.id) : placesIn(minute, sensor.id);
        if (!places) continue;
        if (!demo && isDemoMinute(minute)) demo = true;
        const minuteStart = start + Number(minute.minute.slice(0, 2)) * 3_600_000 + Number(minute.minute.slice(3, 5)) * MINUTE_MS;
        for (const k of places) {
          const t = minuteStart + minute.offsets[k];
          if (t >= from && t < to) at.set(t, minute.values[k]);
        }
      }
    }
    for (const t of [...at.keys()].sort((a, b) => a - b)) {
      times.push(t);
      values.push(at.get(t) as number);
    }
  }
  return { times: Float64Array.from(times), values: Float64Array.from(values), demo };
}

/** One detector run's readings by (sensor, window): the threshold detector and the suspect checks read the
 *  same sensors over the same window once (derive/events.ts, derive/suspect.ts). */
export type ReadingsCache = Map<string, Promise<{ times: Float64Array; values: Float64Array }>>;

/** `readingsBetween`, answered from `cache` where the same sensor and window were read in this run. */
export function cachedReadings(
  deps: Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "runtime">>,
  company: string,
  sensor: { id: string; facility: string },
  from: number,
  to: number,
  minutes: MinuteSource,
  cache?: ReadingsCache,
): Promise<{ times: Float64Array; values: Float64Array }> {
  if (!cache) return readingsBetween(deps, company, sensor, from, to, minutes);
  const key = `${sensor.id}|${from}|${to}`;
  let read = cache.get(key);
  if (!read) {
    read = readingsBetween(deps, company, sensor, from, to, minutes);
    cache.set(key, read);
  }
  return read;
}
