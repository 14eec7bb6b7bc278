// D94: a methane sensor's maintenance journal — the checks of the «Метан» journal's columns
// (the form «Журнал эксплуатации и обслуживания» of the 2006 methodological recommendations on АГК):
// the reading against a reference instrument, the «Контроль» button, the alarm and the power cut-off by a
// control mixture within its cylinder's validity, the fault and measures, planned works, and three
// signatures — the АГК operator, the АГК electrician, the deputy head of ВТБ for АГК — each by a user an
// administrator gave that duty, three different people (four eyes, as the gassing book's confirmations).
// A check is written with its author's signature and never edited: the others only sign it, and a
// correction is a new check that follows it. Advisory: protective cut-off stays with the mine's own АГК.
import { instantOfWallTime, isoDateIn } from "@core/company-clock";
import { CHECK_DUTIES, CHECK_DUTY_LABELS, CHECK_RESULT_LABELS, isCheckDuty, type CheckDuty } from "@core/sensor-checks";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid, invalidAt, NotFound } from "../../errors";
import { newId } from "../../ids";
import { initialsByEmail } from "../../person-name";
import { problemAt } from "../../../contract/field-errors";
import { getFacility, getOfFacility } from "../../company/facilities";
import type { Sensor, SensorCheck } from "../../../ports";
import { sameCheck } from "../../../ports/instruments";
import {
  SENSOR_CHECK_PERIOD_DAYS,
  type sensorCheckCreateSchema,
  type sensorCheckPeriodQuery,
  type SensorCheckList,
  type sensorCheckSignSchema,
  type SensorCheckView,
} from "../../../contract/schemas/sensor-checks";
import { instantOfZoned, readTime } from "../../../contract/schemas/dates";
import { facilityShifts, type FacilityShifts } from "./shifts";
import { closeHandSuspects } from "./hand-suspects";
import { DAY_MS, MINUTE_MS, ruDate } from "@core/dates";

type CheckInput = z.output<typeof sensorCheckCreateSchema>;
export const REVIEWER_SIGNS_NOTHING = "Недостаточно прав: проверки датчиков записывают и подписывают сотрудники АГК, не проверяющий";
export const SENSOR_MISSING = "Датчик не найден";
export const CHECK_MISSING = "Проверка не найдена";
/** How many times a signature is tried on a check others sign at the same moment. */
const SIGN_ATTEMPTS = 5;

/** The instant of a check's time as typed: with its zone as written, without one on the company's clock
 *  (a form's «15:00» is the mine's 15:00, not the server's). */
export function instantOfTyped(text: string, zone: string): number {
  const time = readTime(text);
  if ("problem" in time) throw invalidAt("at", time.problem);
  if (time.offsetMinutes !== undefined) return instantOfZoned({ ...time, offsetMinutes: time.offsetMinutes });
  return instantOfWallTime(time.year, time.month, time.day, time.hour, time.minute, zone) + time.second * 1000 + time.millisecond;
}

/** The problems of a check's findings as the journal's rules say, each at its field. */
export function checkProblems(input: CheckInput, day: string): Invalid | undefined {
  const problems = [];
  const tests = [
    ["button_test_ok", "кнопка «Контроль» не сработала"],
    ["alarm_ok", "сигнализация от контрольной смеси не сработала"],
    ["cutoff_ok", "отключение электроэнергии от контрольной смеси не сработало"],
  ] as const;
  if (input.result === "passed")
    for (const [field, said] of tests) if (input[field] === false) problems.push(problemAt("result", `датчик не прошел проверку: ${said}`));
  if (input.result === "failed" && !input.fault?.trim())
    problems.push(problemAt("fault", "укажите неисправность: датчик не прошел проверку"));
  if ((input.reading_pct ?? null) !== null && (input.reference_pct ?? null) === null)
    problems.push(problemAt("reference_pct", "укажите показание контрольного прибора, с которым сравнено показание датчика"));
  if ((input.reference_pct ?? null) !== null && !input.reference_instrument?.trim())
    problems.push(problemAt("reference_instrument", "укажите контрольный прибор (тип и номер)"));
  const gasTested = (input.alarm_ok ?? null) !== null || (input.cutoff_ok ?? null) !== null;
  if (gasTested && (input.test_gas_pct ?? null) === null)
    problems.push(problemAt("test_gas_pct", "укажите концентрацию контрольной смеси, которой проверены сигнализация и отключение"));
  if (gasTested && !input.test_gas_cylinder)
    problems.push(problemAt("test_gas_cylinder", "укажите баллон контрольной смеси (номер и срок годности)"));
  if (input.test_gas_cylinder && input.test_gas_cylinder.valid_to < day)
    problems.push(
      problemAt(
        "test_gas_cylinder.valid_to",
        `срок годности контрольной смеси истек ${ruDate(input.test_gas_cylinder.valid_to)}: проверка ею недействительна`,
      ),
    );
  return problems.length > 0 ? new Invalid(problems) : undefined;
}

/** The duty a user signs a check as, refused when they hold none of the journal's. */
export function signerDuty(duty: string | null | undefined): CheckDuty {
  if (!isCheckDuty(duty))
    throw new Forbidden(
      `Проверку подписывают ${CHECK_DUTIES.map((d) => CHECK_DUTY_LABELS[d]).join(", ")}: эта обязанность вам не назначена (её назначает администратор)`,
    );
  return duty;
}

/** A new check as its author writes it, signed by them in their duty; refused as the journal's rules say. */
export function newCheck(
  input: CheckInput,
  context: {
    company: string;
    facility: string;
    sensor: Pick<Sensor, "id" | "code"> & Partial<Pick<Sensor, "in_service_from">>;
    shifts: Pick<FacilityShifts, "at" | "zone">;
    duty: CheckDuty;
    by: string;
    now: number;
    followed?: SensorCheck;
  },
): SensorCheck {
  const at = instantOfTyped(input.at, context.shifts.zone);
  if (at > context.now + MINUTE_MS) throw invalidAt("at", "время проверки позже текущего");
  const day = isoDateIn(new Date(at), context.shifts.zone);
  // A check of a sensor before it was put in service is a typo of the year (1970 for 2026), not a record.
  const inService = context.sensor.in_service_from;
  if (inService && day < inService)
    throw invalidAt(
      "at",
      `проверка ${ruDate(day)} раньше ввода датчика ${context.sensor.code} в эксплуатацию (${ruDate(inService)}): проверяют датчик в эксплуатации`,
    );
  const problems = checkProblems(input, day);
  if (problems) throw problems;
  const nowIso = new Date(context.now).toISOString();
  return {
    company: context.company,
    facility: context.facility,
    sensor: context.sensor.id,
    id: newId(),
    sensor_code: context.sensor.code,
    at: new Date(at).toISOString(),
    shift: context.shifts.at(at),
    kind: input.kind,
    reading_pct: input.reading_pct ?? null,
    reference_pct: input.reference_pct ?? null,
    reference_instrument: input.reference_instrument ?? "",
    button_test_ok: input.button_test_ok ?? null,
    test_gas_pct: input.test_gas_pct ?? null,
    test_gas_cylinder: input.test_gas_cylinder ?? null,
    alarm_ok: input.alarm_ok ?? null,
    cutoff_ok: input.cutoff_ok ?? null,
    result: input.result,
    fault: input.fault ?? "",
    measures: input.measures ?? "",
    planned_work: input.planned_work ?? "",
    follows: context.followed?.id ?? null,
    created_by: context.by,
    created_at: nowIso,
    signatures: { [context.duty]: { by: context.by, at: nowIso } },
    version: 1,
  };
}

/** `check` signed in `duty` by `holder`: refused for another duty than theirs, a duty signed already, or
 *  a person who signed it in another duty (three people, four eyes). */
export function signedCheck(check: SensorCheck, duty: CheckDuty, holder: { duty?: string | null; by: string; at: string }): SensorCheck {
  if (holder.duty !== duty)
    throw new Forbidden(`Подписывает ${CHECK_DUTY_LABELS[duty]}: эта обязанность вам не назначена (её назначает администратор)`);
  if (check.signatures[duty]) throw new Conflict(`Проверку уже подписал ${CHECK_DUTY_LABELS[duty]}`);
  const own = CHECK_DUTIES.find((d) => check.signatures[d]?.by === holder.by);
  if (own) throw new Conflict(`Вы уже подписали эту проверку как ${CHECK_DUTY_LABELS[own]}: каждую графу подписывает другой человек`);
  return { ...check, signatures: { ...check.signatures, [duty]: { by: holder.by, at: holder.at } }, version: check.version + 1 };
}

/** A check as the API shows it: people by surname and initials; `followedBy`: the check correcting it. */
export function checkView(
  check: SensorCheck,
  nameOf: (email: string) => string,
  shifts: Pick<FacilityShifts, "name">,
  followedBy: string | null,
): SensorCheckView {
  const deviation =
    check.reading_pct !== null && check.reference_pct !== null ? Math.round((check.reading_pct - check.reference_pct) * 100) / 100 : null;
  return {
    id: check.id,
    facility: check.facility,
    sensor: check.sensor,
    sensor_code: check.sensor_code,
    at: check.at,
    shift: check.shift,
    shift_name: shifts.name(check.shift),
    kind: check.kind,
    reading_pct: check.reading_pct,
    reference_pct: check.reference_pct,
    deviation_pct: deviation,
    reference_instrument: check.reference_instrument,
    button_test_ok: check.button_test_ok,
    test_gas_pct: check.test_gas_pct,
    test_gas_cylinder: check.test_gas_cylinder,
    alarm_ok: check.alarm_ok,
    cutoff_ok: check.cutoff_ok,
    result: check.result,
    result_text: CHECK_RESULT_LABELS[check.result],
    fault: check.fault,
    measures: check.measures,
    planned_work: check.planned_work,
    follows: check.follows,
    followed_by: followedBy,
    recorded_by: nameOf(check.created_by),
    recorded_at: check.created_at,
    signatures: Object.fromEntries(
      CHECK_DUTIES.map((d) => {
        const given = check.signatures[d];
        return [d, given ? { by: nameOf(given.by), at: given.at } : null];
      }),
    ) as SensorCheckView["signatures"],
    signed: CHECK_DUTIES.every((d) => check.signatures[d]),
  };
}

const getSensorOf = (deps: Pick<Deps, "repos">, actor: Actor, facility: string, sensor: string) =>
  getOfFacility(deps, actor, facility, deps.repos.sensors, sensor, SENSOR_MISSING);

/** The check that follows `id` among `checks`, if any. */
const followerOf = (checks: readonly SensorCheck[], id: string) => checks.find((c) => c.follows === id)?.id ?? null;

/** A user with one of the journal's duties records a check of `sensor`, signed by them. */
export async function recordCheck(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  input: CheckInput,
): Promise<SensorCheckView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  const sensor = await getSensorOf(deps, actor, facilityId, sensorId);
  const user = await deps.repos.users.get(actor.company, actor.id);
  const duty = signerDuty(user?.duty);
  let followed: SensorCheck | undefined;
  if (input.follows) {
    followed = await deps.repos.sensorChecks.get(actor.company, facilityId, input.follows);
    if (!followed || followed.sensor !== sensor.id) throw invalidAt("follows", "исправляемая проверка этого датчика не найдена");
  }
  const shifts = await facilityShifts(deps, actor.company, facilityId);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const check = newCheck(input, {
    company: actor.company,
    facility: facilityId,
    sensor,
    shifts,
    duty,
    by: actor.email,
    now: deps.clock.now().getTime(),
    followed,
  });
  if (followed) {
    // One follower each: the same correction sent again is the one written; another is refused (the
    // storage's once item holds this against writes at the same moment, and this read against records
    // written before it).
    const later = await deps.repos.sensorChecks.listOfFacility(actor.company, facilityId, Date.parse(followed.created_at));
    const follower = later.find((c) => c.follows === followed.id);
    if (follower && sameCheck(follower, check)) return checkView(follower, nameOf, shifts, followerOf(later, follower.id));
    if (follower) throw new Conflict("Эту проверку уже исправили: исправление следует за последней записью");
  }
  // Written once: the same check sent again (a double press, a retry, at once or after) is the one written.
  const stored = await deps.repos.sensorChecks.create(check);
  // D105: a passed check closes the doubt a hand measurement apart from the meter opened before it.
  if (stored.result === "passed") await closeHandSuspects(deps, actor.company, facilityId, sensor.id, Date.parse(stored.at));
  const followedBy =
    stored.id === check.id
      ? null
      : followerOf(await deps.repos.sensorChecks.listOfFacility(actor.company, facilityId, Date.parse(stored.created_at)), stored.id);
  return checkView(stored, nameOf, shifts, followedBy);
}

/** A user with that duty signs a check of `sensor`. */
export async function signCheck(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  checkId: string,
  input: z.output<typeof sensorCheckSignSchema>,
): Promise<SensorCheckView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  const sensor = await getSensorOf(deps, actor, facilityId, sensorId);
  const user = await deps.repos.users.get(actor.company, actor.id);
  // Another duty's signature given meanwhile is no reason to refuse this one: read again and sign that.
  let next: SensorCheck | undefined;
  for (let attempt = 1; !next; attempt += 1) {
    const stored = await deps.repos.sensorChecks.get(actor.company, facilityId, checkId);
    if (!stored || stored.sensor !== sensor.id) throw new NotFound(CHECK_MISSING);
    const signed = signedCheck(stored, input.duty, { duty: user?.duty, by: actor.email, at: deps.clock.now().toISOString() });
    try {
      await deps.repos.sensorChecks.replace(signed, stored.version);
      next = signed;
    } catch (error) {
      if (!(error instanceof Conflict) || attempt >= SIGN_ATTEMPTS) throw error;
    }
  }
  const later = await deps.repos.sensorChecks.listOfFacility(actor.company, facilityId, Date.parse(next.created_at));
  const shifts = await facilityShifts(deps, actor.company, facilityId);
  return checkView(next, await initialsByEmail(deps.repos, actor.company), shifts, followerOf(later, next.id));
}

/** The period of company days a listing covers: `to` (default today), `from` (default 30 days before). */
function periodOf(query: z.output<typeof sensorCheckPeriodQuery>, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw invalidAt("to", "конец периода раньше начала");
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= SENSOR_CHECK_PERIOD_DAYS)
    throw invalidAt("to", `период не длиннее ${SENSOR_CHECK_PERIOD_DAYS} дней`);
  return { from, to };
}

/** The checks of the facility (or of one sensor) done in a period of company days, newest first. */
export async function listChecks(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string | undefined,
  query: z.output<typeof sensorCheckPeriodQuery>,
): Promise<SensorCheckList> {
  const facility = await getFacility(deps, actor, facilityId);
  if (sensorId) await getSensorOf(deps, actor, facilityId, sensorId);
  const shifts = await facilityShifts(deps, actor.company, facilityId);
  const { from, to } = periodOf(query, isoDateIn(deps.clock.now(), shifts.zone));
  // A check is written at or after it is done: those done from `from` are written from its first instant
  // (a day's margin for the company's clock), with the corrections written after them.
  const written = await deps.repos.sensorChecks.listOfFacility(actor.company, facilityId, Date.parse(from) - DAY_MS);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const results = written
    .filter((c) => (!sensorId || c.sensor === sensorId) && inPeriod(c.at, from, to, shifts.zone))
    .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
    .map((c) => checkView(c, nameOf, shifts, followerOf(written, c.id)));
  return { facility: facility.id, facility_name: facility.name, from, to, results };
}

const inPeriod = (at: string, from: string, to: string, zone: string) => {
  const day = isoDateIn(new Date(at), zone);
  return day >= from && day <= to;
};
