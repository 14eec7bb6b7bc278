// GWP by reporting year (methodology D1, D12): the rule is wasm-core/src/gwp-in-force.ts, shared with
// the browser; here the sets are read from the dictionary.
import type { Deps } from "../context";
import { getDictionaryItems } from "./dictionaries";
import type { DictionaryItemVersion } from "../../ports";
import { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN, gwpSetInForce as inForce } from "@core/gwp-in-force";

export { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN };

const yearOf = (item: DictionaryItemVersion, field: "year_from" | "year_to") => item.values[field]?.value ?? 0;

export function setInForce(sets: DictionaryItemVersion[], year: number): DictionaryItemVersion | undefined {
  return inForce(sets, year, (s) => ({
    id: s.id,
    yearFrom: yearOf(s, "year_from"),
    yearTo: yearOf(s, "year_to"),
    hasCh4: Boolean(s.values.gwp_ch4),
  }));
}

export async function gwpSetInForce(deps: Deps, year: number): Promise<DictionaryItemVersion | undefined> {
  return setInForce(await getDictionaryItems(deps, GWP_DICTIONARY), year);
}
