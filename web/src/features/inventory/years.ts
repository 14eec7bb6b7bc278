// The reporting years the inventory screen offers and opens first, apart from inventory.ts so that
// the page's first paint does not wait for the chart's category names.
import type { YearTotals } from "../../api/inventory";

/** The years with data, and the last finished reporting year, newest first. */
export function yearOptions(years: readonly YearTotals[], today: Date): number[] {
  const lastReporting = today.getFullYear() - 1;
  return [...new Set([...years.map((y) => y.year), lastReporting, lastReporting + 1])].sort((a, b) => b - a);
}

/** The year shown first: the latest year with data, else the last finished reporting year. */
export function defaultYear(years: readonly YearTotals[], today: Date): number {
  return years.length > 0 ? Math.max(...years.map((y) => y.year)) : today.getFullYear() - 1;
}
