import { describe, expect, it } from "vitest";
import type { Trend, TrendTarget } from "./api";
import { chartTargets, figuresOf, trendFigure } from "./trend";

const year = (y: number, total: number, comparable: number) =>
  ({
    year: y,
    draft: true,
    total_t_co2e: total,
    categories: [{ category: 3, category_label: "Добыча угля", t_co2e: total }],
    intensity: { total: total / 1000 },
    coal: { total_t: 1000 },
    comparable: {
      total_t_co2e: comparable,
      categories: [{ category: 3, category_label: "Добыча угля", t_co2e: comparable }],
      intensity: { total: comparable / 1000 },
    },
  }) as unknown as Trend["years"][number];

const trend = { from: 2020, to: 2025, years: [year(2020, 100, 150), year(2024, 80, 120)] } as unknown as Trend;
const target = {
  name: "−30 %",
  gas: "co2e",
  scope: "company",
  kind: "absolute",
  progress: {
    path: [
      { year: 2020, value: 150 },
      { year: 2030, value: 105 },
    ],
  },
} as unknown as TrendTarget;

describe("the trend's chart", () => {
  it("stacks the view's categories, draws the intensity and the target's path through the target year", () => {
    expect(figuresOf(trend.years[0], "comparable").total_t_co2e).toBe(150);
    const { data, layout } = trendFigure(trend, "comparable", chartTargets([target]));
    expect(data.map((d) => d.name)).toEqual(["3. Добыча угля", "Удельные выбросы, т CO2-экв./т угля", "Цель: −30 %"]);
    expect((data[0] as { y: number[] }).y).toEqual([150, 120]);
    expect((data[1] as { y: number[] }).y).toEqual([0.15, 0.12]);
    expect((layout.xaxis as { categoryarray: string[] }).categoryarray).toEqual(["2020", "2024", "2030"]);
    expect((trendFigure(trend, "reported").data[0] as { y: number[] }).y).toEqual([100, 80]);
  });

  // a target per t of coal drew no path, and the right axis rounded its ticks.
  it("draws a target per t of coal on the intensity's axis, beside an absolute one, and writes the axis's ticks unrounded", () => {
    const perTonne = {
      ...target,
      name: "−20 % на тонну",
      kind: "per_tonne",
      progress: {
        path: [
          { year: 2020, value: 0.15 },
          { year: 2030, value: 0.12 },
        ],
      },
    } as unknown as TrendTarget;
    const facilityTarget = { ...target, name: "Площадка", scope: "facility" } as unknown as TrendTarget;
    const chosen = chartTargets([facilityTarget, perTonne, target]);
    expect(chosen.map((t) => t.name)).toEqual(["−30 %", "−20 % на тонну"]);
    const { data, layout } = trendFigure(trend, "comparable", chosen);
    const path = data.find((d) => d.name === "Цель: −20 % на тонну") as { y: number[]; yaxis?: string };
    expect(path.y).toEqual([0.15, 0.12]);
    expect(path.yaxis).toBe("y2");
    expect((data.find((d) => d.name === "Цель: −30 %") as { yaxis?: string }).yaxis).toBeUndefined();
    expect(layout.yaxis2).toMatchObject({ tickformat: ",.4~f", tickmode: "auto" });
  });
});
