// Issue 78: the live tiles pushed as they change (the stream of v1/telemetry/live/stream/). One watch per
// facility in this process, shared by every connected page of it: it keeps the window's readings, takes
// each applied batch's readings from the consumer's change (domain/telemetry/changes.ts) instead of
// reading the days again, recomputes the tiles once per change (changes that come while it computes are
// taken together), and hands the view to each watcher when its ETag moved. The forecasts are the ones
// the forecaster stored (forecaster.ts), read with the tiles; it tells the watch when it stored one (a
// change without readings).
import type { Deps } from "../context";
import { onTelemetryChange, type TelemetryChange } from "./changes";
import { liveFrom, liveInputs, liveWindow, type LiveInputs, type LiveView, type Readings } from "./live";

type Watcher = (view: LiveView) => void;

interface Watch {
  watchers: Set<Watcher>;
  inputs?: Promise<LiveInputs>;
  pending: TelemetryChange[];
  reload: boolean;
  running?: Promise<void>;
  last?: LiveView;
  /** Recompute without a change: the clock moved («нет данных N мин»). */
  tick: boolean;
  poke: () => void;
  stop: () => void;
}

/** The tiles are recomputed this often without a change, so a channel's «нет данных N мин» moves on. */
export const LIVE_TICK_MS = 30_000;

const watches = new WeakMap<object, Map<string, Watch>>();

/** Readings merged in time order: a reading at an instant already held replaces its value (D57). */
export function mergeReadings(held: Readings | undefined, added: readonly Readings[], from: number): Readings {
  const byTime = new Map<number, number>();
  if (held) for (let i = 0; i < held.times.length; i++) if (held.times[i] >= from) byTime.set(held.times[i], held.values[i]);
  for (const { times, values } of added) for (let i = 0; i < times.length; i++) if (times[i] >= from) byTime.set(times[i], values[i]);
  const times = Float64Array.from(byTime.keys()).sort();
  return { times, values: Float64Array.from(times, (t) => byTime.get(t) as number) };
}

async function refresh(deps: Deps, company: string, facility: { id: string; name: string }, watch: Watch): Promise<void> {
  while (watch.reload || watch.pending.length > 0 || watch.tick || !watch.last) {
    watch.tick = false;
    if (watch.reload || !watch.inputs) {
      watch.reload = false;
      watch.pending = [];
      watch.inputs = liveInputs(deps, company, facility);
    } else {
      const changes = watch.pending;
      watch.pending = [];
      const inputs = await watch.inputs;
      const { from } = liveWindow(deps.clock.now().getTime());
      const bySensor = new Map<string, Readings[]>();
      for (const change of changes) {
        for (const { sensor, times, values } of change.readings) bySensor.set(sensor, [...(bySensor.get(sensor) ?? []), { times, values }]);
      }
      const readings = new Map(inputs.readings);
      for (const [sensor, added] of bySensor)
        if (readings.has(sensor)) readings.set(sensor, mergeReadings(readings.get(sensor), added, from));
      // The register may have changed meanwhile: a sensor it gained is read whole.
      const sensors = await deps.repos.sensors.listOfFacility(company, facility.id);
      const next: LiveInputs = { ...inputs, sensors, readings };
      if (sensors.some((s) => s.is_active && s.working.trim() !== "" && !readings.has(s.id))) watch.reload = true;
      else watch.inputs = Promise.resolve(next);
      if (watch.reload) continue;
    }
    const view = await liveFrom(deps, company, await watch.inputs);
    if (view.etag !== watch.last?.etag) {
      watch.last = view;
      for (const watcher of [...watch.watchers]) watcher(view);
    } else watch.last = view;
  }
}

function kick(deps: Deps, company: string, facility: { id: string; name: string }, watch: Watch) {
  if (watch.running) return;
  watch.running = refresh(deps, company, facility, watch)
    .catch((error) => console.error("live tiles:", error))
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
  let map = watches.get(deps.repos);
  if (!map) watches.set(deps.repos, (map = new Map()));
  const key = `${company}|${facility.id}`;
  let watch = map.get(key);
  if (!watch) {
    const made: Watch = {
      watchers: new Set(),
      pending: [],
      reload: true,
      tick: false,
      poke: () => kick(deps, company, facility, made),
      stop: () => {},
    };
    const stopListening = onTelemetryChange(deps, (change) => {
      if (change.company !== company || change.facility !== facility.id) return;
      made.pending.push(change);
      made.poke();
    });
    const clock = setInterval(() => {
      made.tick = true;
      made.poke();
    }, LIVE_TICK_MS);
    clock.unref?.();
    made.stop = () => {
      stopListening();
      clearInterval(clock);
    };
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

/** A binding changed: every watch of the facility reads its inputs again. */
export function liveChanged(deps: Pick<Deps, "repos">, company: string, facilityId: string): void {
  const watch = watches.get(deps.repos)?.get(`${company}|${facilityId}`);
  if (!watch) return;
  watch.reload = true;
  watch.poke();
}

/** The tiles a watch holds, when one is running for the facility (GET answers from it). */
export function watchedView(deps: Pick<Deps, "repos">, company: string, facilityId: string): LiveView | undefined {
  const watch = watches.get(deps.repos)?.get(`${company}|${facilityId}`);
  return watch && !watch.running && !watch.reload ? watch.last : undefined;
}
