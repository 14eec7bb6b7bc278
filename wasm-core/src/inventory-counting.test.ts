// D18: one rule decides what a total counts, and says in Russian what it left out.
import { describe, expect, it } from "vitest";
import { leftOutReason, leftOutSummary, roleOf, russianPlural, whatCounts, type Countable, type LeftOutReason } from "./inventory";

const calc = (over: Partial<Countable> & { id?: string } = {}): Countable & { id: string } => ({
  id: "c",
  type: "underground_emission_ch4",
  inventory_role: "primary",
  project: "p1",
  reporting_year: 2025,
  facility: "f1",
  ...over,
});

describe("what a total counts (D18)", () => {
  it("counts the primary calculations of the year's projects and gives every other one its reason", () => {
    const all = [
      calc({ id: "primary" }),
      calc({ id: "legacy", inventory_role: undefined }),
      calc({ id: "alt", inventory_role: "alternative" }),
      calc({ id: "forecast", type: "regres_methane", inventory_role: undefined }),
      calc({ id: "choice", type: "recycle_technology", inventory_role: undefined }),
      calc({ id: "2024", reporting_year: 2024 }),
      calc({ id: "other site", facility: "f2" }),
      calc({ id: "no site", facility: null }),
      calc({ id: "archived project", project_archived: true }),
      calc({ id: "archived", archived: true }),
    ];
    const year = whatCounts(all, { year: 2025 });
    expect(year.counted.map((c) => c.id)).toEqual(["primary", "legacy", "other site", "no site"]);
    expect(Object.fromEntries(year.left_out.map((l) => [l.calculation.id, l.reason]))).toEqual({
      alt: "alternative",
      forecast: "analysis",
      choice: "analysis",
      "2024": "other_year",
      "archived project": "archived",
      archived: "archived",
    });
    const site = whatCounts(all, { year: 2025, facility: "f1" });
    expect(site.counted.map((c) => c.id)).toEqual(["primary", "legacy"]);
    expect(site.left_out.filter((l) => l.reason === "other_facility").map((l) => l.calculation.id)).toEqual(["other site", "no site"]);
  });

  it("counts one project's own primary calculations, whatever its year and even when it is archived", () => {
    expect(leftOutReason(calc({ reporting_year: 2019, project_archived: true }), { project: "p1" })).toBeUndefined();
    expect(leftOutReason(calc({ project: "p2" }), { project: "p1" })).toBe("other_project");
    expect(leftOutReason(calc({ inventory_role: "alternative" }), { project: "p1" })).toBe("alternative");
    expect(leftOutReason(calc({ type: "sensitivity" }), { project: "p1" })).toBe("analysis");
  });
});

describe("a calculation's role (D15)", () => {
  it("is as stored, primary for one stored before roles existed, and none for a type the inventory does not sum", () => {
    expect(roleOf({ type: "torch_ch4", inventory_role: "alternative" })).toBe("alternative");
    expect(roleOf({ type: "torch_ch4" })).toBe("primary");
    expect(roleOf({ type: "underground", inventory_role: null })).toBe("primary");
    expect(roleOf({ type: "regres_methane" })).toBeNull();
    expect(roleOf({ type: "sensitivity", inventory_role: "primary" })).toBeNull();
  });
});

describe("the summary of what was left out", () => {
  const of = (...reasons: LeftOutReason[]) => leftOutSummary(reasons.map((reason) => ({ reason })));

  it("names alternatives, analyses and archived calculations with Russian plurals", () => {
    expect(of("alternative")).toBe("не учтен: 1 альтернативный расчет");
    expect(of("alternative", "alternative")).toBe("не учтены: 2 альтернативных расчета");
    expect(of(...Array<LeftOutReason>(5).fill("alternative"))).toBe("не учтены: 5 альтернативных расчетов");
    expect(of("analysis", "alternative", "analysis", "archived")).toBe(
      "не учтены: 1 альтернативный расчет, 2 аналитических расчета, 1 расчет в архиве",
    );
  });

  it("is empty when nothing of the total was left out: other years and sites belong to other totals", () => {
    expect(of()).toBe("");
    expect(of("other_year", "other_facility", "other_project")).toBe("");
  });

  it("declines numbers as Russian does", () => {
    const word = (n: number) => russianPlural(n, "расчет", "расчета", "расчетов");
    expect([1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map((n) => `${n} ${word(n)}`)).toEqual([
      "1 расчет",
      "2 расчета",
      "4 расчета",
      "5 расчетов",
      "11 расчетов",
      "12 расчетов",
      "14 расчетов",
      "21 расчет",
      "22 расчета",
      "25 расчетов",
      "101 расчет",
      "111 расчетов",
    ]);
  });
});
