// the live tiles pushed as they change (the stream of v1/telemetry/live/stream/). One watch per
// facility in this host (liveWatches), shared by every connected page of it: it keeps the
// window's readings, takes the readings of the days written from the change stream («readings written»,
// ports/changes.ts: the local host's table makes the tiles its first subscriber) instead of reading the
// days again, recomputes the tiles once per change (changes that come while it computes are taken
// together), and hands the view to each watcher when its ETag moved. The forecasts are the ones the
// forecaster stored (forecaster.ts), read with the tiles: «forecast stored» is a change without
// readings; «binding changed» reads the inputs again.
import type { Deps } from "../../context";
import type { AppliedReadings, Change, Sensor } from "../../../ports";
import { keptState } from "../../../ports/runtime";
import { facilityRegister } from "../ingest/kept-register";
import { liveFrom, liveInputs, liveWindow, onTiles, type LiveInputs, type LiveView, type Readings } from "./live";
import { liveFromHeads } from "./live-head";

type Watcher = (view: LiveView) => void;

/** One facility's watch, shared by every page of the host watching it. */
interface LiveWatch {
  watchers: Set<Watcher>;
  inputs?: Promise<LiveInputs>;
  pending: (readonly AppliedReadings[])[];
  /** The register the latest change was applied with, taken by the next recompute. */
  register?: readonly Sensor[];
  reload: boolean;
  running?: Promise<void>;
  last?: LiveView;
  /** Recompute without a change: the clock moved («нет данных N мин»). */
  tick: boolean;
  poke: () => void;
  stop: () => void;
}

/** The live tiles' watches of this host, by company and facility. */
export const liveWatches = keptState("live watches", () => new Map<string, LiveWatch>());

/** The tiles computed from a facility's kept heads and shared by its requests for a moment
 *  (minute-reads.ts sharedFromHeads), by «company|facility». */
export const liveShared = keptState("live tiles shared", () => new Map<string, { at: number; view: Promise<LiveView | undefined> }>());

/** The tiles are recomputed this often without a change, so a channel's «нет данных N мин» moves on. */
export const LIVE_TICK_MS = 30_000;

/** Readings merged in time order: a reading at an instant already held replaces its value (D57). */
export function mergeReadings(held: Readings | undefined, added: readonly Readings[], from: number): Readings {
  const byTime = new Map<number, number>();
  if (held) for (let i = 0; i < held.times.length; i++) if (held.times[i] >= from) byTime.set(held.times[i], held.values[i]);
  for (const { times, values } of added) for (let i = 0; i < times.length; i++) if (times[i] >= from) byTime.set(times[i], values[i]);
  const times = Float64Array.from(byTime.keys()).sort();
  return { times, values: Float64Array.from(times, (t) => byTime.get(t) as number) };
}

async function refresh(deps: Deps, company: string, facility: { id: string; name: string }, watch: LiveWatch): Promise<void> {
  while (watch.reload || watch.pending.length > 0 || watch.tick || !watch.last) {
    watch.tick = false;
    // from the facility's kept heads where they answer (merged before the change reached the
    // tiles: the first line of the table), no minute read; the window's readings only where they do not.
    // Taken before the read: a read that fails waits for the next tick or change, as the window's does.
    const reload = watch.reload;
    watch.reload = false;
    const kept = await liveFromHeads(deps, company, facility);
    if (kept) {
      watch.pending = [];
      watch.register = undefined;
      watch.inputs = undefined;
      show(watch, kept);
      continue;
    }
    if (reload || watch.reload || !watch.inputs) {
      watch.reload = false;
      watch.pending = [];
      watch.inputs = liveInputs(deps, company, facility);
    } else {
      const changes = watch.pending;
      watch.pending = [];
      const inputs = await watch.inputs;
      const { from } = liveWindow(deps.clock.now().getTime());
      const bySensor = new Map<string, Readings[]>();
      for (const readings of changes) {
        for (const { sensor, times, values } of readings) bySensor.set(sensor, [...(bySensor.get(sensor) ?? []), { times, values }]);
      }
      const readings = new Map(inputs.readings);
      for (const [sensor, added] of bySensor)
        if (readings.has(sensor)) readings.set(sensor, mergeReadings(readings.get(sensor), added, from));
      // The register may have changed meanwhile: a sensor it gained is read whole. The one the latest
      // change was applied with, else the host's kept one.
      const handed = watch.register;
      watch.register = undefined;
      const sensors = [...(handed ?? (await facilityRegister(deps, company, facility.id)))];
      const next: LiveInputs = { ...inputs, sensors, readings };
      if (sensors.some((s) => onTiles(s) && !readings.has(s.id))) watch.reload = true;
      else watch.inputs = Promise.resolve(next);
      if (watch.reload) continue;
    }
    show(watch, await liveFrom(deps, company, await watch.inputs));
  }
}

/** The tiles handed to each watcher when their ETag moved, and kept. */
function show(watch: LiveWatch, view: LiveView): void {
  const moved = view.etag !== watch.last?.etag;
  watch.last = view;
  if (moved) for (const watcher of [...watch.watchers]) watcher(view);
}

function kick(deps: Deps, company: string, facility: { id: string; name: string }, watch: LiveWatch) {
  if (watch.running) return;
  watch.running = refresh(deps, company, facility, watch)
    .catch((error) => {
      // A failed read is not kept as the watch's inputs: the next tick or change reads them anew,
      // instead of awaiting the same rejected read for as long as a page watches.
      watch.inputs = undefined;
      watch.pending = [];
      console.error("live tiles:", error);
    })
    .finally(() => {
      watch.running = undefined;
      if (watch.watchers.size > 0 && (watch.reload || watch.tick || watch.pending.length > 0)) kick(deps, company, facility, watch);
    });
}

/**
 * Calls `watcher` with the facility's tiles now (once computed) and again each time an applied batch or
 * a binding changes them; returns what stops it. The facility is the caller's, checked before.
 */
export function watchLive(deps: Deps, company: string, facility: { id: string; name: string }, watcher: Watcher): () => void {
  const map = deps.runtime.kept(liveWatches);
  const key = `${company}|${facility.id}`;
  let watch = map.get(key);
  if (!watch) {
    const made: LiveWatch = {
      watchers: new Set(),
      pending: [],
      reload: true,
      tick: false,
      poke: () => kick(deps, company, facility, made),
      stop: () => {},
    };
    made.stop = deps.runtime.timers.every(LIVE_TICK_MS, () => {
      made.tick = true;
      made.poke();
    });
    map.set(key, made);
    watch = made;
  }
  const current = watch;
  current.watchers.add(watcher);
  if (current.last) watcher(current.last);
  else current.poke();
  return () => {
    current.watchers.delete(watcher);
    if (current.watchers.size === 0) {
      current.stop();
      map.delete(key);
    }
  };
}

/** The live tiles as a subscriber of the change stream (the local host's table): the days written
 *  merged into the watch of their facility, a stored forecast read with the tiles, a binding changed
 *  read anew. Nothing while no page watches the facility. */
export function liveTilesHear(deps: Pick<Deps, "runtime">, change: Change): void {
  if (change.type === "DeliveriesDue") return;
  // The tiles shared by the facility's requests are no longer what its heads give.
  deps.runtime.kept(liveShared).delete(`${change.company}|${change.facility}`);
  const watch = deps.runtime.kept(liveWatches).get(`${change.company}|${change.facility}`);
  if (!watch) return;
  if (change.type === "BindingChanged") watch.reload = true;
  else watch.pending.push(change.type === "ReadingsWritten" ? change.readings : []);
  if (change.type === "ReadingsWritten" && change.register) watch.register = change.register;
  watch.poke();
}

/** The tiles a watch holds, when one is running for the facility (GET answers from it). */
export function watchedView(deps: Pick<Deps, "runtime">, company: string, facilityId: string): LiveView | undefined {
  const watch = deps.runtime.kept(liveWatches).get(`${company}|${facilityId}`);
  return watch && !watch.running && !watch.reload ? watch.last : undefined;
}
