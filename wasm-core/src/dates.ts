// The one-liners of time every side shares, written once: the lengths of a minute, an hour and a day
// in milliseconds, and a date as Russian readers write it (ДД.ММ.ГГГГ). The server (@core/dates), the
// core and the web app import them from here.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** A plain date (YYYY-MM-DD, or the date that begins a YYYY-MM-DDTHH:MM… text, as written: no zone
 *  applies) as Russian readers write it, ДД.ММ.ГГГГ: «2025-01-31» → «31.01.2025». */
export const ruDate = (iso: string): string => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
