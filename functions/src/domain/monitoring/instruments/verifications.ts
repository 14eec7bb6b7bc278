// Issue 118, item 3 (D94): a sensor's state verification (поверка) as a measuring instrument — its type,
// the type's number in the state register of measuring instruments, the serial, the day verified, valid to
// and the certificate's (record's) number. Written once by the facility's staff (a reviewer writes none);
// a correction is a newer record. A sensor is out of verification from the day after its latest
// verification's `valid_to` until a next one; its minutes then are «показания под сомнением» (D94), and
// every screen and document that names the sensor's state says «вне поверки с ДД.ММ.ГГГГ». The law that
// requires verification (102-ФЗ «Об обеспечении единства измерений») is cited, its text not read here.
import { isoDateIn, zoneOf } from "@core/company-clock";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Forbidden, invalidAt } from "../../errors";
import { newId } from "../../ids";
import { initialsByEmail } from "../../person-name";
import { getOfFacility } from "../../company/facilities";
import type { SensorVerification } from "../../../ports";
import type { verificationCreateSchema, VerificationList, VerificationView } from "../../../contract/schemas/sensor-checks";
import { REVIEWER_SIGNS_NOTHING, SENSOR_MISSING } from "./sensor-checks";

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export interface VerificationState {
  state: "valid" | "expired" | "none";
  /** «поверен до 31.12.2026», «вне поверки с 10.03.2026», «поверка не записана». */
  text: string;
  /** The first day out of verification (expired), else null. */
  out_from: string | null;
}

/** The state of a sensor's verification on a company day, from its records (any order). */
export function verificationOn(records: readonly Pick<SensorVerification, "verified_on" | "valid_to">[], day: string): VerificationState {
  const held = records.filter((r) => r.verified_on <= day).sort((a, b) => b.verified_on.localeCompare(a.verified_on))[0];
  if (!held) return { state: "none", text: "поверка не записана", out_from: null };
  if (day > held.valid_to)
    return { state: "expired", text: `вне поверки с ${ddmmyyyy(dayAfter(held.valid_to))}`, out_from: dayAfter(held.valid_to) };
  return { state: "valid", text: `поверен до ${ddmmyyyy(held.valid_to)}`, out_from: null };
}

const view = (r: SensorVerification, nameOf: (email: string) => string): VerificationView => ({
  id: r.id,
  sensor: r.sensor,
  instrument_type: r.instrument_type,
  register_number: r.register_number,
  serial: r.serial,
  verified_on: r.verified_on,
  valid_to: r.valid_to,
  certificate: r.certificate,
  recorded_by: nameOf(r.recorded_by),
  recorded_at: r.recorded_at,
});

/** The sensor's verifications, newest first, with its state today. */
export async function listVerifications(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
): Promise<VerificationList> {
  const sensor = await getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, SENSOR_MISSING);
  const records = (await deps.repos.sensorChecks.verificationsOfFacility(actor.company, facilityId)).filter((r) => r.sensor === sensor.id);
  const today = isoDateIn(deps.clock.now(), zoneOf(await deps.repos.companies.get(actor.company)));
  const state = verificationOn(records, today);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  return { sensor: sensor.id, code: sensor.code, state: state.state, state_text: state.text, results: records.map((r) => view(r, nameOf)) };
}

/** The facility's staff record a verification of `sensor`; never edited after. */
export async function recordVerification(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  input: z.output<typeof verificationCreateSchema>,
): Promise<VerificationView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  const sensor = await getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, SENSOR_MISSING);
  // A record of a verification that took place: one dated after today would cover minutes nobody verified.
  const today = isoDateIn(deps.clock.now(), zoneOf(await deps.repos.companies.get(actor.company)));
  if (input.verified_on > today)
    throw invalidAt("verified_on", `дата поверки позже сегодняшней (${ddmmyyyy(today)}): записывают поверку, которая прошла`);
  const record: SensorVerification = {
    company: actor.company,
    facility: facilityId,
    sensor: sensor.id,
    id: newId(),
    ...input,
    recorded_by: actor.email,
    recorded_at: deps.clock.now().toISOString(),
  };
  // Written once: the same verification sent again (a double press, a retry) is the one written.
  return view(await deps.repos.sensorChecks.createVerification(record), await initialsByEmail(deps.repos, actor.company));
}
