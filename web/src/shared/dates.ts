// Every date a person reads on a screen: ДД.ММ.ГГГГ (and ЧЧ:ММ), on the company's clock
// (@core/company-clock, the server's documents print with the same rules). The API keeps ISO.
import { DEFAULT_TIME_ZONE, dateText, dateTimeText } from "@core/company-clock";

export const DATE_FORMAT = "YYYY-MM-DD";
/** What a date field shows (ДД.ММ.ГГГГ, as Russian documents write dates) and accepts when typed:
 *  that or ISO. The API keeps ISO (DATE_FORMAT). */
/** A date as a user types it into a text field: its placeholder, and how many characters it takes. */
export const DATE_TYPED = "ДД.ММ.ГГГГ";

export const DATE_FIELD_FORMATS = ["DD.MM.YYYY", DATE_FORMAT];

/** The signed-in company's time zone (get_me's company.time_zone), set when the profile loads. */
let companyZone = DEFAULT_TIME_ZONE;
export function setCompanyZone(zone: string | undefined): void {
  companyZone = zone || DEFAULT_TIME_ZONE;
}

/** The company's time zone as the session set it (charts that place instants on its clock). */
export function companyZoneNow(): string {
  return companyZone;
}

/** ДД.ММ.ГГГГ: a plain date as stored (no zone applies), a timestamp such as created_at as the
 *  company's calendar date. */
export function displayDate(value: string | null | undefined): string {
  return dateText(value, companyZone);
}

/** A timestamp as the company's date and time, ДД.ММ.ГГГГ ЧЧ:ММ. */
export function displayDateTime(value: string | null | undefined): string {
  return dateTimeText(value, companyZone);
}

/** A history's time (a forecast's or a calibration's rows): kept as it was written, read as written,
 *  ДД.ММ.ГГГГ ЧЧ:ММ with no shift to any clock. */
export function displayWrittenTime(value: string | null | undefined): string {
  return dateTimeText(value, "UTC");
}

/** ДД.ММ.ГГГГ typed into a text field → ГГГГ-ММ-ДД, or undefined when it is no date. */
export function typedDate(text: string): string | undefined {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCDate() === d && date.getUTCMonth() === m - 1 ? `${match[3]}-${match[2]}-${match[1]}` : undefined;
}
