// the live tiles read what is kept, not a day of minutes. GET v1/telemetry/live/ folded
// every sensor's day of minutes on the request thread (4,1 s for 200 meters; 2,4 s for the 9-sensor demo
// mine with bound models). What a tile shows of a sensor is its latest reading (value, instant) and
// whether it is stale (D65: two expected intervals, the median gap of its latest readings): each
// facility's sensors' heads are kept in one item (LiveHead), merged as each batch's readings are applied
// (a subscriber of «readings written», before the tiles' own), and the tiles are computed from it, the
// register, the bindings and the forecasts the forecaster stored: a few reads, bounded by the facility's
// sensors, and no minute folded. Where the heads cannot answer (none kept yet: readings stored before
// them; a bound model whose forecast is not stored) the tiles are computed as before, off the request
// thread (minute-reads.ts).
import type { Deps } from "../../context";
import type { LiveHead, ReadingsWritten, SensorHead } from "../../../ports";
import { facilityRegister } from "../ingest/kept-register";
import { type LiveInputs, type LiveView, type Readings, liveFrom, liveWindow, onTiles, silentSince } from "./live";

/** The gaps a sensor's head keeps: the 31 latest readings' 30, what the tiles' expected interval reads. */
export const LIVE_HEAD_GAPS = 30;
/** Tries of a head's write that another writer's refused before the change is given up (its next one
 *  merges it again: a head only ever moves forward). */
const HEAD_TRIES = 8;

/** The head's instants, oldest first. */
export function headTimes(head: SensorHead): number[] {
  const times = [head.at];
  for (const gap of head.gaps) times.push(times[times.length - 1] - gap);
  return times.reverse();
}

/** `head` with the readings applied (their instants and values, in the order applied: a later value at
 *  an instant replaces an earlier, D57). Undefined for none. */
export function mergedHead(head: SensorHead | undefined, times: ArrayLike<number>, values: ArrayLike<number>): SensorHead | undefined {
  const instants = new Set(head ? headTimes(head) : []);
  let at = head?.at ?? Number.NEGATIVE_INFINITY;
  let value = head?.value ?? Number.NaN;
  for (let i = 0; i < times.length; i++) {
    instants.add(times[i]);
    if (times[i] >= at) {
      at = times[i];
      value = values[i];
    }
  }
  if (!Number.isFinite(at)) return undefined;
  const latest = [...instants].sort((a, b) => b - a).slice(0, LIVE_HEAD_GAPS + 1);
  return { at, value, gaps: latest.slice(1).map((t, i) => latest[i] - t) };
}

/** A subscriber of «readings written»: the facility's heads with the readings applied, written at the
 *  version read (another writer's write meanwhile: read and merged again). Sensors the register no
 *  longer holds are let go. */
export async function keepLiveHeads(deps: Pick<Deps, "repos">, change: ReadingsWritten): Promise<void> {
  if (change.readings.length === 0) return;
  const known = change.register ? new Set(change.register.map((s) => s.id)) : undefined;
  for (let attempt = 0; attempt < HEAD_TRIES; attempt++) {
    const stored = await deps.repos.monitoring.getLiveHead(change.company, change.facility);
    const sensors: Record<string, SensorHead> = {};
    for (const [id, head] of Object.entries(stored?.sensors ?? {})) if (!known || known.has(id)) sensors[id] = head;
    for (const { sensor, times, values } of change.readings) {
      const merged = mergedHead(sensors[sensor], times, values);
      if (merged) sensors[sensor] = merged;
    }
    const next: LiveHead = { company: change.company, facility: change.facility, sensors, version: stored?.version ?? 0 };
    if (await deps.repos.monitoring.putLiveHead(next, stored?.version ?? 0)) return;
  }
  throw new Error(`live heads of ${change.facility}: ${HEAD_TRIES} writes refused`);
}

/** The tiles' readings of a sensor from its head: its instants in the window, the latest value last
 *  (what the tiles read of them: the latest reading and the gaps before it). */
function headReadings(head: SensorHead | undefined, from: number, to: number): Readings | undefined {
  if (!head) return undefined;
  const times = headTimes(head).filter((t) => t >= from && t <= to);
  if (times.length === 0 || times[times.length - 1] !== head.at) return undefined;
  const values = new Float64Array(times.length).fill(Number.NaN);
  values[values.length - 1] = head.value;
  return { times: Float64Array.from(times), values };
}

/** The facility's tiles from its kept heads, or undefined where they cannot answer: no heads kept yet,
 *  or a bound model without its current forecast stored (the tiles then compute it, off the request
 *  thread). `facility` is the caller's, checked before. */
export async function liveFromHeads(deps: Deps, company: string, facility: { id: string; name: string }): Promise<LiveView | undefined> {
  const [register, bindings, head] = await Promise.all([
    facilityRegister(deps, company, facility.id),
    deps.repos.liveBindings.listOfFacility(company, facility.id),
    deps.repos.monitoring.getLiveHead(company, facility.id),
  ]);
  if (!head) return undefined;
  const sensors = [...register];
  const { from, to } = liveWindow(deps.clock.now().getTime());
  // The sensors the tiles read, as liveInputs reads them: the workings' and the places', and those a
  // binding names.
  const named = new Set(bindings.flatMap((b) => Object.values(b.features ?? {})));
  const readings = new Map<string, Readings>();
  for (const sensor of sensors) {
    if (!onTiles(sensor) && !(sensor.is_active && named.has(sensor.id))) continue;
    const read = headReadings(head.sensors[sensor.id], from, to);
    readings.set(sensor.id, read ?? { times: new Float64Array(0), values: new Float64Array(0) });
  }
  const inputs: LiveInputs = { facility, sensors, bindings, readings, silentSince: silentSince(head.sensors, readings) };
  return liveFrom(deps, company, inputs, { keptForecastsOnly: true });
}
