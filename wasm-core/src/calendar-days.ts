// The production calendar of one year as an administrator keeps it (docs/user-guide.md, The review
// register and the production calendar): the weekdays that are days off (holidays of the Labour
// Code art. 112 and days off moved onto weekdays) and the weekend days made working by the
// Government's decree on transfers. One rule for the admin screen (the days as typed) and the API
// (the days as sent), so both refuse the same days with the same words.
import { typedDate } from "./measured-release";
import { ruDate } from "./dates";

/** The years a calendar may be kept for. */
export const CALENDAR_YEARS = { min: 2000, max: 2100 } as const;

export type CalendarDayList = "days_off" | "working_days";

export const CALENDAR_LIST_LABELS: Record<CalendarDayList, string> = {
  days_off: "Нерабочие дни",
  working_days: "Рабочие выходные дни",
};

const WEEKDAYS = ["воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"];

/** «суббота» for 2027-01-02. */
export const weekdayName = (iso: string) => WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()];

const isWeekend = (iso: string) => {
  const day = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
};

export interface CalendarProblem {
  list: CalendarDayList;
  message: string;
}

/** What is wrong with a year's days (ISO dates): each must be a real date of that year, listed
 *  once, in one list only; a day off is a weekday (a Saturday or a Sunday is off anyway, and a day
 *  off moved by a decree lands on a weekday), a working day moved by a decree a Saturday or a
 *  Sunday (a weekday is working anyway); the year keeps at least one working day. Empty: nothing. */
export function calendarDayProblems(year: number, days: Record<CalendarDayList, readonly string[]>): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  const seen = new Map<string, CalendarDayList>();
  for (const list of ["days_off", "working_days"] as const) {
    for (const day of days[list]) {
      if (typedDate(day) !== day) {
        problems.push({ list, message: `«${day}» — не дата ГГГГ-ММ-ДД` });
        continue;
      }
      if (!day.startsWith(`${year}-`)) problems.push({ list, message: `${ruDate(day)} не относится к ${year} году` });
      else if (seen.get(day) === list) problems.push({ list, message: `${ruDate(day)} указан дважды` });
      else if (seen.has(day)) problems.push({ list, message: `${ruDate(day)} указан и среди нерабочих, и среди рабочих выходных дней` });
      else if (list === "working_days" && !isWeekend(day)) {
        problems.push({ list, message: `${ruDate(day)} — ${weekdayName(day)}: будний день и так рабочий` });
      } else if (list === "days_off" && isWeekend(day)) {
        problems.push({ list, message: `${ruDate(day)} — ${weekdayName(day)}: выходной и так нерабочий` });
      }
      seen.set(day, list);
    }
  }
  if (problems.length === 0 && workingDayCount(year, days) === 0) {
    problems.push({ list: "days_off", message: `в ${year} году не остается ни одного рабочего дня` });
  }
  return problems;
}

/** Monday to Friday less the days off, plus the working Saturdays and Sundays. */
function workingDayCount(year: number, days: Record<CalendarDayList, readonly string[]>): number {
  const off = new Set(days.days_off);
  const working = new Set(days.working_days);
  let count = 0;
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (working.has(day) || (!isWeekend(day) && !off.has(day))) count += 1;
  }
  return count;
}

/** Days as an administrator types them — ДД.ММ.ГГГГ (or ГГГГ-ММ-ДД), separated by commas, spaces
 *  or new lines — in ISO form and sorted, with a message for each piece that is no date. */
export function typedDays(text: string): { days: string[]; problems: string[] } {
  const days: string[] = [];
  const problems: string[] = [];
  for (const piece of text.split(/[\s,;]+/).filter(Boolean)) {
    const day = typedDate(piece);
    if (day) days.push(day);
    else problems.push(`«${piece}» — не дата: введите ДД.ММ.ГГГГ`);
  }
  return { days: days.sort(), problems };
}

/** The days as the admin screen shows them to be edited: «01.01.2027, 04.01.2027». */
export const typedDayList = (days: readonly string[]) => days.map(ruDate).join(", ");
