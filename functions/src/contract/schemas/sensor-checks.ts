// D94: a methane sensor's check as the API accepts and answers it — the columns of the
// «Метан» maintenance journal (the form «Журнал эксплуатации и обслуживания» of the 2006
// methodological recommendations on АГК) with its three signatures
// (POST/GET v1/facilities/{id}/sensors/{sensor}/checks/, POST …/checks/{check}/sign/,
// GET v1/facilities/{id}/sensor-checks/).
import * as z from "zod";
import { CHECK_DUTIES, CHECK_DUTY_LABELS, CHECK_KINDS, CHECK_KIND_LABELS, CHECK_RESULTS, CHECK_RESULT_LABELS } from "@core/sensor-checks";
import { SENSOR_KIND_NAMES } from "@core/monitoring";
import { idString, isoDate } from "./common";
import { isoTime } from "./dates";
import { SENSOR_ROLES, type SensorRole } from "./sensor";
import { LIMITS } from "./limits";
import { evidenceSchema } from "./answers";

const text = (max: number = LIMITS.sensorChecks.text) =>
  z.optional(z.string("ожидается строка").check(z.trim(), z.maxLength(max, `не длиннее ${max} символов`)));
const percent = (what: string) =>
  z.optional(z.nullable(z.number(`ожидается ${what}, % об.`).check(z.gte(0, "не меньше 0 %"), z.lte(100, "не больше 100 %"))));
const tested = (what: string) =>
  z.optional(z.nullable(z.boolean(`${what}: true (сработало), false (не сработало) или null (не проверялось)`)));

/** A shift's key, ГГГГ-ММ-ДД#n. */
const SHIFT_KEY = /^\d{4}-\d{2}-\d{2}#\d$/;

/** A field a body does not have is refused, never quietly dropped (as a project's or a sensor's PATCH). */
const unknownIn = (what: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === "unrecognized_keys" ? `такого поля нет у ${what}: ${(issue.keys as string[]).join(", ")}` : undefined;

/** An ISO 8601 time to the minute: with its zone («…Z», «…+07:00»), or without one — then on the
 *  company's clock (the domain reads it there); a day of the calendar (schemas/dates.ts). */
export { ISO_TIME } from "./dates";

export const sensorCheckCreateSchema = z.strictObject(
  {
    at: isoTime("укажите время проверки (ISO 8601)").meta({
      description: "When it was done (ISO 8601; without a zone: on the company's clock); its shift is derived on the facility's shifts",
    }),
    kind: z.enum(CHECK_KINDS, `вид проверки: ${CHECK_KINDS.map((k) => `${k} (${CHECK_KIND_LABELS[k]})`).join(", ")}`),
    reading_pct: percent("показание датчика"),
    reference_pct: percent("показание контрольного прибора (интерферометра)"),
    reference_instrument: text(LIMITS.sensorChecks.referenceInstrument).meta({
      description: "The reference instrument, e.g. «ШИ-11 № 4512»",
    }),
    button_test_ok: tested("проверка кнопкой «Контроль»"),
    test_gas_pct: percent("концентрация контрольной смеси"),
    test_gas_cylinder: z.optional(
      z.nullable(
        z.strictObject(
          {
            number: z
              .string("укажите номер баллона")
              .check(
                z.trim(),
                z.minLength(1, "укажите номер баллона"),
                z.maxLength(LIMITS.sensorChecks.cylinderNumber, `не длиннее ${LIMITS.sensorChecks.cylinderNumber} символов`),
              ),
            valid_to: isoDate().meta({ description: "The cylinder's mixture is valid to (inclusive)" }),
          },
          { error: unknownIn("баллона") },
        ),
      ),
    ),
    alarm_ok: tested("срабатывание сигнализации от контрольной смеси"),
    cutoff_ok: tested("отключение электроэнергии от контрольной смеси"),
    result: z.enum(CHECK_RESULTS, `результат: passed (${CHECK_RESULT_LABELS.passed}) или failed (${CHECK_RESULT_LABELS.failed})`),
    fault: text().meta({ description: "The fault found; required when failed" }),
    measures: text().meta({ description: "The measures taken" }),
    planned_work: text().meta({ description: "Planned works" }),
    follows: z.optional(z.nullable(idString())).meta({ description: "The check (id) this one corrects; the earlier stays as signed" }),
  },
  { error: unknownIn("проверки") },
);

export const sensorCheckSignSchema = z.strictObject(
  {
    duty: z.enum(CHECK_DUTIES, `подписывает: ${CHECK_DUTIES.map((d) => `${d} (${CHECK_DUTY_LABELS[d]})`).join(", ")}`),
  },
  { error: unknownIn("подписи") },
);

const signature = z.nullable(
  z.object({
    by: z.string().meta({ description: "Surname and initials of the user with that duty" }),
    at: z.string(),
  }),
);

export const sensorCheckSchema = z.object({
  id: z.string(),
  facility: z.string(),
  sensor: z.string(),
  sensor_code: z.string(),
  at: z.string(),
  shift: z.string().meta({ description: "ГГГГ-ММ-ДД#n on the facility's shifts" }),
  shift_name: z.string().meta({ description: "«Смена 2 (08:00–16:00)»" }),
  kind: z.enum(CHECK_KINDS),
  reading_pct: z.nullable(z.number()),
  reference_pct: z.nullable(z.number()),
  deviation_pct: z.nullable(z.number()).meta({ description: "reading − reference, % об. (derived)" }),
  reference_instrument: z.string(),
  button_test_ok: z.nullable(z.boolean()),
  test_gas_pct: z.nullable(z.number()),
  test_gas_cylinder: z.nullable(z.object({ number: z.string(), valid_to: z.string() })),
  alarm_ok: z.nullable(z.boolean()),
  cutoff_ok: z.nullable(z.boolean()),
  result: z.enum(CHECK_RESULTS),
  result_text: z.string(),
  fault: z.string(),
  measures: z.string(),
  planned_work: z.string(),
  follows: z.nullable(z.string()),
  followed_by: z.nullable(z.string()).meta({ description: "The later check that corrects this one, if any" }),
  recorded_by: z.string().meta({ description: "Surname and initials" }),
  recorded_at: z.string(),
  signatures: z.object(
    Object.fromEntries(CHECK_DUTIES.map((d) => [d, signature])) as Record<(typeof CHECK_DUTIES)[number], typeof signature>,
  ),
  signed: z.boolean().meta({ description: "All three signatures given" }),
});

export const sensorCheckListSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  from: z.string(),
  to: z.string(),
  results: z.array(sensorCheckSchema).meta({ description: "Newest first" }),
});

export const sensorCheckPeriodQuery = z.object({
  from: z.optional(isoDate()).meta({ description: "First company day (default: 30 days before `to`)" }),
  to: z.optional(isoDate()).meta({ description: "Last company day (default: today)" }),
});

export const SENSOR_CHECK_PERIOD_DAYS = LIMITS.monitoring.gassingsPeriodDays;

export type SensorCheckView = z.output<typeof sensorCheckSchema>;
export type SensorCheckList = z.output<typeof sensorCheckListSchema>;
export type SensorCheckBody = z.input<typeof sensorCheckCreateSchema>;

// ---- item 2: the mine's own intervals, and what is due --------------------------------------------

/** A rule of the mine's АГК project: sensors of a kind and/or role are checked each shift or every N days. */
export const checkIntervalRuleSchema = z
  .strictObject(
    {
      kind: z.optional(z.nullable(z.enum(SENSOR_KIND_NAMES, "вид датчика из реестра или null (любой)"))),
      role: z.optional(z.nullable(z.enum(Object.keys(SENSOR_ROLES) as [SensorRole, ...SensorRole[]], "роль датчика или null (любая)"))),
      per: z.enum(["shift", "days"], "shift (каждую смену) или days (раз в N дней)"),
      days: z.optional(
        z.nullable(
          z
            .int("целое число дней")
            .check(
              z.gte(1, "не меньше 1 дня"),
              z.lte(LIMITS.sensorChecks.intervalDays, `не больше ${LIMITS.sensorChecks.intervalDays.toLocaleString("ru-RU")} дней`),
            ),
        ),
      ),
    },
    { error: unknownIn("правила") },
  )
  .check(z.refine((r) => r.per !== "days" || (r.days ?? null) !== null, { message: "укажите, раз в сколько дней", path: ["days"] }));

export const checkIntervalsBodySchema = z.strictObject(
  {
    rules: z
      .array(checkIntervalRuleSchema)
      .check(z.maxLength(LIMITS.sensorChecks.intervalRules, `не больше ${LIMITS.sensorChecks.intervalRules} правил`)),
    source: z
      .string("укажите документ шахты, который задает интервалы (проект АГК, график)")
      .check(
        z.trim(),
        z.minLength(1, "укажите документ шахты, который задает интервалы (проект АГК, график)"),
        z.maxLength(LIMITS.sensorChecks.intervalSource, `не длиннее ${LIMITS.sensorChecks.intervalSource} символов`),
      ),
    version: z.int("ожидается версия, прочитанная со страницы").check(z.gte(0)),
  },
  { error: unknownIn("интервалов проверок") },
);

export const checkIntervalsSchema = z.object({
  facility: z.string(),
  rules: z.array(
    z.object({
      kind: z.nullable(z.enum(SENSOR_KIND_NAMES)),
      role: z.nullable(z.string()),
      per: z.enum(["shift", "days"]),
      days: z.nullable(z.int()),
    }),
  ),
  source: z.string().meta({ description: "The mine's document the intervals come from (its АГК project, a schedule)" }),
  updated_by: z.nullable(z.string()),
  updated_at: z.nullable(z.string()),
  version: z.int().meta({ description: "0: never set" }),
});

/** What is due of one sensor, derived from its checks and the mine's rule (never typed). */
export const sensorCheckStateSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  kind: z.string(),
  working: z.string(),
  rule: z.nullable(z.string()).meta({ description: "The mine's interval in words («каждую смену», «раз в 30 дн.»); null: none set" }),
  last_check: z.nullable(z.object({ id: z.string(), at: z.string(), result: z.enum(CHECK_RESULTS) })),
  failed: z.boolean().meta({ description: "Its latest check failed (until a later passed one)" }),
  next_due: z.nullable(z.string()).meta({ description: "When the next check is due (ISO instant); null without a rule or a check" }),
  overdue_days: z.nullable(z.int()).meta({ description: "Whole days (rounded up) past next_due; null when not overdue" }),
  problems: z.array(z.string()).meta({
    description: "«датчик не прошел проверку 03.03.2026», «проверка просрочена на 2 дн.», «вне поверки с 10.03.2026», …",
  }),
  verification: z.string().meta({ description: "Item 3: «поверен до ДД.ММ.ГГГГ», «вне поверки с ДД.ММ.ГГГГ» or «поверка не записана»" }),
  out_of_verification_from: z.nullable(z.string()).meta({ description: "The first day out of verification, or null" }),
});

export const sensorCheckStatesSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  at: z.string(),
  rules_source: z.string(),
  sensors: z.array(sensorCheckStateSchema),
});

export type CheckIntervalsView = z.output<typeof checkIntervalsSchema>;
export type CheckIntervalsBody = z.input<typeof checkIntervalsBodySchema>;
export type SensorCheckState = z.output<typeof sensorCheckStateSchema>;
export type SensorCheckStates = z.output<typeof sensorCheckStatesSchema>;

// ---- item 3: the sensor's state verification (поверка) as a measuring instrument ---------------------

const line = (empty: string, max: number) =>
  z.string(empty).check(z.trim(), z.minLength(1, empty), z.maxLength(max, `не длиннее ${max} символов`));

export const verificationCreateSchema = z
  .strictObject(
    {
      instrument_type: line("укажите тип средства измерений (например, «ДМС 03»)", LIMITS.sensorChecks.instrumentType),
      register_number: line("укажите регистрационный номер типа в Госреестре СИ", LIMITS.sensorChecks.registerNumber),
      serial: line("укажите заводской номер", LIMITS.sensorChecks.serial),
      verified_on: isoDate().meta({ description: "The day of the verification" }),
      valid_to: isoDate().meta({ description: "Valid to (inclusive)" }),
      certificate: line("укажите номер свидетельства (записи) о поверке", LIMITS.sensorChecks.certificate),
      corrects: z
        .optional(z.nullable(idString()))
        .meta({ description: "The verification (id) of this sensor this one corrects: it stays listed and no longer counts" }),
    },
    { error: unknownIn("поверки") },
  )
  .check(z.refine((v) => v.valid_to >= v.verified_on, { message: "действительна до — не раньше даты поверки", path: ["valid_to"] }));

export const verificationSchema = z.object({
  id: z.string(),
  sensor: z.string(),
  instrument_type: z.string(),
  register_number: z.string(),
  serial: z.string(),
  verified_on: z.string(),
  valid_to: z.string(),
  certificate: z.string(),
  corrects: z.nullable(z.string()).meta({ description: "The verification this one corrects, or null" }),
  corrected_by: z.nullable(z.string()).meta({ description: "The verification correcting this one (then it no longer counts), or null" }),
  recorded_by: z.string().meta({ description: "Surname and initials" }),
  recorded_at: z.string(),
  certificate_file: z.optional(
    z
      .object({
        ...evidenceSchema.shape,
        uploaded_by: z.string().meta({ description: "Who attached it: surname and initials" }),
      })
      .meta({
        description:
          "The certificate's scan (PDF, PNG or JPEG), attached once after the record and marked with who and when; " +
          "downloaded from …/verifications/{verification}/certificate/",
      }),
  ),
});

export const verificationListSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  state: z.enum(["valid", "expired", "none"]).meta({ description: "At now: within the latest verification, past it, or none recorded" }),
  state_text: z.string(),
  results: z.array(verificationSchema).meta({ description: "Newest verified first" }),
});

export type VerificationView = z.output<typeof verificationSchema>;
export type VerificationList = z.output<typeof verificationListSchema>;
export type VerificationBody = z.input<typeof verificationCreateSchema>;

// ---- item 5: the shift handover (D95) -----------------------------------------------------------------

export const handoverCreateSchema = z.strictObject(
  {
    bypassed: z
      .optional(
        z
          .array(
            z.strictObject(
              {
                sensor: idString("выберите датчик"),
                note: z
                  .string("ожидается строка")
                  .check(z.trim(), z.maxLength(LIMITS.sensorChecks.bypassNote, `не длиннее ${LIMITS.sensorChecks.bypassNote} символов`)),
              },
              { error: unknownIn("отключенной защиты") },
            ),
          )
          .check(
            z.maxLength(LIMITS.sensorChecks.bypassedSensors, `не больше ${LIMITS.sensorChecks.bypassedSensors} датчиков`),
            z.refine((list) => new Set(list.map((b) => b.sensor)).size === list.length, "датчик назван дважды: одна строка на датчик"),
          ),
      )
      .meta({ description: "Protections bypassed (what only people know), with the sensor (each sensor once)" }),
    remarks: text().meta({ description: "What else the shift hands over" }),
    shift_from: z
      .optional(z.string("укажите смену (ГГГГ-ММ-ДД#n)").check(z.refine((v) => SHIFT_KEY.test(v), "укажите смену в виде ГГГГ-ММ-ДД#n")))
      .meta({
        description:
          "The shift handed over: the one now (default) or the one that has just ended (a handover written after the shift's end)",
      }),
    corrects: z.optional(z.nullable(idString())).meta({ description: "The signed handover (id) this one corrects" }),
  },
  { error: unknownIn("передачи смены") },
);

const openItem = z.object({ code: z.string(), working: z.string(), text: z.string() });

export const handoverSchema = z.object({
  id: z.string(),
  facility: z.string(),
  shift_from: z.string(),
  shift_from_name: z.string(),
  shift_to: z.string(),
  shift_to_name: z.string(),
  at: z.string().meta({ description: "When the lists were filled (the handover's time)" }),
  open: z.object({
    gassings: z.array(openItem).meta({ description: "Meters at or above their alarm level now, and the book's entries not closed" }),
    silent: z.array(openItem).meta({ description: "Meters and flows without a reading for two expected intervals" }),
    levels: z.array(openItem).meta({ description: "Meters at or above 0,9·W now (below the alarm)" }),
    checks: z.array(openItem).meta({ description: "Checks failed or overdue" }),
    verification: z.array(openItem).meta({ description: "Sensors out of verification" }),
    forecasts: z
      .array(openItem)
      .meta({ description: "Forecasts whose chance of the limit is shown (judged reliable, D96) and ≥ 0,5, each named by its meter" }),
    scheme: z.optional(z.array(openItem)).meta({
      description:
        "D106: each section's scheme at handover in one line (`code` the section, the meters in airflow order with value and state); not an open item; absent in a handover written before",
    }),
    questioned: z.optional(z.array(openItem)).meta({
      description:
        "D102–D105: readings questioned (suspect events) of the last day not answered yet, each with its sentence; absent in a handover written before",
    }),
    cutoffs: z.array(openItem).meta({
      description:
        "D104: cut-offs not confirmed by the run channel that are not yet confirmed (answered or not); empty in a handover written before",
    }),
  }),
  bypassed: z.array(z.object({ sensor: z.string(), code: z.string(), note: z.string() })),
  remarks: z.string(),
  corrects: z.nullable(z.string()),
  corrected_by: z.nullable(z.string()),
  handed_by: z.string().meta({ description: "Surname and initials of who handed over (signed with the record)" }),
  handed_at: z.string(),
  taken_by: z.nullable(z.string()).meta({ description: "Surname and initials of who took over; null until signed" }),
  taken_at: z.nullable(z.string()),
  signed: z.boolean().meta({ description: "Both signed: it never changes" }),
});

export const handoverListSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  from: z.string(),
  to: z.string(),
  results: z.array(handoverSchema).meta({ description: "Newest first" }),
});

export type HandoverView = z.output<typeof handoverSchema>;
export type HandoverList = z.output<typeof handoverListSchema>;
export type HandoverBody = z.input<typeof handoverCreateSchema>;

// ---- item 5: the operator's journal of a shift signed after the handover into it (D95) -----------------

export const journalSignSchema = z.strictObject(
  {
    shift: z
      .string("укажите смену (ГГГГ-ММ-ДД#n)")
      .check(z.refine((v) => /^\d{4}-\d{2}-\d{2}#\d$/.test(v), "укажите смену в виде ГГГГ-ММ-ДД#n")),
  },
  { error: unknownIn("подписи журнала") },
);

export const journalSignatureSchema = z.object({
  shift: z.string(),
  shift_name: z.string(),
  by: z.string().meta({ description: "Surname and initials of the АГК operator who signed" }),
  at: z.string(),
  handover: z.nullable(z.string()).meta({
    description:
      "The handover into the shift, signed by both, that allowed it; null for a shift before the facility's first handover in the platform (D100)",
  }),
  statement: z.nullable(z.string()).meta({
    description:
      "D100: «передача смены в платформе не велась» on a shift signed without a handover (history loaded before the first); null otherwise",
  }),
});

export const journalSignaturesSchema = z.object({
  facility: z.string(),
  date: z.string(),
  results: z.array(journalSignatureSchema),
});

export const journalSignaturesQuery = z.object({ date: isoDate().meta({ description: "The company day" }) });

export type JournalSignatureView = z.output<typeof journalSignatureSchema>;
export type JournalSignatures = z.output<typeof journalSignaturesSchema>;

// ---- item 6: the documents (the «Метан» journal, the handovers, the sensor register) -------------------

export const instrumentFileQuery = sensorCheckPeriodQuery.extend({
  format: z.enum(["xlsx", "pdf"], "xlsx или pdf").meta({ description: "xlsx or pdf" }),
});

/** What the «Метан» journal of a period as a file is made of: the checks with their sensors' working (the
 *  route the check was made on) and place of installation, by sensor id (the worker's wire validates it). */
export const checksDocumentSchema = sensorCheckListSchema.extend({
  zone: z.string(),
  issued_at: z.string(),
  sensors: z.record(z.string(), z.object({ working: z.string(), place: z.string() })),
});

export const handoversDocumentSchema = handoverListSchema.extend({ zone: z.string(), issued_at: z.string() });

const maybe = z.nullable(z.string());

/** A sensor in the register with its metrology (its latest verification) and its checks' state. */
export const registerRowSchema = z.object({
  code: z.string(),
  kind: z.string(),
  working: z.string(),
  place: z.string(),
  instrument_type: maybe,
  register_number: maybe,
  serial: maybe,
  verified_on: maybe,
  valid_to: maybe,
  certificate: maybe,
  verification: z.string(),
  rule: maybe,
  last_check: maybe,
  last_result: maybe,
  next_due: maybe,
  overdue_days: z.nullable(z.int()),
});

export const sensorRegisterDocumentSchema = z.object({
  facility_name: z.string(),
  zone: z.string(),
  issued_at: z.string(),
  rules_source: z.string(),
  rows: z.array(registerRowSchema),
});

export type ChecksDocument = z.output<typeof checksDocumentSchema>;
export type HandoversDocument = z.output<typeof handoversDocumentSchema>;
export type SensorRegisterDocument = z.output<typeof sensorRegisterDocumentSchema>;
