// The company's own audit of its requisites, facilities and their emission points (Профиль, «История
// изменений реквизитов»): who changed ИНН, КПП, ОГРН, the address, the person responsible, a
// facility's name, licence or address, a point's name, kind, instrument or dates, from what to what
// and when. The entries are the change log's (admin/audit.ts), kept under
// the company when they are written, so a reviewer reads only the company of the session.
import { timeZoneLabel, zoneOf } from "@core/company-clock";
import { EMISSION_POINT_KINDS, FACILITY_KINDS, isReviewer, type EmissionPointKind, type FacilityKind } from "@core/inventory";
import type { Actor, Deps } from "../context";
import { Forbidden } from "../errors";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { SENSOR_PLACES, type SensorPlace } from "@core/sensor-places";
import { METHANE_PLACE_LABELS, type MethanePlace } from "@core/methane-limits";
import { SENSOR_ROLES, type SensorRole } from "../../contract/schemas/sensor";
import type { AdminAuditEntry, Page, PageRequest } from "../../ports";
import type { RequisitesChange } from "../../contract";
import { COMPANY_FIELDS, FACILITY_FIELDS, POINT_FIELDS } from "../entity-fields";
import { CLIMATE_REPORT_HAND_FIELDS } from "../../contract/schemas/climate-report";

/** The change log's action of an accepted drainage month the platform made gross (D92,
 *  monitoring/minutes/drainage-basis-migration.ts), read here as its basis corrected. */
export const DRAINAGE_BASIS_ACTION = "telemetry.basis_gross";

export const REVIEWERS_ONLY = "Недостаточно прав: историю изменений реквизитов видят проверяющий и администратор";

/** D56: a sensor of the facility's monitoring register (domain/monitoring/ingest/register.ts). */
const SENSOR_FIELDS: Record<string, string> = {
  code: "Код датчика",
  kind: "Вид датчика",
  point_name: "Источник выбросов",
  role: "Роль",
  working: "Выработка",
  section: "Участок",
  place: "Место датчика",
  norm_place: "Норма загазирования",
  airflow_order: "Порядок по струе",
  fresh_air_joins: "Свежий воздух перед датчиком",
  warning: "Предупредительный уровень, % об.",
  alarm: "Аварийный уровень, % об.",
  area_m2: "Площадь сечения, м²",
  conditions: "Условия расхода",
  in_service_from: "В эксплуатации с",
  in_service_to: "В эксплуатации по",
  is_active: "Датчик действует",
};
/** A gateway key of a facility: made and revoked, never the key. */
const GATEWAY_KEY_FIELDS: Record<string, string> = { label: "Ключ шлюза", prefix: "Начало ключа", revoked_at: "Отозван" };
/** a webhook of the company: added and removed, never its secret. */
const WEBHOOK_FIELDS: Record<string, string> = { url: "Адрес приемника", label: "Название", removed: "Удален" };
/** The base year of the trend (domain/inventory/targets.ts): set, recalculated, and why. */
const BASE_YEAR_FIELDS: Record<string, string> = {
  year: "Базовый год",
  t_co2e: "Выбросы базового года в сопоставимых условиях, т CO2-экв.",
  conditions_year: "ПГП и коэффициенты отчетного года",
  reason: "Причина",
};
/** a facility's coal output of a year (domain/calculations/coal-output.ts). */
const COAL_OUTPUT_FIELDS: Record<string, string> = { year: "Год", t: "Добыча угля, т" };
/** a month «по данным АГК» accepted again (domain/monitoring/minutes/offers.ts): its figures before
 *  and after, the calculation's version that holds them, and why. */
const ACCEPTED_MONTH_FIELDS: Record<string, string> = {
  ch4_t: "CH4, т",
  volume_thousand_m3: "Объём смеси, тыс. м³",
  readings_sha256: "SHA-256 показаний",
  calculation_version: "Версия расчета",
  reason: "Причина",
};
/** D92: an accepted drainage month the platform made gross (drainage-basis-migration.ts). */
const ACCEPTED_MONTH_BASIS_FIELDS: Record<string, string> = {
  basis: "Основа учета",
  calculation_version: "Версия расчета",
  reason: "Причина",
};
/** a climate project (domain/climate/projects.ts): its plan as read, never its ids. */
const CLIMATE_PROJECT_FIELDS: Record<string, string> = {
  name: "Название проекта",
  facility_name: "Площадка",
  start: "Начало проекта",
  end: "Окончание периода кредитования",
  methodology: "Методология",
  devices: "Устройства и датчики",
  e_own_sensor: "Счетчик собственных нужд",
  expected: "Ожидаемые сокращения (оценка)",
  archived: "В архиве",
};
/** a КЭП kept with a climate period (domain/climate/signatures.ts). */
const CLIMATE_SIGNATURE_FIELDS: Record<string, string> = {
  file_name: "Подписанный файл",
  file_sha256: "SHA-256 файла",
  signer: "Подписант",
  organization: "Организация",
  certificate: "Сертификат",
  chain: "Цепочка сертификата",
};
/** A period's report on implementation: its hand-written fields by their names (13.4). */
const CLIMATE_REPORT_FIELDS: Record<string, string> = Object.fromEntries(
  Object.entries(CLIMATE_REPORT_HAND_FIELDS).map(([key, field]) => [key, `Раздел ${field.section}. ${field.label}`]),
);
/** a climate project's monitoring period approved, withdrawn or computed again
 *  (domain/climate/approvals.ts): its state, figures, who computed it, the snapshot's hash, why. */
const CLIMATE_PERIOD_FIELDS: Record<string, string> = {
  state: "Утверждение",
  carbon_units: "Углеродные единицы",
  er_t_co2e: "Сокращение выбросов, т CO2-экв.",
  computed_by: "Рассчитал",
  sha256: "SHA-256 утвержденного снимка",
  reason: "Причина",
};
const FIELDS = {
  company: COMPANY_FIELDS,
  facility: FACILITY_FIELDS,
  point: POINT_FIELDS,
  sensor: SENSOR_FIELDS,
  gateway_key: GATEWAY_KEY_FIELDS,
  webhook: WEBHOOK_FIELDS,
  base_year: BASE_YEAR_FIELDS,
  coal_output: COAL_OUTPUT_FIELDS,
  accepted_month: ACCEPTED_MONTH_FIELDS,
  accepted_month_basis: ACCEPTED_MONTH_BASIS_FIELDS,
  climate_project: CLIMATE_PROJECT_FIELDS,
  climate_signature: CLIMATE_SIGNATURE_FIELDS,
  climate_report: CLIMATE_REPORT_FIELDS,
  climate_period: CLIMATE_PERIOD_FIELDS,
} as const;
const TARGETS = Object.keys(FIELDS) as Array<keyof typeof FIELDS>;

function shown(target: keyof typeof FIELDS, field: string, value: unknown): string {
  // A company stored before it had a zone kept the default one.
  if (field === "time_zone") return timeZoneLabel(zoneOf({ time_zone: typeof value === "string" ? value : undefined }));
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "да" : "нет";
  if (target === "coal_output" && field === "t" && typeof value === "number")
    return value.toLocaleString("ru-RU", { maximumFractionDigits: 4 });
  if (field === "t_co2e" && typeof value === "number")
    return value.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (target === "sensor" && typeof value === "string") {
    if (field === "kind") return SENSOR_KINDS[value as SensorKind]?.label ?? value;
    if (field === "role") return SENSOR_ROLES[value as SensorRole] ?? value;
    if (field === "place") return SENSOR_PLACES[value as SensorPlace] ?? value;
    // the norm's row a meter at «другое место» is read against.
    if (field === "norm_place") return METHANE_PLACE_LABELS[value as MethanePlace] ?? value;
    if (field === "conditions") return value === "actual" ? "рабочие (по датчикам P и T)" : "стандартные (20 °C, 101,325 кПа)";
  }
  if (target === "accepted_month_basis" && field === "basis") return value === "gross" ? "валовый" : "чистый";
  // The reason as stored before an earlier release named the decision («D92: …»): a user reads the words only.
  if (target === "accepted_month_basis" && field === "reason" && typeof value === "string") {
    const words = value.replace(/^D\d+:\s*/, "");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  if ((target === "accepted_month" || target === "accepted_month_basis") && typeof value === "number")
    return value.toLocaleString("ru-RU", { maximumFractionDigits: field === "calculation_version" ? 0 : 6 });
  if (target === "climate_period" && typeof value === "number")
    return value.toLocaleString("ru-RU", { maximumFractionDigits: field === "carbon_units" ? 0 : 6 });
  if (target === "sensor" && typeof value === "number") return value.toLocaleString("ru-RU", { maximumFractionDigits: 6 });
  if (field === "kind" && typeof value === "string") {
    return (target === "point" ? EMISSION_POINT_KINDS[value as EmissionPointKind] : FACILITY_KINDS[value as FacilityKind]) ?? value;
  }
  return String(value);
}

/** The entry as the company sees it: only the listed fields that differ, never the whole object. */
export function requisitesChange(entry: AdminAuditEntry): RequisitesChange {
  // D92's correction of an accepted month's basis is kept as an accepted month's change; it is read as
  // what it is, not as the month accepted again.
  const target =
    entry.action === DRAINAGE_BASIS_ACTION ? "accepted_month_basis" : (TARGETS.find((t) => t === entry.target_type) ?? "company");
  const fields = FIELDS[target];
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const changes = Object.entries(fields).flatMap(([field, label]) => {
    const was = entry.before ? shown(target, field, before[field]) : "";
    const now = shown(target, field, after[field]);
    return was === now ? [] : [{ field, label, before: was, after: now }];
  });
  return {
    id: entry.id,
    at: entry.at,
    actor_email: entry.actor_email,
    target_type: target,
    target_label: entry.target_label,
    created: entry.before === null || entry.before === undefined,
    changes,
  };
}

/** Reviewers (and admins) of the company read its changes, newest first; staff get 403. */
export async function listRequisitesAudit(deps: Deps, actor: Actor, page: PageRequest): Promise<Page<RequisitesChange>> {
  if (!isReviewer(actor.role)) throw new Forbidden(REVIEWERS_ONLY);
  const { results, count } = await deps.repos.adminAudit.listCompany(actor.company, page);
  return { results: results.map(requisitesChange), count };
}
