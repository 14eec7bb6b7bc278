// Working days by the Russian production calendar (docs/methodology.md, Inventory and the report): a refused 296-FZ report is
// reworked within 20 working days of the notice. The calendar is data
// (dictionaries/production-calendar.json): days off on weekdays and working weekend days per year,
// with the decree they come from; a year it does not list counts Monday to Friday. Years whose
// transfers have not been checked against the decree's text say so (`checked: false`).
import calendar from "../dictionaries/production-calendar.json";

export interface CalendarYear {
  source: string;
  checked: boolean;
  days_off: string[];
  working_weekends: string[];
}

export const PRODUCTION_CALENDAR: Record<string, CalendarYear> = calendar.years;
const DAYS_OFF = new Set(Object.values(PRODUCTION_CALENDAR).flatMap((y) => y.days_off));
const WORKING_WEEKENDS = new Set(Object.values(PRODUCTION_CALENDAR).flatMap((y) => y.working_weekends));

export function isWorkingDay(day: string): boolean {
  if (DAYS_OFF.has(day)) return false;
  if (WORKING_WEEKENDS.has(day)) return true;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** The `count`-th working day after `from` (yyyy-MM-dd), counting from the next day. */
export function addWorkingDays(from: string, count: number): string {
  const date = new Date(`${from}T00:00:00Z`);
  let left = count;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (isWorkingDay(date.toISOString().slice(0, 10))) left -= 1;
  }
  return date.toISOString().slice(0, 10);
}

/** The years from `from` to `to` (yyyy-MM-dd) the calendar does not list: a deadline reaching one was
 *  counted Monday to Friday, which the review screen and the passport warn about. */
export function yearsWithoutCalendar(from: string, to: string): number[] {
  const years: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) if (!PRODUCTION_CALENDAR[String(y)]) years.push(y);
  return years;
}

/** «производственный календарь на 2027 год не загружен» for the years `yearsWithoutCalendar` gave. */
export function calendarWarning(years: readonly number[]): string | undefined {
  if (years.length === 0) return undefined;
  const listed = years.join(", ");
  return `производственный календарь на ${listed} ${years.length > 1 ? "годы" : "год"} не загружен: срок рассчитан по дням с понедельника по пятницу`;
}

/** The years of the calendar not yet checked against their decree (shown to admins). */
export function uncheckedCalendarYears(): string[] {
  return Object.entries(PRODUCTION_CALENDAR)
    .filter(([, year]) => !year.checked)
    .map(([year]) => year);
}
