// The day of journal-day.ts on the in-memory repositories (the unit tests of the operator's journal and
// of the gassing book): a company's mine with the day's sensors and readings applied, on a clock at which
// the day is still open (its readings in the facility's minute items) or long closed (in the sensors' day
// items).
import { clockAt, memoryDomain, type MemoryDomain } from "./memory-domain";
import { JOURNAL_CODES, JOURNAL_SENSORS, readingsOf } from "./journal-day";
import { pointCreateSchema } from "@server/contract/schemas/facility";
import { sensorCreateSchema } from "@server/contract/schemas/sensor";
import { parseWith } from "@server/http/validate";
import { createPoint } from "@server/domain/company/emission-points";
import type { Actor } from "@server/domain/context";
import type { Clock } from "@server/ports";
import { drainReadings } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { createSensor } from "@server/domain/monitoring/ingest/register";

/** 06:30 of 03.03.2026 at UTC+7: the day is over on the company's clock, its UTC days still take minutes. */
export const JOURNAL_DAY_OPEN = clockAt("2026-03-02T23:30:00Z");
/** Months later: the day's readings are in the sensors' day items. */
export const JOURNAL_DAY_CLOSED = clockAt("2026-11-16T03:00:00Z");

export async function journalDayOnMemory(
  company: string,
  mine: string,
  clock: Clock,
): Promise<{ d: MemoryDomain; staff: Actor; facility: string }> {
  const d = await memoryDomain(clock);
  const staff = await d.actor(company);
  const facility = (await d.facility(staff, { name: mine, kind: "underground_mine" })).id;
  await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Вентиляционный ствол", kind: "ventilation_shaft" })),
  );
  for (const body of JOURNAL_SENSORS()) await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
  for (const code of JOURNAL_CODES) await storeBatch(d.deps, staff.company, facility, { json: { readings: readingsOf(code) } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  return { d, staff, facility };
}
