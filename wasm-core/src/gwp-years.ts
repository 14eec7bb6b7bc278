// Which GWP set is in force for a reporting year (methodology D1, D12), the one rule for the server
// and the browser: each set of get_gwp carries the years it applies to (year_from … year_to, 0 =
// not dated). The set in force is the dated set containing the year with the latest year_from (an
// admin dating AR5 for 2025 overrides the seeded 2979-р «every year» for 2025 only), ties to the
// lower id; with none dated, set 1. Sets come as data: each side says how to read its own shape.

/** The dictionary of the GWP sets (methodology D1); a calculation records the set it used. */
export const GWP_DICTIONARY = "get_gwp";
/** The earliest reporting year the product supports (a project's, an inventory's). */
export const REPORTING_YEAR_MIN = 1990;

/** D12: a project's reporting year when none is given (and for projects stored before it existed):
 *  its end date's year. */
export function defaultReportingYear(endDate: string): number {
  return Number(endDate.slice(0, 4));
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
