import { describe, expect, it } from "vitest";
import { gwpSetInForce, type GwpSetYears } from "./gwp-years";

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
