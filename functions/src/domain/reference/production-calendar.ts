// The production calendar as data an administrator keeps (docs/user-guide.md, The review register and
// the production calendar): a year is its days off on weekdays, its working Saturdays and Sundays and
// the decree they come from. A new installation starts with the shipped years (seeded once; an
// existing store gets the years it lacks on its next start); from then on only /admin changes
// them, each change in the change log with the year before and after. The review deadline reads it
// (working-days.ts); a year it does not hold counts Monday to Friday with a warning.
import shipped from "../../dictionaries/production-calendar.json";
import { CALENDAR_LIST_LABELS, calendarDayProblems } from "@core/calendar-days";
import type { CalendarYearCreateInput, CalendarYearEditInput } from "../../contract/schemas/production-calendar";
import type { CalendarYear } from "../../ports";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid, NotFound } from "../errors";
import { assertAdmin, recordChange } from "../audit";
import type { WorkingCalendar } from "./working-days";
import { problemAt } from "../../contract/field-errors";

interface ShippedYear {
  year: number;
  decree: CalendarYear["decree"];
  days_off: string[];
  working_days: string[];
}

const STALE_CALENDAR = "Календарь уже изменен другим пользователем. Обновите страницу и повторите.";

/** The refusal of a year's write whose expected version the store no longer holds: a new year that is
 *  already there, or an edit of a version someone else has changed since. The storage adapters give it
 *  when their conditional write fails, the edit when it finds another version first. */
export function calendarConflict(next: Pick<CalendarYear, "year" | "version">): string {
  return next.version === 1 ? `Производственный календарь на ${next.year} год уже есть` : STALE_CALENDAR;
}

/** The years a new installation starts with. */
export const SHIPPED_CALENDAR: readonly ShippedYear[] = shipped.years;

/** Writes the shipped years the store does not hold yet (a new installation, or one from before
 *  the calendar was kept in the table); a year an administrator already has is left as it is. */
export async function seedProductionCalendar(deps: Pick<Deps, "repos" | "clock">): Promise<number> {
  const stored = new Set((await deps.repos.productionCalendar.list()).map((y) => y.year));
  const now = deps.clock.now().toISOString();
  let written = 0;
  for (const year of SHIPPED_CALENDAR) {
    if (stored.has(year.year)) continue;
    try {
      await deps.repos.productionCalendar.put({ ...year, version: 1, updated_at: now, updated_by: "system" }, 0);
      written += 1;
    } catch (error) {
      if (!(error instanceof Conflict)) throw error; // another instance seeded it first
    }
  }
  return written;
}

/** The stored years as the working-day count reads them. */
export async function workingCalendar(deps: Pick<Deps, "repos">): Promise<WorkingCalendar> {
  return new Map((await deps.repos.productionCalendar.list()).map((y) => [y.year, y]));
}

export async function listCalendarYears(deps: Deps, actor: Actor): Promise<CalendarYear[]> {
  assertAdmin(actor);
  return (await deps.repos.productionCalendar.list()).sort((a, b) => a.year - b.year);
}

/** The days sorted, each refused in Russian by the core's rule: «days_off: 01.01.2028 не относится к 2027 году». */
function checkedDays(year: number, input: Pick<CalendarYearEditInput, "days_off" | "working_days">) {
  const problems = calendarDayProblems(year, input);
  if (problems.length > 0) {
    throw new Invalid(problems.map((p) => problemAt(p.list, `${CALENDAR_LIST_LABELS[p.list].toLowerCase()} — ${p.message}`)));
  }
  return { days_off: [...input.days_off].sort(), working_days: [...input.working_days].sort() };
}

export async function createCalendarYear(deps: Deps, actor: Actor, input: CalendarYearCreateInput): Promise<CalendarYear> {
  assertAdmin(actor);
  const next: CalendarYear = {
    year: input.year,
    decree: input.decree,
    ...checkedDays(input.year, input),
    version: 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await deps.repos.productionCalendar.put(next, 0);
  await recordCalendarChange(deps, actor, "calendar.create", null, next);
  return next;
}

export async function updateCalendarYear(deps: Deps, actor: Actor, year: number, input: CalendarYearEditInput): Promise<CalendarYear> {
  assertAdmin(actor);
  const current = await deps.repos.productionCalendar.get(year);
  if (!current) throw new NotFound(`Производственный календарь на ${year} год не загружен`);
  if (input.version !== current.version) throw new Conflict(STALE_CALENDAR);
  const next: CalendarYear = {
    ...current,
    decree: input.decree,
    ...checkedDays(year, input),
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await deps.repos.productionCalendar.put(next, current.version);
  await recordCalendarChange(deps, actor, "calendar.update", current, next);
  return next;
}

function recordCalendarChange(deps: Deps, actor: Actor, action: string, before: CalendarYear | null, after: CalendarYear) {
  return recordChange(deps, actor, {
    action,
    target_type: "production_calendar",
    target_id: String(after.year),
    target_label: `Производственный календарь на ${after.year} год`,
    before,
    after,
  });
}
