// The year's inventory as the API answers it, for the integration tests: the summary of
// GET v1/inventory/ and every calculation of a year (or of one line) read page by page from
// GET v1/inventory/calculations, as the web reads them.
import type * as z from "zod";
import type { inventoryCalculationSchema, inventorySchema } from "@server/contract/schemas/answers";
import type { Harness } from "./harness";

/** GET v1/inventory/?year= */
export type InventorySummary = z.output<typeof inventorySchema>;
/** A calculation of the year's inventory (GET v1/inventory/calculations). */
export type InventoryCalculation = z.output<typeof inventoryCalculationSchema>;

export interface InventoryCalculationsFilter {
  facility?: string;
  /** `category|ipcc_code|gas`, e.g. `3|1.B.1.a.i.1|CH4`. */
  line?: string;
  counted?: boolean;
  /** A check's `list`: the calculations behind it. */
  check?: string;
}

/** The largest page the route gives. */
const PAGE = 100;

/** Every calculation of the year's inventory (of the line, facility, counted or not when given),
 *  by period then name, collected from every page; fails on a non-200 answer or a page whose count
 *  disagrees with the first one's. */
export async function inventoryCalculations(
  h: Pick<Harness, "request">,
  token: string,
  year: number,
  filter: InventoryCalculationsFilter = {},
): Promise<InventoryCalculation[]> {
  const collected: InventoryCalculation[] = [];
  let count: number | undefined;
  do {
    const query = new URLSearchParams({ year: String(year), limit: String(PAGE), offset: String(collected.length) });
    if (filter.facility) query.set("facility", filter.facility);
    if (filter.line) query.set("line", filter.line);
    if (filter.counted !== undefined) query.set("counted", String(filter.counted));
    if (filter.check) query.set("check", filter.check);
    const res = await h.request(`/api/v1/inventory/calculations?${query}`, { token });
    if (res.status !== 200) throw new Error(`GET v1/inventory/calculations?${query}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { results: InventoryCalculation[]; count: number };
    if (count !== undefined && page.count !== count) throw new Error(`the count changed between pages: ${count} → ${page.count}`);
    count = page.count;
    if (page.results.length === 0 && collected.length < count) throw new Error(`an empty page at ${collected.length} of ${count}`);
    collected.push(...page.results);
  } while (collected.length < count);
  return collected;
}
