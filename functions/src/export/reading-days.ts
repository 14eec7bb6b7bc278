// a verification pack's stored readings per meter and day, so that a verifier reconciles them
// offline with the mine's own dispatch export (verify.py --reconcile EXPORT.csv) as the platform's
// «Сверка с выгрузкой АГК» does online. readings-days.json holds, for each set of readings the pack
// carries (an accepted month's telemetry/NNNN.csv; a climate period's minutes/*.csv) and its window
// [from, to), per meter code and day on the company's clock, the count and the SHA-256 of the readings
// in this canonical form (UTF-8):
//
//   for each reading of the meter and day, in time order: the instant as ISO 8601 in UTC with
//   milliseconds («2026-03-01T13:00:00.000Z»), «;», the value as ECMAScript writes a number («0.44»,
//   «12000», «1e-7»), «\n»
//
// — the same lines as the pack's readings files, without the code. verify.py recomputes them from the
// pack's own readings files (so the listing is theirs) and from the export, read as the platform reads
// one (domain/monitoring/ingest/dispatch-file.ts), and names the first meter-day that differs.
import { createHash } from "node:crypto";
import { zoneOffsetMs } from "@core/company-clock";

export const READING_DAYS_FILE = "readings-days.json";
const CANONICAL =
  "per reading of the meter and day (the company's clock), in time order: ISO 8601 UTC instant with milliseconds, ';', the value as ECMAScript's Number.prototype.toString writes it, '\\n'; UTF-8";

export interface MeterReadings {
  code: string;
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** A set of readings of the pack: the file(s) it is in, its window, its meters. */
export interface ReadingSet {
  /** The pack's file of each meter's readings (a month's one file names every meter). */
  files: { meter: string; file: string }[];
  from: number;
  to: number;
  meters: MeterReadings[];
}

/** One meter's days: the company's date, the count and the SHA-256 of the canonical lines. */
export function meterDays(meter: MeterReadings, from: number, to: number, zone: string) {
  const offsets = new Map<number, number>();
  const order = Array.from({ length: meter.times.length }, (_, i) => i).sort((a, b) => meter.times[a] - meter.times[b] || a - b);
  const days: { meter: string; day: string; readings: number; sha256: string }[] = [];
  let current: { day: string; readings: number; hash: ReturnType<typeof createHash> } | undefined;
  const close = () => {
    if (current) days.push({ meter: meter.code, day: current.day, readings: current.readings, sha256: current.hash.digest("hex") });
  };
  for (const i of order) {
    const t = meter.times[i];
    if (t < from || t >= to) continue;
    const hour = Math.floor(t / 3_600_000);
    let offset = offsets.get(hour);
    if (offset === undefined) offsets.set(hour, (offset = zoneOffsetMs(hour * 3_600_000, zone)));
    const day = new Date(t + offset).toISOString().slice(0, 10);
    if (current?.day !== day) {
      close();
      current = { day, readings: 0, hash: createHash("sha256") };
    }
    current.readings++;
    current.hash.update(`${new Date(t).toISOString()};${meter.values[i]}\n`);
  }
  close();
  return days;
}

/** readings-days.json of the pack's reading sets. */
export function readingDaysFile(sets: readonly ReadingSet[], zone: string): Uint8Array {
  const start = sets.length > 0 ? Math.min(...sets.map((s) => s.from)) : Date.now();
  const body = {
    canonical: CANONICAL,
    time_zone: zone,
    // For a verifier's Python without the zone database (Windows): the zone's offset, fixed in Russia since 2014.
    utc_offset_minutes: Math.round(zoneOffsetMs(start, zone) / 60_000),
    sets: sets.map((set) => ({
      files: set.files,
      from: new Date(set.from).toISOString(),
      to: new Date(set.to).toISOString(),
      days: set.meters.flatMap((meter) => meterDays(meter, set.from, set.to, zone)),
    })),
  };
  return new TextEncoder().encode(`${JSON.stringify(body, null, 1)}\n`);
}

/** An accepted month's readings file (`code;ISO instant;value` a line) as meters. */
export function metersOfEvidence(csv: Uint8Array): MeterReadings[] {
  const byCode = new Map<string, { times: number[]; values: number[] }>();
  for (const line of new TextDecoder().decode(csv).split("\n")) {
    const [code, time, value] = line.split(";");
    if (value === undefined) continue;
    let meter = byCode.get(code);
    if (!meter) byCode.set(code, (meter = { times: [], values: [] }));
    meter.times.push(Date.parse(time));
    meter.values.push(Number(value));
  }
  return [...byCode].map(([code, m]) => ({ code, times: m.times, values: m.values }));
}
