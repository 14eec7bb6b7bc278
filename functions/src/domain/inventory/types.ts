// The shapes of a year's inventory as the answers, the report and the approved snapshot (D20) take
// them; apart from year.ts so that the versions, which store them, need not import the fold.
import type * as z from "zod";
import type { inventoryCalculationSchema, inventorySchema, yearTotalsSchema } from "../../contract/schemas/answers";
import type { StoredCalculation } from "../../ports";
import type { FigureLine } from "./sums";

/** A line of the year: how many counted calculations make it; the full inventory lists them. */
export interface InventoryCategoryRow extends FigureLine {
  calculations: string[];
}

/** A calculation of the year as the inventory lists it, with its coefficients as stored. */
export type InventoryCalculation = Omit<z.output<typeof inventoryCalculationSchema>, "coefficients"> & {
  coefficients: StoredCalculation["coefficients"];
};

/** A year's totals (D18: not_counted says what the total left out, "" for nothing). */
export type YearTotals = z.output<typeof yearTotalsSchema>;

/** A year's inventory (D15–D22) as GET v1/inventory/ answers it: figures and checks, no calculations. */
export type InventorySummary = z.output<typeof inventorySchema>;

/** The full inventory the report and the D20 snapshot take: each line's calculations, and every
 *  calculation of the year with its coefficients as stored. */
export type Inventory = Omit<InventorySummary, "categories" | "check_calculations"> & {
  categories: InventoryCategoryRow[];
  calculations: InventoryCalculation[];
};
