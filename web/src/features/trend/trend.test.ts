import { describe, expect, it } from "vitest";
import type { Trend, TrendTarget } from "./api";
import { chartTarget, figuresOf, trendFigure } from "./trend";

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
    const { data, layout } = trendFigure(trend, "comparable", chartTarget([target]));
    expect(data.map((d) => d.name)).toEqual(["3. Добыча угля", "Удельные выбросы, т CO2-экв./т угля", "Цель: −30 %"]);
    expect((data[0] as { y: number[] }).y).toEqual([150, 120]);
    expect((data[1] as { y: number[] }).y).toEqual([0.15, 0.12]);
    expect((layout.xaxis as { categoryarray: string[] }).categoryarray).toEqual(["2020", "2024", "2030"]);
    expect((trendFigure(trend, "reported").data[0] as { y: number[] }).y).toEqual([100, 80]);
  });
});
