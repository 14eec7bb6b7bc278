// D56: a facility's sensor register — each sensor of the mine's АГК with its code, kind, role, emission
// point, working, levels W/A, cross-section, flow conditions and dates in service — and the gateway
// keys a dispatch gateway pushes readings with. Every change goes to the company's change log, and
// the sensor keeps its register as it was, change by change, so a reading is read with the entry that
// held at its time. Sensors are retired, never deleted: their readings and history stay.
import { createHash, randomBytes } from "node:crypto";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { SENSOR_KINDS, levelProblem } from "@core/monitoring";
import { ownPlace, placeMeasures, POINT_KIND_PLACES, SENSOR_PLACES } from "@core/sensor-places";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid, invalidAt, NotFound } from "../../errors";
import { newId } from "../../ids";
import { takePlace, withPlace } from "../../caps";
import { facilityPlace, getFacility, getOfFacility, listOfFacility, recordFacilityChange } from "../../company/facilities";
import type { EmissionPoint, GatewayKey, Sensor, SensorCodeClaim } from "../../../ports";
import {
  NORM_PLACE_NOT_OTHER,
  type GatewayKeyCreateInput,
  type SensorCreateInput,
  type SensorPatchInput,
} from "../../../contract/schemas/sensor";
import { LIMITS, MAX_GATEWAY_KEYS_PER_FACILITY, MAX_SENSOR_REVISIONS, MAX_SENSORS_PER_FACILITY } from "../../../contract/schemas/limits";

type Revision = Sensor["revisions"][number];
type Register = Omit<Revision, "valid_from">;

/** The first entry holds from the beginning: a file of last year's readings is read with it. */
export const REGISTER_FROM_THE_START = "1970-01-01T00:00:00.000Z";
export const SENSOR_CONFLICT = "Датчик был изменен другим пользователем. Обновите страницу и повторите.";
export const GATEWAY_KEY_PREFIX = "agk_";
export const GATEWAY_KEYS_FORBIDDEN = "Недостаточно прав: ключи шлюза создают и отзывают сотрудники площадки, не проверяющий";

const REGISTER_FIELDS = [
  "code",
  "kind",
  "point",
  "role",
  "working",
  "section",
  "place",
  "norm_place",
  "airflow_order",
  "fresh_air_joins",
  "warning",
  "alarm",
  "area_m2",
  "conditions",
  "in_service_from",
  "in_service_to",
] as const satisfies readonly (keyof Register)[];

/** What a field kept before it was added reads as: `norm_place` and `airflow_order` (D103)
 *  null, `fresh_air_joins` false. */
const ADDED_LATER: Partial<Record<(typeof REGISTER_FIELDS)[number], unknown>> = {
  norm_place: null,
  airflow_order: null,
  fresh_air_joins: false,
};

/** A register's fields, those added later at their defaults where an older entry has none. */
const registerOf = (s: Register): Register =>
  Object.fromEntries(
    REGISTER_FIELDS.map((field) => [field, s[field] ?? (field in ADDED_LATER ? ADDED_LATER[field] : s[field])]),
  ) as unknown as Register;

/** The register entry that held at `instant` (ISO or ms): the last whose valid_from is not after it. */
export function registerAt(sensor: Pick<Sensor, "revisions">, instant: string | number): Register {
  const at = typeof instant === "number" ? instant : Date.parse(instant);
  let found = sensor.revisions[0];
  for (const revision of sensor.revisions) if (Date.parse(revision.valid_from) <= at) found = revision;
  const { valid_from: _from, ...register } = found;
  return register;
}

export async function logSensor(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Pick<Actor, "id" | "email">,
  facilityName: string,
  action: string,
  before: Sensor | null,
  after: Sensor,
) {
  const points = new Map((await deps.repos.emissionPoints.listOfFacility(after.company, after.facility)).map((p) => [p.id, p.name]));
  /** What the change log keeps of a sensor: its register with its point's name and whether it is in
   *  service, not its revisions. */
  const registerView = (s: Sensor) => ({ ...registerOf(s), point_name: (s.point && points.get(s.point)) ?? "", is_active: s.is_active });
  await recordFacilityChange(
    deps,
    actor,
    facilityName,
    { ...after, label: after.code },
    {
      action,
      target_type: "sensor",
      before: before ? registerView(before) : null,
      after: registerView(after),
    },
  );
}

export const listSensors = (deps: Deps, actor: Actor, facilityId: string): Promise<Sensor[]> =>
  listOfFacility(deps, actor, facilityId, deps.repos.sensors);

export const getSensor = (deps: Deps, actor: Actor, facilityId: string, sensorId: string): Promise<Sensor> =>
  getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, "Датчик не найден");

/** a channel measures a point only from the point's own place (a face meter never measures
 *  the ventilation shaft). */
export function placeProblem(register: Pick<Register, "place">, point: Pick<EmissionPoint, "name" | "kind">): string | undefined {
  if (placeMeasures(register.place, point.kind)) return undefined;
  const own = POINT_KIND_PLACES[point.kind].map((p) => `«${SENSOR_PLACES[p]}»`).join(", ");
  return `датчик места «${SENSOR_PLACES[register.place]}» не измеряет источник «${point.name}»: его измеряют датчики мест ${own}; оставьте источник пустым`;
}

async function checkedRegister(deps: Deps, actor: Actor, facilityId: string, register: Register, self?: string): Promise<void> {
  if (register.point !== null) {
    const point = await deps.repos.emissionPoints.get(actor.company, facilityId, register.point);
    if (!point) throw invalidAt("point", "источник выбросов не найден среди источников площадки");
    const problem = placeProblem(register, point);
    if (problem) throw invalidAt("place", problem);
  }
  const twin = (await deps.repos.sensors.listOfFacility(actor.company, facilityId)).find(
    (s) => s.id !== self && s.is_active && s.code.toLocaleLowerCase("ru") === register.code.toLocaleLowerCase("ru"),
  );
  if (twin) throw invalidAt("code", `у площадки уже есть датчик «${twin.code}»`);
  // D87: a row is named only for a meter at «другое место».
  if (register.norm_place && register.place !== "other") throw invalidAt("norm_place", NORM_PLACE_NOT_OTHER);
  if (register.kind === "air_velocity" && !(register.area_m2 && register.area_m2 > 0)) {
    throw invalidAt("area_m2", "для анемометра укажите площадь сечения выработки, м²");
  }
  for (const level of ["warning", "alarm"] as const) {
    const value = register[level];
    const problem = value === null ? undefined : levelProblem(register.kind, value);
    if (problem) throw invalidAt(level, problem);
  }
  if (register.warning !== null && register.alarm !== null && register.alarm < register.warning) {
    throw invalidAt("alarm", "аварийный уровень ниже предупредительного");
  }
  if (register.in_service_from && register.in_service_to && register.in_service_to < register.in_service_from) {
    throw invalidAt("in_service_to", "дата вывода из эксплуатации раньше даты ввода");
  }
}

/** A new sensor's register from its body: what it leaves out takes the register's defaults (a channel
 *  of a point at the point's own place, else «other»). */
export function registerOfInput(input: SensorCreateInput, point: Pick<EmissionPoint, "kind"> | undefined): Register {
  return {
    code: input.code,
    kind: input.kind,
    point: input.point ?? null,
    role: input.role ?? "recording",
    working: input.working ?? "",
    section: input.section ?? "",
    place: input.place ?? (point ? ownPlace(input.kind, point.kind) : "other"),
    norm_place: input.norm_place ?? null,
    airflow_order: input.airflow_order ?? null,
    fresh_air_joins: input.fresh_air_joins ?? false,
    warning: input.warning ?? null,
    alarm: input.alarm ?? null,
    area_m2: input.area_m2 ?? null,
    conditions: input.conditions ?? "standard",
    in_service_from: input.in_service_from ?? null,
    in_service_to: input.in_service_to ?? null,
  };
}

/** A new sensor of the facility with `register`, its first entry holding from the start. */
export function newSensor(actor: Actor, facilityId: string, register: Register, now: string): Sensor {
  return {
    id: newId(),
    company: actor.company,
    facility: facilityId,
    ...register,
    is_active: true,
    revisions: [{ ...register, valid_from: REGISTER_FROM_THE_START }],
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

const sensorPlace = (deps: Deps, actor: Actor, facilityId: string, amount?: number) =>
  facilityPlace(
    actor,
    facilityId,
    deps.repos.sensors,
    {
      name: "SENSORS",
      limit: MAX_SENSORS_PER_FACILITY,
      refusal: `У площадки уже ${MAX_SENSORS_PER_FACILITY} датчиков: измените ненужные вместо новых`,
    },
    amount,
  );

/** Takes room for `amount` new sensors under the facility's cap, or refuses in words. */
export async function takeSensorRoom(deps: Deps, actor: Actor, facilityId: string, amount = 1): Promise<() => Promise<void>> {
  return takePlace(deps, actor.company, sensorPlace(deps, actor, facilityId, amount));
}

/** A claim on a code its request never gave back (a process killed mid-way) is taken over after this. */
const CODE_CLAIM_STALE_MS = 10 * 60_000;

/** A code as the register compares codes: «DUP-1» and «dup-1» are one. */
export const codeKey = (code: string) => code.toLocaleLowerCase("ru");

/** `work` run while the request holds each of `codes` in the facility's register (a
 *  conditional write each, as a month's acceptance holds its month, offers.ts), so it checks that no
 *  sensor in service has one and stores its sensor with no other request doing the same meanwhile: ten
 *  creates of one code at once store one sensor, the others are refused. The claims are given back when
 *  it ends, however it ends. */
export async function withCodes<T>(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  codes: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  const token = newId();
  const staleBefore = new Date(now.getTime() - CODE_CLAIM_STALE_MS).toISOString();
  const claimed: SensorCodeClaim[] = [];
  try {
    for (const code of [...new Set(codes.map(codeKey))].sort()) {
      const claim = { company: actor.company, facility: facilityId, code, token, at: now.toISOString() };
      if (!(await deps.repos.sensors.claimCode(claim, staleBefore))) {
        const shown = codes.find((c) => codeKey(c) === code) ?? code;
        throw new Conflict(`Датчик «${shown}» сейчас заводят в другом запросе: обновите список датчиков`);
      }
      claimed.push(claim);
    }
    return await work();
  } finally {
    await Promise.all(claimed.map((claim) => deps.repos.sensors.releaseCode(claim)));
  }
}

export async function createSensor(deps: Deps, actor: Actor, facilityId: string, input: SensorCreateInput): Promise<Sensor> {
  const facility = await getFacility(deps, actor, facilityId);
  const point = input.point ? await deps.repos.emissionPoints.get(actor.company, facilityId, input.point) : undefined;
  const register = registerOfInput(input, point);
  const sensor = await withCodes(deps, actor, facilityId, [register.code], async () => {
    // Read with the code held: no other request stores a sensor of it until this one is done.
    await checkedRegister(deps, actor, facilityId, register);
    const made = newSensor(actor, facilityId, register, deps.clock.now().toISOString());
    await withPlace(deps, actor.company, sensorPlace(deps, actor, facilityId), () => deps.repos.sensors.create(made));
    return made;
  });
  await logSensor(deps, actor, facility.name, "sensor.create", null, sensor);
  return sensor;
}

/** The sensor with `register` from now on: a new revision when the register changed. */
function revised(current: Sensor, register: Register, now: string, isActive: boolean): Sensor {
  const kept = registerOf(current);
  const changed = REGISTER_FIELDS.some((field) => kept[field] !== register[field]);
  if (changed && current.revisions.length >= MAX_SENSOR_REVISIONS) {
    throw new Invalid(`У датчика уже ${MAX_SENSOR_REVISIONS} изменений учетных данных: заведите новый датчик вместо этого`);
  }
  return {
    ...current,
    ...register,
    is_active: isActive,
    revisions: changed ? [...current.revisions, { ...register, valid_from: now }] : current.revisions,
    updated_at: now,
    version: current.version + 1,
  };
}

/** A sensor of a kind this release does not know — written by a later release, kept in the folder after
 *  a rollback to this one: its entry is kept as stored and not changed here (409), since this release
 *  cannot check what it does not know, until the release that knows the kind runs again. */
export function refuseUnknownKind(sensor: Pick<Sensor, "code" | "kind">): void {
  if (Object.hasOwn(SENSOR_KINDS, sensor.kind)) return;
  throw new Conflict(
    `Датчик «${sensor.code}» вида «${sensor.kind}» записан более новой версией платформы: эта версия такого вида не знает и его запись не меняет. ` +
      "Измените датчик в той версии, которая его записала, или в более новой",
  );
}

export async function patchSensor(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  patch: SensorPatchInput,
): Promise<Sensor> {
  const current = await getSensor(deps, actor, facilityId, sensorId);
  refuseUnknownKind(current);
  if (patch.version !== current.version) throw new Conflict(SENSOR_CONFLICT);
  const register = { ...registerOf(current) };
  for (const field of REGISTER_FIELDS) {
    const value = patch[field];
    // A field sent as null is cleared; one left out is kept.
    if (value !== undefined)
      (register as Record<string, unknown>)[field] = field === "working" || field === "section" ? (value ?? "") : value;
  }
  // A new code is held while it is checked and written (withCodes), as a new sensor's is.
  const renamed = codeKey(register.code) !== codeKey(current.code) ? [register.code] : [];
  const next = await withCodes(deps, actor, facilityId, renamed, async () => {
    await checkedRegister(deps, actor, facilityId, register, current.id);
    const revision = revised(current, register, deps.clock.now().toISOString(), current.is_active);
    await deps.repos.sensors.replace(revision, current.version);
    return revision;
  });
  await logSensor(deps, actor, (await getFacility(deps, actor, facilityId)).name, "sensor.update", current, next);
  return next;
}

/** Retired: out of service from today on the company's clock (unless an earlier date was set); its
 *  readings and history stay, and its code is free for a new sensor. */
export async function retireSensor(deps: Deps, actor: Actor, facilityId: string, sensorId: string): Promise<Sensor> {
  const current = await getSensor(deps, actor, facilityId, sensorId);
  if (!current.is_active) return current;
  refuseUnknownKind(current);
  const now = deps.clock.now();
  const company = await deps.repos.companies.get(actor.company);
  const today = isoDateIn(now, zoneOf(company));
  const register = {
    ...registerOf(current),
    in_service_to: current.in_service_to && current.in_service_to < today ? current.in_service_to : today,
  };
  const next = revised(current, register, now.toISOString(), false);
  await deps.repos.sensors.replace(next, current.version);
  await logSensor(deps, actor, (await getFacility(deps, actor, facilityId)).name, "sensor.retire", current, next);
  return next;
}

/** The unit a sensor's values are read in («% об.», «м/с» …). */
export const sensorUnit = (sensor: Pick<Sensor, "kind">) => SENSOR_KINDS[sensor.kind].unit;

// ---- gateway keys --------------------------------------------------------------------------------

export type GatewayKeyView = Omit<GatewayKey, "company" | "hash">;
const keyView = ({ company: _company, hash: _hash, ...view }: GatewayKey): GatewayKeyView => view;

/** A key's SHA-256, hex: what is stored and looked up (the key is 256 random bits, so no slow hash is needed). */
export const gatewayKeyHash = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

function refuseReviewer(actor: Actor) {
  if (actor.role === "reviewer") throw new Forbidden(GATEWAY_KEYS_FORBIDDEN);
}

const logKey = (deps: Deps, actor: Actor, facilityName: string, action: string, before: GatewayKey | null, after: GatewayKey) =>
  recordFacilityChange(deps, actor, facilityName, after, {
    action,
    target_type: "gateway_key",
    before: before ? keyView(before) : null,
    after: keyView(after),
  });

export const listGatewayKeys = async (deps: Deps, actor: Actor, facilityId: string): Promise<GatewayKeyView[]> =>
  (await listOfFacility(deps, actor, facilityId, deps.repos.gatewayKeys)).map(keyView);

/** A new key for the facility, answered this once with the key itself. */
export async function createGatewayKey(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  input: GatewayKeyCreateInput,
): Promise<GatewayKeyView & { key: string }> {
  refuseReviewer(actor);
  const facility = await getFacility(deps, actor, facilityId);
  const secret = `${GATEWAY_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const key: GatewayKey = {
    id: newId(),
    company: actor.company,
    facility: facilityId,
    label: input.label,
    prefix: secret.slice(0, GATEWAY_KEY_PREFIX.length + 6),
    created_at: deps.clock.now().toISOString(),
    created_by: actor.email,
    revoked_at: null,
    hash: gatewayKeyHash(secret),
  };
  const place = facilityPlace(actor, facilityId, deps.repos.gatewayKeys, {
    name: "GATEWAYKEYS",
    limit: MAX_GATEWAY_KEYS_PER_FACILITY,
    refusal: `У площадки уже ${MAX_GATEWAY_KEYS_PER_FACILITY} ключей шлюза, отозванные тоже: обратитесь к администратору`,
  });
  await withPlace(deps, actor.company, place, () => deps.repos.gatewayKeys.create(key));
  await logKey(deps, actor, facility.name, "gateway_key.create", null, key);
  return { ...keyView(key), key: secret };
}

/** Revoked: from this call on the key is refused (its lookup is gone); it stays listed as revoked. */
export async function revokeGatewayKey(deps: Deps, actor: Actor, facilityId: string, keyId: string): Promise<GatewayKeyView> {
  refuseReviewer(actor);
  const facility = await getFacility(deps, actor, facilityId);
  const current = await deps.repos.gatewayKeys.get(actor.company, facilityId, keyId);
  if (!current) throw new NotFound("Ключ шлюза не найден");
  if (current.revoked_at) return keyView(current);
  const at = deps.clock.now().toISOString();
  await deps.repos.gatewayKeys.revoke(actor.company, facilityId, keyId, at);
  const next = { ...current, revoked_at: at };
  await logKey(deps, actor, facility.name, "gateway_key.revoke", current, next);
  return keyView(next);
}

/** The facility a key presented may push to; undefined for an unknown or revoked key. */
export async function gatewayKeyGrant(deps: Pick<Deps, "repos">, presented: string) {
  if (!presented.startsWith(GATEWAY_KEY_PREFIX) || presented.length > LIMITS.monitoring.gatewayKey) return undefined;
  return deps.repos.gatewayKeys.byHash(gatewayKeyHash(presented));
}
