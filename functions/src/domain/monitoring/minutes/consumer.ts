// The one consumer of pushed readings (methodology D57). An open day's readings (ingest/stored-readings.ts
// isOpenDay) go to their facility's minute items (minutes.ts: one item a facility and minute, every
// sensor's readings of it); a closed day's late readings to the sensor's day item, after the day's
// minutes are compacted into it. Either item merges by (sensor, instant): the same value again is a
// duplicate, another value a correction kept with the old one; each is written with a condition on its
// version and the batch's counts in it, so a batch applied twice (a crash, a redelivery) counts nothing
// twice and batches in any order give the same readings. Locally the queue is the table's TQUEUE marks:
// what was stored and answered 202 before a kill is taken up again on the next start (drainReadings).
// The local server drains it in a worker thread of its own (local/readings-consumer.ts), not on its
// request thread.
//
// Readings travel as typed arrays per sensor (SensorReadings: 16 bytes a reading), not as an array of
// [sensor, ms, value] tuples (about 100 bytes a reading in V8's heap, and a second copy as [ms, value]
// pairs per day): a year's file is applied a part at a time, each part let go once its readings are in.
import type { Deps } from "../../context";
import { keptState } from "../../../ports/runtime";
import type { ReadingsWritten, SensorDay, ReadingsBatch } from "../../../ports";
import { batchReadings } from "../ingest/readings";
import { MINUTES_HORIZON_DAYS, dayStart, emptyDay, isOpenDay, utcDay } from "../ingest/stored-readings";
import { DAY_MS, ruDate } from "@core/dates";
import { compactDay, emptyMinute, mergeMinute, openDayMoved } from "./minutes";
import { guessedMinute, readMinute, writeMinute } from "./minute-window";
import { readFileBatch } from "../ingest/files";
import { facilityRegister } from "../ingest/kept-register";
import { columnsOf, joinedReadings, type SensorReadings } from "../ingest/reading-columns";
import { formatNumber } from "../../forecast/russian-numbers";

const MINUTE = 60_000;

/** The corrections a day keeps (the latest): enough for a gateway pushing each minute. */
const MAX_CORRECTIONS = 1000;
/** The batch marks a day keeps, the latest by their batches' ids (UUID v7: in the order they were
 *  stored; a map's keys keep no order in DynamoDB). A gateway pushing every 10 s marks a sensor's day
 *  8 640 times, ≈ 60 bytes each: past DynamoDB's 400 KB an item, every later write of the day refused.
 *  A mark is needed only while its batch may be applied again (a kill before it is marked done, a
 *  redelivery), which comes long before 2 000 later batches touched the same day; a batch applied again
 *  after that finds its readings stored and counts them as duplicates. */
export const MAX_BATCH_MARKS = 2000;

// Where a sensor's readings are read back from (offers, the event detector): ingest/stored-readings.ts.
export { readingsBetween, utcDay } from "../ingest/stored-readings";
export { columnsOf, ReadingColumns, type SensorReadings } from "../ingest/reading-columns";

/** `readings` (of one sensor and UTC day, in the batch's order) merged into `stored`. */
export function mergeDay(
  stored: SensorDay,
  batch: string,
  readings: { times: ArrayLike<number>; values: ArrayLike<number> },
): { day: SensorDay; counts: [number, number, number] } {
  const dayStart = Date.parse(`${stored.day}T00:00:00Z`);
  const byOffset = new Map<number, number>();
  for (let i = 0; i < stored.offsets.length; i++) byOffset.set(stored.offsets[i], stored.values[i]);
  const corrections = [...stored.corrections];
  let accepted = 0;
  let duplicate = 0;
  let corrected = 0;
  for (let i = 0; i < readings.times.length; i++) {
    const t = readings.times[i];
    const value = readings.values[i];
    const offset = t - dayStart;
    const old = byOffset.get(offset);
    if (old === undefined) accepted++;
    else if (Object.is(old, value)) {
      duplicate++;
      continue;
    } else {
      corrected++;
      corrections.push({ t, old, value, batch });
    }
    byOffset.set(offset, value);
  }
  const offsets = Uint32Array.from(byOffset.keys()).sort();
  const values = Float64Array.from(offsets, (o) => byOffset.get(o) as number);
  const counts: [number, number, number] = [accepted, duplicate, corrected];
  return {
    day: {
      ...stored,
      offsets,
      values,
      corrections: corrections.slice(-MAX_CORRECTIONS),
      applied: latestMarks({ ...stored.applied, [batch]: counts }),
    },
    counts,
  };
}

/** The MAX_BATCH_MARKS marks of the latest batches. */
function latestMarks(applied: SensorDay["applied"]): SensorDay["applied"] {
  const names = Object.keys(applied);
  if (names.length <= MAX_BATCH_MARKS) return applied;
  return Object.fromEntries(
    names
      .sort()
      .slice(-MAX_BATCH_MARKS)
      .map((name) => [name, applied[name]]),
  );
}

type ConsumerDeps = Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> & Partial<Pick<Deps, "readingsRetryFirstMs">>;

/** Where a batch's work is done: the drain hands each slice (a pushed batch's days, a part of a file,
 *  the day consumers' share) to its turns between facilities and companies; applied alone, at once. */
type Slice = <T>(work: (pass: Pass, later: Pass) => Promise<T>) => Promise<T>;
/** Within a slice: lets the others waiting take their turn, then goes on (`pass`); or, its days written
 *  and the tiles told, goes on once no other batch waits to be written (`later`: the publish's). */
type Pass = () => Promise<void>;
const atOnce: Slice = (work) =>
  work(
    async () => undefined,
    async () => undefined,
  );

/** Items (a facility's minute, or a sensor's closed day) one slice writes, or hands the day consumers, at
 *  most: a push of 10 000 readings on as many days is ten slices, the other companies' turns between. */
export const SLICE_WRITES = 1_000;

/** The days written by several batches taken together, per facility: each day once, each sensor's
 *  earliest instant changed, the readings as applied. */
class PendingChanges {
  private readonly byFacility = new Map<
    string,
    Omit<ReadingsWritten, "type" | "days"> & { days: Map<string, { sensor: string; day: string }>; readings: SensorReadings[] }
  >();
  add(change: Omit<ReadingsWritten, "type">) {
    const key = `${change.company}|${change.facility}`;
    let pending = this.byFacility.get(key);
    if (!pending)
      this.byFacility.set(
        key,
        (pending = { company: change.company, facility: change.facility, batches: [], days: new Map(), since: {}, readings: [] }),
      );
    pending.batches.push(...change.batches);
    for (const d of change.days) pending.days.set(`${d.sensor}|${d.day}`, d);
    for (const [sensor, t] of Object.entries(change.since)) pending.since[sensor] = Math.min(pending.since[sensor] ?? t, t);
    pending.readings.push(...change.readings);
  }
  /** Another's changes taken in with these. */
  merge(other: PendingChanges) {
    for (const p of other.byFacility.values()) this.add({ ...p, days: [...p.days.values()] });
  }
  /** Publishes each facility's days once: the one publish of «readings written», heard by the host's
   *  subscribers in its table's order (the live tiles, the forecaster, the event detector, the
   *  acceptances' recheck), with the facility's register read once for them all, the prompt ones (the
   *  tiles) before the slice's `later` turn. Rejects when one failed, once all have heard it. */
  async publish(deps: Pick<Deps, "runtime" | "repos" | "clock">, later?: Pass): Promise<void> {
    for (const p of this.byFacility.values()) {
      const register = await facilityRegister(deps, p.company, p.facility);
      await deps.runtime.changes.publish({ type: "ReadingsWritten", ...p, days: [...p.days.values()], register }, later);
    }
  }
}

/** One sensor's readings cut at UTC days, each day's in the order read: runs of the arrays where the
 *  days come in order (a file, a gateway's minutes), else gathered by a stable sort of their indices. */
function byDay(readings: SensorReadings): { day: string; times: Float64Array; values: Float64Array }[] {
  const { times, values } = readings;
  const days = new Float64Array(times.length);
  let ordered = true;
  for (let i = 0; i < times.length; i++) {
    days[i] = Math.floor(times[i] / DAY_MS);
    if (i > 0 && days[i] < days[i - 1]) ordered = false;
  }
  // A day's text made once per day the readings cross, not once per reading (a date's ISO text each was
  // about two thirds of the grouping: 100 000 readings 0,5–0,8 s, then 0,17–0,19 s).
  const cut = (t: Float64Array, v: Float64Array, d: Float64Array) => {
    const out: { day: string; times: Float64Array; values: Float64Array }[] = [];
    for (let from = 0; from < t.length; ) {
      let to = from + 1;
      while (to < t.length && d[to] === d[from]) to++;
      out.push({ day: utcDay(t[from]), times: t.subarray(from, to), values: v.subarray(from, to) });
      from = to;
    }
    return out;
  };
  if (ordered) return cut(times, values, days);
  const order = Array.from(times, (_, i) => i).sort((a, b) => days[a] - days[b] || a - b);
  return cut(
    Float64Array.from(order, (i) => times[i]),
    Float64Array.from(order, (i) => values[i]),
    Float64Array.from(order, (i) => days[i]),
  );
}

/** A failure of a batch's application, with the reason its company reads after «не применена: »;
 *  `retry` false: applying it again would fail the same way (set aside at once). */
export class BatchFailure extends Error {
  constructor(
    readonly reason: string,
    readonly retry = true,
  ) {
    super(reason);
  }
}

/** The reason a company reads for a failure («не применена: …»). */
function failureReason(error: unknown): string {
  if (error instanceof BatchFailure) return error.reason;
  return `ошибка обработки (${error instanceof Error ? error.message : String(error)})`;
}

/** The sensor-days of a batch that storage refused, said by sensor code and date: at most three named. */
async function refusedDays(
  deps: Pick<Deps, "repos">,
  batch: ReadingsBatch,
  refused: { sensor: string; day: string; error: unknown }[],
): Promise<BatchFailure> {
  const named: string[] = [];
  for (const { sensor, day } of refused.slice(0, 3)) {
    const code = (await deps.repos.sensors.get(batch.company, batch.facility, sensor))?.code ?? "—";
    named.push(`«${code}» за ${ruDate(day)}`);
  }
  const more = refused.length > named.length ? ` и ещё ${formatNumber(refused.length - named.length, 0)}` : "";
  const first = refused[0].error;
  const why = first instanceof Error ? first.message : String(first);
  return new BatchFailure(`хранилище не приняло показания датчика ${named.join(", ")}${more} (${why})`);
}

/** A pushed batch's readings by sensor, kept only in the days written (a day storage refused left out). */
function keptReadings(groups: readonly { sensor: string; times: Float64Array; values: Float64Array }[]): SensorReadings[] {
  const bySensor = new Map<string, { times: Float64Array; values: Float64Array }[]>();
  for (const g of groups) bySensor.set(g.sensor, [...(bySensor.get(g.sensor) ?? []), g]);
  return [...bySensor].map(([sensor, parts]) => ({ sensor, ...joinedReadings(parts) }));
}

/** Readings to merge into their sensor-days under the name `applied` (a batch, or a part of a file's
 *  batch: a name already in a day counts what it counted then, nothing twice), their counts added to
 *  `totals`. */
interface Entry {
  applied: string;
  /** Its facility, whose minute items take its readings of open days. */
  facility: string;
  /** Its order among batches (`{received_at}#{applied}`): of two values for an instant in a minute item,
   *  the later batch's stays. */
  order: string;
  readings: readonly SensorReadings[];
  totals: number[];
}

/** One entry's readings of one sensor-day. */
interface DayPart {
  entry: number;
  /** Its place among the entry's parts, in the order read. */
  seq: number;
  sensor: string;
  day: string;
  times: Float64Array;
  values: Float64Array;
}

/** One entry's readings of one sensor in one minute of an open day, for its facility's minute item. */
interface MinutePart extends DayPart {
  facility: string;
  minute: string;
}

function pushTo<K, T>(groups: Map<K, T[]>, key: K, item: T) {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** One sensor's readings of one UTC day cut at minutes, each minute's in the order read. */
function byMinute(day: { day: string; times: Float64Array; values: Float64Array }) {
  const start = dayStart(day.day);
  const at = new Map<number, number[]>();
  for (let i = 0; i < day.times.length; i++) pushTo(at, Math.floor((day.times[i] - start) / MINUTE), i);
  return [...at].map(([m, indices]) => ({
    minute: `${twoDigits(Math.floor(m / 60))}:${twoDigits(m % 60)}`,
    times: Float64Array.from(indices, (i) => day.times[i]),
    values: Float64Array.from(indices, (i) => day.values[i]),
  }));
}

/** The parts of one item to write: a facility's minute of an open day, or a sensor's closed day. */
type ItemParts = { kind: "minute"; parts: readonly MinutePart[] } | { kind: "day"; parts: readonly DayPart[] };

/** The item's parts of one entry only. */
const partsOf = (item: ItemParts, entry: number): ItemParts =>
  item.kind === "minute"
    ? { kind: "minute", parts: item.parts.filter((p) => p.entry === entry) }
    : { kind: "day", parts: item.parts.filter((p) => p.entry === entry) };

/** What became of one entry's sensor-days: those written and those storage refused. */
interface EntryDays {
  written: DayPart[];
  refused: { sensor: string; day: string; error: unknown }[];
}

/** Item writes (a minute item, or a sensor's closed day) in flight at once within a slice: each is a read
 *  and a conditional write to the engine, a round trip to another thread locally (or over the network in
 *  AWS), so one at a time the consumer waited on each hop; a few at once keep both busy. 8 × an item of
 *  at most 17 KB is nothing to hold. */
export const WRITES_AT_ONCE = 8;

/** `entries` written: an open day's readings merged into their facility's minute items, a closed day's
 *  into their sensor-days, each item read and written once for all the entries that touch it (a drain
 *  round's pushes of one minute each touch the same minute item: one write, not one per push), each
 *  entry's mark and counts in it as if applied one after another in their order. An item storage
 *  refuses (too large, a value it cannot hold) does not stop the others; written for several entries,
 *  it is tried again entry by entry, so only the entry whose readings it cannot hold is refused it.
 *  SLICE_WRITES items or PASS_READINGS readings, then the others' turn (`pass`); WRITES_AT_ONCE of them
 *  in flight at once. */
async function writeReadings(deps: ConsumerDeps, company: string, entries: readonly Entry[], pass: Pass): Promise<EntryDays[]> {
  const dayGroups = new Map<string, DayPart[]>();
  // an open day's readings by their facility's minute (minutes.ts), not into the sensor's day.
  const minuteGroups = new Map<string, MinutePart[]>();
  const now = deps.clock.now().getTime();
  let seq = 0;
  entries.forEach((entry, index) => {
    for (const r of entry.readings)
      for (const day of byDay(r)) {
        if (isOpenDay(day.day, now)) {
          for (const part of byMinute(day))
            pushTo(minuteGroups, `${entry.facility}|${day.day}|${part.minute}`, {
              entry: index,
              seq: seq++,
              sensor: r.sensor,
              day: day.day,
              facility: entry.facility,
              ...part,
            });
          continue;
        }
        pushTo(dayGroups, `${r.sensor}|${day.day}`, { entry: index, seq: seq++, sensor: r.sensor, ...day });
      }
  });
  const out: EntryDays[] = entries.map(() => ({ written: [], refused: [] }));
  const horizon = utcDay(now - MINUTES_HORIZON_DAYS * DAY_MS);
  /** The parts of one facility's minute merged into it in order (each entry's together) and written once. */
  const writeMinuteItem = async (parts: readonly MinutePart[]) => {
    const { facility, day, minute } = parts[0];
    const byEntry = new Map<number, MinutePart[]>();
    for (const part of parts) pushTo(byEntry, part.entry, part);
    // An open day's day items written before an earlier release are moved into the minutes before a reading is counted against them.
    await openDayMoved(deps, company, facility, day);
    // First as this host's window knows it (minute-window.ts): a write refused reads it from storage.
    let guess = guessedMinute(deps, company, facility, day, minute);
    for (;;) {
      const known = guess === undefined ? await readMinute(deps, company, facility, day, minute) : guess;
      guess = undefined;
      const stored = known ?? emptyMinute(company, facility, day, minute);
      let merged = stored;
      const counted: { entry: number; counts: readonly number[] }[] = [];
      for (const [entry, list] of byEntry) {
        const next = mergeMinute(merged, entries[entry].order, list);
        merged = next.minute;
        counted.push({ entry, counts: next.counts });
      }
      // Another consumer wrote the minute meanwhile: read it again.
      if (merged !== stored && !(await writeMinute(deps, merged, stored.version))) continue;
      for (const { entry, counts } of counted) counts.forEach((n, i) => (entries[entry].totals[i] += n));
      for (const part of parts) out[part.entry].written.push(part);
      return;
    }
  };
  /** The parts merged into their day in order and written once; each entry's counts added once written. */
  const writeDayItem = async (parts: readonly DayPart[]) => {
    const { sensor, day: name } = parts[0];
    let settled = false;
    for (;;) {
      const found = await deps.repos.monitoring.getDay(company, sensor, name);
      // A closed day's minutes compacted into its days first: the late readings are counted against them.
      const facility = entries[parts[0].entry].facility;
      if (!settled && name >= horizon && !found?.compacted && (await deps.repos.monitoring.hasMinutes(company, facility, name))) {
        await compactDay(deps, company, facility, name);
        settled = true;
        continue;
      }
      const stored = found ?? emptyDay(company, sensor, name);
      let day = stored;
      const counted: { entry: number; counts: readonly number[] }[] = [];
      for (const part of parts) {
        const applied = entries[part.entry].applied;
        const done = day.applied[applied];
        if (done) counted.push({ entry: part.entry, counts: done });
        else {
          const merged = mergeDay(day, applied, part);
          day = merged.day;
          counted.push({ entry: part.entry, counts: merged.counts });
        }
      }
      // Another consumer wrote the day meanwhile: read it again.
      if (day !== stored && !(await deps.repos.monitoring.putDay(day, stored.version))) continue;
      for (const { entry, counts } of counted) counts.forEach((n, i) => (entries[entry].totals[i] += n));
      for (const part of parts) out[part.entry].written.push(part);
      return;
    }
  };
  /** One item written; one storage refuses, written for several entries, is tried again entry by entry. */
  const writeItem = async (item: ItemParts) => {
    const { parts } = item;
    try {
      await (item.kind === "minute" ? writeMinuteItem(item.parts) : writeDayItem(item.parts));
    } catch (error) {
      const entriesIn = new Set(parts.map((p) => p.entry));
      if (entriesIn.size === 1) {
        const seen = new Set<string>();
        for (const part of parts) {
          if (seen.has(`${part.sensor}|${part.day}`)) continue;
          seen.add(`${part.sensor}|${part.day}`);
          out[part.entry].refused.push({ sensor: part.sensor, day: part.day, error });
        }
        return;
      }
      for (const entry of entriesIn) await writeItem(partsOf(item, entry));
    }
  };
  let sliceWrites = 0;
  let sliceRead = 0;
  let inFlight: Promise<void>[] = [];
  const items: ItemParts[] = [
    ...[...minuteGroups.values()].map((parts) => ({ kind: "minute" as const, parts })),
    ...[...dayGroups.values()].map((parts) => ({ kind: "day" as const, parts })),
  ];
  for (const item of items) {
    if (sliceWrites >= SLICE_WRITES || sliceRead >= PASS_READINGS) {
      await Promise.all(inFlight);
      inFlight = [];
      await pass();
      sliceWrites = 0;
      sliceRead = 0;
    }
    if (inFlight.length >= WRITES_AT_ONCE) {
      await Promise.all(inFlight);
      inFlight = [];
    }
    inFlight.push(writeItem(item));
    sliceWrites++;
    for (const part of item.parts) sliceRead += part.times.length;
  }
  await Promise.all(inFlight);
  // In the order read, whichever write ended first.
  for (const days of out) days.written.sort((x, y) => x.seq - y.seq);
  return out;
}

/** An entry's days written, as «readings written» tells them: the readings kept only in the days written
 *  (a day storage refused left out), each sensor's earliest instant. Undefined when none was. */
function daysChange(batch: ReadingsBatch, entry: Entry, days: EntryDays): Omit<ReadingsWritten, "type"> | undefined {
  if (days.written.length === 0) return undefined;
  const kept = days.refused.length === 0 ? entry.readings : keptReadings(days.written);
  const since: Record<string, number> = {};
  for (const { sensor, times } of kept) {
    if (times.length === 0) continue;
    let first = times[0];
    for (let i = 1; i < times.length; i++) if (times[i] < first) first = times[i];
    since[sensor] = first;
  }
  return {
    company: batch.company,
    facility: batch.facility,
    batches: [entry.applied],
    days: [...new Map(days.written.map(({ sensor, day }) => [`${sensor}|${day}`, { sensor, day }])).values()],
    since,
    readings: kept.filter((r) => r.times.length > 0),
  };
}

/** A dispatch file's part merged into its sensor-days under the name `applied` (writeReadings), then its
 *  days written published, as each part is in. A day storage refuses does not stop the others: they
 *  are written and published, then the refusal is thrown (BatchFailure) with the days named. */
async function applyPart(
  deps: ConsumerDeps,
  batch: ReadingsBatch,
  applied: string,
  readings: readonly SensorReadings[],
  totals: number[],
  pass: Pass,
  later: Pass,
): Promise<void> {
  const entry = { applied, facility: batch.facility, order: `${batch.received_at}#${applied}`, readings, totals };
  const [days] = await writeReadings(deps, batch.company, [entry], pass);
  const change = daysChange(batch, entry, days);
  if (change) {
    const part = new PendingChanges();
    part.add(change);
    // The others waiting to write take their turn between its days and their slower subscribers.
    await part.publish(deps, later);
  }
  if (days.refused.length > 0) throw await refusedDays(deps, batch, days.refused);
}

/** A batch applied: as finished (its counts, its state done), the pushed batch's days left to be
 *  published with its round, and what failed, if anything did (the readings it could store are in). */
interface Applied {
  stored: ReadingsBatch;
  finished: ReadingsBatch;
  changes: PendingChanges;
  error?: unknown;
}

/** Applies a stored batch's readings to its days; a pushed batch's days are left in `changes` to be
 *  published with its round (a file's parts are published as each is in). A file's part that fails
 *  does not stop the parts after it. */
async function applyDays(deps: ConsumerDeps, batch: ReadingsBatch, slice: Slice = atOnce): Promise<Applied> {
  // A push in its turn (≤ 10 000 readings, ≤ 1 MB to read), its days written SLICE_WRITES at a time,
  // the others' turn between.
  if (!batch.file) return (await slice((pass) => applyPushes(deps, [batch], pass)))[0];
  const totals = [0, 0, 0];
  const failures: unknown[] = [];
  let finished: ReadingsBatch = batch;
  try {
    // Each part's days are published as it is in: a year's file is not held to be told at its end.
    const read = await readFileBatch(deps, batch, (part, readings) =>
      slice((pass, later) => applyPart(deps, batch, `${batch.batch}#${part}`, readings, totals, pass, later)).catch(
        (error: unknown) => void failures.push(error),
      ),
    );
    finished = { ...batch, ...read };
  } catch (error) {
    failures.push(error);
  }
  return appliedOf(batch, finished, totals, new PendingChanges(), failures);
}

/** A batch as applied: done with its counts, its days' changes, and its failures as one. */
function appliedOf(
  batch: ReadingsBatch,
  finished: ReadingsBatch,
  totals: readonly number[],
  changes: PendingChanges,
  failures: readonly unknown[],
): Applied {
  const { attempts: _attempts, retry_at: _retry, failure: _failure, ...rest } = finished;
  return {
    stored: batch,
    finished: { ...rest, state: "done", accepted: totals[0], duplicate: totals[1], corrected: totals[2] },
    changes,
    ...(failures.length === 0
      ? {}
      : {
          error:
            failures.length === 1
              ? failures[0]
              : new BatchFailure(`${failures.map(failureReason).slice(0, 3).join("; ")}${failures.length > 3 ? "; …" : ""}`),
        }),
  };
}

/** Pushed batches (each counted as begun) applied together: their readings merged into their
 *  sensor-days with each day read and written once (writeReadings), each batch's days left in its
 *  `changes` for the round's publish, each failing alone. */
async function applyPushes(deps: ConsumerDeps, batches: readonly ReadingsBatch[], pass: Pass): Promise<Applied[]> {
  const failures: unknown[][] = batches.map(() => []);
  const entries: Entry[] = [];
  const of: number[] = [];
  for (const [i, batch] of batches.entries()) {
    try {
      const rows = (await batchReadings(deps, batch)) ?? [];
      entries.push({
        applied: batch.batch,
        facility: batch.facility,
        order: `${batch.received_at}#${batch.batch}`,
        readings: columnsOf(rows),
        totals: [0, 0, 0],
      });
      of.push(i);
    } catch (error) {
      failures[i].push(error);
    }
  }
  const days = entries.length > 0 ? await writeReadings(deps, batches[0].company, entries, pass) : [];
  const totals = batches.map(() => [0, 0, 0]);
  const changes = batches.map(() => new PendingChanges());
  for (const [k, entry] of entries.entries()) {
    const i = of[k];
    totals[i] = entry.totals;
    const change = daysChange(batches[i], entry, days[k]);
    if (change) changes[i].add(change);
    if (days[k].refused.length > 0) failures[i].push(await refusedDays(deps, batches[i], days[k].refused));
  }
  return batches.map((batch, i) => appliedOf(batch, batch, totals[i], changes[i], failures[i]));
}

/** Applies one stored batch: every sensor-day it touches, its days published, then the batch done with
 *  its counts. A dispatch file's batch (`file`) is read from the file and applied part by part
 *  (files.ts), each part's days published as it is in. A failure is thrown, the batch
 *  left queued (SQS delivers it again), unless this is its last attempt (`receives`, its message's, at
 *  RETRIES.attempts): then it is set aside, failed with its reason and the readings it could store
 *  counted. */
export async function applyBatch(
  deps: ConsumerDeps,
  company: string,
  batchId: string,
  options: { receives?: number } = {},
): Promise<ReadingsBatch | undefined> {
  const batch = await deps.repos.monitoring.getBatch(company, batchId);
  if (!batch) return undefined;
  if (batch.state !== "queued") return batch;
  const applied = await applyDays(deps, batch);
  await applied.changes.publish(deps).catch((error: unknown) => (applied.error ??= consumersFailed(error)));
  if (applied.error === undefined) {
    await deps.repos.monitoring.finishBatch(applied.finished);
    return applied.finished;
  }
  if ((options.receives ?? 0) < RETRIES.attempts) throw applied.error;
  return setAside(deps, applied.finished, applied.error, options.receives ?? RETRIES.attempts);
}

const consumersFailed = (error: unknown) =>
  new BatchFailure(`показания сохранены, события не обновлены (${error instanceof Error ? error.message : String(error)})`);

/** How a batch whose application fails is tried again: `attempts` applications in all, the n-th retry
 *  `firstMs` × 2^(n−1) after its start (1, 2, 4, 8 s; a host may set `firstMs` shorter for its tests,
 *  Deps.readingsRetryFirstMs), its attempts counted on its item as each begins
 *  (so a thread or process that dies applying it counts one too, and a restart goes on counting); then
 *  it is set aside: failed with its reason, its queue mark removed, never run again by a drain. In AWS
 *  the readings' queue gives a message as many receives (infra: maxReceiveCount). */
export const RETRIES = { attempts: 5, firstMs: 1_000 } as const;

/** The reason kept while an application runs: what the company reads if it never ends (the consumer's
 *  thread died of its memory cap, the server was stopped). */
export const INTERRUPTED = "обработка прервана: поток обработки остановлен (нехватка памяти) или сервер перезапущен";

/** A batch's failure as its company reads it: none while it is queued with only INTERRUPTED kept (it is
 *  being applied, or will be again: nothing failed yet), else the reason kept. */
export const failureShown = (batch: Pick<ReadingsBatch, "state" | "failure">): string | undefined =>
  batch.state === "queued" && batch.failure === INTERRUPTED ? undefined : batch.failure;

/** The batch set aside: failed with its reason, its readings stored so far counted, its mark removed. */
async function setAside(deps: Pick<Deps, "repos">, batch: ReadingsBatch, error: unknown, attempts: number): Promise<ReadingsBatch> {
  const { retry_at: _retry, ...rest } = batch;
  const failed: ReadingsBatch = { ...rest, state: "failed", attempts, failure: failureReason(error) };
  await deps.repos.monitoring.finishBatch(failed);
  console.error(
    JSON.stringify({
      event: "readings_batch_failed",
      company: batch.company,
      batch: batch.batch,
      attempts,
      accepted: failed.accepted,
      message: `readings consumer: batch ${batch.batch} of company ${batch.company} set aside after ${attempts} attempt(s): ${failed.failure}`,
    }),
  );
  return failed;
}

type RetryDeps = Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "readingsRetryFirstMs">>;

const retryAt = (deps: Omit<RetryDeps, "repos">, attempts: number) =>
  deps.clock.now().getTime() + (deps.readingsRetryFirstMs ?? RETRIES.firstMs) * 2 ** (attempts - 1);

/** A batch's application begins: its attempt counted on its item first, with the back-off after it
 *  and INTERRUPTED as its reason until it ends. Answers the batch as counted. */
async function attemptBegins(deps: RetryDeps, batch: ReadingsBatch): Promise<ReadingsBatch> {
  const attempts = (batch.attempts ?? 0) + 1;
  const counted = {
    ...batch,
    attempts,
    retry_at: new Date(retryAt(deps, attempts)).toISOString(),
    failure: batch.failure ?? INTERRUPTED,
  };
  await deps.repos.monitoring.updateBatch(counted);
  return counted;
}

/** A batch's application failed: set aside after its last attempt (or at once when another would fail
 *  the same way), else left queued with its reason until its back-off. Answers when it may be tried
 *  again (ms), or undefined once it is set aside. */
async function attemptFailed(deps: RetryDeps, applied: Applied): Promise<number | undefined> {
  const attempts = applied.stored.attempts ?? 1;
  if (attempts >= RETRIES.attempts || (applied.error instanceof BatchFailure && !applied.error.retry)) {
    await setAside(deps, applied.finished, applied.error, attempts);
    return undefined;
  }
  const at = retryAt(deps, attempts);
  const failure = failureReason(applied.error);
  await deps.repos.monitoring.updateBatch({ ...applied.stored, retry_at: new Date(at).toISOString(), failure });
  console.error(
    JSON.stringify({
      event: "readings_batch_retry",
      company: applied.stored.company,
      batch: applied.stored.batch,
      attempts,
      message: `readings consumer: batch ${applied.stored.batch} of company ${applied.stored.company} not applied (attempt ${attempts} of ${RETRIES.attempts}), tried again in ${Math.round((at - deps.clock.now().getTime()) / 1000)} s: ${failure}`,
    }),
  );
  return at;
}

/** Who waits for a turn, by company: the next is the oldest waiting of the company whose turn is longest
 *  past, so a company of many facilities, or with a long backlog, holds another's batch a turn at most. */
class CompanyQueue {
  private readonly byCompany = new Map<string, (() => void)[]>();
  get waiting(): boolean {
    return this.byCompany.size > 0;
  }
  push(company: string, resume: () => void) {
    const list = this.byCompany.get(company);
    if (list) list.push(resume);
    else this.byCompany.set(company, [resume]);
  }
  /** The next waiting, its company put behind the others (a Map keeps its keys in the order set). */
  shift(): (() => void) | undefined {
    for (const [company, list] of this.byCompany) {
      const next = list.shift();
      this.byCompany.delete(company);
      if (list.length > 0) this.byCompany.set(company, list);
      return next;
    }
    return undefined;
  }
}

/** Turns at the consumer's `lines` of work: each facility's work asks for one slice at a time (a round
 *  of its pushes, a part of a file) and asks again behind the others waiting (`pass`), the companies in
 *  turn. A slice whose days are written and whose tiles are told goes on to its slower subscribers (the
 *  forecaster, the detector) only once no batch waits to be written (`later`): a minute's pushes of
 *  every mine are written and shown first, their forecasts and events after. */
class Turns {
  private free: number;
  private readonly writing = new CompanyQueue();
  private readonly publishing = new CompanyQueue();
  constructor(lines: number) {
    this.free = lines;
  }
  /** The slices of a company's work. */
  of(company: string): Slice {
    return async (work) => {
      await this.take(this.writing, company);
      let deferred = false;
      const pass: Pass = async () => {
        if (!this.writing.waiting && !this.publishing.waiting) return;
        this.handOn();
        await this.take(this.writing, company);
      };
      const later: Pass = async () => {
        if (deferred) return;
        deferred = true;
        this.handOn();
        await this.take(this.publishing, company);
      };
      try {
        return await work(pass, later);
      } finally {
        this.handOn();
      }
    };
  }
  /** A line, when one is free (none is while others wait: a line let go is handed on), else a wait. */
  private take(queue: CompanyQueue, company: string): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(company, resolve));
  }
  /** A line let go: handed to the next waiting, a write before the slower subscribers; else free. */
  private handOn() {
    const next = this.writing.shift() ?? this.publishing.shift();
    if (next) next();
    else this.free++;
  }
}

/** The batches of one facility a drain round applies before its days are published together. */
const DRAIN_ROUND = 25;
/** Facilities whose batches a drain applies at once, each in its lane (a facility's rounds one after
 *  another, oldest first, so its order holds): one mine's push waits for no other mine's forecaster or
 *  detector, and the engine's thread is kept busy while this one merges (a round waits on the engine
 *  for most of its time). */
export const LANES_AT_ONCE = 3;
/** The queue's marks a drain reads at once: each facility with a batch among them takes its turns. */
const QUEUE_SCAN = 5_000;
/** Readings a turn of pushes reads before it lets the others waiting in (a file's part's worth). */
const PASS_READINGS = 10_000;
/** How often a drain busy with long work reads the queue again for facilities newly queued (ms). */
const RESCAN_MS = 1_000;

/** What a drain of the readings' queue leaves for later: when the earliest batch passed over for its
 *  back-off may be tried again (UTC ms), if any is. */
export interface DrainOutcome {
  retryAt?: number;
}

/** The drains of the table's queue of readings, one after another (drainReadings). */
const readingDrains = keptState(
  "reading drains",
  (): {
    chain?: Promise<DrainOutcome>;
    /** The running drain told that a batch was queued meanwhile: it reads the queue again now. */
    queuedMeanwhile?: () => void;
  } => ({}),
);

/** The lane of a queue's mark: its facility's, or, for a mark stored before marks named it, its
 *  company's own (such batches one after another, beside the facilities'). */
type Mark = { company: string; batch: string; facility?: string };
const laneOf = (mark: Mark) => `${mark.company}|${mark.facility ?? ""}`;

/** One facility's round: up to DRAIN_ROUND of its queued batches, oldest first, each applied in its
 *  turn (a file part by part), then the round's days published once, taken together (the detector
 *  reads each sensor once, not once per batch), and only then are the batches marked done (a
 *  kill before leaves them queued: applied again, nothing counted twice). A batch that fails is tried
 *  again after its back-off (`later`), then set aside. */
async function applyRound(
  deps: ConsumerDeps,
  round: readonly { company: string; batch: string }[],
  slice: Slice,
  later: Map<string, number>,
): Promise<void> {
  const ready: ReadingsBatch[] = [];
  for (const mark of round) {
    const batch = await deps.repos.monitoring.getBatch(mark.company, mark.batch);
    if (!batch) {
      later.set(mark.batch, Infinity);
      continue;
    }
    // Finished, its mark left by a kill between the two writes (or put as its announcement failed).
    if (batch.state !== "queued") {
      await deps.repos.monitoring.finishBatch(batch);
      if (batch.queue_mark === false) await deps.repos.monitoring.markQueued(batch, false);
      continue;
    }
    const notBefore = batch.retry_at ? Date.parse(batch.retry_at) : 0;
    if (notBefore > deps.clock.now().getTime()) {
      later.set(batch.batch, notBefore);
      continue;
    }
    // Its last attempt never ended (its thread or process died): set aside.
    if ((batch.attempts ?? 0) >= RETRIES.attempts) {
      await setAside(deps, batch, new BatchFailure(batch.failure ?? INTERRUPTED), batch.attempts ?? 0);
      later.set(batch.batch, Infinity);
      continue;
    }
    ready.push(batch);
  }
  if (ready.length === 0) return;
  const applied: Applied[] = [];
  /** The round's days published once, taken together; where that fails, each batch's on its own. */
  const publish = async (within: Slice) => {
    const all = new PendingChanges();
    for (const a of applied) all.merge(a.changes);
    try {
      await within((_pass, later) => all.publish(deps, later));
    } catch {
      // One batch's days may be the cause: each batch's on its own, the one that fails failing.
      for (const a of applied)
        await within((_pass, later) => a.changes.publish(deps, later)).catch((error: unknown) => {
          a.error ??= consumersFailed(error);
        });
    }
  };
  if (ready.some((batch) => batch.file)) {
    for (const batch of ready) applied.push(await applyDays(deps, await attemptBegins(deps, batch), slice));
    await publish(slice);
  } else {
    // Pushes only: the round in one turn, its days written and handed to the day consumers at once (a
    // gateway's push is done a turn after it is taken up). Its pushes are applied together, up to
    // PASS_READINGS readings of them at a time, each sensor-day read and written once for them (a
    // gateway's minutes each touch the same days: 25 one-minute pushes of 240 sensors are 480 calls,
    // not 12 000), the others waiting let in between and before the day consumers, a push's days
    // SLICE_WRITES at a time.
    await slice(async (pass, later) => {
      let read = 0;
      for (let i = 0; i < ready.length; ) {
        let j = i + 1;
        let lines = ready[i].lines;
        while (j < ready.length && lines + ready[j].lines <= PASS_READINGS) lines += ready[j++].lines;
        if (i > 0) await pass();
        const begun: ReadingsBatch[] = [];
        for (const batch of ready.slice(i, j)) begun.push(await attemptBegins(deps, batch));
        applied.push(...(await applyPushes(deps, begun, pass)));
        read += lines;
        i = j;
      }
      await publish(async (work) => {
        if (read >= PASS_READINGS) await pass();
        return work(pass, later);
      });
    });
  }
  for (const a of applied) {
    if (a.error === undefined) {
      await deps.repos.monitoring.finishBatch(a.finished);
      later.delete(a.stored.batch);
    } else later.set(a.stored.batch, (await attemptFailed(deps, a)) ?? Infinity);
  }
}

/** Applies every queued batch until none is due: each facility's batches, oldest first, in rounds
 *  (applyRound), LANES_AT_ONCE facilities at once taking turns slice by slice, the companies in turn
 *  (Turns), so one company's backlog, a year's file or a batch that keeps failing delays another's batch
 *  by one slice at most; a facility queued while the drain runs joins it at once when the host says so
 *  (drainReadings), else within RESCAN_MS. A batch that fails is passed over until its back-off (the
 *  answer says when the earliest may be tried again), and set aside after its last attempt. */
async function drain(deps: ConsumerDeps): Promise<DrainOutcome> {
  const turns = new Turns(LANES_AT_ONCE);
  const later = new Map<string, number>();
  const now = () => deps.clock.now().getTime();
  const due = async () => {
    const at = now();
    return (await deps.repos.monitoring.queued(QUEUE_SCAN)).filter((mark) => !((later.get(mark.batch) ?? 0) > at));
  };
  let scannedAt = -Infinity;
  let scanning: Promise<void> | undefined;
  /** A scan asked for while one reads the queue: read it again after. */
  let again = false;
  // Each slice asked for looks at the queue again once RESCAN_MS passed, before it waits for its turn.
  const rescan = async () => {
    if (now() - scannedAt >= RESCAN_MS) await scan();
  };
  const sliceOf = (company: string): Slice => {
    const turn = turns.of(company);
    return async (work) => {
      await rescan();
      return turn((pass, afterward) =>
        work(async () => {
          await rescan();
          await pass();
        }, afterward),
      );
    };
  };
  /** The marks a scan handed to a lane, until their batches are done or set aside (a batch passed over
   *  for its back-off is let go: a scan hands it over again once it is due). */
  const taken = new Set<string>();
  /** Each facility's lane: its marks not yet applied, oldest first, and its work. */
  const lanes = new Map<string, { marks: Mark[]; work: Promise<void> }>();
  const lane = async (key: string, marks: Mark[], company: string) => {
    const slice = sliceOf(company);
    try {
      while (marks.length > 0) {
        const round = marks.splice(0, DRAIN_ROUND);
        await applyRound(deps, round, slice, later);
        for (const mark of round) if (Number.isFinite(later.get(mark.batch) ?? Infinity)) taken.delete(mark.batch);
      }
    } finally {
      // At once, as its last mark is taken: a scan after this starts the lane anew.
      lanes.delete(key);
    }
  };
  const scan = (): Promise<void> => {
    if (scanning) {
      again = true;
      return scanning;
    }
    return (scanning = (async () => {
      do {
        again = false;
        scannedAt = now();
        const starting: [string, Mark[]][] = [];
        for (const mark of await due()) {
          if (taken.has(mark.batch)) continue;
          taken.add(mark.batch);
          const key = laneOf(mark);
          const running = lanes.get(key);
          if (running) running.marks.push(mark);
          else {
            const marks = [mark];
            lanes.set(key, { marks, work: Promise.resolve() });
            starting.push([key, marks]);
          }
        }
        // Each lane started with all its marks the scan found (its first round takes up to DRAIN_ROUND).
        for (const [key, marks] of starting) {
          const started = lanes.get(key)!;
          started.work = lane(key, marks, marks[0].company).catch((error: unknown) =>
            console.error(`readings consumer: lane ${key}:`, error),
          );
        }
      } while (again);
    })().finally(() => (scanning = undefined)));
  };
  const drains = deps.runtime.kept(readingDrains);
  const queuedMeanwhile = () => void scan();
  drains.queuedMeanwhile = queuedMeanwhile;
  try {
    await scan();
    while (lanes.size > 0) {
      await Promise.race([...lanes.values()].map((l) => l.work));
      await scan();
    }
  } finally {
    if (drains.queuedMeanwhile === queuedMeanwhile) drains.queuedMeanwhile = undefined;
  }
  const waiting = [...later.values()].filter((at) => Number.isFinite(at));
  return waiting.length > 0 ? { retryAt: Math.min(...waiting) } : {};
}

type DrainDeps = ConsumerDeps & Partial<Pick<Deps, "readingsConsumer">>;

/** Starts (or queues behind the one running: readingDrains, one after another; AWS's
 *  function is fed by SQS) a drain of the queue: after each push and on the local
 *  server's start. Where the host consumes elsewhere (`readingsConsumer`: the local server's thread),
 *  it is asked there; else in this process. Answers what the drain left for later. */
export function drainReadings(deps: DrainDeps): Promise<DrainOutcome> {
  if (deps.readingsConsumer) return deps.readingsConsumer.drain().then(() => ({}));
  const drains = deps.runtime.kept(readingDrains);
  // The drain running takes up the batch now (its lane started or its next round), not at its rescan;
  // the one chained after it finds what it left.
  drains.queuedMeanwhile?.();
  const next = (drains.chain ?? Promise.resolve({}))
    .then(() => drain(deps))
    .catch((error: unknown): DrainOutcome => {
      console.error("readings consumer:", error);
      return {};
    });
  drains.chain = next;
  return next;
}

/** A stored batch handed to its consumer: announced on the readings' queue where there is one (AWS),
 *  else a drain of the table's queue (the local server's thread, or this process); then listed in its
 *  facility's list of loads. The answer 202 waits for both. A batch stored without a queue mark
 *  (queue_mark false: the durable queue holds it) whose announcement fails is marked then, so the
 *  minute's sweep announces it again (reannounceQueued), and the failure is answered as before.
 *  Listed last, so a crash before it lists nothing the consumer will not finish: a batch stored but
 *  never marked or announced is listed by no one (a queued line of it would stay «в очереди» and hold
 *  a climate period's computation of its hours for good); one announced is listed as it is applied. */
export async function kickReadings(deps: DrainDeps & Pick<Deps, "readingsQueue">, batch: ReadingsBatch) {
  if (!deps.readingsQueue) void drainReadings(deps);
  else {
    try {
      await deps.readingsQueue.send({ company: batch.company, batch: batch.batch });
    } catch (error) {
      if (batch.queue_mark === false) await deps.repos.monitoring.markQueued(batch, true);
      throw error;
    }
  }
  await deps.repos.monitoring.listBatch(batch);
}

/** AWS: when a queued batch is announced again on the readings' queue (reannounceQueued). A pushed batch
 *  is applied within seconds of its message, so one still queued after `pushMinutes` was never announced
 *  (the API stored it and marked it queued, then its SQS send failed) or its messages failed; a file's
 *  batch may take the function's 15 minutes, and its message is invisible for 30 while it runs, so it
 *  waits `fileMinutes`. Then once each `everyMinutes` (the minute function's first run in each such
 *  span of its age), for `maxHours` at most (a batch that fails each time ends in the dead-letter queue). */
export const REANNOUNCE = { pushMinutes: 5, fileMinutes: 45, everyMinutes: 30, maxHours: 24, scan: 200 } as const;

/** The minute function's sweep (lambda/monitoring-minute.ts): each batch still queued (its mark in the
 *  table's TQUEUE, oldest first) whose age has come to an announcement (REANNOUNCE) is sent again on
 *  the readings' queue; the consumer is idempotent, so one announced twice counts nothing twice. A mark
 *  of a batch done is removed (a push stored without one, marked when its announcement failed).
 *  Answers the batches sent; none without a queue (the local host drains the marks itself). */
export async function reannounceQueued(deps: Pick<Deps, "repos" | "clock" | "readingsQueue">): Promise<number> {
  const queue = deps.readingsQueue;
  if (!queue) return 0;
  const now = deps.clock.now().getTime();
  let sent = 0;
  for (const item of await deps.repos.monitoring.queued(REANNOUNCE.scan)) {
    const batch = await deps.repos.monitoring.getBatch(item.company, item.batch);
    if (!batch) continue;
    // Done, its mark put when its announcement failed (queue_mark false: finishing it left the mark).
    if (batch.state !== "queued") {
      await deps.repos.monitoring.markQueued(batch, false);
      continue;
    }
    const age = now - Date.parse(batch.received_at);
    const after = (batch.file ? REANNOUNCE.fileMinutes : REANNOUNCE.pushMinutes) * MINUTE;
    if (!(age >= after && age <= REANNOUNCE.maxHours * 60 * MINUTE)) continue;
    if ((age - after) % (REANNOUNCE.everyMinutes * MINUTE) >= MINUTE) continue;
    await queue.send({ company: batch.company, batch: batch.batch });
    sent++;
  }
  return sent;
}

/** Resolves once the drains started so far are done (the forecasts they queued: live/forecaster.ts
 *  monitoringIdle, which waits for both). */
export async function drainsIdle(deps: Pick<Deps, "runtime"> & Partial<Pick<Deps, "readingsConsumer">>): Promise<void> {
  const consumer = deps.readingsConsumer;
  if (!consumer) {
    await (deps.runtime.kept(readingDrains).chain ?? Promise.resolve());
    return;
  }
  // A drain asked for meanwhile (a thread that died restarted, and drains again) is waited for too.
  for (let idle = consumer.idle(); ; ) {
    await idle;
    const now = consumer.idle();
    if (now === idle) return;
    idle = now;
  }
}
