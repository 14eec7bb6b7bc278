// A company's facility at the limits table's maxima (LIMITS, functions/src/contract/schemas/limits.ts;
// docs/api.md «Limits»), seeded straight through the storage ports where the API would take minutes:
// its register filled to LIMITS.monitoring.sensorsPerFacility, one open «нет данных» (a stale event,
// D65) a sensor — a facility of that many silent meters, which the events list pages through
// (LIMITS.monitoring.eventsPage) —, a year of packed minute days (SensorDay, compacted as a closed
// day is: domain/monitoring/minutes) for a few meters, a year of shift handovers signed by both (D95;
// one made now by the domain's own handOver, the year before it its copies shift after shift) and one
// verification's certificate scan of LIMITS.sensorChecks.certificateFileBytes (attached by the
// domain, stored in the blob store). Used by the loop budget at the maxima
// (tests/integration/loop-budget-maxima.deep.test.ts, through tests/support/loop-budget.ts) and by the
// bulkhead floods of `npm run bench -- trust-replay`.
//
// A year here is LIMITS.monitoring.offerMonths months (what one acceptance of offers names), back from
// the day before yesterday (UTC): the days written are closed ones, never the open days a test's pushes
// write as minute items. The sensors are written by the repository, outside the facility's cap counter
// (domain/caps.ts): the writes a test measures afterwards (a sensor created, a register's file
// imported) still find room, as they would in a facility a few short of the cap.
import { v7 } from "uuid";
import { LIMITS } from "@server/contract/schemas/limits";
import type { Actor, Deps } from "@server/domain/context";
import type { Handover, SensorEvent } from "@server/ports";
import { newSensor, registerOfInput } from "@server/domain/monitoring/ingest/register";
import { facilityEventId } from "@server/domain/monitoring/derive/events";
import { facilityShifts } from "@server/domain/monitoring/instruments/shifts";
import { handOver, takeOver } from "@server/domain/monitoring/handover/handover";
import { attachCertificateFile, recordVerification } from "@server/domain/monitoring/instruments/verifications";
import { newId } from "@server/domain/ids";
import { pdfBytes } from "./admin";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Writes in flight at once while seeding: the engine's thread takes them one after the other anyway. */
const AT_ONCE = 50;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Runs `work` over `items`, AT_ONCE at a time. */
async function inChunks<T>(items: readonly T[], work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += AT_ONCE) await Promise.all(items.slice(i, i + AT_ONCE).map((item, k) => work(item, i + k)));
}

/** The first UTC day of «a year» back from `now` (LIMITS.monitoring.offerMonths months) and the last day
 *  written, the day before yesterday. */
export function yearOfDays(now: number): string[] {
  const first = new Date(now);
  first.setUTCMonth(first.getUTCMonth() - LIMITS.monitoring.offerMonths);
  const days: string[] = [];
  for (let t = Date.parse(`${utcDay(first.getTime())}T00:00:00Z`); t <= now - 2 * DAY; t += DAY) days.push(utcDay(t));
  return days;
}

/** The facility's register filled to LIMITS.monitoring.sensorsPerFacility with methane meters «П-n» in
 *  workings of 10 (warning 1 %, alarm 2 %): the ids of those written. */
export async function fillRegister(deps: Pick<Deps, "repos" | "clock">, actor: Actor, facility: string): Promise<string[]> {
  const existing = await deps.repos.sensors.listOfFacility(actor.company, facility);
  const count = LIMITS.monitoring.sensorsPerFacility - existing.length;
  const now = deps.clock.now().toISOString();
  const sensors = Array.from({ length: Math.max(0, count) }, (_, i) =>
    newSensor(
      actor,
      facility,
      registerOfInput(
        { code: `П-${i + 1}`, kind: "methane", working: `Лава П-${Math.floor(i / 10) + 1}`, warning: 1, alarm: 2 },
        undefined,
      ),
      now,
    ),
  );
  await inChunks(sensors, (sensor) => deps.repos.sensors.create(sensor));
  return sensors.map((s) => s.id);
}

/** One open «нет данных» (a stale event, D65) for each sensor of the facility's register (its silence
 *  begun within the last 12 hours, a minute apart): how many were written. */
export async function openSilences(deps: Pick<Deps, "repos" | "clock">, company: string, facility: string): Promise<number> {
  const sensors = await deps.repos.sensors.listOfFacility(company, facility);
  const first = Math.floor((deps.clock.now().getTime() - 12 * 3_600_000) / MINUTE) * MINUTE;
  const events: SensorEvent[] = sensors.slice(0, LIMITS.monitoring.sensorsPerFacility).map((sensor, i) => {
    const start = first + (i % 600) * MINUTE;
    return {
      company,
      facility,
      id: facilityEventId(facility, sensor.id, "stale", null, start),
      sensor: sensor.id,
      kind: "stale",
      level: null,
      threshold: null,
      start: new Date(start).toISOString(),
      end: null,
      peak: null,
      peak_at: null,
      minutes_above: 0,
      acknowledged_by: null,
      acknowledged_at: null,
      comment: "",
      version: 0,
    };
  });
  let written = 0;
  await inChunks(events, async (event) => {
    if (await deps.repos.sensorEvents.put(event, 0)) written++;
  });
  return written;
}

/** Meter `s`'s value at minute `m` of day `d`: around 0,4 %, never at its warning. */
const valueAt = (s: number, d: number, m: number) => Math.round((0.4 + 0.2 * Math.sin((m + 13 * s + 7 * d) / 41)) * 1000) / 1000;

/** A year of packed minute days (yearOfDays) of each of `sensors`, a reading a minute, compacted; a day
 *  already stored is left as it is. Answers the days written. */
export async function yearOfMinutes(deps: Pick<Deps, "repos" | "clock">, company: string, sensors: readonly string[]): Promise<number> {
  const days = yearOfDays(deps.clock.now().getTime());
  const offsets = Uint32Array.from({ length: 1440 }, (_, m) => m * MINUTE + 20_000);
  let written = 0;
  for (const [s, sensor] of sensors.entries()) {
    await inChunks(days, async (day, d) => {
      const stored = await deps.repos.monitoring.putDay(
        {
          company,
          sensor,
          day,
          offsets,
          values: Float64Array.from({ length: 1440 }, (_, m) => valueAt(s, d, m)),
          applied: { maxima: [1440, 0, 0] },
          corrections: [],
          compacted: true,
          version: 1,
        },
        0,
      );
      if (stored) written++;
    });
  }
  return written;
}

/** A year of the facility's shift handovers (from yearOfDays' first day), each signed by both: one made
 *  now by the domain (handOver by `by` of the shift running, takeOver by `taker`), so that its lists are
 *  what the register at the maxima gives, and its copies back in time, a handover a shift, from a year
 *  back up to the shift that ends at `until` (ms), each id a UUID v7 of its own handing over (the
 *  listings read from an instant by id). Answers how many were written. */
export async function yearOfHandovers(deps: Deps, by: Actor, taker: Actor, facility: string, until: number): Promise<number> {
  const shifts = await facilityShifts(deps, by.company, facility);
  const made = await handOver(deps, by, facility, { remarks: "Смена сдана без замечаний" });
  await takeOver(deps, taker, facility, made.id);
  const template = (await deps.repos.shiftRecords.getHandover(by.company, facility, made.id))!;
  const firstDay = yearOfDays(deps.clock.now().getTime())[0];
  const copies: Handover[] = [];
  for (
    let key = shifts.at(Date.parse(`${firstDay}T12:00:00Z`));
    shifts.span(shifts.next(key))!.to <= until && copies.length < 10_000;
    key = shifts.next(key)
  ) {
    const handed = shifts.span(key)!.to - 5 * MINUTE;
    copies.push({
      ...template,
      id: v7({ msecs: handed }),
      shift_from: key,
      shift_to: shifts.next(key),
      at: new Date(handed).toISOString(),
      handed_at: new Date(handed).toISOString(),
      taken_at: new Date(handed + 10 * MINUTE).toISOString(),
      remarks: `Смена сдана без замечаний (${copies.length + 1})`,
    });
  }
  await inChunks(copies, (copy) => deps.repos.shiftRecords.createHandover(copy));
  return copies.length + 1;
}

/** A verification of `sensor` recorded by `actor` with a certificate scan of
 *  LIMITS.sensorChecks.certificateFileBytes attached: its id. */
export async function largestCertificate(deps: Deps, actor: Actor, facility: string, sensor: string): Promise<string> {
  const year = new Date(deps.clock.now()).getUTCFullYear() - 1;
  const recorded = await recordVerification(deps, actor, facility, sensor, {
    instrument_type: "ДМС 03",
    register_number: "12345-06",
    serial: "0999",
    verified_on: `${year}-06-01`,
    valid_to: `${year + 1}-05-31`,
    certificate: `С-${newId().slice(-8)}`,
  });
  await attachCertificateFile(deps, actor, facility, sensor, recorded.id, {
    name: "свидетельство.pdf",
    bytes: pdfBytes(LIMITS.sensorChecks.certificateFileBytes, "maxima"),
  });
  return recorded.id;
}

/** What seedMaxima wrote, and how long each part took (ms). */
export interface Maxima {
  /** The facility's sensors in all, and those written here. */
  sensors: number;
  written: number;
  /** Open «нет данных» written. */
  silences: number;
  /** Minute days written, of `meters` meters. */
  days: number;
  meters: number;
  handovers: number;
  /** The verification with the largest scan, and its sensor. */
  certificate: { sensor: string; verification: string; bytes: number };
  took: Record<"register" | "silences" | "minutes" | "handovers" | "certificate" | "all", number>;
}

/** The facility at the maxima: its register full, a silence open for each sensor, a year of minutes of
 *  `yearMeters`, a year of handovers (made by `by`, taken over by `taker`) up to `handoversUntil`, and the
 *  largest certificate scan on `yearMeters[0]`. */
export async function seedMaxima(
  deps: Deps,
  at: { by: Actor; taker: Actor; facility: string; yearMeters: readonly string[]; handoversUntil: number },
): Promise<Maxima> {
  const took = { register: 0, silences: 0, minutes: 0, handovers: 0, certificate: 0, all: 0 };
  const start = performance.now();
  let mark = start;
  const lap = (part: keyof typeof took) => {
    const now = performance.now();
    took[part] = Math.round(now - mark);
    mark = now;
  };
  const written = await fillRegister(deps, at.by, at.facility);
  lap("register");
  const silences = await openSilences(deps, at.by.company, at.facility);
  lap("silences");
  const days = await yearOfMinutes(deps, at.by.company, at.yearMeters);
  lap("minutes");
  const handovers = await yearOfHandovers(deps, at.by, at.taker, at.facility, at.handoversUntil);
  lap("handovers");
  const verification = await largestCertificate(deps, at.by, at.facility, at.yearMeters[0]);
  lap("certificate");
  took.all = Math.round(performance.now() - start);
  const sensors = (await deps.repos.sensors.listOfFacility(at.by.company, at.facility)).length;
  return {
    sensors,
    written: written.length,
    silences,
    days,
    meters: at.yearMeters.length,
    handovers,
    certificate: { sensor: at.yearMeters[0], verification, bytes: LIMITS.sensorChecks.certificateFileBytes },
    took,
  };
}

/** seedMaxima's figures as a line. */
export const maximaLine = (m: Maxima) =>
  `${m.sensors} sensors (${m.written} written, ${m.took.register} ms), ${m.silences} open «нет данных» (${m.took.silences} ms), ` +
  `${m.days} minute days of ${m.meters} meters (${m.took.minutes} ms), ${m.handovers} handovers (${m.took.handovers} ms), ` +
  `a certificate scan of ${(m.certificate.bytes / 1048576).toFixed(0)} MB (${m.took.certificate} ms); ${(m.took.all / 1000).toFixed(1)} s in all`;
