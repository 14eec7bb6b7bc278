// The one reader of dates and times the contract has: a day (ГГГГ-ММ-ДД), a time (ГГГГ-ММ-ДДTЧЧ:ММ[:СС[.ддд]],
// with its zone or without one — then on the company's clock) and a date-or-instant bound of a list. Each is
// read field by field against the calendar: JavaScript's Date rolls a day the month does not have into
// the next month («2026-02-30» is 02.03.2026, «2026-04-31» is 01.05.2026), so a check typed 30.02 was
// stored 02.03 in a journal whose records are never edited. A day the calendar lacks is a 400 at its field,
// and every date is a year of the platform's span (LIMITS.dates): year 0000 or 9999 is a typo, never a day.
import * as z from "zod";
import { LIMITS } from "./limits";

/** The parts of a date or a time as written; `offsetMinutes` undefined: no zone (the company's clock). */
export interface WrittenTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offsetMinutes?: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A time to the minute, seconds and their fraction optional; a zone «Z», «+07:00» or «+0700», or none. */
export const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** «в феврале»: the month a day is counted in. */
const IN_MONTH = ["январе", "феврале", "марте", "апреле", "мае", "июне", "июле", "августе", "сентябре", "октябре", "ноябре", "декабре"];

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
/** ДД.ММ.ГГГГ of a written day. */
export const dayText = (year: number, month: number, day: number) => `${pad(day)}.${pad(month)}.${pad(year, 4)}`;

/** The days of `month` (1–12) in `year` (the proleptic Gregorian calendar). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** What is wrong with a written day, in Russian; undefined: it is a day of the calendar within LIMITS.dates. */
export function dayProblem(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12) return `месяца ${pad(month)} нет: месяц от 01 до 12`;
  if (day < 1 || day > daysInMonth(year, month)) {
    const days = daysInMonth(year, month);
    return `в календаре нет дня ${dayText(year, month, day)}: в ${IN_MONTH[month - 1]} ${pad(year, 4)} года ${days} ${days === 31 ? "день" : "дней"}`;
  }
  const { earliestYear, latestYear } = LIMITS.dates;
  if (year < earliestYear) return `дата ${dayText(year, month, day)} раньше 01.01.${earliestYear}: такие даты платформа не принимает`;
  if (year > latestYear) return `дата ${dayText(year, month, day)} позже 31.12.${latestYear}: такие даты платформа не принимает`;
  return undefined;
}

/** A day written ГГГГ-ММ-ДД as its parts, or the problem with it. */
export function readDay(text: string): { year: number; month: number; day: number } | { problem: string } {
  const parts = DAY.exec(text);
  if (!parts) return { problem: "укажите дату в формате ГГГГ-ММ-ДД" };
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const problem = dayProblem(year, month, day);
  return problem ? { problem } : { year, month, day };
}

/** A time written as ISO_TIME reads as its parts, or the problem with it. */
export function readTime(text: string): WrittenTime | { problem: string } {
  const parts = ISO_TIME.exec(text);
  if (!parts) return { problem: "ожидается время ГГГГ-ММ-ДДTЧЧ:ММ, с зоной или без (время компании)" };
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(parts[i]));
  const second = Number(parts[6] ?? 0);
  const millisecond = Math.floor(Number(`0.${parts[7] ?? "0"}`) * 1000);
  const problem = dayProblem(year!, month!, day!);
  if (problem) return { problem };
  if (hour! > 23) return { problem: `часа ${pad(hour!)} нет: час от 00 до 23` };
  if (minute! > 59) return { problem: `минуты ${pad(minute!)} нет: минута от 00 до 59` };
  if (second > 59) return { problem: `секунды ${pad(second)} нет: секунда от 00 до 59` };
  const zone = parts[8];
  let offsetMinutes: number | undefined;
  if (zone === "Z") offsetMinutes = 0;
  else if (zone) {
    const digits = zone.replace(":", "");
    const [h, m] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
    if (h > 14 || m > 59 || (h === 14 && m > 0)) return { problem: `зоны ${zone} нет: смещение от −14:00 до +14:00` };
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (h * 60 + m);
  }
  return { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second, millisecond, offsetMinutes };
}

/** The instant of a time written with its zone (UTC ms). */
export function instantOfZoned(time: WrittenTime & { offsetMinutes: number }): number {
  const utc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second, time.millisecond);
  // Date.UTC reads a year below 100 as 19yy: the year is set again as written.
  const date = new Date(utc);
  date.setUTCFullYear(time.year, time.month - 1, time.day);
  return date.getTime() - time.offsetMinutes * 60_000;
}

/** Whether `value` is a day ГГГГ-ММ-ДД of the calendar within LIMITS.dates. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && !("problem" in readDay(value));
}

const problemOf = (read: object): string | undefined => ("problem" in read ? (read.problem as string) : undefined);

/** A calendar date written ГГГГ-ММ-ДД that really exists (no 2026-02-30), within LIMITS.dates. */
export function isoDate() {
  return z.string("укажите дату в формате ГГГГ-ММ-ДД").check(
    z.superRefine((value, context) => {
      const problem = problemOf(readDay(value));
      if (problem) context.addIssue({ code: "custom", message: problem, input: value });
    }),
  );
}

/** A time ГГГГ-ММ-ДДTЧЧ:ММ, with its zone or without one (on the company's clock), a day of the calendar;
 *  `empty` is what a missing one is told. `zoned`: the zone is required (an instant). */
export function isoTime(empty: string, options: { zoned?: boolean } = {}) {
  return z.string(empty).check(
    z.superRefine((value, context) => {
      const read = readTime(value);
      const problem =
        problemOf(read) ??
        (options.zoned && (read as WrittenTime).offsetMinutes === undefined
          ? "укажите время с зоной (например, 2026-03-12T10:00+07:00 или …Z)"
          : undefined);
      if (problem) context.addIssue({ code: "custom", message: `${empty}: ${problem}`, input: value });
    }),
  );
}

/** A bound of a listed period: a day (00:00 on the company's clock) or a time, each of the calendar. */
export function dayOrTime(description: string) {
  return z
    .string("дата ГГГГ-ММ-ДД (00:00 по часам компании) или момент ISO 8601")
    .check(
      z.superRefine((value, context) => {
        const problem = value.includes("T") ? problemOf(readTime(value)) : problemOf(readDay(value));
        if (problem) context.addIssue({ code: "custom", message: problem, input: value });
      }),
    )
    .meta({ description });
}
