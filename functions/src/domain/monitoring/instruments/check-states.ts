// D94: what is due of each sensor's checks. The intervals are the mine's own — its
// АГК project or schedule sets them per sensor kind and role (no binding interval was found in the acts
// read; the 2006 methodological recommendations on АГК are cited for the journal's form, their text on
// intervals not read) — stored per facility with the document they come from. From them and the checks
// recorded, `last_check`, `next_due` and how many days a check is overdue are derived, never typed; a
// sensor whose latest check failed says so until a later check passes. Read by the checks' screen, the
// sensor register, «Мониторинг», the operator's journal and the shift handover.
import { isoDateIn } from "@core/company-clock";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { CHECK_RESULT_LABELS } from "@core/sensor-checks";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Forbidden } from "../../errors";
import { getFacility } from "../../company/facilities";
import { initialsByEmail } from "../../person-name";
import type { CheckIntervals, Sensor, SensorCheck } from "../../../ports";
import type {
  checkIntervalsBodySchema,
  CheckIntervalsView,
  SensorCheckState,
  SensorCheckStates,
} from "../../../contract/schemas/sensor-checks";
import { LIMITS } from "../../../contract/schemas/limits";
import { SENSOR_ROLES, type SensorRole } from "../../../contract/schemas/sensor";
import { registerAt } from "../ingest/register";
import { facilityShifts, type FacilityShifts } from "./shifts";
import { REVIEWER_SIGNS_NOTHING } from "./sensor-checks";
import { verificationOn, type VerificationState } from "./verifications";
import { DOUBT_LOOKBACK_DAYS, doubtText, facilityDoubt } from "../minutes/doubt";
import { DAY_MS, ruDate } from "@core/dates";

type Rule = CheckIntervals["rules"][number];
/** How far back the latest check is looked for beyond the longest interval, days. */
const LOOKBACK_MARGIN_DAYS = 2;
/** The longest look back for a sensor's latest check, days (a rule of more finds «не записана»). */
export const LOOKBACK_MAX_DAYS = LIMITS.sensorChecks.lookbackDays;
export const NO_RULES_SOURCE = "интервалы не заданы: задайте их по проекту АГК шахты";

/** The rule of a sensor: the most specific of the mine's (kind and role, kind, role, any), or null. */
export function ruleFor(rules: readonly Rule[], kind: string, role: string): Rule | null {
  const score = (r: Rule) =>
    (r.kind === null || r.kind === kind) && (r.role === null || r.role === role) ? (r.kind ? 2 : 0) + (r.role ? 1 : 0) : -1;
  let best: Rule | null = null;
  for (const r of rules) if (score(r) >= 0 && (best === null || score(r) > score(best))) best = r;
  return best;
}

export const ruleText = (rule: Rule | null): string | null =>
  rule === null ? null : rule.per === "shift" ? "каждую смену" : `раз в ${rule.days} дн.`;

/** The instant a check after `last` (ISO) is due by under `rule`: the end of the shift after its shift, or
 *  the end of the company day `days` after its day. */
export function dueAfter(last: string, rule: Rule, shifts: Pick<FacilityShifts, "at" | "span" | "next">): number {
  const at = Date.parse(last);
  if (rule.per === "shift") return shifts.span(shifts.next(shifts.at(at)))!.to;
  // The day's end on the company's clock: the start of its first shift `days + 1` days on.
  const [day] = shifts.at(at).split("#");
  const due = new Date(Date.parse(`${day}T00:00:00Z`) + ((rule.days ?? 1) + 1) * DAY_MS).toISOString().slice(0, 10);
  return shifts.span(`${due}#1`)!.from;
}

/** What is due of one sensor from its checks (any order) under `rule`, at `now`. */
export function stateOf(
  sensor: { id: string; code: string; kind: string; working: string },
  checks: readonly SensorCheck[],
  rule: Rule | null,
  shifts: Pick<FacilityShifts, "at" | "span" | "next" | "zone">,
  now: number,
  lookbackDays: number,
  verification: VerificationState = { state: "none", text: "поверка не записана", out_from: null },
): SensorCheckState {
  const done = checks
    .filter((c) => c.sensor === sensor.id && Date.parse(c.at) <= now)
    .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  const last = done.at(-1);
  const problems: string[] = [];
  if (last?.result === "failed") problems.push(`${CHECK_RESULT_LABELS.failed} ${ruDate(shifts.at(Date.parse(last.at)))}`);
  let nextDue: number | null = null;
  let overdue: number | null = null;
  if (rule && last) {
    nextDue = dueAfter(last.at, rule, shifts);
    if (now > nextDue) {
      overdue = Math.ceil((now - nextDue) / DAY_MS);
      problems.push(`проверка просрочена на ${overdue} дн.`);
    }
  } else if (rule) problems.push(`проверка не записана за ${lookbackDays} дн.`);
  // Item 3: a sensor out of verification is named wherever its state is.
  if (verification.state === "expired") problems.push(verification.text);
  return {
    sensor: sensor.id,
    code: sensor.code,
    kind: sensor.kind,
    working: sensor.working,
    rule: ruleText(rule),
    last_check: last ? { id: last.id, at: last.at, result: last.result } : null,
    failed: last?.result === "failed",
    next_due: nextDue === null ? null : new Date(nextDue).toISOString(),
    overdue_days: overdue,
    problems,
    verification: verification.text,
    out_of_verification_from: verification.out_from,
  };
}

/** The look back that finds each sensor's latest check under `rules`, days. */
export const lookbackOf = (rules: readonly Rule[]) =>
  Math.min(LOOKBACK_MAX_DAYS, Math.max(1, ...rules.map((r) => (r.per === "days" ? (r.days ?? 1) : 1))) + LOOKBACK_MARGIN_DAYS);

/** What is due of each sensor of `facility` in service at `now` (by working and code). */
export async function checkStates(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  now: number,
  sensors?: readonly Sensor[],
): Promise<{ states: SensorCheckState[]; intervals: CheckIntervals | undefined }> {
  const intervals = await deps.repos.sensorChecks.intervals(company, facility);
  const rules = intervals?.rules ?? [];
  const lookback = lookbackOf(rules);
  const [listed, checks, shifts, verifications] = await Promise.all([
    sensors ?? deps.repos.sensors.listOfFacility(company, facility),
    deps.repos.sensorChecks.listOfFacility(company, facility, now - lookback * DAY_MS),
    facilityShifts(deps, company, facility),
    deps.repos.sensorChecks.verificationsOfFacility(company, facility),
  ]);
  const today = isoDateIn(new Date(now), shifts.zone);
  const states = listed
    .filter((s) => s.is_active)
    .map((s) => ({ s, register: registerAt(s, now) }))
    .filter(({ register }) => !register.in_service_to || register.in_service_to >= today)
    .map(({ s, register }) =>
      stateOf(
        { id: s.id, code: register.code, kind: register.kind, working: register.working },
        checks,
        ruleFor(rules, register.kind, register.role),
        shifts,
        now,
        lookback,
        verificationOn(
          verifications.filter((v) => v.sensor === s.id),
          today,
        ),
      ),
    )
    .sort((a, b) => a.working.localeCompare(b.working, "ru") || a.code.localeCompare(b.code, "ru"));
  return { states, intervals };
}

/** GET v1/facilities/{id}/sensor-checks/due/: what is due of each sensor now. */
export async function sensorCheckStates(deps: Pick<Deps, "repos" | "clock">, actor: Actor, facilityId: string): Promise<SensorCheckStates> {
  const facility = await getFacility(deps, actor, facilityId);
  const now = deps.clock.now().getTime();
  const { states, intervals } = await checkStates(deps, actor.company, facility.id, now);
  return {
    facility: facility.id,
    facility_name: facility.name,
    at: new Date(now).toISOString(),
    rules_source: intervals?.source ?? NO_RULES_SOURCE,
    sensors: states,
  };
}

function intervalsView(facility: string, stored: CheckIntervals | undefined, nameOf: (email: string) => string): CheckIntervalsView {
  return {
    facility,
    rules: (stored?.rules ?? []).map((r) => ({ ...r, kind: r.kind as SensorKind | null })),
    source: stored?.source ?? NO_RULES_SOURCE,
    updated_by: stored ? nameOf(stored.updated_by) : null,
    updated_at: stored?.updated_at ?? null,
    version: stored?.version ?? 0,
  };
}

export async function getCheckIntervals(deps: Pick<Deps, "repos">, actor: Actor, facilityId: string): Promise<CheckIntervalsView> {
  await getFacility(deps, actor, facilityId);
  const stored = await deps.repos.sensorChecks.intervals(actor.company, facilityId);
  return intervalsView(facilityId, stored, await initialsByEmail(deps.repos, actor.company));
}

/** The mine's intervals as its АГК project sets them, with the document named; the version read is checked. */
export async function putCheckIntervals(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  body: z.output<typeof checkIntervalsBodySchema>,
): Promise<CheckIntervalsView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  await getFacility(deps, actor, facilityId);
  const next: CheckIntervals = {
    company: actor.company,
    facility: facilityId,
    rules: body.rules.map((r) => ({
      kind: r.kind ?? null,
      role: r.role ?? null,
      per: r.per,
      days: r.per === "days" ? (r.days ?? null) : null,
    })),
    source: body.source,
    updated_by: actor.email,
    updated_at: deps.clock.now().toISOString(),
    version: body.version + 1,
  };
  await deps.repos.sensorChecks.putIntervals(next, body.version);
  return intervalsView(facilityId, next, await initialsByEmail(deps.repos, actor.company));
}

/** «Метан (0–4 % об.)», «сигнализирующий»: a rule's words for the screen. */
export const ruleScope = (rule: Pick<Rule, "kind" | "role">) =>
  [
    rule.kind ? SENSOR_KINDS[rule.kind as SensorKind]?.label : "любой вид",
    rule.role ? SENSOR_ROLES[rule.role as SensorRole] : "любая роль",
  ].join(", ");

/** Item 4: per sensor of `facility`, the minutes of [from, to) that are «показания под сомнением» and why:
 *  «показания под сомнением: датчик не прошел проверку 03.03.2026 — 840 мин» (D94). Checks are read back
 *  at most LOOKBACK_MAX_DAYS. */
export async function doubtOfDay(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  from: number,
  to: number,
): Promise<Map<string, { minutes: number; text: string }>> {
  const shifts = await facilityShifts(deps, company, facility);
  const doubt = await facilityDoubt(deps, company, facility, from - DOUBT_LOOKBACK_DAYS * DAY_MS, shifts.zone);
  const sensors = await deps.repos.sensors.listOfFacility(company, facility);
  const out = new Map<string, { minutes: number; text: string }>();
  for (const { id: sensor } of sensors) {
    const { minutes, why } = doubt(sensor, from, to);
    if (minutes > 0) out.set(sensor, { minutes, text: doubtText(why, minutes) });
  }
  return out;
}
