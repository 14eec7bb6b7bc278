import { describe, expect, it } from "vitest";
import {
  co2Equivalent,
  defaultReportingYear,
  gwpSetInForce,
  reportingYearProblem,
  resultsUnderGwp,
  type GwpSetYears,
} from "./gwp-in-force";

const sets: GwpSetYears[] = [
  { id: 1, yearFrom: 1990, yearTo: 9999, hasCh4: true }, // 2979-р, every year
  { id: 2, yearFrom: 2025, yearTo: 0, hasCh4: true }, // dated from 2025 on
  { id: 3, yearFrom: 0, yearTo: 0, hasCh4: true }, // not dated
  { id: 4, yearFrom: 2030, yearTo: 2030, hasCh4: false }, // no CH4 value: never in force
];
const inForce = (list: GwpSetYears[], year: number) => gwpSetInForce(list, year, (s) => s)?.id;

describe("gwpSetInForce (D12)", () => {
  it("takes the dated set with the latest start that contains the year", () => {
    expect(inForce(sets, 2024)).toBe(1);
    expect(inForce(sets, 2025)).toBe(2);
    expect(inForce(sets, 2030)).toBe(2);
  });

  it("breaks a tie by the lower id, and falls back to set 1 when nothing dated contains the year", () => {
    expect(inForce([...sets, { id: 5, yearFrom: 2025, yearTo: 2026, hasCh4: true }], 2025)).toBe(2);
    expect(inForce(sets, 1980)).toBe(1);
    expect(inForce([{ id: 3, yearFrom: 0, yearTo: 0, hasCh4: true }], 2025)).toBeUndefined();
  });
});

describe("CO2-equivalent (D1, D12)", () => {
  it("multiplies CH4 by the GWP and leaves CO2 as it is", () => {
    expect(co2Equivalent("CH4", 10, 28)).toBe(280);
    expect(co2Equivalent("CO2", 10, 28)).toBe(10);
  });

  it("gives a calculation's GWP-dependent results under another GWP, and nothing for a type without CH4", () => {
    const stored = { res_ch4: 2, res_ch4_to_co2: 50, res_co2: 7, sum_co2: 57 };
    expect(resultsUnderGwp(stored, 28)).toEqual({ res_ch4_to_co2: 56, sum_co2: 63 });
    expect(resultsUnderGwp({ res_ch4: 2 }, 28)).toEqual({ res_ch4_to_co2: 56 });
    expect(resultsUnderGwp({ res_co2: 7, sum_co2: 7 }, 28)).toEqual({});
  });
});

describe("defaultReportingYear (D12)", () => {
  it("is the end date's year", () => {
    expect(defaultReportingYear("2024-06-30")).toBe(2024);
  });
});

describe("reportingYearProblem (D30)", () => {
  it("accepts any year the dates cover and names the field otherwise", () => {
    expect(reportingYearProblem({ start_date: "2024-07-01", end_date: "2025-06-30", reporting_year: 2024 })).toBeNull();
    expect(reportingYearProblem({ start_date: "2024-07-01", end_date: "2025-06-30", reporting_year: 2025 })).toBeNull();
    expect(reportingYearProblem({ start_date: "2025-01-01", end_date: "2025-12-31", reporting_year: 2026 })).toEqual({
      field: "reporting_year",
      message: "отчетный год 2026 вне дат проекта (2025 год); выберите год, который охватывают даты",
    });
    expect(reportingYearProblem({ start_date: "2024-07-01", end_date: "2025-06-30", reporting_year: 2023 })?.message).toMatch(
      /\(годы 2024–2025\)/,
    );
  });
});
