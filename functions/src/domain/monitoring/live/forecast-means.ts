// what a bound working's forecast reads, kept. The forecaster's round read its
// working's 24 h of minutes every push (the meter's and each model column's sensor), the 17 h before the
// host's minute window (minute-window.ts: 7 h) from storage: push → forecast p95 went from 0,81 to
// 2,93 s at real time. A forecast's rows read only each sensor's D59 minute means (forecastRowsAt) and
// the meter's latest reading, and a minute's mean is its own readings' alone: so each bound working
// keeps, in one item (ForecastMeans), each of those sensors' means from its rows' first minute and its
// latest reading, and a round reads that item and, of storage's minutes, only those from the latest
// minute it keeps (a reading may have come into it since) or from the earliest instant the round's
// batches changed (a late reading, a correction: D57), whichever is earlier — a push's minutes, from
// the host's window. Without the item (the first round, a binding made) or without the batches'
// instants (a round asked for every working) the sensor's window is read whole, as before. The rows
// are the same, bit for bit, as those of the readings (forecast-means.test.ts).
import { minuteMeans } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import type { Deps } from "../../context";
import type { ForecastMeans, Sensor, SensorMeans } from "../../../ports";
import { readingsBetween, type MinuteSource } from "../ingest/stored-readings";

/** Tries of an item's write that another round's refused (read and merged again) before it is left as
 *  it was: the next round reads the sensors' windows again where it is behind. */
const MEANS_TRIES = 4;

/** Minutes a kept item may lag its working's latest minute before a round writes it again. The item
 *  holds 24 h of its sensors' means and is rewritten whole: written at every push it was 620–740 B of
 *  what the local store wrote a reading late in the day (docs/performance.md). A round reads
 *  the minutes since the item's latest from the host's window, so a lag costs reads of a few minutes. */
export const KEEP_LAG_MINUTES = 10;

const minuteOf = (t: number) => Math.floor(t / MINUTE_MS) * MINUTE_MS;

/** A working's sensors to keep: its bound meters (those whose latest minute the rows end at) and the
 *  sensors its models' columns read. */
export interface MeansGroup {
  working: string;
  meters: readonly Sensor[];
  read: readonly Sensor[];
}

/**
 * `kept` with the sensor's readings from `start` on (minute-aligned), read up to `checked`, taken in: its
 * means before `start` kept, from `start` on those of `readings`; the latest reading the latest of both.
 * Without a reading in either, no means (and the instant read up to: the next read begins there).
 */
export function meansWith(
  kind: Sensor["kind"],
  kept: SensorMeans | undefined,
  start: number,
  readings: { times: Float64Array; values: Float64Array },
  checked: number,
): SensorMeans {
  const n = readings.times.length;
  const lastAt = n > 0 ? readings.times[n - 1] : Number.NEGATIVE_INFINITY;
  // Only what `kept` holds before `start` stays of it: from `start` on the readings are all there is.
  const keep = kept && kept.from < start && kept.means.length > 0 ? kept : undefined;
  const at = Math.max(lastAt, keep && keep.at < start ? keep.at : Number.NEGATIVE_INFINITY);
  // None: the means cover from where `kept` began (nothing in it), or from `start`.
  if (!Number.isFinite(at)) {
    const from = kept && kept.from <= start ? kept.from : start;
    return { from, means: new Float64Array(0), at: Number.NEGATIVE_INFINITY, value: Number.NaN, checked };
  }
  const from = keep ? keep.from : start;
  const count = (minuteOf(at) - from) / MINUTE_MS + 1;
  const means = new Float64Array(count).fill(Number.NaN);
  if (keep) means.set(keep.means.subarray(0, Math.min(keep.means.length, (start - from) / MINUTE_MS, count)));
  const fresh = (minuteOf(at) - start) / MINUTE_MS + 1;
  if (fresh > 0) means.set(minuteMeans(kind, readings.times, readings.values, start, fresh).values, (start - from) / MINUTE_MS);
  const value = lastAt === at ? readings.values[n - 1] : (keep as SensorMeans).value;
  return { from, means, at, value, checked };
}

/** The means from `from` (minute-aligned) on. */
function trimmed(means: SensorMeans, from: number): SensorMeans {
  if (means.from >= from) return means;
  const skip = Math.min(means.means.length, (from - means.from) / MINUTE_MS);
  return { ...means, from: means.from + skip * MINUTE_MS, means: means.means.slice(skip) };
}

/** Where storage is read again from for kept means: their latest minute (a reading may have come into it
 *  since they were taken), or, without a reading, the minute they were read up to. */
const readAgainFrom = (kept: SensorMeans) =>
  kept.means.length > 0 ? kept.from + (kept.means.length - 1) * MINUTE_MS : minuteOf(kept.checked);

/**
 * The kept means of each of `group`'s sensors brought up to storage, and written back: from the
 * working's item, each sensor's minutes read from min(its latest minute kept, its earliest instant the
 * batches changed: `since`) on; a sensor the item lacks, or whose change is not known (`since`
 * undefined), or whose kept means begin after the rows need, read whole from the rows' first minute
 * (the clock's 24 h, or `window.rowSpan` before the meter's latest minute where the feed is behind).
 * `minutes`: the round's source of the facility's minutes (the host's window).
 */
export async function keptMeans(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
  group: MeansGroup,
  window: { from: number; to: number; rowSpan: number },
  since: ReadonlyMap<string, number> | undefined,
  minutes: MinuteSource,
): Promise<Map<string, SensorMeans>> {
  const sensors = new Map([...group.meters, ...group.read].map((s) => [s.id, s]));
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.repos.monitoring.getForecastMeans(company, facility, group.working);
    const out = new Map<string, SensorMeans>();
    // Whether the item must be written this round: a sensor it lacks or cannot serve, or a minute it
    // holds read again (a late reading, a correction: what it keeps of that minute is no longer so).
    let stale = stored === undefined;
    const bring = async (sensor: Sensor, need: number) => {
      const kept = stored?.sensors[sensor.id];
      const changed = since?.get(sensor.id);
      const known = kept !== undefined && since !== undefined && kept.from <= need;
      const start = known ? Math.max(need, minuteOf(Math.min(readAgainFrom(kept), changed ?? Number.POSITIVE_INFINITY))) : need;
      if (!known || start < readAgainFrom(kept)) stale = true;
      const read = await readingsBetween(deps, company, { id: sensor.id, facility }, start, window.to, minutes);
      out.set(sensor.id, trimmed(meansWith(sensor.kind, known ? kept : undefined, start, read, window.to), need));
    };
    // The meters first: where a feed is behind the clock, the rows begin 24 h before the meter's latest minute.
    const first = minuteOf(window.from);
    await Promise.all(group.meters.map((meter) => bring(meter, first)));
    const ends = group.meters.flatMap((m) => {
      const kept = out.get(m.id);
      return kept ? [minuteOf(kept.at) - window.rowSpan] : [];
    });
    const need = Math.min(first, ...ends);
    // A meter behind the clock: its rows begin before `first`, and so do every sensor's of the working.
    await Promise.all(
      [...sensors.values()].filter((s) => !out.has(s.id) || (need < first && out.get(s.id)!.from > need)).map((s) => bring(s, need)),
    );
    // Only the minutes since its latest are new, and they are few: the item is left as it is, and the
    // next round reads them again from the host's window (KEEP_LAG_MINUTES). Not stale, the item holds
    // every sensor of the round.
    const lagging = (id: string, m: SensorMeans) => (readAgainFrom(m) - readAgainFrom(stored!.sensors[id])) / MINUTE_MS >= KEEP_LAG_MINUTES;
    if (!stale && Object.keys(stored!.sensors).length === out.size && ![...out].some(([id, m]) => lagging(id, m))) return out;
    const next: ForecastMeans = {
      company,
      facility,
      working: group.working,
      sensors: Object.fromEntries(out),
      version: stored?.version ?? 0,
    };
    // An item storage cannot hold (past DynamoDB's 400 KB: a working of some 30 kept sensors) is not
    // kept; the round forecasts from what it read, and the next reads the window whole again.
    const kept = await deps.repos.monitoring.putForecastMeans(next, stored?.version ?? 0).catch((error: unknown) => {
      console.error(JSON.stringify({ event: "forecast_means_not_kept", company, facility, working: group.working, error: String(error) }));
      return true;
    });
    if (kept) return out;
    if (attempt >= MEANS_TRIES) {
      console.error(JSON.stringify({ event: "forecast_means_refused", company, facility, working: group.working }));
      return out;
    }
  }
}

/**
 * What a working's day chart reads of `sensors` (GET v1/telemetry/live/chart/): their kept means (the
 * forecaster's item, where the working has a bound model) brought up to storage from the latest minute
 * each keeps — a Query of the few minutes since, not the host's window (a spreadsheet thread's is cold:
 * 7 h of the facility's minutes) — and not written back (the forecaster's round does); a sensor not
 * kept, or kept from later than `window.from`, its readings of the window whole, from `minutes`.
 */
export async function workingReadings(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
  working: string,
  sensors: readonly Sensor[],
  window: { from: number; to: number },
  minutes: MinuteSource,
): Promise<Map<string, { times: Float64Array; values: Float64Array } | SensorMeans>> {
  const stored = await deps.repos.monitoring.getForecastMeans(company, facility, working);
  const first = minuteOf(window.from);
  const out = new Map<string, { times: Float64Array; values: Float64Array } | SensorMeans>();
  await Promise.all(
    sensors.map(async (sensor) => {
      const kept = stored?.sensors[sensor.id];
      if (kept && kept.from <= first) {
        const start = Math.max(first, readAgainFrom(kept));
        const since = await readingsBetween(deps, company, { id: sensor.id, facility }, start, window.to);
        out.set(sensor.id, trimmed(meansWith(sensor.kind, kept, start, since, window.to), first));
        return;
      }
      const read = await readingsBetween(deps, company, { id: sensor.id, facility }, window.from, window.to, minutes);
      out.set(sensor.id, { times: read.times, values: read.values });
    }),
  );
  return out;
}
