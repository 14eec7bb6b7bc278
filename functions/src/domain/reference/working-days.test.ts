import { describe, expect, it } from "vitest";
import { addWorkingDays, calendarWarning, isWorkingDay, yearsWithoutCalendar, type WorkingCalendar } from "./working-days";
import { SHIPPED_CALENDAR } from "./production-calendar";
import { calendarDayProblems } from "@core/calendar-days";

const shipped: WorkingCalendar = new Map(SHIPPED_CALENDAR.map((y) => [y.year, y]));

describe("working days by the production calendar", () => {
  it("knows holidays, transfers and working Saturdays", () => {
    expect(isWorkingDay("2024-05-09", shipped)).toBe(false);
    expect(isWorkingDay("2024-04-29", shipped)).toBe(false);
    expect(isWorkingDay("2024-04-27", shipped)).toBe(true);
    expect(isWorkingDay("2024-05-08", shipped)).toBe(true);
    expect(isWorkingDay("2030-03-02", shipped)).toBe(false);
    expect(isWorkingDay("2030-03-04", shipped)).toBe(true);
  });

  it("counts 20 working days over the May holidays", () => {
    // Notice on Saturday 20 April 2024: Apr 22–27 (the 27th is a working Saturday), Apr 29 – May 1
    // off, May 2–8, May 9–10 off, then May 13–23.
    expect(addWorkingDays("2024-04-20", 20, shipped)).toBe("2024-05-23");
  });

  it("counts 20 working days over the New Year holidays", () => {
    // Notice on 16 December 2024: Dec 17–28 (the 28th is a working Saturday), Dec 30 – Jan 8 off.
    expect(addWorkingDays("2024-12-16", 20, shipped)).toBe("2025-01-22");
  });

  it("counts a year without a calendar Monday to Friday, and with one by its days", () => {
    // Notice on 20 December 2026: without 2027, 1–8 January count as working days.
    expect(addWorkingDays("2026-12-20", 20, shipped)).toBe("2027-01-18");
    const with2027 = new Map([
      ...shipped,
      [2027, { days_off: ["2027-01-01", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08"], working_days: [] }],
    ]);
    expect(addWorkingDays("2026-12-20", 20, with2027)).toBe("2027-01-26");
  });

  it("warns when a deadline reaches a year without a calendar (counted Monday to Friday)", () => {
    expect(yearsWithoutCalendar("2024-12-16", "2025-01-22", shipped)).toEqual([]);
    expect(yearsWithoutCalendar("2026-12-20", "2027-01-25", shipped)).toEqual([2027]);
    expect(calendarWarning([2027])).toMatch(/^производственный календарь на 2027 год не загружен/);
    expect(calendarWarning([])).toBeUndefined();
  });

  it("ships 2024–2026, each day inside its year, once, with its decree", () => {
    expect(SHIPPED_CALENDAR.map((y) => y.year)).toEqual([2024, 2025, 2026]);
    for (const year of SHIPPED_CALENDAR) {
      expect(year.decree.title).toMatch(/^Постановление Правительства РФ/);
      expect(year.decree.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(calendarDayProblems(year.year, year)).toEqual([]);
    }
  });
});
