// The one consumer of pushed readings (methodology D57): a batch's readings merged into each sensor's
// day (idempotent by (sensor, instant): the same value again is a duplicate, another value a
// correction kept with the old one), each day written with a condition on its version and the batch's
// counts in it, so a batch applied twice (a crash, a redelivery) counts nothing twice and batches in
// any order give the same days. Locally the queue is the table's TQUEUE marks: what was stored and
// answered 202 before a kill is taken up again on the next start (drainTelemetry). The local server
// drains it in a worker thread of its own (local/telemetry-consumer.ts), not on its request thread.
//
// Readings travel as typed arrays per sensor (SensorReadings: 16 bytes a reading), not as an array of
// [sensor, ms, value] tuples (about 100 bytes a reading in V8's heap, and a second copy as [ms, value]
// pairs per day): a year's file is applied a part at a time, each part let go once its days are in.
import type { Deps } from "../context";
import type { SensorDay, TelemetryBatch } from "../../ports";
import { batchBlobKey } from "./readings";
import { DAY_MS, utcDay } from "./days";
import { detectEvents, type DaysChange } from "./events";
import { recheckAcceptances } from "./accepted-changes";
import { telemetryChanged } from "./changes";
import { readFileBatch } from "./files";
import { columnsOf, type SensorReadings } from "./reading-columns";
import { forecastsIdle, queueForecasts } from "./forecaster";
import type { ForecastDeps } from "./live";

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

// Where a sensor's days are read back from (offers, the event detector): days.ts.
export { readingsBetween, utcDay } from "./days";
export { columnsOf, ReadingColumns, type SensorReadings } from "./reading-columns";

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

/** What changed sensor-days are handed to once they are written (D65's event detector; each must be
 *  idempotent: a kill before the batch is done hands them the same days again). */
export type DayConsumer = (
  deps: Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "config" | "webhooksDue">>,
  change: DaysChange,
) => Promise<unknown>;
export const DAY_CONSUMERS: readonly DayConsumer[] = [detectEvents, recheckAcceptances];

/** The changes of several batches taken together, per facility: each day once, each sensor's earliest
 *  instant changed. */
class PendingChanges {
  private readonly byFacility = new Map<
    string,
    { company: string; facility: string; days: Map<string, { sensor: string; day: string }>; since: Record<string, number> }
  >();
  add(change: DaysChange & { since: Readonly<Record<string, number>> }) {
    const key = `${change.company}|${change.facility}`;
    let pending = this.byFacility.get(key);
    if (!pending) this.byFacility.set(key, (pending = { company: change.company, facility: change.facility, days: new Map(), since: {} }));
    for (const d of change.days) pending.days.set(`${d.sensor}|${d.day}`, d);
    for (const [sensor, t] of Object.entries(change.since)) pending.since[sensor] = Math.min(pending.since[sensor] ?? t, t);
  }
  /** Hands each facility's changed sensors to the forecaster, once. */
  forecast(deps: ForecastDeps): void {
    for (const p of this.byFacility.values())
      queueForecasts(deps, { company: p.company, facility: p.facility, sensors: Object.keys(p.since) });
  }
  /** Hands each facility's days to the day consumers, once. */
  async consume(deps: Pick<Deps, "repos" | "clock">): Promise<void> {
    for (const p of this.byFacility.values()) {
      for (const consume of DAY_CONSUMERS)
        await consume(deps, { company: p.company, facility: p.facility, days: [...p.days.values()], since: p.since });
    }
    this.byFacility.clear();
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

/** `readings` merged into their sensor-days under the name `applied` (a batch, or a part of a file's
 *  batch: a name already in a day counts what it counted then, nothing twice), then the day consumers
 *  handed the days (or `pending` given them, for the drain's round). */
async function applyRows(
  deps: Pick<Deps, "repos" | "blobs" | "clock"> & Partial<Pick<Deps, "modelScoring">>,
  batch: TelemetryBatch,
  applied: string,
  readings: readonly SensorReadings[],
  totals: number[],
  pending?: PendingChanges,
): Promise<void> {
  const company = batch.company;
  const groups = readings.flatMap((r) => byDay(r).map((day) => ({ sensor: r.sensor, ...day })));
  for (const group of groups) {
    for (;;) {
      const stored = (await deps.repos.telemetry.getDay(company, group.sensor, group.day)) ?? {
        company,
        sensor: group.sensor,
        day: group.day,
        offsets: new Uint32Array(0),
        values: new Float64Array(0),
        applied: {},
        corrections: [],
        version: 0,
      };
      const done = stored.applied[applied];
      if (done) {
        done.forEach((n, i) => (totals[i] += n));
        break;
      }
      const { day, counts } = mergeDay(stored, applied, group);
      if (await deps.repos.telemetry.putDay(day, stored.version)) {
        counts.forEach((n, i) => (totals[i] += n));
        break;
      }
      // Another consumer wrote the day meanwhile: read it again.
    }
  }
  const latest: { sensor: string; latest: number }[] = [];
  const since: Record<string, number> = {};
  for (const { sensor, times } of readings) {
    if (times.length === 0) continue;
    let first = times[0];
    let last = times[0];
    for (let i = 1; i < times.length; i++) {
      if (times[i] < first) first = times[i];
      if (times[i] > last) last = times[i];
    }
    latest.push({ sensor, latest: last });
    since[sensor] = first;
  }
  // The live tiles read only the days, written now: they hear of them before the day consumers run
  // (the event detector takes seconds for a facility's minute of 240 sensors on a busy machine).
  telemetryChanged(deps, { company, facility: batch.facility, batch: batch.batch, sensors: latest, readings });
  // The forecaster (forecaster.ts): the bound workings' forecasts from their latest minutes, beside the
  // day consumers (a drain round's batches once, all taken together).
  if (!pending) queueForecasts(deps, { company, facility: batch.facility, sensors: latest.map((l) => l.sensor) });
  const days = groups.map(({ sensor, day }) => ({ sensor, day }));
  const change = { company, facility: batch.facility, days, since };
  if (pending) pending.add(change);
  else for (const consume of DAY_CONSUMERS) await consume(deps, change);
}

/** Applies one stored batch: every sensor-day it touches, its day consumers, then the batch done with
 *  its counts. A dispatch file's batch (`file`) is read from the file and applied part by part
 *  (files.ts), each part's days handed to the day consumers as it is in. */
export async function applyBatch(
  deps: Pick<Deps, "repos" | "blobs" | "clock">,
  company: string,
  batchId: string,
): Promise<TelemetryBatch | undefined> {
  const applied = await applyDays(deps, company, batchId);
  if (applied) await deps.repos.telemetry.finishBatch(applied);
  return applied;
}

/** Applies a stored batch's readings to its days and answers it finished, not yet marked so; a pushed
 *  batch's change is left in `pending` for the day consumers (a file's parts are handed to them as each
 *  is in). */
async function applyDays(
  deps: Pick<Deps, "repos" | "blobs" | "clock">,
  company: string,
  batchId: string,
  pending?: PendingChanges,
): Promise<TelemetryBatch | undefined> {
  const batch = await deps.repos.telemetry.getBatch(company, batchId);
  if (!batch) return undefined;
  if (batch.state === "done") return batch;
  const totals = [0, 0, 0];
  let finished: TelemetryBatch = batch;
  if (batch.file) {
    // Each part's change is told as it is in: a year's file is not held to be told at its end.
    const read = await readFileBatch(deps, batch, (part, readings) => applyRows(deps, batch, `${batchId}#${part}`, readings, totals));
    finished = { ...batch, ...read };
  } else {
    const blob = await deps.blobs.get(batchBlobKey(company, batchId));
    const rows = blob ? (JSON.parse(new TextDecoder().decode(blob.body)) as [string, number, number][]) : [];
    await applyRows(deps, batch, batchId, columnsOf(rows), totals, pending);
  }
  return { ...finished, state: "done", accepted: totals[0], duplicate: totals[1], corrected: totals[2] };
}

const chains = new WeakMap<object, Promise<void>>();

/** The batches a drain round applies before its day consumers run on their changes together. */
const DRAIN_ROUND = 25;

/** Applies every queued batch, oldest first, until none is left: the batches queued meanwhile (up to
 *  25 a round) have their days written one after another, then the day consumers run once on the
 *  round's changes taken together (the detector reads each sensor once, not once per batch), and only
 *  then are the batches marked done (a kill before leaves them queued: applied again, nothing counted
 *  twice). A batch that fails is logged and left queued; the round goes on without it, and the next
 *  drain takes it up again. */
async function drain(deps: Pick<Deps, "repos" | "blobs" | "clock">): Promise<void> {
  // A batch that fails is left queued and passed over until the next drain: one company's batch that
  // cannot be applied (a blob unreadable, a fault) does not hold up the batches queued after it, of
  // its own company or another's.
  const failed = new Set<string>();
  for (;;) {
    const queued = (await deps.repos.telemetry.queued(DRAIN_ROUND + failed.size))
      .filter((item) => !failed.has(item.batch))
      .slice(0, DRAIN_ROUND);
    if (queued.length === 0) return;
    const pending = new PendingChanges();
    const finished: TelemetryBatch[] = [];
    for (const item of queued) {
      try {
        const batch = await applyDays(deps, item.company, item.batch, pending);
        if (batch) finished.push(batch);
      } catch (error) {
        failed.add(item.batch);
        console.error(`telemetry consumer: batch ${item.batch} of company ${item.company} not applied, left queued:`, error);
      }
    }
    // The forecasts first, the day consumers after (in one thread they would share it: a minute that
    // ends a silence of 240 channels has the detector write 240 events).
    pending.forecast(deps);
    await forecastsIdle(deps);
    await pending.consume(deps);
    for (const batch of finished) await deps.repos.telemetry.finishBatch(batch);
  }
}

type DrainDeps = Pick<Deps, "repos" | "blobs" | "clock"> & Partial<Pick<Deps, "telemetryConsumer">>;

/** Starts (or queues behind the one running) a drain of the queue: after each push and on the local
 *  server's start. Where the host consumes elsewhere (`telemetryConsumer`: the local server's thread),
 *  it is asked there; else in this process. */
export function drainTelemetry(deps: DrainDeps): Promise<void> {
  if (deps.telemetryConsumer) return deps.telemetryConsumer.drain();
  const previous = chains.get(deps.repos) ?? Promise.resolve();
  const next = previous.then(() => drain(deps)).catch((error) => console.error("telemetry consumer:", error));
  chains.set(deps.repos, next);
  return next;
}

/** A stored batch handed to its consumer: announced on the readings' queue where there is one (AWS),
 *  else a drain of the table's queue (the local server's thread, or this process). The answer 202
 *  waits for the announcement. */
export async function kickTelemetry(deps: DrainDeps & Pick<Deps, "telemetryQueue">, batch: TelemetryBatch) {
  if (deps.telemetryQueue) await deps.telemetryQueue.send({ company: batch.company, batch: batch.batch });
  else void drainTelemetry(deps);
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
 *  the readings' queue; the consumer is idempotent, so one announced twice counts nothing twice.
 *  Answers the batches sent; none without a queue (the local host drains the marks itself). */
export async function reannounceQueued(deps: Pick<Deps, "repos" | "clock" | "telemetryQueue">): Promise<number> {
  const queue = deps.telemetryQueue;
  if (!queue) return 0;
  const now = deps.clock.now().getTime();
  let sent = 0;
  for (const item of await deps.repos.telemetry.queued(REANNOUNCE.scan)) {
    const batch = await deps.repos.telemetry.getBatch(item.company, item.batch);
    if (!batch || batch.state === "done") continue;
    const age = now - Date.parse(batch.received_at);
    const after = (batch.file ? REANNOUNCE.fileMinutes : REANNOUNCE.pushMinutes) * MINUTE;
    if (!(age >= after && age <= REANNOUNCE.maxHours * 60 * MINUTE)) continue;
    if ((age - after) % (REANNOUNCE.everyMinutes * MINUTE) >= MINUTE) continue;
    await queue.send({ company: batch.company, batch: batch.batch });
    sent++;
  }
  return sent;
}

/** Resolves once the drains started so far are done, and the forecasts they queued (tests, a graceful stop). */
export async function telemetryIdle(deps: Pick<Deps, "repos"> & Partial<Pick<Deps, "telemetryConsumer">>): Promise<void> {
  await (deps.telemetryConsumer?.idle() ?? chains.get(deps.repos) ?? Promise.resolve());
  await forecastsIdle(deps);
}
