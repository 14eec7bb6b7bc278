import { describe, expect, it } from "vitest";
import { addWorkingDays, calendarWarning, isWorkingDay, PRODUCTION_CALENDAR, yearsWithoutCalendar } from "./working-days";

describe("working days by the production calendar", () => {
  it("knows holidays, transfers and working Saturdays", () => {
    expect(isWorkingDay("2024-05-09")).toBe(false);
    expect(isWorkingDay("2024-04-29")).toBe(false);
    expect(isWorkingDay("2024-04-27")).toBe(true);
    expect(isWorkingDay("2024-05-08")).toBe(true);
    expect(isWorkingDay("2030-03-02")).toBe(false);
    expect(isWorkingDay("2030-03-04")).toBe(true);
  });

  it("counts 20 working days over the May holidays", () => {
    // Notice on Saturday 20 April 2024: Apr 22–27 (the 27th is a working Saturday), Apr 29 – May 1
    // off, May 2–8, May 9–10 off, then May 13–23.
    expect(addWorkingDays("2024-04-20", 20)).toBe("2024-05-23");
  });

  it("counts 20 working days over the New Year holidays", () => {
    // Notice on 16 December 2024: Dec 17–28 (the 28th is a working Saturday), Dec 30 – Jan 8 off.
    expect(addWorkingDays("2024-12-16", 20)).toBe("2025-01-22");
  });

  it("warns when a deadline reaches a year without a calendar (counted Monday to Friday)", () => {
    expect(yearsWithoutCalendar("2024-12-16", "2025-01-22")).toEqual([]);
    expect(yearsWithoutCalendar("2026-12-20", "2027-01-25")).toEqual([2027]);
    expect(calendarWarning([2027])).toMatch(/^производственный календарь на 2027 год не загружен/);
    expect(calendarWarning([])).toBeUndefined();
  });

  it("keeps every listed day inside its year, with its source", () => {
    for (const [year, data] of Object.entries(PRODUCTION_CALENDAR)) {
      expect(data.source.length).toBeGreaterThan(10);
      for (const day of [...data.days_off, ...data.working_weekends]) expect(day.startsWith(`${year}-`)).toBe(true);
    }
  });
});
