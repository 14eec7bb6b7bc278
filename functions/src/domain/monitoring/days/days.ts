// A sensor's stored days of readings read back (D57): the UTC day of an instant, and the readings of a
// window in time order, as the core's minute values, volumes, roll-ups and events are computed from.
import type { Deps } from "../../context";
import type { SensorDay } from "../../../ports";

export const DAY_MS = 86_400_000;

export const utcDay = (t: number) => new Date(Math.floor(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/** The batch mark of the days the demo's simulator wrote (demo-readings.ts): readings of such a day are
 *  «демонстрационные данные» wherever they show. The seed's days carry it as it is, the minutes the
 *  local server's feed pushes after it as their batches' names' start (`demo-simulator-…`). */
export const DEMO_BATCH = "demo-simulator";

/** Whether a stored day holds the demo's simulated readings: a batch of the demo's applied to it. */
export const isDemoDay = (day: Pick<SensorDay, "applied">) => Object.keys(day.applied).some((batch) => batch.startsWith(DEMO_BATCH));

/** A sensor's stored readings from `from` to before `to` (ms), in time order: what the core's minute
 *  values, volumes and roll-ups are computed from (@core/monitoring); `demo` when a day of them holds the
 *  demo's simulated readings. */
export async function readingsBetween(
  deps: Pick<Deps, "repos">,
  company: string,
  sensor: string,
  from: number,
  to: number,
): Promise<{ times: Float64Array; values: Float64Array; demo: boolean }> {
  const days: string[] = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS; t < to; t += DAY_MS) days.push(utcDay(t));
  const stored = await deps.repos.telemetry.getDays(company, sensor, days);
  const times: number[] = [];
  const values: number[] = [];
  let demo = false;
  for (const day of stored) {
    if (!demo && isDemoDay(day)) demo = true;
    const start = Date.parse(`${day.day}T00:00:00Z`);
    for (let i = 0; i < day.offsets.length; i++) {
      const t = start + day.offsets[i];
      if (t < from || t >= to) continue;
      times.push(t);
      values.push(day.values[i]);
    }
  }
  return { times: Float64Array.from(times), values: Float64Array.from(values), demo };
}
