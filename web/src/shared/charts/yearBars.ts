// Emissions by reporting year as bars stacked by category of Order 371 (t CO2-eq): the inventory's
// years (features/inventory) and the trend (features/trend) draw them alike.
import type { Data, Layout } from "plotly.js";

const CATEGORY_COLORS: Record<number, string> = { 1: "#8c8c8c", 2: "#fa8c16", 3: "#1677ff", 18: "#52c41a" };

/** One category's segment of every year's bar; `name` is the legend's «category. label». */
export function categoryBar(category: number, name: string, x: string[], y: number[]): Data {
  return {
    type: "bar",
    name,
    x,
    y,
    marker: { color: CATEGORY_COLORS[category] ?? "#722ed1" },
    hovertemplate: "%{x}: %{y:,.2f} т CO2-экв.<extra>%{fullData.name}</extra>",
  };
}

/** The bars stacked, Russian numbers, the y axis in t CO2-eq; `layout` adds to it (its yaxis to the y axis). */
export function stackedYearsLayout({ yaxis, ...layout }: Partial<Layout>): Partial<Layout> {
  return { barmode: "stack", separators: ", ", yaxis: { title: { text: "т CO2-экв." }, tickformat: ",.0f", ...yaxis }, ...layout };
}
