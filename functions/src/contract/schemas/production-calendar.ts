// A year of the production calendar as /admin sends and reads it (docs/user-guide.md, The review
// register and the production calendar). The days' own rules (of the year, once, Saturday or Sunday
// for a working day) are the core's calendarDayProblems, checked by the domain.
import * as z from "zod";
import { CALENDAR_YEARS } from "@core/calendar-days";
import { isoDate, textField as text } from "./common";
import { CALENDAR_DECREE_MAX } from "./limits";

const MAX_DAYS = 366;

const days = () =>
  z.array(z.string("ожидается дата ГГГГ-ММ-ДД"), "ожидается список дат").check(z.maxLength(MAX_DAYS, `не больше ${MAX_DAYS} дат`));

export const calendarDecreeSchema = z.object(
  {
    title: text(CALENDAR_DECREE_MAX.title, true),
    number: text(CALENDAR_DECREE_MAX.number),
    date: z.union([z.literal(""), isoDate()]),
  },
  "укажите постановление (название, номер, дата)",
);

/** The days and decree of a year: the body of an edit. */
export const calendarYearEditSchema = z.object({
  decree: calendarDecreeSchema,
  days_off: days(),
  working_days: days(),
  version: z.number("укажите версию, которую вы меняете").check(z.int("ожидается целое число")),
});

/** A new year: its number, days and decree. */
export const calendarYearCreateSchema = calendarYearEditSchema.omit({ version: true }).extend({
  year: z
    .number("укажите год")
    .check(
      z.int("ожидается год из четырех цифр"),
      z.gte(CALENDAR_YEARS.min, `не раньше ${CALENDAR_YEARS.min}`),
      z.lte(CALENDAR_YEARS.max, `не позже ${CALENDAR_YEARS.max}`),
    ),
});

export type CalendarYearCreateInput = z.infer<typeof calendarYearCreateSchema>;
export type CalendarYearEditInput = z.infer<typeof calendarYearEditSchema>;
