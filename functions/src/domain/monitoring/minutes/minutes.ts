// the readings of an open UTC day (ingest/stored-readings.ts isOpenDay) are written as they arrive, into their
// facility's minute items (one item a facility and minute, every sensor's readings of it: a push of a
// minute writes one item of a few KB, read and written under a condition on its version), never into a
// sensor's day that grows all day. Once a day is closed and settled (OPEN_GRACE_MS + SETTLE_MS after its
// end) its minutes are compacted into each sensor's day item, the form the month's offers, the climate
// periods and the packs read, and left to their expiry (the repository's removeMinutes marks the day
// done). A closed day's late readings go to the day item as before (consumer.ts writeReadings), after its
// minutes are compacted. docs/architecture.md says why, with the arithmetic.
import type { Deps } from "../../context";
import type { MinuteReadings, SensorDay } from "../../../ports";
import {
  DEMO_BATCH,
  MINUTES_KEPT_DAYS,
  OPEN_GRACE_MS,
  SETTLE_MS,
  batchOfKey,
  dayStart,
  emptyDay,
  isDemoDay,
  isOpenDay,
  movedDays,
  utcDay,
} from "../ingest/stored-readings";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { forgetMinutes, writeMinute } from "./minute-window";

/** The corrections a minute keeps (the latest), and a compacted day (as the day items keep). */
const MINUTE_CORRECTIONS = 100;
const DAY_CORRECTIONS = 1000;
/** The facility-days a host remembers as moved over (openDayMoved) before it forgets them all. */
const MOVED_DAYS_KEPT = 10_000;

/** A minute's first instant, UTC ms. */
export const minuteStart = (m: Pick<MinuteReadings, "day" | "minute">) =>
  dayStart(m.day) + Number(m.minute.slice(0, 2)) * 3_600_000 + Number(m.minute.slice(3, 5)) * MINUTE_MS;

export const emptyMinute = (company: string, facility: string, day: string, minute: string): MinuteReadings => ({
  company,
  facility,
  day,
  minute,
  sensors: [],
  sensor: new Uint16Array(0),
  offsets: new Uint16Array(0),
  values: new Float64Array(0),
  batch: new Uint16Array(0),
  batches: [],
  corrections: [],
  version: 0,
});

/** `readings` (of this minute, in the batch's order) merged into `stored` under the batch's order key
 *  `key`: a new instant accepted, the same value a duplicate, another value a correction, kept when the
 *  stored value's batch is not later than this one (so of two values for an instant the later batch's
 *  stays, in whatever order they are applied). The counts are kept with the key: a batch applied again
 *  is answered them, and changes nothing. */
export function mergeMinute(
  stored: MinuteReadings,
  key: string,
  readings: readonly { sensor: string; times: ArrayLike<number>; values: ArrayLike<number> }[],
): { minute: MinuteReadings; counts: [number, number, number] } {
  const done = stored.batches.find((b) => b.key === key);
  if (done) return { minute: stored, counts: done.counts };
  const start = minuteStart(stored);
  const sensors = [...stored.sensors];
  const indexOf = new Map(sensors.map((s, i) => [s, i]));
  const batches = [...stored.batches];
  const batch = batches.length;
  // A reading's place: its sensor's index and its offset in the minute (< 60 000 < 2^16).
  const at = new Map<number, { value: number; batch: number }>();
  for (let k = 0; k < stored.values.length; k++)
    at.set(stored.sensor[k] * 65_536 + stored.offsets[k], { value: stored.values[k], batch: stored.batch[k] });
  const corrections = [...stored.corrections];
  let accepted = 0;
  let duplicate = 0;
  let corrected = 0;
  for (const r of readings) {
    let index = indexOf.get(r.sensor);
    if (index === undefined) {
      index = sensors.push(r.sensor) - 1;
      indexOf.set(r.sensor, index);
    }
    for (let i = 0; i < r.times.length; i++) {
      const t = r.times[i];
      const value = r.values[i];
      const place = index * 65_536 + (t - start);
      const old = at.get(place);
      if (old === undefined) accepted++;
      else if (Object.is(old.value, value)) {
        duplicate++;
        continue;
      } else {
        corrected++;
        // A later batch's value stays: this one came after it.
        if (old.batch !== batch && batches[old.batch].key > key) continue;
        corrections.push({ sensor: r.sensor, t, old: old.value, value, batch: batchOfKey(key) });
      }
      at.set(place, { value, batch });
    }
  }
  const counts: [number, number, number] = [accepted, duplicate, corrected];
  batches.push({ key, counts });
  const places = Float64Array.from(at.keys()).sort();
  return {
    minute: {
      ...stored,
      sensors,
      sensor: Uint16Array.from(places, (p) => Math.floor(p / 65_536)),
      offsets: Uint16Array.from(places, (p) => p % 65_536),
      values: Float64Array.from(places, (p) => at.get(p)!.value),
      batch: Uint16Array.from(places, (p) => at.get(p)!.batch),
      batches,
      corrections: corrections.slice(-MINUTE_CORRECTIONS),
    },
    counts,
  };
}

/** A facility's minutes of a closed day compacted into its sensors' day items (marked compacted, so
 *  reads no longer look for its minutes), then marked done (removeMinutes; they are left to their
 *  expiry). A sensor's day already compacted is left as it is (a compaction cut short before its mark,
 *  then late readings written to the day). Answers the minutes compacted. */
export async function compactDay(
  deps: Pick<Deps, "repos"> & Partial<Pick<Deps, "runtime">>,
  company: string,
  facility: string,
  day: string,
): Promise<number> {
  const minutes = await deps.repos.monitoring.minutesOf(company, facility, day);
  if (minutes.length === 0) return 0;
  const start = dayStart(day);
  const bySensor = new Map<string, Map<number, number>>();
  const demo = minutes.some((m) => m.batches.some((b) => batchOfKey(b.key).startsWith(DEMO_BATCH)));
  for (const m of minutes) {
    const offset = minuteStart(m) - start;
    for (let k = 0; k < m.values.length; k++) {
      const sensor = m.sensors[m.sensor[k]];
      let at = bySensor.get(sensor);
      if (!at) bySensor.set(sensor, (at = new Map()));
      at.set(offset + m.offsets[k], m.values[k]);
    }
  }
  for (const [sensor, at] of bySensor) {
    const corrections = minutes.flatMap((m) => m.corrections.filter((c) => c.sensor === sensor).map(({ sensor: _s, ...c }) => c));
    for (;;) {
      const stored = (await deps.repos.monitoring.getDay(company, sensor, day)) ?? emptyDay(company, sensor, day);
      if (stored.compacted) break;
      const merged = new Map<number, number>();
      for (let i = 0; i < stored.offsets.length; i++) merged.set(stored.offsets[i], stored.values[i]);
      for (const [offset, value] of at) merged.set(offset, value);
      const offsets = Uint32Array.from(merged.keys()).sort();
      const compacted: SensorDay = {
        ...stored,
        offsets,
        values: Float64Array.from(offsets, (o) => merged.get(o) as number),
        // The batch marks stay in the minutes: a batch applied after the compaction finds its readings
        // stored and counts them duplicates. The demo's mark is kept (its readings are shown as such).
        applied: demo ? { ...stored.applied, [DEMO_BATCH]: [0, 0, 0] } : stored.applied,
        corrections: [...stored.corrections, ...corrections].slice(-DAY_CORRECTIONS),
        compacted: true,
      };
      if (await deps.repos.monitoring.putDay(compacted, stored.version)) break;
    }
  }
  await deps.repos.monitoring.removeMinutes(
    company,
    facility,
    day,
    minutes.map((m) => m.minute),
  );
  // This host's window of the facility's minutes and its knowledge that the day's items are empty no
  // longer hold (a day compacted while open: a test's, a bench's).
  if (deps.runtime) {
    forgetMinutes(deps.runtime, company, facility);
    deps.runtime.kept(movedDays).delete(`${company}|${facility}|${day}`);
  }
  return minutes.length;
}

/** Whether a day's minutes may be compacted at `now`: closed, and settled. */
export const isSettledDay = (day: string, now: number) => now >= dayStart(day) + DAY_MS + OPEN_GRACE_MS + SETTLE_MS;

/** The upgrade to minute items: a sensor's open day written before an earlier release (its day item, not
 *  compacted) moved into its facility's minutes, so a push of a reading it holds counts a duplicate, not
 *  an acceptance. Under an order key before any batch's (so a later push's value stays) and of its own
 *  per sensor, so a move cut short and run again moves nothing twice; then the day item is emptied of
 *  them (its marks kept), and the compaction writes them back. Answers whether it moved the whole day
 *  (not stopped by `run`). */
async function moveOpenDay(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  company: string,
  facility: string,
  day: string,
  run: CompactionRun,
): Promise<boolean> {
  const sensors = await deps.repos.sensors.listOfFacility(company, facility);
  const days: SensorDay[] = [];
  for (const sensor of sensors) {
    const stored = await deps.repos.monitoring.getDay(company, sensor.id, day);
    if (stored && !stored.compacted && stored.offsets.length > 0) days.push(stored);
  }
  if (days.length === 0) return true;
  const demo = new Set(days.filter(isDemoDay).map((d) => d.sensor));
  // Each minute's readings of every such sensor: one read and one write a minute.
  const start = dayStart(day);
  const byMinute = new Map<number, { sensor: string; times: number[]; values: number[] }[]>();
  for (const stored of days)
    for (let i = 0; i < stored.offsets.length; i++) {
      const m = Math.floor(stored.offsets[i] / MINUTE_MS);
      let list = byMinute.get(m);
      if (!list) byMinute.set(m, (list = []));
      let mine = list.find((r) => r.sensor === stored.sensor);
      if (!mine) list.push((mine = { sensor: stored.sensor, times: [], values: [] }));
      mine.times.push(start + stored.offsets[i]);
      mine.values.push(stored.values[i]);
    }
  for (const [m, readings] of byMinute) {
    if (run.stopped) return false;
    const minute = `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    for (;;) {
      const found = (await deps.repos.monitoring.getMinute(company, facility, day, minute)) ?? emptyMinute(company, facility, day, minute);
      let merged = found;
      // A demo's day stays the demo's in its minutes (its day item, holding the mark, is no longer read).
      for (const r of readings)
        merged = mergeMinute(merged, `0000#${demo.has(r.sensor) ? `${DEMO_BATCH}-` : ""}upgrade-${r.sensor}`, [r]).minute;
      if (merged === found || (await writeMinute(deps, merged, found.version))) break;
    }
  }
  // Their readings are in the minutes now: each day keeps its marks (the demo's), not them again.
  for (const stored of days)
    await deps.repos.monitoring.putDay({ ...stored, offsets: new Uint32Array(0), values: new Float64Array(0) }, stored.version);
  return true;
}

/** The facility's open day moved over from its day items written before an earlier release (moveOpenDay) before a reading is merged
 *  into its minutes: until then a push of a reading its old day item holds would count it accepted
 *  again. Once per host and facility-day (the runtime keeps the move, run once however many merges ask
 *  at once) and once in storage (the mark, so a day with nothing to move costs one read per host). */
export function openDayMoved(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  company: string,
  facility: string,
  day: string,
  run: CompactionRun = { stopped: false },
): Promise<void> {
  const moved = deps.runtime.kept(movedDays);
  const key = `${company}|${facility}|${day}`;
  const known = moved.get(key);
  if (known) return known;
  // A server running for months keeps the days of lately, not all of them.
  if (moved.size >= MOVED_DAYS_KEPT) moved.clear();
  const moving = (async () => {
    if (await deps.repos.monitoring.openDayMoved(company, facility, day)) return;
    if (!(await moveOpenDay(deps, company, facility, day, run))) throw new Error("the move of an open day was stopped");
    await deps.repos.monitoring.markOpenDayMoved(company, facility, day);
  })();
  moved.set(key, moving);
  moving.catch(() => moved.delete(key));
  return moving;
}

/** A run of the compaction its host may stop (a server closing): it stops between minutes, where
 *  whatever it did is whole and the next run goes on from it. */
export interface CompactionRun {
  stopped: boolean;
}

/** Every facility's settled days of the last MINUTES_KEPT_DAYS with minutes stored, compacted, and
 *  its open days' day items written before an earlier release moved into minutes (moveOpenDays): the local server on start
 *  and hourly, in AWS the minute function once an hour. Answers the minutes compacted. */
export async function compactSettledDays(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  run: CompactionRun = { stopped: false },
): Promise<number> {
  const now = deps.clock.now().getTime();
  const days: string[] = [];
  // Back as far as minutes are kept, not only as far as reads look (MINUTES_HORIZON_DAYS): a host that
  // compacted nothing for a week compacts those days before their minutes expire.
  for (let back = MINUTES_KEPT_DAYS; back >= 0; back--) {
    const day = utcDay(now - back * DAY_MS);
    if (isSettledDay(day, now)) days.push(day);
  }
  let compacted = 0;
  for (const company of await deps.repos.companies.list())
    for (const facility of await deps.repos.facilities.list(company.id)) {
      if (run.stopped) return compacted;
      for (const day of [utcDay(now - DAY_MS), utcDay(now)].filter((open) => isOpenDay(open, now)))
        await openDayMoved(deps, company.id, facility.id, day, run).catch(() => undefined);
      for (const day of days)
        if (await deps.repos.monitoring.hasMinutes(company.id, facility.id, day))
          compacted += await compactDay(deps, company.id, facility.id, day);
    }
  return compacted;
}
