// GWP by reporting year (methodology D1, D12): each set of get_gwp carries the reporting years it
// applies to (year_from … year_to, versioned like any coefficient; 0 = not dated). The set in force
// for a year is the dated set containing it with the latest year_from (an admin dating AR5 for 2025
// overrides the seeded 2979-р «every year» for 2025 only); ties go to the lower id.
import type { Deps } from "./context";
import { getDictionaryItems } from "./dictionaries";
import type { DictionaryItemVersion } from "../ports";

export const GWP_DICTIONARY = "get_gwp";
export const REPORTING_YEAR_MIN = 1990;
export const REPORTING_YEAR_MAX = 2100;

const yearOf = (item: DictionaryItemVersion, field: "year_from" | "year_to") => item.values[field]?.value ?? 0;

export function setInForce(sets: DictionaryItemVersion[], year: number): DictionaryItemVersion | undefined {
  const dated = sets.filter((s) => s.values.gwp_ch4 && yearOf(s, "year_from") > 0 && yearOf(s, "year_from") <= year && year <= (yearOf(s, "year_to") || Infinity));
  dated.sort((a, b) => yearOf(b, "year_from") - yearOf(a, "year_from") || a.id - b.id);
  return dated[0] ?? sets.find((s) => s.id === 1);
}

export async function gwpSetInForce(deps: Deps, year: number): Promise<DictionaryItemVersion | undefined> {
  return setInForce(await getDictionaryItems(deps, GWP_DICTIONARY), year);
}

/** A project's reporting year: as stored, else (projects made before it existed) its end date's. */
export function reportingYearOf(project: { reporting_year?: number; end_date: string }): number {
  return project.reporting_year ?? Number(project.end_date.slice(0, 4));
}
