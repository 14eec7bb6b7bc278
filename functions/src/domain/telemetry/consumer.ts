// The one consumer of pushed readings (methodology D57): a batch's readings merged into each sensor's
// day (idempotent by (sensor, instant): the same value again is a duplicate, another value a
// correction kept with the old one), each day written with a condition on its version and the batch's
// counts in it, so a batch applied twice (a crash, a redelivery) counts nothing twice and batches in
// any order give the same days. Locally the queue is the table's TQUEUE marks: what was stored and
// answered 202 before a kill is taken up again on the next start (drainTelemetry).
import type { Deps } from "../context";
import type { SensorDay, TelemetryBatch } from "../../ports";
import { batchBlobKey } from "./readings";
import { DAY_MS, utcDay } from "./days";
import { detectEvents, type DaysChange } from "./events";
import { recheckAcceptances } from "./accepted-changes";
import { telemetryChanged } from "./changes";
import { readFileBatch } from "./files";

/** The corrections a day keeps (the latest), and the batch marks: enough for a gateway pushing each minute. */
const MAX_CORRECTIONS = 1000;

// Where a sensor's days are read back from (offers, the event detector): days.ts.
export { readingsBetween, utcDay } from "./days";

/** `readings` ([ms, value] of one sensor and UTC day, in the batch's order) merged into `stored`. */
export function mergeDay(
  stored: SensorDay,
  batch: string,
  readings: readonly (readonly [number, number])[],
): { day: SensorDay; counts: [number, number, number] } {
  const dayStart = Date.parse(`${stored.day}T00:00:00Z`);
  const byOffset = new Map<number, number>();
  for (let i = 0; i < stored.offsets.length; i++) byOffset.set(stored.offsets[i], stored.values[i]);
  const corrections = [...stored.corrections];
  let accepted = 0;
  let duplicate = 0;
  let corrected = 0;
  for (const [t, value] of readings) {
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
    day: { ...stored, offsets, values, corrections: corrections.slice(-MAX_CORRECTIONS), applied: { ...stored.applied, [batch]: counts } },
    counts,
  };
}

/** What changed sensor-days are handed to once they are written (D65's event detector; each must be
 *  idempotent: a kill before the batch is done hands them the same days again). */
export type DayConsumer = (deps: Pick<Deps, "repos" | "clock"> & Partial<Pick<Deps, "config">>, change: DaysChange) => Promise<unknown>;
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
  /** Hands each facility's days to the day consumers, once. */
  async consume(deps: Pick<Deps, "repos" | "clock">): Promise<void> {
    for (const p of this.byFacility.values()) {
      for (const consume of DAY_CONSUMERS)
        await consume(deps, { company: p.company, facility: p.facility, days: [...p.days.values()], since: p.since });
    }
    this.byFacility.clear();
  }
}

/** `rows` ([sensor, ms, value]) merged into their sensor-days under the name `applied` (a batch, or a
 *  part of a file's batch: a name already in a day counts what it counted then, nothing twice), then
 *  the day consumers handed the days. */
async function applyRows(
  deps: Pick<Deps, "repos" | "clock">,
  batch: TelemetryBatch,
  applied: string,
  rows: readonly (readonly [string, number, number])[],
  totals: number[],
  pending?: PendingChanges,
): Promise<void> {
  const company = batch.company;
  const groups = new Map<string, { sensor: string; day: string; readings: [number, number][] }>();
  // A day's text made once per day the readings cross, not once per reading (a date's ISO text each was
  // about two thirds of the grouping: 100 000 readings 0,5–0,8 s, now 0,17–0,19 s).
  let dayNumber = Number.NaN;
  let day = "";
  for (const [sensor, t, value] of rows) {
    if (Math.floor(t / DAY_MS) !== dayNumber) {
      dayNumber = Math.floor(t / DAY_MS);
      day = utcDay(t);
    }
    const key = `${sensor}|${day}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { sensor, day, readings: [] }));
    group.readings.push([t, value]);
  }
  for (const group of groups.values()) {
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
      const { day, counts } = mergeDay(stored, applied, group.readings);
      if (await deps.repos.telemetry.putDay(day, stored.version)) {
        counts.forEach((n, i) => (totals[i] += n));
        break;
      }
      // Another consumer wrote the day meanwhile: read it again.
    }
  }
  const latest = new Map<string, number>();
  const since: Record<string, number> = {};
  for (const group of groups.values()) {
    for (const [t] of group.readings) {
      if (!(t <= (latest.get(group.sensor) ?? Number.NEGATIVE_INFINITY))) latest.set(group.sensor, t);
      if (!(t >= (since[group.sensor] ?? Number.POSITIVE_INFINITY))) since[group.sensor] = t;
    }
  }
  // The live tiles read only the days, written now: they hear of them before the day consumers run
  // (the event detector takes seconds for a facility's minute of 240 sensors on a busy machine).
  telemetryChanged(deps, {
    company,
    facility: batch.facility,
    batch: batch.batch,
    sensors: [...latest].map(([sensor, t]) => ({ sensor, latest: t })),
    readings: rows,
  });
  const days = [...groups.values()].map(({ sensor, day }) => ({ sensor, day }));
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
    const read = await readFileBatch(deps, batch, (part, rows) => applyRows(deps, batch, `${batchId}#${part}`, rows, totals));
    finished = { ...batch, ...read };
  } else {
    const blob = await deps.blobs.get(batchBlobKey(company, batchId));
    const rows = blob ? (JSON.parse(new TextDecoder().decode(blob.body)) as [string, number, number][]) : [];
    await applyRows(deps, batch, batchId, rows, totals, pending);
  }
  return { ...finished, state: "done", accepted: totals[0], duplicate: totals[1], corrected: totals[2] };
}

const chains = new WeakMap<object, Promise<void>>();

/** Applies every queued batch, oldest first, until none is left: the batches queued meanwhile (up to
 *  25 a round) have their days written one after another, then the day consumers run once on the
 *  round's changes taken together (the detector reads each sensor once, not once per batch), and only
 *  then are the batches marked done (a kill before leaves them queued: applied again, nothing counted
 *  twice). A batch that fails stops this round (logged); the next kick takes it up again. */
async function drain(deps: Pick<Deps, "repos" | "blobs" | "clock">): Promise<void> {
  for (;;) {
    const queued = await deps.repos.telemetry.queued(25);
    if (queued.length === 0) return;
    const pending = new PendingChanges();
    const finished: TelemetryBatch[] = [];
    for (const item of queued) {
      const batch = await applyDays(deps, item.company, item.batch, pending);
      if (batch) finished.push(batch);
    }
    await pending.consume(deps);
    for (const batch of finished) await deps.repos.telemetry.finishBatch(batch);
  }
}

/** Starts (or queues behind the one running) a drain of the queue in this process: after each push and
 *  on the local server's start. */
export function drainTelemetry(deps: Pick<Deps, "repos" | "blobs" | "clock">): Promise<void> {
  const previous = chains.get(deps.repos) ?? Promise.resolve();
  const next = previous.then(() => drain(deps)).catch((error) => console.error("telemetry consumer:", error));
  chains.set(deps.repos, next);
  return next;
}

/** A stored batch handed to its consumer: announced on the readings' queue where there is one (AWS),
 *  else a drain of the table's queue in this process. The answer 202 waits for the announcement. */
export async function kickTelemetry(deps: Pick<Deps, "repos" | "blobs" | "clock" | "telemetryQueue">, batch: TelemetryBatch) {
  if (deps.telemetryQueue) await deps.telemetryQueue.send({ company: batch.company, batch: batch.batch });
  else void drainTelemetry(deps);
}

/** Resolves once the drains started so far are done (tests, a graceful stop). */
export const telemetryIdle = (deps: Pick<Deps, "repos">): Promise<void> => chains.get(deps.repos) ?? Promise.resolve();
