// The report on implementation of a monitoring period (methodology 13.4, D80), built
// from what the platform holds: sections 1–15 in the order of MinEcon Order 248 Annex 4, each with what
// the platform fills (every figure written the Russian way, t with 3 decimals and units whole, D78) and
// the fields the executor writes by hand, «заполняется исполнителем». A plain function of its sources:
// the screen (GET …/report/), the files (export/climate-report.ts) and the verifier's pack read the
// same sections, so a figure on screen is the figure in the files.
import {
  BASIS_TEXTS,
  DEVICE_KIND_NAMES,
  DEVICE_KIND_SPECS,
  type DeviceKind,
  deviceKindOf,
  type EfficiencyParameter,
} from "@core/climate-devices";
import type { ClimateEvaluation, ClimateParams } from "@core/climate-project";
import { dateText, dateTimeText } from "@core/company-clock";
import { SENSOR_KINDS } from "@core/monitoring";
import type * as z from "zod";
import {
  CLIMATE_REPORT_HAND_FIELDS,
  CLIMATE_REPORT_HAND_KEYS,
  type ClimateReport,
  type ClimateReportHandKey,
  type climateReportSectionSchema,
  type climateReportTableSchema,
} from "../../contract/schemas/climate-report";
import type { ClimateChannel } from "../../contract/schemas/climate";
import type { ClimateProject, ClimateReportHand, Company, EmissionPoint, Facility, Sensor } from "../../ports";
import { formatNumber } from "../forecast/russian-numbers";
import { type ClimatePeriod, usesGridFactor } from "./periods";
import { CHANNEL_NAMES } from "./projects";
import { DEVIATION_NAMES, groupedDeviations } from "../../contract/climate-deviations";
import { hoursText, reportMissing } from "./report-missing";
import { includedDays } from "./period-record";

export type { ClimateReport };
type Section = z.output<typeof climateReportSectionSchema>;
type Table = z.output<typeof climateReportTableSchema>;

/** What the report is built from: the period as computed, its project, the executor's fields, the
 *  company (the executor's requisites, its clock), the facility with its points and sensor register. */
export interface ClimateReportSources {
  project: ClimateProject;
  period: ClimatePeriod;
  hand: ClimateReportHand | undefined;
  company: Company;
  zone: string;
  facility: Facility | undefined;
  points: readonly EmissionPoint[];
  /** The facility's register by code (the sensor in service first). */
  sensors: ReadonlyMap<string, Sensor>;
  /** The report's moment: its date is the company's calendar date then. */
  issued: Date;
}

/** Order 248 Annex 4, sections 1–15 (13.4; the Russian titles are the platform's wording [A]). */
export const CLIMATE_REPORT_SECTIONS: readonly string[] = [
  "Общие сведения о климатическом проекте",
  "Краткое описание климатического проекта",
  "Соответствие критериям отнесения к климатическим проектам",
  "Сведения об отнесении проекта к климатическим проектам",
  "Тип климатического проекта",
  "Место реализации климатического проекта",
  "Методологии",
  "Перечень видов деятельности и объектов, в результате которых возникают выбросы парниковых газов",
  "Базовая линия",
  "Отклонения от методологий",
  "Сведения о ходе реализации климатического проекта",
  "Плановые, фактические и прогнозные сокращения выбросов парниковых газов",
  "Количество углеродных единиц к выпуску",
  "Консультации с экспертами",
  "План сбора первичных данных (план мониторинга)",
];

export const CLIMATE_REPORT_TITLE = "Отчет о реализации климатического проекта";
const PROJECT_TYPE = "сокращение (предотвращение) выбросов парниковых газов; утилизация и уничтожение метана угольных шахт";
const T = "т CO2-экв.";

/** Section 13.6's parameters as the report names them: unit and the decision or source they rest on. */
const PARAMETERS: Readonly<Record<keyof ClimateParams, { label: string; unit: string; basis: string; decimals: number }>> = {
  rho_ch4_kg_m3: { label: "Плотность метана ρ", unit: "кг/м³", basis: "§1.1, D70", decimals: 3 },
  gwp_ch4: { label: "ПГП метана", unit: "", basis: "2979-р, D77", decimals: 0 },
  cef_ch4_t_co2_per_t: { label: "CO2 при сжигании метана (44/16)", unit: "т CO2/т CH4", basis: "D74", decimals: 2 },
  t_std_k: { label: "Стандартная температура", unit: "К", basis: "D61", decimals: 2 },
  t_normal_k: { label: "Нормальная температура", unit: "К", basis: "D70", decimals: 2 },
  t_zero_c_k: { label: "0 °C", unit: "К", basis: "D70", decimals: 2 },
  p_std_kpa: { label: "Стандартное давление", unit: "кПа", basis: "D61", decimals: 3 },
  // Each kind's default efficiency as its module (climate-devices/) names it.
  ...(Object.fromEntries(
    DEVICE_KIND_SPECS.map(({ efficiency: { parameter } }) => [
      parameter.name,
      { label: parameter.label, unit: "доля", basis: parameter.source, decimals: 3 },
    ]),
  ) as Record<EfficiencyParameter, { label: string; unit: string; basis: string; decimals: number }>),
  t_eg_min_c: { label: "Порог температуры отходящих газов", unit: "°C", basis: "TOOL06 [R], D72", decimals: 0 },
  max_substituted_run_min: { label: "Наибольший замещаемый пропуск", unit: "мин", basis: "D71 [A]", decimals: 0 },
  min_measured_min_per_hour: { label: "Наименьшее число измеренных минут в часе", unit: "мин", basis: "D71 [A]", decimals: 0 },
  ef_grid_t_per_mwh: { label: "Коэффициент выбросов энергосистемы EF_grid", unit: "т CO2/МВт·ч", basis: "D51, D75", decimals: 3 },
  tdl_project: { label: "Потери в сетях TDL", unit: "доля", basis: "TOOL05 [R], D74", decimals: 3 },
  eta_bl_heat: { label: "КПД замещаемой котельной η_BL", unit: "доля", basis: "D75 [A]", decimals: 3 },
  ef_bl_heat_t_per_tj: { label: "Коэффициент выбросов топлива котельной EF_BL", unit: "т CO2/ТДж", basis: "§1.4, D75", decimals: 1 },
  lpg_ef_t_co2_per_t: { label: "Коэффициент выбросов СУГ", unit: "т CO2/т", basis: "§1.5, D74", decimals: 3 },
};

const FLOW_BASIS_NAMES = {
  standard_20C: "стандартные условия (20 °C, 101,325 кПа)",
  normal_0C: "нормальные условия (0 °C)",
  actual: "рабочие условия (по датчикам P и T)",
} as const;

const DEVIATION_RULES = {
  no_data: "D71",
  not_proven: "D72, D73",
  substituted: "D71",
  measured_fallback: "D72",
  el_not_credited: "D75",
  default_used: "D72, D73",
} as const;

/** Why an hour is not proven, in the report's words (the proofs' own, climate-devices/definition.ts). */
const ETA_BASIS_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BASIS_TEXTS).flatMap(([basis, words]) => (words.report ? [[basis, words.report]] : [])),
);

const EL_REASONS: Readonly<Record<string, string>> = {
  no_data: "час без данных",
  not_proven: "уничтожение не подтверждено",
  no_methane: "метан не подавался",
};

/** A register kind's range: «0–100», or «от 0» where it has no upper bound. */
function rangeText(kind: { min: number; max?: number } | undefined): string {
  if (!kind) return "—";
  const bound = (v: number) => formatNumber(v, Number.isInteger(v) ? 0 : 2);
  return typeof kind.max === "number" && Number.isFinite(kind.max) ? `${bound(kind.min)}–${bound(kind.max)}` : `от ${bound(kind.min)}`;
}

/** A figure as the report prints it: t and MWh with 3 decimals (D78), shares with 3, counts whole. */
const t3 = (v: number | undefined) => formatNumber(v ?? 0, 3);
const whole = (v: number | undefined) => formatNumber(v ?? 0, 0);

export { hoursText };

const channelCounts = (counts: unknown) =>
  Object.entries((counts ?? {}) as Record<string, number>)
    .map(([channel, minutes]) => `${CHANNEL_NAMES[channel as ClimateChannel] ?? channel} ${whole(minutes)} мин`)
    .join(", ");

/** D71's words per channel: the lower neighbour for flow, CH4 and pressure, the
 *  higher for the gas temperature (which gives less methane at actual conditions). */
const substitutedText = (counts: unknown) =>
  Object.entries((counts ?? {}) as Record<string, number>)
    .map(
      ([channel, minutes]) =>
        `${CHANNEL_NAMES[channel as ClimateChannel] ?? channel} ${whole(minutes)} мин (${channel === "t" ? "большим" : "меньшим"} соседним значением)`,
    )
    .join(", ");

/** A group of deviations (groupedDeviations: its totals over its hours) in the report's words. */
function deviationDetail(d: ClimateEvaluation["deviations"][number], params: ClimateParams): string {
  const detail = d.detail as Record<string, unknown>;
  switch (d.kind) {
    case "no_data":
      return `нет измерений: ${channelCounts(detail.missing_min)}`;
    case "substituted":
      return `замещено соседним значением, дающим меньше метана (D71): ${substitutedText(detail.substituted_min)}`;
    case "not_proven":
      return `${ETA_BASIS_NAMES[String(detail.eta_basis)] ?? String(detail.eta_basis)}${typeof detail.run_missing_min === "number" ? ` ${whole(detail.run_missing_min)} мин` : ""}; метан ${t3(Number(detail.m_ch4_t))} т, КПД 0`;
    case "measured_fallback":
      return `КПД ${formatNumber(Number(detail.eta), 3)} (наименьший измеренный за период, не выше 0,9)`;
    case "el_not_credited":
      return `${t3(Number(detail.e_gen_mwh))} МВт·ч: ${EL_REASONS[String(detail.reason)] ?? String(detail.reason)}`;
    case "default_used": {
      const parameter = String(detail.parameter) as keyof ClimateParams;
      const p = PARAMETERS[parameter];
      return `${p?.label ?? parameter}: ${formatNumber(Number(detail.value ?? params[parameter]), p?.decimals ?? 3)}${p?.unit ? ` ${p.unit}` : ""} (${p?.basis ?? ""})`;
    }
  }
}

/** The report of a period: sections 1–15 with what the platform fills and the executor's fields. */
export function climateReportContent(s: ClimateReportSources): ClimateReport {
  const { project, period, company, zone } = s;
  const fields = (s.hand?.fields ?? {}) as Partial<Record<ClimateReportHandKey, string>>;
  const t = period.totals as unknown as ClimateEvaluation["totals"];
  const params = period.params as unknown as ClimateParams;
  const devices = period.devices as unknown as ClimateEvaluation["devices"];
  const pointName = (id: string) => s.points.find((p) => p.id === id)?.name ?? "—";
  const periodText = `${dateTimeText(period.start, zone)} – ${dateTimeText(period.end, zone)}`;
  const issued = dateText(s.issued, zone);
  const hand = (number: number) =>
    CLIMATE_REPORT_HAND_KEYS.filter((key) => CLIMATE_REPORT_HAND_FIELDS[key].section === number).map((key) => ({
      key,
      label: CLIMATE_REPORT_HAND_FIELDS[key].label,
      text: fields[key] ?? "",
    }));
  const section = (number: number, filled: [string, string][], tables: Table[] = []): Section => ({
    number,
    title: CLIMATE_REPORT_SECTIONS[number - 1],
    filled: filled.map(([label, value]) => ({ label, value })),
    tables,
    hand: hand(number),
  });
  const summaryOf = (name: string) => devices.find((d) => d.id === name)?.summary;
  const destroyed = devices.reduce((sum, d) => sum + (d.summary.m_ch4_destroyed_t ?? 0), 0);
  const fuels = ((period.period as { fuels?: { name: string; t: number; ef_t_co2_per_t: number }[] }).fuels ?? []).map(
    (f) => `${f.name}: ${t3(f.t)} т × ${formatNumber(f.ef_t_co2_per_t, 3)} т CO2/т`,
  );
  const meterRows = project.devices.flatMap((device) =>
    Object.entries(device.sensors)
      .filter(([, code]) => code)
      .map(([channel, code]) => ({
        device,
        channel: channel as ClimateChannel,
        code: code as string,
        sensor: s.sensors.get(code as string),
      })),
  );
  const ownMeter = project.e_own_sensor ? s.sensors.get(project.e_own_sensor) : undefined;
  const periodEndDate = period.end.slice(0, 10);
  const calibration = (sensor: Sensor | undefined) => {
    if (!sensor) return { from: "—", to: "—", state: "нет в реестре" };
    const from = sensor.in_service_from ? dateText(sensor.in_service_from, zone) : "не задана";
    const to = sensor.in_service_to ? dateText(sensor.in_service_to, zone) : "не задана";
    const state =
      sensor.in_service_to && sensor.in_service_to < periodEndDate
        ? "истекла в периоде"
        : sensor.in_service_from && sensor.in_service_from > period.start.slice(0, 10)
          ? "начата в периоде"
          : sensor.in_service_from || sensor.in_service_to
            ? "действует"
            : "даты не заданы";
    return { from, to, state };
  };
  const minutesOf = (deviceName: string, channel: ClimateChannel) => {
    const device = devices.find((d) => d.id === deviceName);
    let missing = 0;
    let substituted = 0;
    for (const block of device?.blocks ?? []) {
      missing += ((block.missing_min as Record<string, number>)[channel] ?? 0) * block.repeat;
      substituted += ((block.substituted_min as Record<string, number>)[channel] ?? 0) * block.repeat;
    }
    const all = (device?.summary.hours ?? 0) * 60;
    return { valid: all - missing - substituted, substituted, missing };
  };
  const gas: readonly ClimateChannel[] = ["q", "c", "p", "t"];
  const byKind = (kind: keyof typeof DEVIATION_NAMES) => period.deviations.filter((d) => d.kind === kind);
  const hoursOfKind = (kind: keyof typeof DEVIATION_NAMES) => byKind(kind).reduce((sum, d) => sum + d.hours, 0);
  const notProvenMethane = byKind("not_proven").reduce((sum, d) => sum + Number(d.detail.m_ch4_t_per_hour) * d.hours, 0);
  const leakage = t.le_t_co2e ?? 0;
  // EF_grid as the period states it, with its source; none where it moves nothing.
  const stated = period.period as { e_grid_aux_mwh?: number; ef_grid_t_per_mwh?: number; ef_grid_source?: string; nmhc_pct_vol?: number };
  const gridUsed = usesGridFactor(project, stated) || Boolean(stated.ef_grid_source);
  const gridSource = stated.ef_grid_source ?? "источник не указан";
  const gridText = gridUsed
    ? `${formatNumber(params.ef_grid_t_per_mwh, 3)} — ${gridSource}`
    : "не применяется: период не зачитывает и не покупает электроэнергию";
  const perCredited = (() => {
    const credited = devices.reduce((sum, d) => sum + d.summary.hours_valid - d.summary.hours_not_proven, 0);
    return credited > 0 ? t.er_t_co2e / credited : 0;
  })();

  const sections: Section[] = [
    section(1, [
      ["Наименование климатического проекта", project.name],
      ["Номер в реестре углеродных единиц", fields.s4_registry_number || "не присвоен"],
      ["Исполнитель", company.name],
      ["ОГРН", company.ogrn || "—"],
      ["ИНН", company.inn || "—"],
      ["КПП", company.kpp || "—"],
      ["Адрес", company.postal_address || "—"],
      ["Отчетный период (время компании)", `${periodText} (${whole(period.hours)} ч)`],
      ["Версия отчета", s.hand ? `${whole(s.hand.version)} от ${dateText(s.hand.updated_at, zone)}` : "не сохранялся"],
      ["Дата составления", issued],
      ["Правила платформы (методика)", period.rules_version],
    ]),
    section(
      2,
      [
        ["Устройства", project.devices.map((d) => `${d.name} — ${DEVICE_KIND_NAMES[d.kind]}`).join("; ")],
        ["Источники газа", [...new Set(project.devices.map((d) => pointName(d.point)))].join("; ")],
        ["Начало проекта", dateText(project.start, zone)],
        ["Окончание периода кредитования", project.end ? dateText(project.end, zone) : "не задано"],
        ["Метан, направленный на устройства в периоде, т", t3(t.m_ch4_t)],
        ["Метан, уничтоженный в периоде, т", t3(destroyed)],
      ],
      [],
    ),
    section(3, [
      [
        "Дополнительность (D68)",
        "учитываются только устройства, установленные проектом, уничтожение метана в которых не требуется законом или лицензией; устройство, существовавшее до начала проекта, вне проекта",
      ],
      [
        "Утечки (D76)",
        leakage > 0
          ? `${t3(leakage)} ${T}, вычтены из сокращений`
          : `0 ${T}: утечки отсутствуют (требуется подписанное заявление исполнителя)`,
      ],
    ]),
    section(4, []),
    section(5, [["Тип проекта", PROJECT_TYPE]]),
    section(6, [
      ["Площадка", s.facility?.name ?? "—"],
      ["Адрес площадки", s.facility?.address || "не задан"],
      ["Регион", company.region || "—"],
    ]),
    section(
      7,
      [
        ["Методология", `${project.methodology.code}: ${project.methodology.name}`],
        ["Версия методологии", project.methodology.version],
        ["Источник", project.methodology.source],
        [
          "Инструменты",
          project.methodology.tools.length
            ? project.methodology.tools.map((tool) => `${tool.code} «${tool.name}», версия ${tool.version}`).join("; ")
            : "не заданы",
        ],
        ["Правила платформы", `${period.rules_version} (методика, раздел 13)`],
        [
          "Неметановые углеводороды (НМУВ) по анализу газа, % об. (D74)",
          typeof stated.nmhc_pct_vol === "number"
            ? `${formatNumber(stated.nmhc_pct_vol, 3)} (не более 1 %)`
            : "не заявлено — заполняется исполнителем по анализу газа",
        ],
      ],
      [
        {
          title: "Параметры расчета",
          columns: ["Параметр", "Значение", "Единица", "Основание"],
          rows: (Object.keys(PARAMETERS) as (keyof ClimateParams)[])
            .filter((key) => typeof params[key] === "number" && (key !== "ef_grid_t_per_mwh" || gridUsed))
            .map((key) => [
              PARAMETERS[key].label,
              formatNumber(params[key], PARAMETERS[key].decimals),
              PARAMETERS[key].unit,
              key === "ef_grid_t_per_mwh" ? `${gridSource} (${PARAMETERS[key].basis})` : PARAMETERS[key].basis,
            ]),
        },
      ],
    ),
    section(
      8,
      [
        ["Счетчик собственных нужд", project.e_own_sensor ? `${project.e_own_sensor}: ${t3(t.e_own_mwh)} МВт·ч` : "нет"],
        ["Покупная электроэнергия на собственные нужды проекта, МВт·ч", t3(t.e_grid_aux_mwh)],
        ["Вспомогательное топливо", fuels.length ? fuels.join("; ") : "нет"],
      ],
      [
        {
          title: "Устройства и их работа в периоде",
          columns: ["Устройство", "Вид", "Источник газа", "Расход приводится", "Часов в периоде", "Часов с подтвержденным уничтожением"],
          rows: project.devices.map((d) => {
            const summary = summaryOf(d.name);
            return [
              d.name,
              DEVICE_KIND_NAMES[d.kind as DeviceKind],
              pointName(d.point),
              FLOW_BASIS_NAMES[d.flow_basis],
              whole(summary?.hours),
              whole((summary?.hours_valid ?? 0) - (summary?.hours_not_proven ?? 0)),
            ];
          }),
        },
      ],
    ),
    section(
      9,
      [
        [`Базовые выбросы метана BE_CH4, ${T}`, t3(t.be_ch4_t_co2e)],
        ["Электроэнергия зачтенная / собственные нужды / нетто, МВт·ч", `${t3(t.e_cred_mwh)} / ${t3(t.e_own_mwh)} / ${t3(t.e_net_mwh)}`],
        ["Базовые выбросы по электроэнергии BE_el, т CO2", t3(t.be_el_t_co2)],
        ["Тепло зачтенное, ГДж", t3(t.heat_cred_gj)],
        ["Базовые выбросы по теплу BE_heat, т CO2", t3(t.be_heat_t_co2)],
        [`Базовые выбросы BE, ${T}`, t3(t.be_t_co2e)],
        ["EF_grid, т CO2/МВт·ч", gridText],
        ["EF_BL, т CO2/ТДж; η_BL", `${formatNumber(params.ef_bl_heat_t_per_tj, 1)} (§1.4); ${formatNumber(params.eta_bl_heat, 3)}`],
      ],
      [
        {
          title: "Базовые выбросы по устройствам",
          columns: ["Устройство", "Метан, т", `BE_CH4, ${T}`, "Электроэнергия зачтенная, МВт·ч", "Тепло зачтенное, ГДж"],
          rows: devices.map((d) => [
            d.id,
            t3(d.summary.m_ch4_t),
            t3(d.summary.be_ch4),
            t3(d.summary.e_cred_mwh),
            t3(d.summary.heat_cred_gj),
          ]),
        },
      ],
    ),
    section(
      10,
      [
        ["Часов без данных", whole(hoursOfKind("no_data"))],
        ["Часов с неподтвержденным уничтожением", whole(hoursOfKind("not_proven"))],
        ["Метан в часах с неподтвержденным уничтожением, т", t3(notProvenMethane)],
        ["Часов с замещенными минутами", whole(hoursOfKind("substituted"))],
        ["Выработка не зачтена, МВт·ч", t3(devices.reduce((sum, d) => sum + d.summary.e_gen_not_credited_mwh, 0))],
        ...project.devices.flatMap((d) =>
          (deviceKindOf(d.kind)?.standing ?? []).map((text): [string, string] => [`Постоянное отклонение: ${d.name}`, text]),
        ),
      ],
      [
        {
          title: "Перечень отклонений",
          columns: ["Устройство", "Часы", "Отклонение", "Часов", "Подробно", "Правило"],
          rows: groupedDeviations(period.deviations).map((d) => [
            d.device,
            hoursText(d.label, zone),
            DEVIATION_NAMES[d.kind],
            whole(d.hours),
            deviationDetail(d as ClimateEvaluation["deviations"][number], params),
            DEVIATION_RULES[d.kind],
          ]),
        },
      ],
    ),
    section(
      11,
      [],
      [
        {
          title: "Часы устройств в периоде",
          columns: ["Устройство", "Часов", "Учтено", "Уничтожение подтверждено", "Не подтверждено", "Нет данных", "Замещено минут"],
          rows: devices.map((d) => [
            d.id,
            whole(d.summary.hours),
            whole(d.summary.hours_valid),
            whole(d.summary.hours_valid - d.summary.hours_not_proven),
            whole(d.summary.hours_not_proven),
            whole(d.summary.hours_no_data),
            whole(d.summary.substituted_min),
          ]),
        },
        {
          title: "Поверка приборов",
          columns: ["Код", "Устройство", "Канал", "Поверка с", "Поверка по", "Состояние"],
          rows: [
            ...meterRows.map((m) => {
              const c = calibration(m.sensor);
              return [m.code, m.device.name, CHANNEL_NAMES[m.channel], c.from, c.to, c.state];
            }),
            ...(project.e_own_sensor
              ? [
                  (() => {
                    const c = calibration(ownMeter);
                    return [project.e_own_sensor as string, "проект", "собственные нужды", c.from, c.to, c.state];
                  })(),
                ]
              : []),
          ],
        },
      ],
    ),
    section(
      12,
      [
        [`Фактическое сокращение за период ER, ${T}`, t3(t.er_t_co2e)],
        ["Плановые сокращения при регистрации", "не заданы в платформе"],
        [`Сокращение на час с подтвержденным уничтожением (оценка), ${T}`, t3(perCredited)],
      ],
      [
        {
          title: "Фактические сокращения по устройствам",
          columns: ["Устройство", `ER метана, ${T}`, "Метан уничтожен, т"],
          rows: devices.map((d) => [d.id, t3(d.summary.er_ch4), t3(d.summary.m_ch4_destroyed_t)]),
        },
      ],
    ),
    section(13, [
      [`Базовые выбросы BE, ${T}`, t3(t.be_t_co2e)],
      [`Проектные выбросы PE, ${T}`, t3(t.pe_t_co2e)],
      [`в том числе несгоревший метан PE_UM, ${T}`, t3(t.pe_um_t_co2e)],
      ["в том числе CO2 сгоревшего метана PE_MD, т CO2", t3(t.pe_md_t_co2)],
      ["в том числе электроэнергия PE_ME, т CO2", t3(t.pe_me_t_co2)],
      ["в том числе топливо PE_FC, т CO2", t3(t.pe_fc_t_co2)],
      [`Утечки LE, ${T}`, t3(t.le_t_co2e)],
      [`Сокращение до переноса ER_raw, ${T}`, t3(t.er_raw_t_co2e)],
      [`Дефицит, перенесенный из прошлых периодов, ${T}`, t3(t.deficit_prev_t_co2e)],
      [`Сокращение выбросов ER, ${T}`, t3(t.er_t_co2e)],
      [`Дефицит на следующий период, ${T}`, t3(t.deficit_carried_t_co2e)],
      ["Углеродные единицы к выпуску", whole(period.carbon_units)],
    ]),
    section(14, []),
    section(
      15,
      [
        [
          "Минутные значения (D70)",
          "среднее достоверных показаний минуты; доказательство — каждое показание минуты; T отходящих газов — минимум минуты; вне дат поверки показания недостоверны",
        ],
        [
          "Достоверность часа (D71)",
          `не меньше ${whole(params.min_measured_min_per_hour)} измеренных минут каждого газового канала; пропуск до ${whole(params.max_substituted_run_min)} минут замещается соседним значением, дающим меньше метана`,
        ],
        ["КПД (D72, D73)", "по умолчанию только при подтвержденном уничтожении в каждой минуте часа, иначе 0"],
        [
          "Выбросы и базовая линия (D74, D75)",
          "PE_UM и PE_MD по часам; электроэнергия и тепло — только в часах с подтвержденным уничтожением",
        ],
      ],
      [
        {
          title: "Реестр приборов плана мониторинга",
          columns: ["Параметр", "Устройство", "Код", "Вид датчика", "Единица", "Диапазон", "Условия", "Поверка с", "Поверка по"],
          rows: meterRows.map((m) => {
            const kind = m.sensor ? SENSOR_KINDS[m.sensor.kind] : undefined;
            const c = calibration(m.sensor);
            return [
              CHANNEL_NAMES[m.channel],
              m.device.name,
              m.code,
              kind?.label ?? "—",
              kind?.unit ?? "—",
              rangeText(kind),
              m.channel === "q" ? FLOW_BASIS_NAMES[m.device.flow_basis] : m.sensor?.conditions === "actual" ? "рабочие" : "стандартные",
              c.from,
              c.to,
            ];
          }),
        },
        {
          title: "Минуты газовых каналов в периоде",
          columns: ["Устройство", "Канал", "Код", "Измерено", "Замещено", "Нет данных"],
          rows: meterRows
            .filter((m) => gas.includes(m.channel))
            .map((m) => {
              const minutes = minutesOf(m.device.name, m.channel);
              return [
                m.device.name,
                CHANNEL_NAMES[m.channel],
                m.code,
                whole(minutes.valid),
                whole(minutes.substituted),
                whole(minutes.missing),
              ];
            }),
        },
      ],
    ),
  ];
  const empty = sections.reduce((sum, sec) => sum + sec.hand.filter((f) => f.text.trim() === "").length, 0);
  return {
    project: project.id,
    period: period.id,
    title: `${CLIMATE_REPORT_TITLE} «${project.name}»`,
    subtitle: `Отчетный период ${periodText} (время компании); методология ${project.methodology.code} версии ${project.methodology.version}; правила платформы ${period.rules_version}`,
    issued,
    file_name:
      `Отчет о реализации ${project.name} ${dateText(includedDays(period).first, zone)}–${dateText(includedDays(period).last, zone)}`.replace(
        /[\\/:*?"<>|]/g,
        " ",
      ),
    version: s.hand?.version ?? 0,
    updated_at: s.hand?.updated_at ?? null,
    updated_by: s.hand?.updated_by ?? null,
    empty_hand: empty,
    missing: reportMissing(fields, period.deviations, zone),
    sections,
  };
}
