// D20: the year's inventory as an approval stores it (domain/inventory/versions.ts): the whole company's,
// each listed calculation with what it was computed from.
import type { Actor, Deps } from "../context";
import { inventoryWithStored } from "./year";
import type { InventoryState } from "./versions";

/** The whole company's inventory of `year` as it stands, with each listed calculation's inputs. */
export async function inventoryState(deps: Deps, actor: Actor, year: number): Promise<InventoryState> {
  const {
    inventory: { review, years: _years, calculations, ...inventory },
    stored,
  } = await inventoryWithStored(deps, actor, year);
  const byId = new Map(stored.map((c) => [c.id, c]));
  return {
    ...inventory,
    ...(review.coal_processed?.length ? { coal_processed: review.coal_processed } : {}),
    calculations: calculations.map((row) => {
      const calculation = byId.get(row.id)!;
      return {
        ...row,
        version: calculation.version,
        inputs: calculation.inputs,
        results: calculation.results,
        methodology_version: calculation.methodology_version,
      };
    }),
  };
}
