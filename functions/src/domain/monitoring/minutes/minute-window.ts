// each facility's recent minute items kept by the host (minuteWindows), so that
// the event detector, the live tiles, the forecaster and the stale channels' sweep read a push's hours
// of minutes from memory, not ~360 items of storage each push, and the consumer guesses the minute it
// merges into without reading it. Several processes write one facility's minutes (AWS: the readings
// function's containers; locally the request thread and the consumer's), so each minute write is first
// logged in the facility's head (MinutesHead: its last MINUTES_LOGGED writes as day, minute and the
// version the write makes), and a read begins with one strong read of the head: each minute logged since
// the window last looked and kept at an older version is read again (one Get), the whole window when
// the log does not reach back that far. Logged before it is written, a minute whose write has not landed
// reads older than logged and stays `stale`, read again by each read until it has. Minute items are
// removed only by their expiry (ten days after their day) or the compaction of a settled day (two days
// old), far before a window's start, so a minute kept never vanishes from storage. The consumer's guess
// needs no head: its write is conditioned on the guessed version, and a refused write reads the minute
// from storage.
import type { Deps } from "../../context";
import type { MinuteReadings, MinutesHead } from "../../../ports";
import { keptState, type Runtime } from "../../../ports/runtime";
import { LIMITS } from "../../../contract/schemas/limits";
import { dayStart, type MinuteSource, sensorPlaces, utcDay, utcMinute } from "../ingest/stored-readings";
import { DAY_MS, MINUTE_MS } from "@core/dates";

/** How far back a facility's window keeps its minutes: the detector's 6 h before a push's first minute
 *  (derive/events.ts DETECT_LOOKBACK_MS twice) with an hour to spare; older reads go to storage. */
const MINUTE_WINDOW_MS = 7 * 3_600_000;
/** The facilities a host keeps windows of (a holding's mines, 34 in the holding bench with its two
 *  neighbours; one unused for IDLE_MS let go for another): at 150 sensors a window is about 1,5 MB (420
 *  minutes of 2,1 KB of readings, their arrays' overhead, the sensors' ids once), 64 of them ~100 MB,
 *  within the minute function's 256 MB beside its ~90 MB of code and heap. */
const MINUTE_WINDOW_FACILITIES = 64;
/** The writes a facility's head lists: far more than all its writers make between two reads of a window
 *  that is read each push, and than land between one's log and its write (one Put after the other). */
const MINUTES_LOGGED = 32;

/** A facility's minutes a host keeps: every minute stored from `from` (UTC ms) on as of its head's
 *  version `seen`, by its first instant, but those `stale` (another wrote them, at least to the version
 *  named, since they were read: read again). `head` is the head as last read or written (what the next
 *  log is conditioned on); `logging` and `syncing` this host's logs and syncs, one after another. */
interface MinuteWindow {
  from: number;
  seen: number;
  minutes: Map<number, MinuteReadings>;
  stale: Map<number, number>;
  /** When this host last read or wrote it (UTC ms): one unused for a while may be let go. */
  usedAt: number;
  /** The sensors' ids its minutes share (withSharedSensors). */
  sensors?: string[];
  head?: MinutesHead;
  logging?: Promise<void>;
  syncing?: Promise<MinuteWindow>;
}

/** The facilities' recent minute items, by company and facility. */
const minuteWindows = keptState("minute windows", () => new Map<string, MinuteWindow>());

const minuteAt = (day: string, minute: string) =>
  dayStart(day) + Number(minute.slice(0, 2)) * 3_600_000 + Number(minute.slice(3, 5)) * MINUTE_MS;

/** The facility's window, made empty (covering nothing) at first use; undefined when MINUTE_WINDOW_FACILITIES
 *  others are in use (one unused for IDLE_MS is let go for it): the facility is read from storage then,
 *  so a host serving more facilities (the minute function's sweep of a holding) never reads a window
 *  anew each time. */
function windowOf(runtime: Pick<Runtime, "kept">, company: string, facility: string, now: number): MinuteWindow | undefined {
  const windows = runtime.kept(minuteWindows);
  const key = `${company}|${facility}`;
  let window = windows.get(key);
  if (!window) {
    if (windows.size >= MINUTE_WINDOW_FACILITIES) {
      const idle = [...windows].find(([, w]) => w.usedAt < now - IDLE_MS);
      if (!idle) return undefined;
      windows.delete(idle[0]);
    }
    window = emptyWindow(now);
    windows.set(key, window);
  }
  window.usedAt = now;
  return window;
}
const emptyWindow = (now: number): MinuteWindow => ({
  from: Number.POSITIVE_INFINITY,
  seen: 0,
  minutes: new Map(),
  stale: new Map(),
  usedAt: now,
});
/** How long a window unused is kept before another facility's may take its place. */
const IDLE_MS = 10 * MINUTE_MS;

/** The facility's window let go (its minutes removed or rewritten outside the log: a day compacted). */
export function forgetMinutes(runtime: Pick<Runtime, "kept">, company: string, facility: string) {
  runtime.kept(minuteWindows).delete(`${company}|${facility}`);
}

/** A minute as stored at its version kept in the window, unless it keeps a later one or the minute is
 *  before its start. */
function keep(window: MinuteWindow, minute: MinuteReadings) {
  const t = minuteAt(minute.day, minute.minute);
  if (t < window.from) return;
  if ((window.minutes.get(t)?.version ?? 0) < minute.version) window.minutes.set(t, withSharedSensors(window, minute));
  if ((window.stale.get(t) ?? Number.POSITIVE_INFINITY) <= minute.version) window.stale.delete(t);
}

/** The minute naming its sensors by the window's list where it names the same ones (a facility's
 *  minutes mostly do): 150 ids are ~9 KB a minute, more than its readings. */
function withSharedSensors(window: MinuteWindow, minute: MinuteReadings): MinuteReadings {
  const shared = window.sensors;
  if (shared && shared.length === minute.sensors.length && shared.every((id, i) => id === minute.sensors[i]))
    return { ...minute, sensors: shared };
  window.sensors = minute.sensors;
  return minute;
}

/** A logged write `${day} ${minute} ${version}` marks its minute stale where the window keeps it older. */
function note(window: MinuteWindow, written: string) {
  const [day, minute, version] = written.split(" ");
  const t = minuteAt(day, minute);
  if (t < window.from || (window.minutes.get(t)?.version ?? 0) >= Number(version)) return;
  window.stale.set(t, Math.max(window.stale.get(t) ?? 0, Number(version)));
}

/** The facility's minute as this host last knew it, for a write conditioned on its version: the
 *  window's, null where the window knows none is stored, undefined where it cannot tell. */
export function guessedMinute(
  deps: Pick<Deps, "runtime">,
  company: string,
  facility: string,
  day: string,
  minute: string,
): MinuteReadings | null | undefined {
  const window = deps.runtime.kept(minuteWindows).get(`${company}|${facility}`);
  const t = minuteAt(day, minute);
  if (!window || t < window.from || window.stale.has(t)) return undefined;
  return window.minutes.get(t) ?? null;
}

/** The minute read from storage, and kept in the window. */
export async function readMinute(
  deps: Pick<Deps, "repos" | "runtime">,
  company: string,
  facility: string,
  day: string,
  minute: string,
): Promise<MinuteReadings | undefined> {
  const stored = await deps.repos.monitoring.getMinute(company, facility, day, minute);
  const window = deps.runtime.kept(minuteWindows).get(`${company}|${facility}`);
  if (stored && window) keep(window, stored);
  return stored;
}

/** A facility's minute written if its stored version is still `expectedVersion` (repository putMinute),
 *  logged in the facility's head first; kept in this host's window once written. Every write of a
 *  minute goes through here. */
export async function writeMinute(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  minute: MinuteReadings,
  expectedVersion: number,
): Promise<boolean> {
  // Without a window of its own (the host keeps others'), one for this write alone: its log reads the head.
  const window = windowOf(deps.runtime, minute.company, minute.facility, deps.clock.now().getTime()) ?? emptyWindow(0);
  await logWrite(deps, window, minute.company, minute.facility, `${minute.day} ${minute.minute} ${expectedVersion + 1}`);
  if (!(await deps.repos.monitoring.putMinute(minute, expectedVersion))) return false;
  keep(window, { ...minute, version: expectedVersion + 1 });
  return true;
}

/** One write logged in the facility's head: conditioned on the head this host last knew, read again
 *  when another wrote it meanwhile; this host's logs one after another. */
function logWrite(deps: Pick<Deps, "repos">, window: MinuteWindow, company: string, facility: string, written: string): Promise<void> {
  const log = async () => {
    for (;;) {
      const head: MinutesHead = window.head ??
        (await deps.repos.monitoring.getMinutesHead(company, facility)) ?? { company, facility, written: [], version: 0 };
      const next = { ...head, written: [...head.written, written].slice(-MINUTES_LOGGED) };
      if (await deps.repos.monitoring.putMinutesHead(next, head.version)) {
        window.head = { ...next, version: head.version + 1 };
        return;
      }
      window.head = undefined;
    }
  };
  const logged = (window.logging ?? Promise.resolve()).catch(() => undefined).then(log);
  window.logging = logged;
  return logged;
}

/** The window brought up to the facility's head (read once, strongly): the minutes logged since it
 *  last looked read again where it keeps them older, or every minute from MINUTE_WINDOW_MS back read
 *  anew where the log does not reach back (or the window covers nothing yet); then the stale ones read
 *  again. This host's syncs of a window one after another. */
function sync(deps: Pick<Deps, "repos" | "clock" | "runtime">, company: string, facility: string): Promise<MinuteWindow> | undefined {
  const window = windowOf(deps.runtime, company, facility, deps.clock.now().getTime());
  if (!window) return undefined;
  const run = async () => {
    const now = deps.clock.now().getTime();
    const start = now - MINUTE_WINDOW_MS;
    const head = (await deps.repos.monitoring.getMinutesHead(company, facility)) ?? { company, facility, written: [], version: 0 };
    if (head.version > (window.head?.version ?? -1)) window.head = head;
    const unseen = head.version - window.seen;
    if (window.from > start || unseen < 0 || unseen > head.written.length) {
      // Every minute from `start` on, to the latest a push may name (LIMITS.monitoring.futureMinutes past
      // now): later ones are written after the head was read, and logged. Read whole before the window
      // takes them (a read that fails leaves it as it was), beside those this host wrote meanwhile.
      const read: MinuteReadings[] = [];
      for (let t = Math.floor(start / DAY_MS) * DAY_MS; t <= now + LIMITS.monitoring.futureMinutes * MINUTE_MS; t += DAY_MS)
        read.push(...(await deps.repos.monitoring.minutesOf(company, facility, utcDay(t), t < start ? utcMinute(start) : "00:00")));
      const kept = [...window.minutes.values()];
      window.minutes = new Map();
      window.from = start;
      window.stale.clear();
      for (const minute of [...read, ...kept]) keep(window, minute);
      // The head's writes whose minutes read older may not have landed yet: stale.
      for (const written of head.written) note(window, written);
    } else for (const written of head.written.slice(head.written.length - unseen)) note(window, written);
    window.seen = head.version;
    // Minutes older than the window let go.
    window.from = Math.max(window.from, start);
    for (const t of window.minutes.keys()) if (t < window.from) window.minutes.delete(t);
    for (const t of [...window.stale.keys()]) {
      if (t < window.from) {
        window.stale.delete(t);
        continue;
      }
      await readMinute(deps, company, facility, utcDay(t), utcMinute(t));
    }
    return window;
  };
  const synced = (window.syncing ?? Promise.resolve(window)).catch(() => window).then(run);
  window.syncing = synced;
  return synced;
}

/** A facility the host keeps a window of. */
export interface WindowedFacility {
  company: string;
  facility: string;
}

/** The facilities whose latest minute written (their head's last) is within a window's reach of now: those
 *  a host started again reads into its windows before their next push (warmMinuteWindows). A Get of each
 *  facility's head; the companies' and facilities' lists, as the stale sweep reads them each minute. */
export async function facilitiesWrittenLately(deps: Pick<Deps, "repos" | "clock">): Promise<WindowedFacility[]> {
  const since = deps.clock.now().getTime() - MINUTE_WINDOW_MS;
  const found: WindowedFacility[] = [];
  for (const company of await deps.repos.companies.list()) {
    for (const facility of await deps.repos.facilities.list(company.id)) {
      const last = (await deps.repos.monitoring.getMinutesHead(company.id, facility.id))?.written.at(-1);
      if (!last) continue;
      const [day, minute] = last.split(" ");
      if (minuteAt(day, minute) >= since) found.push({ company: company.id, facility: facility.id });
    }
  }
  return found;
}

/** Reads each facility's window now, one after another (a holding's 34 mines: 420 minutes each), so that
 *  the first push after a start finds its minutes kept, as every later one does. A facility whose read
 *  fails is read at its next push. */
export async function warmMinuteWindows(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  facilities: readonly WindowedFacility[],
): Promise<void> {
  for (const { company, facility } of facilities) await sync(deps, company, facility)?.catch(() => undefined);
}

/** A read's source of facilities' minutes (stored-readings.ts readingsBetween): from the host's window where
 *  it reaches (each facility's brought up to its head once for the read, whatever its sensors), else a
 *  Query of storage (once per read for all its sensors). */
export function keptMinutes(deps: Pick<Deps, "repos" | "clock" | "runtime">): MinuteSource {
  const synced = new Map<string, Promise<MinuteWindow> | undefined>();
  const reads = new Map<string, Promise<MinuteReadings[]>>();
  const fromWindow = async (company: string, facility: string, day: string, first: string, last: string) => {
    const key = `${company}|${facility}`;
    if (!synced.has(key)) synced.set(key, sync(deps, company, facility));
    const kept = await synced.get(key);
    const lo = minuteAt(day, first);
    if (!kept || lo < kept.from) return deps.repos.monitoring.minutesOf(company, facility, day, first, last);
    const hi = minuteAt(day, last);
    return [...kept.minutes]
      .filter(([t]) => t >= lo && t <= hi)
      .sort(([a], [b]) => a - b)
      .map(([, minute]) => minute);
  };
  // Each minute's places found once for the read (its sensors all read the same minutes); gone with it.
  const places = new Map<MinuteReadings, Map<string, number[]>>();
  return {
    placesOf(minute) {
      let found = places.get(minute);
      if (!found) places.set(minute, (found = sensorPlaces(minute)));
      return found;
    },
    minutesOf(company, facility, day, first = "00:00", last = "23:59") {
      const key = `${company}|${facility}|${day}|${first}|${last}`;
      let read = reads.get(key);
      if (!read) {
        const near = minuteAt(day, first) >= deps.clock.now().getTime() - MINUTE_WINDOW_MS;
        read = near
          ? fromWindow(company, facility, day, first, last)
          : deps.repos.monitoring.minutesOf(company, facility, day, first, last);
        reads.set(key, read);
      }
      return read;
    },
  };
}
