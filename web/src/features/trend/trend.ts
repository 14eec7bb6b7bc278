// What the «Динамика» screen derives from the trend's answer: each year's figures in the view asked
// (as reported, or in comparable conditions), the chart (stacked bars by category, the intensity
// line, a target's path) and the table's rows.
import type { Data, Layout } from "plotly.js";
import type { Trend, TrendTarget, TrendYear } from "./api";
import { categoryBar, stackedYearsLayout } from "../../shared/charts/yearBars";

export type TrendView = "reported" | "comparable";

/** The year's figures in the view. */
export const figuresOf = (year: TrendYear, view: TrendView) => (view === "comparable" ? year.comparable : year);

/** The CO2-eq targets of the whole company whose paths the chart draws: an absolute one in t CO2-eq
 *  beside the bars, one per t of coal beside the intensity line (on its axis), the first of each. */
export const chartTargets = (targets: readonly TrendTarget[]): TrendTarget[] =>
  (["absolute", "per_tonne"] as const).flatMap((kind) => {
    const found = targets.find((t) => t.gas === "co2e" && t.scope === "company" && t.kind === kind && t.progress.path);
    return found ? [found] : [];
  });

export function trendFigure(
  trend: Trend,
  view: TrendView,
  targets: readonly TrendTarget[] = [],
): { data: Data[]; layout: Partial<Layout> } {
  const years = trend.years;
  const x = years.map((y) => String(y.year));
  const categories = [...new Map(years.flatMap((y) => figuresOf(y, view).categories).map((c) => [c.category, c.category_label]))].sort(
    (a, b) => a[0] - b[0],
  );
  const data: Data[] = categories.map(([category, label]) =>
    categoryBar(
      category,
      `${category}. ${label}`,
      x,
      years.map((y) => figuresOf(y, view).categories.find((c) => c.category === category)?.t_co2e ?? 0),
    ),
  );
  const intensity = years.map((y) => figuresOf(y, view).intensity?.total ?? null);
  if (intensity.some((v) => v !== null)) {
    data.push({
      type: "scatter",
      mode: "lines+markers",
      name: "Удельные выбросы, т CO2-экв./т угля",
      x,
      y: intensity,
      yaxis: "y2",
      line: { color: "#cf1322" },
      hovertemplate: "%{x}: %{y:,.4f} т CO2-экв./т<extra></extra>",
    });
  }
  for (const target of targets) {
    const path = target.progress.path ?? [];
    const perTonne = target.kind === "per_tonne";
    data.push({
      type: "scatter",
      mode: "lines",
      name: `Цель: ${target.name}`,
      x: path.map((p) => String(p.year)),
      y: path.map((p) => p.value),
      ...(perTonne ? { yaxis: "y2" } : {}),
      line: { color: perTonne ? "#d46b08" : "#389e0d", dash: "dash" },
      hovertemplate: perTonne
        ? "%{x}: %{y:,.4~f} т CO2-экв./т<extra>путь к цели</extra>"
        : "%{x}: %{y:,.2f} т CO2-экв.<extra>путь к цели</extra>",
    });
  }
  const allYears = [...new Set([...x, ...targets.flatMap((t) => (t.progress.path ?? []).map((p) => String(p.year)))])].sort();
  return {
    data,
    layout: stackedYearsLayout({
      margin: { l: 70, r: 80, t: 10, b: 30 },
      // The years name themselves: no axis title to crowd them on a phone.
      xaxis: { type: "category", categoryorder: "array", categoryarray: allYears },
      yaxis: { rangemode: "tozero" },
      yaxis2: {
        title: { text: "т CO2-экв./т угля" },
        overlaying: "y",
        side: "right",
        rangemode: "tozero",
        showgrid: false,
        // Round ticks of its own («0,005», «0,01»), not the bars' grid divided («0,0042», «0,0085»),
        // written as they are, never rounded to three places («0,027» for 0,0275).
        tickmode: "auto",
        nticks: 6,
        tickformat: ",.4~f",
      },
      legend: { orientation: "h", y: -0.15 },
    }),
  };
}
