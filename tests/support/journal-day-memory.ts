// The day of journal-day.ts on the in-memory repositories (the unit tests of the operator's journal and
// of the gassing book): a company's mine with the day's sensors and readings applied.
import { memoryDomain, type MemoryDomain } from "./memory-domain";
import { JOURNAL_CODES, JOURNAL_SENSORS, readingsOf } from "./journal-day";
import { pointCreateSchema } from "@server/contract/schemas/facility";
import { sensorCreateSchema } from "@server/contract/schemas/sensor";
import { parseWith } from "@server/http/validate";
import { createPoint } from "@server/domain/company/emission-points";
import type { Actor } from "@server/domain/context";
import { drainTelemetry } from "@server/domain/monitoring/minutes/consumer";
import { telemetryIdle } from "@server/domain/monitoring/live/forecaster";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { createSensor } from "@server/domain/monitoring/ingest/register";

export async function journalDayOnMemory(company: string, mine: string): Promise<{ d: MemoryDomain; staff: Actor; facility: string }> {
  const d = await memoryDomain();
  const staff = await d.actor(company);
  const facility = (await d.facility(staff, { name: mine, kind: "underground_mine" })).id;
  await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Вентиляционный ствол", kind: "ventilation_shaft" })),
  );
  for (const body of JOURNAL_SENSORS()) await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
  for (const code of JOURNAL_CODES) await storeBatch(d.deps, staff.company, facility, { json: { readings: readingsOf(code) } });
  void drainTelemetry(d.deps);
  await telemetryIdle(d.deps);
  return { d, staff, facility };
}
