import { describe, expect, it } from "vitest";
import type { YearTotals } from "../../api/inventory";
import { changeFromYearBefore, coalProcessedFacilities, totalsByCategoryFigure } from "./inventory";
import { defaultYear, yearOptions } from "./years";

const years: YearTotals[] = [
  { year: 2024, total_t_co2e: 80_000, by_category: { 3: 70_000, 2: 10_000 }, not_counted: "" },
  { year: 2025, total_t_co2e: 60_000, by_category: { 3: 60_000 }, not_counted: "" },
];
const today = new Date("2026-11-23T00:00:00Z");

describe("inventory screen helpers", () => {
  it("offers the years with data and the last reporting year, newest first, and opens the latest with data", () => {
    expect(yearOptions(years, today)).toEqual([2026, 2025, 2024]);
    expect(yearOptions([], today)).toEqual([2026, 2025]);
    expect(defaultYear(years, today)).toBe(2025);
    expect(defaultYear([], today)).toBe(2025);
  });

  it("asks the coal processed of active facilities, of an archived one only where the year has its figures or its value", () => {
    const facilities = [
      { id: "open", is_active: true },
      { id: "closed", is_active: false },
      { id: "closed-this-year", is_active: false },
      { id: "closed-entered", is_active: false },
    ];
    const inventory = {
      facility: null,
      facilities: [{ id: "closed-this-year", name: "", t_co2e: 1 }],
      review: { coal_processed: [{ facility: "closed-entered", t: 5 }] },
    };
    expect(coalProcessedFacilities(facilities, inventory).map((f) => f.id)).toEqual(["open", "closed-this-year", "closed-entered"]);
    expect(coalProcessedFacilities(facilities, { ...inventory, facility: "closed" }).map((f) => f.id)).toEqual([]);
  });

  it("compares a year with the year before, never across a gap", () => {
    expect(changeFromYearBefore(years, 2025, 60_000)).toEqual({ previousYear: 2024, previous: 80_000, percent: -25 });
    expect(changeFromYearBefore(years, 2024, 80_000)).toBeUndefined();
    expect(changeFromYearBefore([{ year: 2024, total_t_co2e: 0, by_category: {}, not_counted: "" }], 2025, 5)).toEqual({
      previousYear: 2024,
      previous: 0,
      percent: undefined,
    });
  });

  it("stacks each year's categories, only those with emissions", () => {
    const figure = totalsByCategoryFigure(years);
    expect(figure.data.map((d) => (d as { name: string }).name)).toEqual(["2. Сжигание в факелах", "3. Фугитивные выбросы"]);
    expect((figure.data[1] as { x: string[]; y: number[] }).y).toEqual([70_000, 60_000]);
    expect((figure.data[0] as { x: string[]; y: number[] }).x).toEqual(["2024", "2025"]);
  });
});
