import { describe, expect, it } from "vitest";
import {
  coverageDifference,
  coverageOf,
  effectivePeriod,
  monthPeriod,
  periodChoices,
  periodProblem,
  periodText,
  periodsOverlap,
  quarterPeriod,
  outsideService,
  yearGaps,
} from "./source-periods";

const PROJECT = { start_date: "2025-01-01", end_date: "2025-12-31" };

describe("the period a calculation covers (D19)", () => {
  it("is its own period, else its project's dates", () => {
    expect(effectivePeriod(undefined, PROJECT)).toEqual({ from: "2025-01-01", to: "2025-12-31" });
    expect(effectivePeriod({ from: "2025-04-01", to: "2025-06-30" }, PROJECT)).toEqual({ from: "2025-04-01", to: "2025-06-30" });
  });

  it("overlaps another when they share a day, and not when they only touch", () => {
    const q1 = quarterPeriod(2025, 1);
    expect(periodsOverlap(q1, quarterPeriod(2025, 2))).toBe(false);
    expect(periodsOverlap(q1, { from: "2025-03-31", to: "2025-04-30" })).toBe(true);
    expect(periodsOverlap(q1, effectivePeriod(undefined, PROJECT))).toBe(true);
  });

  it("leaves no gap when quarters or months tile the year, and names the days left uncovered", () => {
    expect(
      yearGaps(
        2025,
        [1, 2, 3, 4].map((q) => quarterPeriod(2025, q)),
      ),
    ).toEqual([]);
    expect(
      yearGaps(
        2024,
        Array.from({ length: 12 }, (_, i) => monthPeriod(2024, i + 1)),
      ),
    ).toEqual([]);
    expect(yearGaps(2025, [quarterPeriod(2025, 1), quarterPeriod(2025, 2)])).toEqual([{ from: "2025-07-01", to: "2025-12-31" }]);
    expect(yearGaps(2025, [quarterPeriod(2025, 1), quarterPeriod(2025, 3)])).toEqual([
      { from: "2025-04-01", to: "2025-06-30" },
      { from: "2025-10-01", to: "2025-12-31" },
    ]);
    // Overlapping and out-of-year periods are clipped, not double counted.
    expect(
      yearGaps(2025, [{ from: "2024-07-01", to: "2025-02-15" }, monthPeriod(2025, 2), { from: "2025-03-01", to: "2026-06-30" }]),
    ).toEqual([]);
    expect(yearGaps(2025, [])).toEqual([{ from: "2025-01-01", to: "2025-12-31" }]);
    expect(periodText({ from: "2025-07-01", to: "2025-12-31" })).toBe("01.07.2025–31.12.2025");
  });

  it("knows leap years and month ends", () => {
    expect(monthPeriod(2024, 2)).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(monthPeriod(2025, 2)).toEqual({ from: "2025-02-01", to: "2025-02-28" });
    expect(quarterPeriod(2025, 4)).toEqual({ from: "2025-10-01", to: "2025-12-31" });
  });

  it("must lie within the project's dates, naming the field", () => {
    expect(periodProblem({ from: "2025-01-01", to: "2025-03-31" }, PROJECT)).toBeUndefined();
    expect(periodProblem({ from: "2024-12-01", to: "2025-03-31" }, PROJECT)).toMatchObject({
      field: "period.from",
      message: expect.stringContaining("01.01.2025–31.12.2025"),
    });
    expect(periodProblem({ from: "2025-10-01", to: "2026-01-31" }, PROJECT)?.field).toBe("period.to");
    expect(periodProblem({ from: "2025-03-31", to: "2025-01-01" }, PROJECT)).toMatchObject({
      field: "period.to",
      message: expect.stringContaining("раньше"),
    });
    expect(periodProblem({ from: "2025-02-30", to: "2025-03-31" }, PROJECT)?.field).toBe("period.from");
    expect(periodProblem("2025-Q1", PROJECT)?.field).toBe("period");
  });

  it("offers the months and quarters within the project's dates, clipped to them", () => {
    expect(periodChoices("quarter", PROJECT).map((c) => c.label)).toEqual([
      "1 квартал 2025",
      "2 квартал 2025",
      "3 квартал 2025",
      "4 квартал 2025",
    ]);
    const partial = periodChoices("quarter", { start_date: "2025-02-15", end_date: "2025-06-30" });
    expect(partial.map((c) => c.period)).toEqual([
      { from: "2025-02-15", to: "2025-03-31" },
      { from: "2025-04-01", to: "2025-06-30" },
    ]);
    expect(partial[0].label).toBe("1 квартал 2025 (15.02.2025–31.03.2025)");
    expect(periodChoices("month", PROJECT)).toHaveLength(12);
    expect(periodChoices("month", PROJECT)[2]).toMatchObject({ key: "2025-03", label: "март 2025" });
  });

  it("keeps coverage as differences that cancel at the joins and tell the overlaps and gaps as pairwise checks do", () => {
    const add = (periods: { from: string; to: string }[]) => {
      const sum: Record<string, number> = {};
      for (const p of periods) for (const [day, n] of Object.entries(coverageDifference(p))) sum[day] = (sum[day] ?? 0) + n;
      return Object.fromEntries(Object.entries(sum).filter(([, n]) => n !== 0));
    };
    const months = Array.from({ length: 12 }, (_, i) => monthPeriod(2025, i + 1));
    expect(add(months)).toEqual({ "2025-01-01": 1, "2026-01-01": -1 });
    expect(coverageOf(add(months))).toEqual({ covered: [{ from: "2025-01-01", to: "2025-12-31" }], overlaps: false });

    const withoutMay = months.filter((_, i) => i !== 4);
    const { covered, overlaps } = coverageOf(add(withoutMay));
    expect(overlaps).toBe(false);
    expect(yearGaps(2025, covered)).toEqual(yearGaps(2025, withoutMay));
    expect(yearGaps(2025, covered)).toEqual([{ from: "2025-05-01", to: "2025-05-31" }]);

    // Touching periods do not overlap; sharing one day does.
    expect(coverageOf(add([quarterPeriod(2025, 1), quarterPeriod(2025, 2)])).overlaps).toBe(false);
    expect(coverageOf(add([quarterPeriod(2025, 1), { from: "2025-03-31", to: "2025-04-30" }])).overlaps).toBe(true);
    // A day's calculation taken away again leaves nothing behind.
    const day = { from: "2025-02-03", to: "2025-02-03" };
    const back = add([day]);
    for (const [d, n] of Object.entries(coverageDifference(day))) back[d] -= n;
    expect(Object.values(back).every((n) => n === 0)).toBe(true);
  });
});

describe("the days outside a point's dates in service (D25)", () => {
  it("are before its first day and after its last, either end open", () => {
    expect(outsideService("2027-07-01", "2027-10-31")).toEqual([
      { from: "0001-01-01", to: "2027-06-30" },
      { from: "2027-11-01", to: "9999-12-31" },
    ]);
    expect(outsideService(null, undefined)).toEqual([]);
    expect(yearGaps(2027, [{ from: "2027-07-01", to: "2027-09-30" }, ...outsideService("2027-07-01", "2027-10-31")])).toEqual([
      { from: "2027-10-01", to: "2027-10-31" },
    ]);
  });
});
