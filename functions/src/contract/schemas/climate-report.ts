// The report on implementation of a climate project's monitoring period (methodology 13.4, D80
// item 3): sections 1–15 in the order of MinEcon Order 248 Annex 4. Each section holds what the platform
// fills from its data (items and tables, every figure already written the Russian way, as the screen and
// the files show it) and the fields the executor writes by hand («заполняется исполнителем»), kept with
// the period, versioned.
import * as z from "zod";
import { LIMITS } from "./limits";

/** The hand-written fields of the report by section (13.4's right column): key → section and name. */
export const CLIMATE_REPORT_HAND_FIELDS = {
  s1_contact: { section: 1, label: "Контактное лицо исполнителя (Ф. И. О., должность, телефон, e-mail)" },
  s1_preparer: { section: 1, label: "Лицо, подготовившее отчет по договору (если не исполнитель)" },
  s2_description: { section: 2, label: "Описание климатического проекта и его цели" },
  s3_criteria: {
    section: 3,
    label: "Обоснование по каждому критерию: законность, дополнительность, отсутствие утечек, причинно-следственная связь",
  },
  s4_validator: { section: 4, label: "Орган по валидации (верификации)" },
  s4_conclusion: { section: 4, label: "Номер и дата заключения о валидации" },
  s4_registration: { section: 4, label: "Дата регистрации в реестре углеродных единиц" },
  s4_registry_number: { section: 4, label: "Номер проекта в реестре углеродных единиц" },
  s5_category: { section: 5, label: "Подтверждение категории проекта в формулировке реестра" },
  s6_location: { section: 6, label: "Дополнительные сведения о месте реализации (по форме)" },
  s9_scenario: { section: 9, label: "Сценарий базовой линии и его обоснование" },
  s10_explanations: { section: 10, label: "Пояснения к каждой группе отклонений" },
  s11_progress: { section: 11, label: "Ход реализации: строительство, инвестиции, события периода" },
  s12_projected: { section: 12, label: "Прогнозные сокращения выбросов" },
  s14_consultations: { section: 14, label: "Консультации с экспертами (или «не проводились»)" },
  s15_responsibilities: { section: 15, label: "Ответственные за сбор и хранение первичных данных" },
  s15_qa: { section: 15, label: "Процедуры контроля и обеспечения качества данных (QA/QC)" },
  s15_accuracy: { section: 15, label: "Классы точности и диапазоны измерений приборов" },
} as const;
export type ClimateReportHandKey = keyof typeof CLIMATE_REPORT_HAND_FIELDS;
export const CLIMATE_REPORT_HAND_KEYS = Object.keys(CLIMATE_REPORT_HAND_FIELDS) as [ClimateReportHandKey, ...ClimateReportHandKey[]];

/** The mark of what the executor writes (13.4). */
export const HAND_MARK = "заполняется исполнителем";

const handText = () =>
  z.string("ожидается текст").check(z.trim(), z.maxLength(LIMITS.climate.reportText, `не длиннее ${LIMITS.climate.reportText} символов`));

/** PATCH …/report/: the hand-written fields given (the others stay), with the version read. */
export const climateReportPatchSchema = z.strictObject(
  {
    fields: z.strictObject(
      Object.fromEntries(CLIMATE_REPORT_HAND_KEYS.map((key) => [key, handText().optional()])) as Record<
        ClimateReportHandKey,
        z.ZodOptional<ReturnType<typeof handText>>
      >,
      {
        error: (issue) =>
          issue.code === "unrecognized_keys" ? `нет такого поля в отчете: ${issue.keys.join(", ")}` : "ожидается объект полей отчета",
      },
    ),
    version: z
      .int("ожидается целое число")
      .gte(0, "ожидается целое число")
      .meta({ description: "the version read (0 before the first save): a stale one is 409" }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "такого поля нет в запросе" : undefined) },
);

export const climateReportItemSchema = z.object({ label: z.string(), value: z.string() });
export const climateReportTableSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});

export const climateReportSectionSchema = z.object({
  number: z.int(),
  title: z.string(),
  filled: z.array(climateReportItemSchema).meta({ description: "what the platform fills from its data, label and value as shown" }),
  tables: z.array(climateReportTableSchema),
  hand: z
    .array(z.object({ key: z.enum(CLIMATE_REPORT_HAND_KEYS), label: z.string(), text: z.string() }))
    .meta({ description: "«заполняется исполнителем»: the executor's fields, empty until written" }),
});

export const climateReportSchema = z.object({
  project: z.string(),
  period: z.string(),
  title: z.string(),
  subtitle: z.string().meta({ description: "the project, the period and the rules on one line" }),
  issued: z.string().meta({ description: "the report's date on the company's clock, ДД.ММ.ГГГГ" }),
  file_name: z.string().meta({ description: "the file's name without its extension" }),
  version: z.int().meta({ description: "the hand-written fields' version: 0 before the first save" }),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
  empty_hand: z.int().meta({ description: "hand-written fields still empty (each blocks approval, D80)" }),
  missing: z
    .object({
      fields: z.array(z.object({ key: z.enum(CLIMATE_REPORT_HAND_KEYS), section: z.int(), label: z.string() })),
      deviation_groups: z.array(z.string()).meta({ description: "«Ф-1, 01.06.2026 02:00 – 02:59: уничтожение не подтверждено»" }),
    })
    .meta({
      description:
        "what blocks the approval (D79, D80): the empty hand-written fields, and the deviation groups needing an explanation while section 10's is empty",
    }),
  sections: z.array(climateReportSectionSchema),
});

export type ClimateReport = z.output<typeof climateReportSchema>;

/** The hand-written fields as stored with the period (one record a period). */
export const climateReportHandSchema = z.object({
  company: z.string(),
  project: z.string(),
  period: z.string(),
  fields: z.record(z.string(), z.string()),
  version: z.int(),
  updated_at: z.string(),
  updated_by: z.string(),
});
