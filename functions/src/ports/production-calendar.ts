// The production calendar (platform-wide).
import type * as z from "zod";
import type { calendarYearSchema } from "../contract/schemas/answers";

/** A year of the production calendar (platform-wide, like dictionaries): the days that differ from
 *  Monday to Friday and the decree they come from; `version` 0: not stored. */
export type CalendarYear = z.output<typeof calendarYearSchema>;

export interface ProductionCalendarRepository {
  /** Every stored year, oldest first. */
  list(): Promise<CalendarYear[]>;
  get(year: number): Promise<CalendarYear | undefined>;
  /** expectedVersion 0 creates (Conflict if the year exists); otherwise the stored version must match. */
  put(next: CalendarYear, expectedVersion: number): Promise<void>;
}
