// GWP by reporting year (methodology D1, D12, D41): the rule is wasm-core/src/gwp-in-force.ts, shared
// with the browser; here the sets are read from the dictionary, each as the version that applies to
// the reporting year: an administrator's edit takes effect for reporting years from its
// effective_from on, so the years before it keep the figures they had.
import type { Deps } from "../context";
import type { DictionaryItemVersion } from "../../ports";
import { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN, gwpSetInForce as inForce } from "@core/gwp-in-force";

export { GWP_DICTIONARY, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN };

const yearOf = (item: DictionaryItemVersion, field: "year_from" | "year_to") => item.values[field]?.value ?? 0;

/** The set in force for `year` among `sets` (each already the version that applies to the year). */
export function setInForce(sets: DictionaryItemVersion[], year: number): DictionaryItemVersion | undefined {
  return inForce(sets, year, (s) => ({
    id: s.id,
    yearFrom: yearOf(s, "year_from"),
    yearTo: yearOf(s, "year_to"),
    hasCh4: Boolean(s.values.gwp_ch4),
  }));
}

/** D41: the reporting year from which a version applies: its effective_from's. */
const appliesFrom = (version: DictionaryItemVersion) => Number(version.effective_from.slice(0, 4));

/** D41: each item as it applies to reporting year `year`: its latest version in effect from that
 *  year or before; a year before all of them takes the item's first version. */
export function itemsOfYear(versions: readonly DictionaryItemVersion[], year: number): DictionaryItemVersion[] {
  const byId = new Map<number, DictionaryItemVersion>();
  for (const version of [...versions].sort((a, b) => a.id - b.id || a.version - b.version)) {
    if (!byId.has(version.id) || appliesFrom(version) <= year) byId.set(version.id, version);
  }
  return [...byId.values()];
}

/** D41: the set in force for reporting year `year`, as the version that applies to it. */
export const setInForceOfYear = (versions: readonly DictionaryItemVersion[], year: number) => setInForce(itemsOfYear(versions, year), year);

export async function gwpSetInForce(deps: Deps, year: number): Promise<DictionaryItemVersion | undefined> {
  return setInForceOfYear(await deps.repos.dictionaries.versions(GWP_DICTIONARY), year);
}

/** The GWP sets as they apply to reporting year `year` (a calculation of that year stores the
 *  version its set has then). */
export async function gwpSetsOfYear(deps: Deps, year: number): Promise<DictionaryItemVersion[]> {
  return itemsOfYear(await deps.repos.dictionaries.versions(GWP_DICTIONARY), year);
}
