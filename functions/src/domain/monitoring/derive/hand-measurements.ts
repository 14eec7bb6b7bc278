// D105: the ВТБ section's hand measurements — instrument and its number, place, working, the nearest fixed
// meter, value, time, who — a journal of their own, entered on a phone on the route and never edited (a
// correction is a new record naming the one it corrects). A measurement within 10 minutes [A] of a minute
// of its fixed meter that differs from it by more than the meter's permitted error (±0,2 % abs below 2,5 %
// [A]) opens a `suspect` event on the meter (reason `hand`, derive/suspect.ts): its minutes «под сомнением»
// from the measurement to the meter's next passed check (D94), which closes the event.
import { isoDateIn, zoneOf } from "@core/company-clock";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { minuteMeans } from "@core/monitoring";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, invalidAt } from "../../errors";
import { newId } from "../../ids";
import { initialsByEmail } from "../../person-name";
import { getFacility } from "../../company/facilities";
import type { HandMeasurement } from "../../../ports";
import { LIMITS } from "../../../contract/schemas/limits";
import {
  HAND_INSTRUMENTS,
  type HandMeasurementList,
  type HandMeasurementView,
  type HandMeasurementsDocument,
  type cutoffPeriodQuery,
  type handMeasurementCreateSchema,
} from "../../../contract/schemas/readings-audit";
import { registerAt } from "../ingest/register";
import { readingsBetween } from "../ingest/stored-readings";
import { suspectEvent, writeSuspect } from "./suspect";
import { periodOf } from "./cutoff-audit";
import { instantOfTyped } from "../instruments/sensor-checks";

const { handWindowMinutes, handPermittedPct, handComparedBelowPct, handFutureGraceMinutes } = LIMITS.readingsAudit;
const pct = (v: number) => `${v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
export const HAND_TITLE = "Журнал ручных замеров метана";

/** The fixed meter's minute mean nearest `at` within the window [A], from its minute means around it. */
export function nearestMinute(series: { start: number; values: ArrayLike<number> }, at: number): { at: number; value: number } | null {
  const own = Math.floor(at / MINUTE_MS) * MINUTE_MS;
  let best: { at: number; value: number } | null = null;
  for (let m = 0; m < series.values.length; m++) {
    const v = series.values[m];
    if (Number.isNaN(v)) continue;
    const t = series.start + m * MINUTE_MS;
    if (Math.abs(t - own) > handWindowMinutes * MINUTE_MS) continue;
    if (!best || Math.abs(t - own) < Math.abs(best.at - own)) best = { at: t, value: v };
  }
  return best;
}

/** D105's comparison: a meter reading below 2,5 % [A] is compared with ±0,2 % abs [A]; above, not compared. */
export function comparedWith(hand: number, meter: { at: number; value: number } | null): HandMeasurement["compared"] {
  if (!meter || meter.value >= handComparedBelowPct) return null;
  const difference = Math.round((hand - meter.value) * 1e6) / 1e6;
  return {
    meter_pct: meter.value,
    at: new Date(meter.at).toISOString(),
    differs: Math.abs(difference) > handPermittedPct + 1e-9,
    permitted_pct: handPermittedPct,
  };
}

/** «расходится с датчиком М-1 (0,60 %) на 0,70 % при допуске ±0,20 %» and the like. */
export function comparisonText(m: Pick<HandMeasurement, "value_pct" | "compared" | "sensor_code">): string {
  const c = m.compared;
  if (!c)
    return `не сравнивался: нет показания датчика ${m.sensor_code} в пределах ${handWindowMinutes} мин или оно не ниже ${pct(handComparedBelowPct)}`;
  const by = Math.abs(m.value_pct - c.meter_pct);
  return c.differs
    ? `расходится с датчиком ${m.sensor_code} (${pct(c.meter_pct)}) на ${pct(by)} при допуске ±${pct(c.permitted_pct)}`
    : `совпадает с датчиком ${m.sensor_code} (${pct(c.meter_pct)}) в пределах ±${pct(c.permitted_pct)}`;
}

export function handView(m: HandMeasurement, nameOf: (email: string) => string, correctedBy: string | null): HandMeasurementView {
  return {
    id: m.id,
    facility: m.facility,
    instrument: m.instrument,
    instrument_number: m.instrument_number,
    place: m.place,
    working: m.working,
    sensor: m.sensor,
    sensor_code: m.sensor_code,
    value_pct: m.value_pct,
    measured_at: m.measured_at,
    corrects: m.corrects,
    corrected_by: correctedBy,
    comment: m.comment,
    recorded_by: nameOf(m.created_by),
    recorded_at: m.created_at,
    compared: m.compared
      ? {
          meter_pct: m.compared.meter_pct,
          at: m.compared.at,
          difference_pct: Math.round((m.value_pct - m.compared.meter_pct) * 1e6) / 1e6,
          permitted_pct: m.compared.permitted_pct,
          differs: m.compared.differs,
        }
      : null,
    text: comparisonText(m),
  };
}

const correctorOf = (all: readonly HandMeasurement[], id: string) => all.find((m) => m.corrects === id)?.id ?? null;

/** The suspect event's words: «ручной замер ШИ-11 № 1234: 1,30 %, датчик 0,60 % (допуск ±0,20 %)». */
const suspectText = (m: HandMeasurement) =>
  `ручной замер ${m.instrument} № ${m.instrument_number}: ${pct(m.value_pct)}, датчик ${pct(m.compared!.meter_pct)} (допуск ±${pct(m.compared!.permitted_pct)})`;

/** The meter's first passed check at or after `from` (ms), or null: where a hand event's doubt ends. */
async function nextPassedCheck(deps: Pick<Deps, "repos">, m: HandMeasurement, from: number): Promise<number | null> {
  const checks = await deps.repos.sensorChecks.listOfFacility(m.company, m.facility, from - DAY_MS);
  const passed = checks
    .filter((c) => c.sensor === m.sensor && c.result === "passed" && Date.parse(c.at) >= from)
    .map((c) => Date.parse(c.at))
    .sort((a, b) => a - b);
  return passed[0] ?? null;
}

/** A person of the ВТБ section records a hand measurement beside a fixed meter of the facility. */
export async function recordHandMeasurement(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  input: z.output<typeof handMeasurementCreateSchema>,
): Promise<HandMeasurementView> {
  if (actor.role === "reviewer") throw new Forbidden("Недостаточно прав: замеры записывают сотрудники площадки, не проверяющий");
  const facility = await getFacility(deps, actor, facilityId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const now = deps.clock.now().getTime();
  const range = HAND_INSTRUMENTS[input.instrument];
  if (input.value_pct > range.max_pct)
    throw invalidAt("value_pct", `вне диапазона прибора ${input.instrument}: 0–${range.max_pct.toLocaleString("ru-RU")} %`);
  const at = instantOfTyped(input.measured_at, zone);
  if (Number.isNaN(at)) throw invalidAt("measured_at", "нет такого времени");
  if (at > now + handFutureGraceMinutes * MINUTE_MS) throw invalidAt("measured_at", "время замера еще не наступило");
  const sensor = await deps.repos.sensors.get(actor.company, facility.id, input.sensor);
  if (!sensor) throw invalidAt("sensor", "датчик не этой площадки: выберите стационарный датчик метана шахты");
  const register = registerAt(sensor, at);
  if (register.kind !== "methane" && register.kind !== "methane_high")
    throw invalidAt("sensor", "ручной замер метана сравнивается с датчиком метана");
  let corrected: HandMeasurement | undefined;
  const written = await deps.repos.readingsAudit.handMeasurementsOfFacility(actor.company, facility.id);
  if (input.corrects) {
    corrected = written.find((m) => m.id === input.corrects);
    if (!corrected) throw invalidAt("corrects", "исправляемый замер этой площадки не найден");
    if (correctorOf(written, corrected.id)) throw new Conflict("Этот замер уже исправили: исправление следует за последней записью");
  }
  const window = handWindowMinutes * MINUTE_MS;
  const from = Math.floor(at / MINUTE_MS) * MINUTE_MS - window;
  const minutes = Math.round((2 * window) / MINUTE_MS) + 1;
  const { times, values } = await readingsBetween(deps, actor.company, sensor, from, from + minutes * MINUTE_MS);
  const series = minuteMeans(register.kind, times, values, from, minutes);
  const record: HandMeasurement = {
    company: actor.company,
    facility: facility.id,
    id: newId(),
    instrument: input.instrument,
    instrument_number: input.instrument_number,
    place: input.place,
    working: input.working ?? register.working,
    sensor: sensor.id,
    sensor_code: register.code,
    value_pct: input.value_pct,
    measured_at: new Date(at).toISOString(),
    corrects: corrected?.id ?? null,
    comment: input.comment ?? "",
    created_by: actor.email,
    created_at: new Date(now).toISOString(),
    compared: comparedWith(input.value_pct, nearestMinute(series, at)),
  };
  await deps.repos.readingsAudit.createHandMeasurement(record);
  // A correction takes back the event its record opened while nobody answered it (an answered one is the person's).
  if (corrected?.compared?.differs) {
    const event = suspectEvent(handFinding(corrected, null));
    const stored = await deps.repos.sensorEvents.get(actor.company, facility.id, event.id, event.start);
    if (stored && !stored.acknowledged_at) await deps.repos.sensorEvents.remove(stored, stored.version);
  }
  if (record.compared?.differs) await writeSuspect(deps, handFinding(record, await nextPassedCheck(deps, record, at)));
  return handView(record, await initialsByEmail(deps.repos, actor.company), null);
}

const handFinding = (m: HandMeasurement, end: number | null) => {
  const start = Math.floor(Date.parse(m.measured_at) / MINUTE_MS) * MINUTE_MS;
  return {
    company: m.company,
    facility: m.facility,
    sensor: m.sensor,
    reason: "hand" as const,
    start,
    end,
    minutes: end === null ? 0 : Math.max(0, Math.round((end - start) / MINUTE_MS)),
    text: suspectText(m),
    asks_hand_measurement: false,
  };
};

/** The facility's hand measurements made in a period of company days, newest first. */
export async function listHandMeasurements(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: z.output<typeof cutoffPeriodQuery>,
): Promise<HandMeasurementList> {
  const facility = await getFacility(deps, actor, facilityId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const { from, to } = periodOf(query, isoDateIn(deps.clock.now(), zone));
  const written = await deps.repos.readingsAudit.handMeasurementsOfFacility(actor.company, facility.id, Date.parse(from) - DAY_MS);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const results = written
    .filter((m) => {
      const day = isoDateIn(new Date(m.measured_at), zone);
      return day >= from && day <= to;
    })
    .sort((a, b) => b.measured_at.localeCompare(a.measured_at) || b.id.localeCompare(a.id))
    .map((m) => handView(m, nameOf, correctorOf(written, m.id)));
  return { facility: facility.id, facility_name: facility.name, from, to, results };
}

/** The journal of a period as the xlsx and the PDF print it, oldest first. */
export async function handMeasurementsDocument(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: z.output<typeof cutoffPeriodQuery>,
): Promise<HandMeasurementsDocument> {
  const list = await listHandMeasurements(deps, actor, facilityId, query);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  return { ...list, results: [...list.results].reverse(), zone, issued_at: deps.clock.now().toISOString() };
}
