// Which GWP set is in force for a reporting year (methodology D1, D12), the one rule for the server
// and the browser: each set of get_gwp carries the years it applies to (year_from … year_to, 0 =
// not dated). The set in force is the dated set containing the year with the latest year_from (an
// admin dating AR5 for 2025 overrides the seeded 2979-р «every year» for 2025 only), ties to the
// lower id; with none dated, set 1. Sets come as data: each side says how to read its own shape.

/** A gas of the inventory (inventory.ts names it too; this module sits below it). */
type Gas = "CH4" | "CO2";

/** The dictionary of the GWP sets (methodology D1); a calculation records the set it used. */
export const GWP_DICTIONARY = "get_gwp";
/** The reporting years the product supports (a project's, an inventory's, a GWP re-dating's). */
export const REPORTING_YEAR_MIN = 1990;
export const REPORTING_YEAR_MAX = 2100;

/** D12: a project's reporting year when none is given (and for projects stored before it existed):
 *  its end date's year. */
export function defaultReportingYear(endDate: string): number {
  return Number(endDate.slice(0, 4));
}

/** D30: a project's reporting year must be a year its dates cover; the message names the field, or null. */
export function reportingYearProblem(p: {
  start_date: string;
  end_date: string;
  reporting_year: number;
}): { field: "reporting_year"; message: string } | null {
  const first = Number(p.start_date.slice(0, 4));
  const last = Number(p.end_date.slice(0, 4));
  if (p.reporting_year >= first && p.reporting_year <= last) return null;
  const years = first === last ? `${first} год` : `годы ${first}–${last}`;
  return {
    field: "reporting_year",
    message: `отчетный год ${p.reporting_year} вне дат проекта (${years}); выберите год, который охватывают даты`,
  };
}

export interface GwpSetYears {
  id: number;
  /** 0: not dated. */
  yearFrom: number;
  /** 0: open-ended. */
  yearTo: number;
  /** Only a set with a CH4 value can be in force. */
  hasCh4: boolean;
}

export function gwpSetInForce<T>(sets: readonly T[], year: number, years: (set: T) => GwpSetYears): T | undefined {
  const dated = sets.filter((set) => {
    const { yearFrom, yearTo, hasCh4 } = years(set);
    return hasCh4 && yearFrom > 0 && yearFrom <= year && year <= (yearTo || Infinity);
  });
  dated.sort((a, b) => years(b).yearFrom - years(a).yearFrom || years(a).id - years(b).id);
  return dated[0] ?? sets.find((set) => years(set).id === 1);
}

/** D1: a gas's mass as CO2-equivalent, t: CH4 times the GWP of the set in force, CO2 as it is. The
 *  one place the inventory's totals and the GWP recompute turn CH4 into CO2-eq (the calculations
 *  themselves do it in the emissions core). */
export function co2Equivalent(gas: Gas, t: number, gwpCh4: number): number {
  return gas === "CH4" ? t * gwpCh4 : t;
}

/** D12: the results of a stored calculation that depend on the GWP, as they would read under
 *  another GWP_CH4: res_ch4_to_co2 = res_ch4 × GWP, and sum_co2 with the old CH4 part replaced by
 *  the new one. Only they change; a type without res_ch4 has none. */
export function resultsUnderGwp(results: Readonly<Record<string, unknown>>, gwpCh4: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof results.res_ch4 !== "number") return out;
  out.res_ch4_to_co2 = co2Equivalent("CH4", results.res_ch4, gwpCh4);
  if (typeof results.sum_co2 === "number" && typeof results.res_ch4_to_co2 === "number") {
    out.sum_co2 = results.sum_co2 - results.res_ch4_to_co2 + out.res_ch4_to_co2;
  }
  return out;
}
