// What each applied batch changed (methodology D64–D65): the consumer tells the listeners of this
// process, after a batch's days are written, which facility, sensors and UTC days it touched, so the
// live tiles, the forecaster and the event detector recompute from the stored days without polling.
// A listener that throws is logged and the others still hear the change; listening costs nothing
// while nobody listens. The local server's consumer thread posts each change to the request thread,
// which tells its listeners (local/telemetry-consumer.ts). Listeners are kept per storage (deps.repos), as the consumer's chain is.
import type { Deps } from "../context";
import type { SensorReadings } from "./reading-columns";

export interface TelemetryChange {
  company: string;
  facility: string;
  batch: string;
  /** The sensors whose days the batch wrote (ids), and each one's latest instant in it (UTC ms). */
  sensors: { sensor: string; latest: number }[];
  /** The batch's readings as applied, per sensor id (a correction replaces the value). */
  readings: readonly SensorReadings[];
}

export type TelemetryListener = (change: TelemetryChange) => void;

const listeners = new WeakMap<object, Set<TelemetryListener>>();

/** Calls `listener` after every batch applied in this process; returns what stops it. */
export function onTelemetryChange(deps: Pick<Deps, "repos">, listener: TelemetryListener): () => void {
  let set = listeners.get(deps.repos);
  if (!set) listeners.set(deps.repos, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells this process's listeners what a batch changed (the consumer, after its days are written). */
export function telemetryChanged(deps: Pick<Deps, "repos">, change: TelemetryChange): void {
  const set = listeners.get(deps.repos);
  if (!set || change.sensors.length === 0) return;
  for (const listener of [...set]) {
    try {
      listener(change);
    } catch (error) {
      console.error("telemetry listener:", error);
    }
  }
}
