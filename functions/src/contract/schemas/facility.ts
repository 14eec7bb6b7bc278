// Facility fields as the API accepts them (issue: inventory by facility). The profile's facility
// form validates with the same rules.
import * as z from "zod";
import { EMISSION_POINT_KINDS, FACILITY_KINDS, type EmissionPointKind, type FacilityKind } from "@core/inventory";
import { isoDate, requiredName } from "./common";
import { SHIFTS_PER_DAY, calendarProblem } from "@core/shift-calendar";
import { FACILITY_NAME_MAX, FACILITY_LICENCE_MAX, FACILITY_ADDRESS_MAX, LIMITS, POINT_NAME_MAX, POINT_NOTE_MAX } from "./limits";
export { FACILITY_NAME_MAX, FACILITY_LICENCE_MAX, FACILITY_ADDRESS_MAX, POINT_NAME_MAX, POINT_NOTE_MAX } from "./limits";

const name = requiredName("введите название площадки", FACILITY_NAME_MAX);
const kind = z.enum(Object.keys(FACILITY_KINDS) as [FacilityKind, ...FacilityKind[]], {
  error: `выберите тип площадки (${Object.values(FACILITY_KINDS).join(", ")})`,
});
const text = (max: number) => z.string("ожидается строка").trim().max(max, `не длиннее ${max} символов`);

export const facilityCreateSchema = z.object({
  name,
  kind,
  licence_number: z.optional(text(FACILITY_LICENCE_MAX)),
  address: z.optional(text(FACILITY_ADDRESS_MAX)),
});

/** D90: the facility's shift calendar, dated: a day is read with the entry in force on it. */
export const SHIFT_CALENDAR_ENTRIES_MAX = LIMITS.monitoring.shiftCalendarEntries;
export const shiftCalendarSchema = z
  .array(
    z.object({
      valid_from: isoDate().meta({ description: "The first company day it holds" }),
      shifts: z.union(
        SHIFTS_PER_DAY.map((n) => z.literal(n)),
        "смен в сутках: 3 (по 8 ч), 4 (по 6 ч) или 2 (по 12 ч)",
      ),
      first_start: z
        .string("начало первой смены: ЧЧ:ММ")
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "начало первой смены: ЧЧ:ММ, от 00:00 до 23:59")
        .meta({ description: "The first shift's start on the company's clock, ЧЧ:ММ" }),
    }),
    "ожидается список изменений календаря смен",
  )
  .max(SHIFT_CALENDAR_ENTRIES_MAX, `не более ${SHIFT_CALENDAR_ENTRIES_MAX} изменений календаря`)
  .check(
    z.refine((entries) => calendarProblem(entries) === undefined, {
      error: (issue) => calendarProblem(issue.input as never) ?? "календарь смен не читается",
    }),
  );

export const facilityPatchSchema = z.object({
  name: z.optional(name),
  kind: z.optional(kind),
  licence_number: z.optional(text(FACILITY_LICENCE_MAX)),
  address: z.optional(text(FACILITY_ADDRESS_MAX)),
  /** false archives the facility (its history stays; a closed or sold mine raises no «нет данных»), true restores it. */
  is_active: z.optional(z.boolean("ожидается true или false")),
  /** D90: the whole calendar as it now stands, its dated changes by `valid_from`. */
  shift_calendar: z.optional(shiftCalendarSchema),
  version: z.int("ожидается целое число"),
});

// D25: a facility's emission points (ventilation shafts, drainage stations, flares, boilers …).
const pointName = requiredName("введите название источника", POINT_NAME_MAX);
const pointKind = z.enum(Object.keys(EMISSION_POINT_KINDS) as [EmissionPointKind, ...EmissionPointKind[]], {
  error: `выберите вид источника (${Object.values(EMISSION_POINT_KINDS).join(", ")})`,
});
const serviceDate = () => z.optional(z.nullable(isoDate()));
const serviceInOrder = z.refine<{ in_service_from?: string | null; in_service_to?: string | null }>(
  (p) => !p.in_service_from || !p.in_service_to || p.in_service_to >= p.in_service_from,
  { message: "дата вывода из эксплуатации раньше даты ввода", path: ["in_service_to"] },
);

/** the CO2 content of the point's gas, % vol, where no АГК channel measures it (null: not known). */
const co2Content = z.optional(z.nullable(z.number("ожидается число, % об.").min(0, "от 0 до 100 % об.").max(100, "от 0 до 100 % об.")));
/** A content is entered with where it came from (an analysis of samples, the gas's passport …). */
const co2WithSource = z.refine<{ co2_content_pct?: number | null; co2_content_source?: string }>(
  (p) => p.co2_content_pct === undefined || p.co2_content_pct === null || (p.co2_content_source ?? "").trim() !== "",
  { message: "укажите, откуда содержание CO2 (анализ проб, паспорт газа…)", path: ["co2_content_source"] },
);

/** An emission point's fields a create and a patch take alike (a patch's name and kind made optional). */
const pointDetails = {
  instrument: z.optional(text(POINT_NOTE_MAX)),
  frequency: z.optional(text(POINT_NOTE_MAX)),
  in_service_from: serviceDate(),
  in_service_to: serviceDate(),
  co2_content_pct: co2Content,
  co2_content_source: z.optional(text(POINT_NOTE_MAX)),
  /** D92: a drainage station's meter placed after a take-off to use (it does not see all the drained gas). */
  meter_after_takeoff: z.optional(z.boolean("ожидается true или false")),
};

export const pointCreateSchema = z
  .object({
    name: pointName,
    kind: pointKind,
    ...pointDetails,
  })
  .check(serviceInOrder)
  .check(co2WithSource);

/** A field it does not know is refused, as a project's PATCH refuses one, never quietly dropped. */
export const pointPatchSchema = z
  .strictObject(
    {
      name: z.optional(pointName),
      kind: z.optional(pointKind),
      ...pointDetails,
      /** false archives the point (its calculations and history stay), true restores it. */
      is_active: z.optional(z.boolean("ожидается true или false")),
      version: z.int("ожидается целое число"),
    },
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? "такого поля нет у источника выбросов" : undefined),
    },
  )
  .check(serviceInOrder);

export type PointCreateInput = z.infer<typeof pointCreateSchema>;
export type PointPatchInput = z.infer<typeof pointPatchSchema>;
export type FacilityCreateInput = z.infer<typeof facilityCreateSchema>;
export type FacilityPatchInput = z.infer<typeof facilityPatchSchema>;
