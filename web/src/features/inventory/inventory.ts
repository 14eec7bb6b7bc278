// What the inventory report derives from the API's answer: the change against the year before and
// the chart of totals by category and year (the years to offer are in years.ts).
import type { Data, Layout } from "plotly.js";
import { ORDER_371_CATEGORIES, type Order371Category } from "@core/inventory";
import type { Facility, Inventory, YearTotals } from "../../api/inventory";
import { categoryBar, stackedYearsLayout } from "../../shared/charts/yearBars";

export interface YearChange {
  previousYear: number;
  previous: number;
  /** Percent of the previous year's total; undefined when it was 0. */
  percent?: number;
}

export function changeFromYearBefore(years: readonly YearTotals[], year: number, total: number): YearChange | undefined {
  const previous = years.find((y) => y.year === year - 1);
  if (!previous) return undefined;
  const percent = previous.total_t_co2e === 0 ? undefined : ((total - previous.total_t_co2e) / previous.total_t_co2e) * 100;
  return { previousYear: previous.year, previous: previous.total_t_co2e, percent };
}

/** 8.1: the facilities whose coal processed the year asks for: those of the chosen facility (or all),
 *  but an archived one (a mine closed or sold) only where the year has its figures or its value. */
export function coalProcessedFacilities<F extends Pick<Facility, "id" | "is_active">>(
  facilities: readonly F[],
  inventory: Pick<Inventory, "facility" | "facilities"> & { review: Pick<Inventory["review"], "coal_processed"> },
) {
  const reported = new Set([...inventory.facilities.map((f) => f.id), ...(inventory.review.coal_processed ?? []).map((r) => r.facility)]);
  return facilities.filter((f) => (!inventory.facility || f.id === inventory.facility) && (f.is_active !== false || reported.has(f.id)));
}

/** Stacked bars: one per reporting year, a segment per Order 371 category (t CO2-eq). */
export function totalsByCategoryFigure(years: readonly YearTotals[]): { data: Data[]; layout: Partial<Layout> } {
  const sorted = [...years].sort((a, b) => a.year - b.year);
  const categories = (Object.keys(ORDER_371_CATEGORIES).map(Number) as Order371Category[]).filter((c) =>
    sorted.some((y) => (y.by_category[c] ?? 0) !== 0),
  );
  const x = sorted.map((y) => String(y.year));
  const data = categories.map((category) =>
    categoryBar(
      category,
      `${category}. ${ORDER_371_CATEGORIES[category]}`,
      x,
      sorted.map((y) => y.by_category[category] ?? 0),
    ),
  );
  return {
    data,
    layout: stackedYearsLayout({
      margin: { l: 70, r: 10, t: 10, b: 40 },
      xaxis: { type: "category", title: { text: "Отчетный год" } },
      legend: { orientation: "h", y: -0.2 },
    }),
  };
}
