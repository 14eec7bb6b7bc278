// D104–D105: readings questioned by the platform's own audit — a cut-off not confirmed («отключение не
// подтверждено»: a methane meter at or above its cut-off setpoint while a run channel of its working
// reads 1) with its answer and the confirmation by another, and the ВТБ section's hand measurements beside
// the fixed meters (GET/POST v1/facilities/{id}/cutoffs/…, v1/facilities/{id}/hand-measurements/…).
import * as z from "zod";
import { DUTIES, DUTY_LABELS } from "@core/gassing-book";
import { idString, isoDate } from "./common";
import { LIMITS } from "./limits";
import { isoTime } from "./dates";
import { CUTOFF_CAUSES, CUTOFF_CAUSE_LABELS, HAND_INSTRUMENT_NAMES } from "../readings-audit-texts";

export { CUTOFF_CAUSES, CUTOFF_CAUSE_LABELS, HAND_INSTRUMENTS, HAND_INSTRUMENT_NAMES } from "../readings-audit-texts";
export type { CutoffCause, HandInstrument } from "../readings-audit-texts";

const person = z.object({
  by: z.string().meta({ description: "Surname and initials" }),
  at: z.string().meta({ description: "ISO instant" }),
});

export const cutoffSchema = z.object({
  id: z.string().meta({ description: "Stable: the same meter, run channel and first minute found again have the same id" }),
  facility: z.string(),
  sensor: z.string().meta({ description: "The methane meter" }),
  sensor_code: z.string(),
  place: z.string().meta({ description: "Where the meter hangs, in words" }),
  working: z.string(),
  setpoint: z.number().meta({ description: "The cut-off setpoint read against: the register's `alarm` (A), % vol." }),
  start: z.string().meta({ description: "The first minute at or above the setpoint (ISO)" }),
  end: z.nullable(z.string()).meta({ description: "The first minute below it again; null while it lasts" }),
  peak: z.number().meta({ description: "The largest minute mean of the span, % vol." }),
  minutes: z.number().int().meta({ description: "Minutes at or above the setpoint" }),
  run_sensor: z.string().meta({ description: "The run channel (`run_status`) of the same working that read 1" }),
  run_code: z.string(),
  run_minutes: z.number().int().meta({ description: "Minutes after the first one (to the minute after the span) the run channel read 1" }),
  text: z.string().meta({ description: "«отключение не подтверждено: …» as the screens print it" }),
  state: z.enum(["open", "answered", "confirmed"]),
  answer: z.nullable(
    person.extend({
      cause: z.enum(CUTOFF_CAUSES),
      cause_text: z.string(),
      comment: z.string(),
    }),
  ),
  confirmation: z.nullable(person.extend({ duty: z.enum(DUTIES), duty_text: z.string() })),
});
export type CutoffView = z.output<typeof cutoffSchema>;

export const cutoffPeriodQuery = z.object({
  from: z.optional(isoDate()).meta({ description: "First company day (default: 30 days before `to`)" }),
  to: z.optional(isoDate()).meta({ description: "Last company day (default: today)" }),
});

export const cutoffListSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  from: z.string(),
  to: z.string(),
  results: z.array(cutoffSchema),
});
export type CutoffList = z.output<typeof cutoffListSchema>;

const commentText = z.optional(
  z.string("ожидается строка").check(z.trim(), z.maxLength(LIMITS.sensorChecks.text, `не длиннее ${LIMITS.sensorChecks.text} символов`)),
);

export const cutoffAnswerSchema = z.strictObject({
  cause: z.enum(CUTOFF_CAUSES, `причина: ${CUTOFF_CAUSES.map((c) => `${c} (${CUTOFF_CAUSE_LABELS[c]})`).join(", ")}`),
  comment: commentText,
});

export const cutoffConfirmSchema = z.strictObject({
  duty: z.enum(DUTIES, `подтверждает: ${DUTIES.map((d) => `${d} (${DUTY_LABELS[d]})`).join(", ")}`),
});

export const cutoffFileQuery = cutoffPeriodQuery.extend({
  format: z.enum(["xlsx", "pdf"], "xlsx или pdf").meta({ description: "xlsx or pdf" }),
});

export const cutoffsDocumentSchema = cutoffListSchema.extend({ zone: z.string(), issued_at: z.string() });
export type CutoffsDocument = z.output<typeof cutoffsDocumentSchema>;

// ---- D105: hand measurements ------------------------------------------------------------------------

const requiredText = (what: string, max: number) =>
  z.string(`укажите ${what}`).check(z.trim(), z.minLength(1, `укажите ${what}`), z.maxLength(max, `не длиннее ${max} символов`));

export const handMeasurementCreateSchema = z.strictObject({
  instrument: z.enum(HAND_INSTRUMENT_NAMES, `прибор: ${HAND_INSTRUMENT_NAMES.join(", ")}`),
  instrument_number: requiredText("заводской номер прибора", LIMITS.sensorChecks.serial),
  place: requiredText("место замера", LIMITS.sensorChecks.referenceInstrument),
  working: z.optional(requiredText("выработку", LIMITS.sensorChecks.referenceInstrument)),
  sensor: idString("укажите ближайший стационарный датчик"),
  value_pct: z.number("ожидается концентрация метана, % об.").check(z.gte(0, "не меньше 0 %")),
  // Read against the calendar as every time of the contract (dates.ts): «2026-02-30T10:00» is a 400 at
  // the field, never 02.03 in a journal whose records are never edited.
  measured_at: isoTime("укажите время замера"),
  corrects: z.optional(idString("ожидается идентификатор исправляемого замера")),
  comment: commentText,
});
export type HandMeasurementBody = z.input<typeof handMeasurementCreateSchema>;

export const handMeasurementSchema = z.object({
  id: z.string(),
  facility: z.string(),
  instrument: z.string(),
  instrument_number: z.string(),
  place: z.string(),
  working: z.string(),
  sensor: z.string(),
  sensor_code: z.string(),
  value_pct: z.number(),
  measured_at: z.string(),
  corrects: z.nullable(z.string()).meta({ description: "The measurement this one corrects" }),
  corrected_by: z.nullable(z.string()).meta({ description: "The newer measurement that corrects this one, if any" }),
  comment: z.string(),
  recorded_by: z.string().meta({ description: "Surname and initials" }),
  recorded_at: z.string(),
  compared: z.nullable(
    z.object({
      meter_pct: z.number().meta({ description: "The fixed meter's minute mean nearest the measurement (within 10 min)" }),
      at: z.string(),
      difference_pct: z.number().meta({ description: "Hand minus meter, % vol. abs" }),
      permitted_pct: z.number(),
      differs: z.boolean(),
    }),
  ),
  text: z.string().meta({ description: "«расходится с датчиком М-1 (0,60 %) на 0,70 % при допуске ±0,20 %», or what it agrees" }),
});
export type HandMeasurementView = z.output<typeof handMeasurementSchema>;

export const handMeasurementListSchema = cutoffListSchema.omit({ results: true }).extend({ results: z.array(handMeasurementSchema) });
export type HandMeasurementList = z.output<typeof handMeasurementListSchema>;

export const handMeasurementsDocumentSchema = handMeasurementListSchema.extend({ zone: z.string(), issued_at: z.string() });
export type HandMeasurementsDocument = z.output<typeof handMeasurementsDocumentSchema>;
