// an earlier round's forecaster: a consumer of the readings' change, whether or not a page watches. After a batch's
// days are written (consumer.ts), each working of the facility with a bound model (a binding per working
// and horizon, live.ts) whose sensors got readings has its forecast computed again from the latest
// minutes with the lag features the model needs (forecastWorking: the rows POST v1/regres_methane/
// would take, so the figure is the route's bit for bit), stored as the working's latest, and its D65
// forecast events opened, closed and settled («сбылся»): the shift report and the webhooks get them for
// every shift. A forecast is computed once per set of rows: a batch that brings nothing new to a
// working's rows computes nothing, and the changes that arrive while the forecaster computes a facility
// are taken together (at 100× a minute every 0,6 s, it computes each working's latest minute once per
// round, not each batch's); each facility's apart from the others' (forecastQueue). Where it runs: with
// the consumer (the local server's, in whatever thread drains the queue; in AWS the readings' function,
// which awaits it before it answers): docs/architecture.md.
import { METHANE_KINDS } from "@core/monitoring";
import type { Deps } from "../../context";
import { keptState } from "../../../ports/runtime";
import { MINUTE_MS } from "@core/dates";
import {
  LIVE_ROWS,
  LIVE_STEP_MIN,
  featureSensors,
  forecastMeter,
  forecastWorking,
  liveWindow,
  workingsOf,
  type ForecastDeps,
} from "./live";
import { keptMeans, type MeansGroup } from "./forecast-means";
import { keptMinutes } from "../minutes/minute-window";
import { drainsIdle } from "../minutes/consumer";
import type { ReadingsWritten, Sensor, SensorMeans, StoredLiveForecast } from "../../../ports";
import { facilityRegister } from "../ingest/kept-register";

/** Workings whose forecasts a facility's round computes at once. */
const WORKINGS_AT_ONCE = 4;

/** A facility's change the forecaster is handed: which sensors got readings. */
export interface ForecastChange {
  company: string;
  facility: string;
  sensors: Iterable<string>;
  /** The facility's register the change was applied with (ReadingsWritten's). */
  register?: readonly Sensor[];
  /** Each sensor's earliest instant changed (ReadingsWritten's `since`): the kept means are read again from it. */
  since?: Readonly<Record<string, number>>;
}

/**
 * Computes again the stored forecast of each working of the facility with a bound model whose sensors
 * are among `changed` (every bound working when undefined), from the window's readings (their kept
 * minute means, brought up to storage from each sensor's earliest instant changed, `since`: read whole
 * where it is not given); answers the
 * forecasts stored anew (not those whose rows had not changed). A model that cannot forecast the
 * working (refused: Invalid) is logged and the others still run.
 */
export async function forecastFacility(
  deps: ForecastDeps,
  company: string,
  facility: string,
  changed?: ReadonlySet<string>,
  register?: readonly Sensor[],
  since?: ReadonlyMap<string, number>,
): Promise<StoredLiveForecast[]> {
  const bindings = await deps.repos.liveBindings.listOfFacility(company, facility);
  if (bindings.length === 0) return [];
  const all = register ?? (await facilityRegister(deps, company, facility));
  const workings = workingsOf(all);
  const stored = await deps.repos.liveBindings.forecastsOfFacility(company, facility);
  const { from, to } = liveWindow(deps.clock.now().getTime());
  const due = bindings
    .sort((a, b) => a.working.localeCompare(b.working, "ru") || a.horizon - b.horizon)
    .flatMap((binding) => {
      const sensors = workings.get(binding.working);
      const meter = sensors && forecastMeter(sensors, binding);
      if (!sensors || !meter) return [];
      // The meter and each column's sensor (the binding's may be outside the working: the mine's return).
      const read = [meter, ...Object.values(featureSensors(sensors, binding, all))].filter((s) => s !== undefined);
      if (changed && ![...sensors, ...read].some((s) => changed.has(s.id))) return [];
      return [{ binding, sensors, meter, read }];
    });
  // each due working's kept means (forecast-means.ts), brought up to the minutes
  // since its last round, the workings' at once; the rows before a meter's latest minute where the feed
  // is behind the clock among them.
  const minutes = keptMinutes(deps);
  const groups = new Map<string, MeansGroup>();
  for (const { binding, sensors, meter, read } of due) {
    // Item 2: the working's methane meters too, which its day chart draws from the same item.
    const drawn = sensors.filter((s) => METHANE_KINDS.has(s.kind));
    const group = groups.get(binding.working) ?? { working: binding.working, meters: [], read: [] };
    groups.set(binding.working, { ...group, meters: [...group.meters, meter], read: [...group.read, ...read, ...drawn] });
  }
  const kept = new Map<string, Map<string, SensorMeans>>();
  const rowSpan = (LIVE_ROWS - 1) * LIVE_STEP_MIN * MINUTE_MS;
  await Promise.all(
    [...groups.values()].map(async (group) =>
      kept.set(group.working, await keptMeans(deps, company, facility, group, { from, to, rowSpan }, since, minutes)),
    ),
  );
  // Each working's forecasts one after another, WORKINGS_AT_ONCE workings at once: a forecast is a few
  // storage round trips (the stored forecast, its events) around its model's scoring, and one after
  // another a facility of 20 bound workings waited on each in turn.
  const grouped = new Map<string, typeof due>();
  for (const d of due) grouped.set(d.binding.working, [...(grouped.get(d.binding.working) ?? []), d]);
  const byWorking = [...grouped.values()];
  const written: (StoredLiveForecast | undefined)[][] = byWorking.map(() => []);
  let nextWorking = 0;
  const lane = async () => {
    for (let w = nextWorking++; w < byWorking.length; w = nextWorking++) {
      for (const { binding, sensors } of byWorking[w]) {
        const readings = kept.get(binding.working) ?? new Map<string, SensorMeans>();
        const before = stored.find((f) => f.working === binding.working && f.horizon === binding.horizon);
        try {
          // The round's minutes source: a D65 alert rule's 7 days (judged again as the ten-minute grid moves
          // on) are read once for the facility's workings, not once for each.
          const next = await forecastWorking(deps, company, binding, sensors, readings, before, all, minutes);
          written[w].push(next && next !== before ? next : undefined);
        } catch (error) {
          console.error(
            JSON.stringify({ event: "live_forecast_failed", company, facility, working: binding.working, error: String(error) }),
          );
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WORKINGS_AT_ONCE, byWorking.length) }, lane));
  return written.flat().filter((f): f is StoredLiveForecast => f !== undefined);
}

/** The forecaster as a subscriber of «readings written» (the hosts' tables): the facility's changed
 *  sensors queued, and its forecasts computed before it answers (the event detector runs after it on
 *  the same thread). It waits for its own facility's forecasts only: a facility without a bound model,
 *  another company's among them, is not held by a holding's twenty forecasts (the first after a start
 *  loads the model and reads the window: 15 s in the holding bench). Days whose every reading is older
 *  than the forecasts' window (a past part of a dispatch file) change no forecast's rows, and queue
 *  nothing. */
export async function forecastReadingsWritten(
  deps: ForecastDeps,
  change: Pick<ReadingsWritten, "company" | "facility" | "readings" | "register">,
): Promise<void> {
  const { from } = liveWindow(deps.clock.now().getTime());
  const sensors = change.readings.filter((r) => r.times.some((t) => t >= from)).map((r) => r.sensor);
  if (sensors.length === 0) return;
  const since: Record<string, number> = {};
  for (const { sensor, times } of change.readings) for (const t of times) since[sensor] = Math.min(since[sensor] ?? t, t);
  await queueForecasts(deps, { company: change.company, facility: change.facility, sensors, register: change.register, since });
}

/** A facility's forecasts to compute: the sensors changed, the register the latest change was applied
 *  with, and what resolves once they are computed. */
interface PendingForecasts {
  sensors: Set<string>;
  /** Each sensor's earliest instant changed; undefined once a change came without them. */
  since?: Map<string, number>;
  register?: readonly Sensor[];
  computed: Promise<void>;
  done: () => void;
}

/** A facility's forecaster: the changes waiting for the next computation, and the one running. */
interface FacilityForecasts {
  company: string;
  facility: string;
  pending?: PendingForecasts;
  running?: Promise<void>;
}

/** The forecaster of this host, by company and facility: each facility's forecasts computed one after
 *  another, apart from the other facilities'. */
export const forecastQueue = keptState("forecast queue", () => new Map<string, FacilityForecasts>());

/** Hands a facility's change to the forecaster of this host (forecastQueue): computed once the facility's
 *  running computation is done, with every change that came meanwhile. Resolves once they are computed. */
export function queueForecasts(deps: ForecastDeps, change: ForecastChange): Promise<void> {
  const queue = deps.runtime.kept(forecastQueue);
  const key = `${change.company}|${change.facility}`;
  let forecasts = queue.get(key);
  if (!forecasts) queue.set(key, (forecasts = { company: change.company, facility: change.facility }));
  if (!forecasts.pending) {
    let done!: () => void;
    const computed = new Promise<void>((resolve) => {
      done = resolve;
    });
    forecasts.pending = { sensors: new Set(), since: new Map(), computed, done };
  }
  const { pending } = forecasts;
  for (const sensor of change.sensors) pending.sensors.add(sensor);
  if (!change.since) pending.since = undefined;
  else if (pending.since)
    for (const [sensor, t] of Object.entries(change.since)) pending.since.set(sensor, Math.min(pending.since.get(sensor) ?? t, t));
  if (change.register) pending.register = change.register;
  if (!forecasts.running) start(deps, queue, key, forecasts);
  return pending.computed;
}

/** Runs the facility's forecaster; a change queued between its last round and its end (while its
 *  `running` still stood) gets a run of its own, else the facility is let go. */
function start(deps: ForecastDeps, queue: Map<string, FacilityForecasts>, key: string, forecasts: FacilityForecasts): void {
  forecasts.running = run(deps, forecasts).finally(() => {
    forecasts.running = undefined;
    if (forecasts.pending) start(deps, queue, key, forecasts);
    else queue.delete(key);
  });
}

async function run(deps: ForecastDeps, forecasts: FacilityForecasts): Promise<void> {
  const { company, facility } = forecasts;
  for (let next = forecasts.pending; next; next = forecasts.pending) {
    forecasts.pending = undefined;
    try {
      const written = await forecastFacility(deps, company, facility, next.sensors, next.register, next.since);
      // The tiles watching the facility read the stored forecasts again (live-watch.ts).
      if (written.length > 0) {
        await deps.runtime.changes.publish({
          type: "ForecastStored",
          company,
          facility,
          forecasts: written.map((f) => ({ working: f.working, horizon: f.horizon, sensor: f.sensor })),
        });
      }
    } catch (error) {
      console.error(JSON.stringify({ event: "live_forecaster", company, facility, error: String(error) }));
    } finally {
      next.done();
    }
  }
}

/** Resolves once the forecasts queued so far are computed (tests, the readings' function before it answers). */
export async function forecastsIdle(deps: Pick<Deps, "runtime">): Promise<void> {
  for (;;) {
    const running = [...deps.runtime.kept(forecastQueue).values()].flatMap((f) => (f.running ? [f.running] : []));
    if (running.length === 0) return;
    await Promise.all(running);
  }
}

/** Resolves once the drains started so far are done, and the forecasts they queued: the wing at rest
 *  (tests, a graceful stop). Here, at the end of the walk, not in the consumer: the days (consumer.ts)
 *  know nothing of what hears them. */
export async function monitoringIdle(deps: Pick<Deps, "runtime"> & Partial<Pick<Deps, "readingsConsumer">>): Promise<void> {
  await drainsIdle(deps);
  await forecastsIdle(deps);
}
