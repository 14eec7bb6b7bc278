// The period a calculation covers (methodology D19): its own `period: {from, to}` (a month, a
// quarter, any part of its project's dates) or else its project's dates. Monthly or quarterly
// calculations of one source add up; two whose periods overlap count the source twice, and the
// days of the reporting year no calculation covers are a gap. Dates are ISO (YYYY-MM-DD), both
// ends included. Browser-safe: the dialog's pickers and the server's checks use the same rules.
import { DAY_MS, ruDate } from "./dates";

export interface SourcePeriod {
  readonly from: string;
  readonly to: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDay(value: unknown): value is string {
  if (typeof value !== "string" || !ISO.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const shift = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, "0");

/** The period the calculation covers: its own, else its project's dates. */
export function effectivePeriod(own: SourcePeriod | undefined | null, project: { start_date: string; end_date: string }): SourcePeriod {
  return own ?? { from: project.start_date, to: project.end_date };
}

/** D42: the union of a measured calculation's measurement periods (its results' `periods` rows, each
 *  from–to), in date order with adjoining days joined; [] when it has none. */
export function measuredCoverage(results: Readonly<Record<string, unknown>> | undefined): SourcePeriod[] {
  const rows = Array.isArray(results?.periods) ? (results.periods as unknown[]) : [];
  const periods = rows
    .map((row) => row as Partial<SourcePeriod> | null)
    .filter((row): row is SourcePeriod => isIsoDay(row?.from) && isIsoDay(row?.to) && row.from <= row.to)
    .map(({ from, to }) => ({ from, to }))
    .sort((a, b) => a.from.localeCompare(b.from));
  const union: SourcePeriod[] = [];
  for (const period of periods) {
    const last = union[union.length - 1];
    if (last && period.from <= shift(last.to, 1))
      union[union.length - 1] = { from: last.from, to: period.to > last.to ? period.to : last.to };
    else union.push(period);
  }
  return union;
}

/** D42: the days a calculation covers: the union of its measurement periods, else its own period,
 *  else its project's dates. */
export function coveredPeriods(
  calculation: { readonly period?: SourcePeriod | null; readonly results?: Readonly<Record<string, unknown>> },
  project: { start_date: string; end_date: string },
): SourcePeriod[] {
  const measured = measuredCoverage(calculation.results);
  return measured.length > 0 ? measured : [effectivePeriod(calculation.period, project)];
}

/** From the first day of `periods` (in date order) to the last. */
export const spanOf = (periods: readonly SourcePeriod[]): SourcePeriod => ({
  from: periods[0].from,
  to: periods.reduce((last, p) => (p.to > last ? p.to : last), periods[0].to),
});

/** Whether two periods share at least one day. */
export function periodsOverlap(a: SourcePeriod, b: SourcePeriod): boolean {
  return a.from <= b.to && b.from <= a.to;
}

/** D19 as sums: a period as the difference of its coverage, +1 the day it starts and −1 the day
 *  after it ends. Differences add and take away like any other sum, and a source's calculations
 *  that follow each other day after day cancel at their joins, so what is kept grows with the gaps
 *  and overlaps, not with the calculations. */
export function coverageDifference(period: SourcePeriod): Record<string, number> {
  return { [period.from]: 1, [shift(period.to, 1)]: -1 };
}

/** The days summed coverage differences cover, as periods in date order, and whether any day is
 *  covered twice (two of the periods overlap). */
export function coverageOf(differences: Readonly<Record<string, number>>): { covered: SourcePeriod[]; overlaps: boolean } {
  const covered: SourcePeriod[] = [];
  let overlaps = false;
  let depth = 0;
  let start = "";
  for (const day of Object.keys(differences).sort()) {
    const next = depth + differences[day];
    if (depth <= 0 && next > 0) start = day;
    if (depth > 0 && next <= 0) covered.push({ from: start, to: shift(day, -1) });
    if (next >= 2) overlaps = true;
    depth = next;
  }
  return { covered, overlaps };
}

/** The days of `year` that none of `periods` covers, as periods in date order. */
/** D25: the days outside an emission point's dates in service (either end may be open): no
 *  calculation is asked to cover them, so they count as covered when a year's gaps are sought. */
export function outsideService(from: string | null | undefined, to: string | null | undefined): SourcePeriod[] {
  const days: SourcePeriod[] = [];
  if (from) days.push({ from: "0001-01-01", to: shift(from, -1) });
  if (to) days.push({ from: shift(to, 1), to: "9999-12-31" });
  return days;
}

export function yearGaps(year: number, periods: readonly SourcePeriod[]): SourcePeriod[] {
  const start = `${year}-01-01`;
  const end = `${year}-12-31`;
  const inYear = periods
    .filter((p) => p.from <= end && p.to >= start)
    .map((p) => ({ from: p.from < start ? start : p.from, to: p.to > end ? end : p.to }))
    .sort((a, b) => a.from.localeCompare(b.from));
  const gaps: SourcePeriod[] = [];
  let next = start; // the first day not yet covered
  for (const p of inYear) {
    if (p.from > next) gaps.push({ from: next, to: shift(p.from, -1) });
    if (p.to >= next) next = shift(p.to, 1);
    if (next > end) return gaps;
  }
  if (next <= end) gaps.push({ from: next, to: end });
  return gaps;
}

/** «01.01.2025–31.03.2025». */
export function periodText(period: SourcePeriod): string {
  return `${ruDate(period.from)}–${ruDate(period.to)}`;
}

/** Why `period` cannot be a calculation's in a project of these dates (a 400 naming the field), or undefined. */
export function periodProblem(
  period: unknown,
  project: { start_date: string; end_date: string },
): { field: string; message: string } | undefined {
  if (typeof period !== "object" || period === null || Array.isArray(period)) {
    return { field: "period", message: "укажите период расчета {from, to} (даты ГГГГ-ММ-ДД) или null для периода проекта" };
  }
  const { from, to } = period as Record<string, unknown>;
  if (!isIsoDay(from)) return { field: "period.from", message: "укажите дату начала периода в формате ГГГГ-ММ-ДД" };
  if (!isIsoDay(to)) return { field: "period.to", message: "укажите дату окончания периода в формате ГГГГ-ММ-ДД" };
  if (to < from) return { field: "period.to", message: "дата окончания периода раньше даты начала" };
  const whole = { from: project.start_date, to: project.end_date };
  if (from < whole.from) return { field: "period.from", message: `период расчета должен быть внутри дат проекта (${periodText(whole)})` };
  if (to > whole.to) return { field: "period.to", message: `период расчета должен быть внутри дат проекта (${periodText(whole)})` };
  return undefined;
}

/** One month of a year, clipped to the project's dates (the dialog's «Месяц»). */
export function monthPeriod(year: number, month: number): SourcePeriod {
  return { from: `${year}-${pad(month)}-01`, to: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}` };
}

/** One quarter (1–4) of a year (the dialog's «Квартал»). */
export function quarterPeriod(year: number, quarter: number): SourcePeriod {
  const first = (quarter - 1) * 3 + 1;
  return { from: monthPeriod(year, first).from, to: monthPeriod(year, first + 2).to };
}

/** The part of `period` within `bounds`, or undefined when they do not meet. */
export function clipPeriod(period: SourcePeriod, bounds: SourcePeriod): SourcePeriod | undefined {
  if (!periodsOverlap(period, bounds)) return undefined;
  return { from: period.from < bounds.from ? bounds.from : period.from, to: period.to > bounds.to ? bounds.to : period.to };
}

export interface PeriodChoice {
  /** «2025-03» or «2025-Q1». */
  readonly key: string;
  readonly label: string;
  readonly period: SourcePeriod;
}

const MONTHS = ["январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь", "ноябрь", "декабрь"];

/** The months or quarters that meet the project's dates, each clipped to them. */
export function periodChoices(kind: "month" | "quarter", project: { start_date: string; end_date: string }): PeriodChoice[] {
  const bounds = { from: project.start_date, to: project.end_date };
  if (!isIsoDay(bounds.from) || !isIsoDay(bounds.to) || bounds.to < bounds.from) return [];
  const choices: PeriodChoice[] = [];
  for (let year = Number(bounds.from.slice(0, 4)); year <= Number(bounds.to.slice(0, 4)); year++) {
    const count = kind === "month" ? 12 : 4;
    for (let n = 1; n <= count; n++) {
      const whole = kind === "month" ? monthPeriod(year, n) : quarterPeriod(year, n);
      const period = clipPeriod(whole, bounds);
      if (!period) continue;
      const label = kind === "month" ? `${MONTHS[n - 1]} ${year}` : `${n} квартал ${year}`;
      const partial = period.from !== whole.from || period.to !== whole.to;
      choices.push({
        key: kind === "month" ? `${year}-${pad(n)}` : `${year}-Q${n}`,
        label: partial ? `${label} (${periodText(period)})` : label,
        period,
      });
    }
  }
  return choices;
}
