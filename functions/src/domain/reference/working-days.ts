// Working days by the Russian production calendar (docs/methodology.md, Inventory and the report): a refused 296-FZ report is
// reworked within 20 working days of the notice. The calendar is data an administrator keeps
// (production-calendar.ts): per year, the weekdays that are days off and the weekend days that are
// working; a year it does not hold counts Monday to Friday, and the deadline says so.

/** The days of the years a calendar holds, by year. */
export type WorkingCalendar = ReadonlyMap<number, { readonly days_off: readonly string[]; readonly working_days: readonly string[] }>;

function dayKinds(calendar: WorkingCalendar) {
  const daysOff = new Set<string>();
  const working = new Set<string>();
  for (const year of calendar.values()) {
    for (const day of year.days_off) daysOff.add(day);
    for (const day of year.working_days) working.add(day);
  }
  return { daysOff, working };
}

export function isWorkingDay(day: string, calendar: WorkingCalendar): boolean {
  return isWorkingIn(day, dayKinds(calendar));
}

function isWorkingIn(day: string, kinds: ReturnType<typeof dayKinds>): boolean {
  if (kinds.daysOff.has(day)) return false;
  if (kinds.working.has(day)) return true;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** The `count`-th working day after `from` (yyyy-MM-dd), counting from the next day. */
export function addWorkingDays(from: string, count: number, calendar: WorkingCalendar): string {
  const kinds = dayKinds(calendar);
  const date = new Date(`${from}T00:00:00Z`);
  let left = count;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (isWorkingIn(date.toISOString().slice(0, 10), kinds)) left -= 1;
  }
  return date.toISOString().slice(0, 10);
}

/** The years from `from` to `to` (yyyy-MM-dd) the calendar does not hold: a deadline reaching one
 *  was counted Monday to Friday, which the review screen and the passport warn about. */
export function yearsWithoutCalendar(from: string, to: string, calendar: WorkingCalendar): number[] {
  const years: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) if (!calendar.has(y)) years.push(y);
  return years;
}

/** «производственный календарь на 2027 год не загружен» for the years `yearsWithoutCalendar` gave. */
export function calendarWarning(years: readonly number[]): string | undefined {
  if (years.length === 0) return undefined;
  const listed = years.join(", ");
  return `производственный календарь на ${listed} ${years.length > 1 ? "годы" : "год"} не загружен: срок рассчитан по дням с понедельника по пятницу`;
}
