// What the instruments' documents are made of — the «Метан» maintenance journal of a period (its checks
// with the sensors' places) and the sensor register with each sensor's latest verification and its checks'
// state (the shift handovers' document is handover/handovers-document.ts). Read here (storage reads of at
// most 92 days of records); rendered by the spreadsheet worker (export/instruments.ts), in a heavy-work slot.
import { isoDateIn } from "@core/company-clock";
import { SENSOR_PLACES, type SensorPlace } from "@core/sensor-places";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { getFacility } from "../../company/facilities";
import type { ChecksDocument, SensorRegisterDocument, sensorCheckPeriodQuery } from "../../../contract/schemas/sensor-checks";
import { registerAt } from "../ingest/register";
import { listChecks } from "./sensor-checks";
import { checkStates, NO_RULES_SOURCE } from "./check-states";
import { verificationsInForce } from "@core/sensor-checks";
import { facilityShifts } from "./shifts";

/** The documents' titles: their files' names and first lines. */
export const CHECKS_TITLE = "Журнал эксплуатации и обслуживания датчиков метана";
export const REGISTER_TITLE = "Реестр датчиков и поверка";

type Period = z.output<typeof sensorCheckPeriodQuery>;

const placeText = (place: string) => SENSOR_PLACES[place as SensorPlace] ?? "";

/** The «Метан» journal of a period: the facility's checks (oldest first, as a journal is written) with their sensors' places. */
export async function checksDocument(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: Period,
): Promise<ChecksDocument> {
  const list = await listChecks(deps, actor, facilityId, undefined, query);
  const [sensors, shifts] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, list.facility),
    facilityShifts(deps, actor.company, list.facility),
  ]);
  const now = deps.clock.now().getTime();
  const where: ChecksDocument["sensors"] = {};
  for (const s of sensors) {
    const register = registerAt(s, now);
    where[s.id] = { working: register.working, place: placeText(register.place) };
  }
  return { ...list, results: [...list.results].reverse(), sensors: where, zone: shifts.zone, issued_at: deps.clock.now().toISOString() };
}

/** The sensors in service now with their latest verification (recorded by today) and their checks' state. */
export async function registerDocument(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
): Promise<SensorRegisterDocument> {
  const facility = await getFacility(deps, actor, facilityId);
  const now = deps.clock.now().getTime();
  const [sensors, shifts, verifications] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, facility.id),
    facilityShifts(deps, actor.company, facility.id),
    deps.repos.sensorChecks.verificationsOfFacility(actor.company, facility.id),
  ]);
  const { states, intervals } = await checkStates(deps, actor.company, facility.id, now, sensors);
  const today = isoDateIn(new Date(now), shifts.zone);
  const byId = new Map(sensors.map((s) => [s.id, s]));
  const rows = states.map((state) => {
    const sensor = byId.get(state.sensor);
    const latest = verificationsInForce(verifications)
      .filter((v) => v.sensor === state.sensor && v.verified_on <= today)
      .sort((a, b) => b.verified_on.localeCompare(a.verified_on) || b.recorded_at.localeCompare(a.recorded_at))[0];
    return {
      code: state.code,
      kind: SENSOR_KINDS[state.kind as SensorKind]?.label ?? state.kind,
      working: state.working,
      place: sensor ? placeText(registerAt(sensor, now).place) : "",
      instrument_type: latest?.instrument_type ?? null,
      register_number: latest?.register_number ?? null,
      serial: latest?.serial ?? null,
      verified_on: latest?.verified_on ?? null,
      valid_to: latest?.valid_to ?? null,
      certificate: latest?.certificate ?? null,
      verification: state.verification,
      rule: state.rule,
      last_check: state.last_check?.at ?? null,
      last_result: state.last_check ? (state.last_check.result === "passed" ? "прошел" : "не прошел") : null,
      next_due: state.next_due,
      overdue_days: state.overdue_days,
    };
  });
  return {
    facility_name: facility.name,
    zone: shifts.zone,
    issued_at: new Date(now).toISOString(),
    rules_source: intervals?.source ?? NO_RULES_SOURCE,
    rows,
  };
}
