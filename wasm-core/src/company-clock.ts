// The company's clock: the time zone it keeps (a requisite, IANA name) and the dates a person reads
// on it, ДД.ММ.ГГГГ and ДД.ММ.ГГГГ ЧЧ:ММ. An instant (an ISO timestamp such as approved_at) is
// printed as the zone's calendar date; a plain date (YYYY-MM-DD) and a wall-clock time written
// without a zone (a history's «2025-10-20T00:00:00») are printed as written, never shifted.
// Browser-safe: the server's documents and the web app's screens print with the same rules.
import { ruDate } from "./dates";

/** A new company's zone: the Kuzbass's (UTC+7). */
export const DEFAULT_TIME_ZONE = "Asia/Novokuznetsk";

/** The zones a company chooses from: Russia's, west to east, named as people there name them. */
export const TIME_ZONES: ReadonlyArray<{ zone: string; label: string }> = [
  { zone: "Europe/Kaliningrad", label: "Калининград (UTC+2)" },
  { zone: "Europe/Moscow", label: "Москва (UTC+3)" },
  { zone: "Europe/Samara", label: "Самара (UTC+4)" },
  { zone: "Asia/Yekaterinburg", label: "Екатеринбург (UTC+5)" },
  { zone: "Asia/Omsk", label: "Омск (UTC+6)" },
  { zone: "Asia/Novosibirsk", label: "Новосибирск (UTC+7)" },
  { zone: "Asia/Novokuznetsk", label: "Кемерово, Новокузнецк (UTC+7)" },
  { zone: "Asia/Krasnoyarsk", label: "Красноярск (UTC+7)" },
  { zone: "Asia/Irkutsk", label: "Иркутск (UTC+8)" },
  { zone: "Asia/Yakutsk", label: "Якутск (UTC+9)" },
  { zone: "Asia/Chita", label: "Чита (UTC+9)" },
  { zone: "Asia/Vladivostok", label: "Владивосток (UTC+10)" },
  { zone: "Asia/Sakhalin", label: "Сахалин (UTC+11)" },
  { zone: "Asia/Magadan", label: "Магадан (UTC+11)" },
  { zone: "Asia/Kamchatka", label: "Камчатка (UTC+12)" },
  { zone: "Asia/Anadyr", label: "Анадырь (UTC+12)" },
];

export const TIME_ZONE_NAMES = TIME_ZONES.map((z) => z.zone) as [string, ...string[]];

/** The label of a zone of the list («Кемерово, Новокузнецк (UTC+7)»), else the name itself. */
export const timeZoneLabel = (zone: string) => TIME_ZONES.find((z) => z.zone === zone)?.label ?? zone;

/** The company's zone: its requisite, or the default for a company stored before it had one. */
export const zoneOf = (company: { time_zone?: string } | null | undefined): string => company?.time_zone || DEFAULT_TIME_ZONE;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Year, month, day, hours and minutes of `instant` on the zone's clock. */
function partsIn(instant: Date, zone: string): Record<"year" | "month" | "day" | "hour" | "minute", string> {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date and time written without a zone: read as written. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

const instantOf = (value: string | Date): Date | undefined => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** The calendar date of an instant on the zone's clock, YYYY-MM-DD (for machine use: a day key). */
export function isoDateIn(instant: string | Date, zone: string): string {
  const date = instantOf(instant);
  if (!date) return String(instant);
  const p = partsIn(date, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The zone's wall-clock date and time of an instant, YYYY-MM-DDTHH:MM (for a format that keeps
 *  local time without a zone, as a zip entry's MS-DOS time does). */
export function wallTimeIn(instant: string | Date, zone: string): string {
  const date = instantOf(instant);
  if (!date) return String(instant);
  const p = partsIn(date, zone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** ДД.ММ.ГГГГ: a plain date as written, an instant as the zone's calendar date. */
export function dateText(value: string | Date | null | undefined, zone: string): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") {
    const plain = PLAIN_DATE.exec(value) ?? WALL_TIME.exec(value);
    if (plain) return ruDate(value);
  }
  const date = instantOf(value);
  if (!date) return String(value);
  const p = partsIn(date, zone);
  return `${p.day}.${p.month}.${p.year}`;
}

/** ДД.ММ.ГГГГ ЧЧ:ММ: a time written without a zone as written, an instant on the zone's clock. */
export function dateTimeText(value: string | Date | null | undefined, zone: string): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") {
    const wall = WALL_TIME.exec(value);
    if (wall) return `${wall[3]}.${wall[2]}.${wall[1]} ${wall[4]}:${wall[5]}`;
    if (PLAIN_DATE.test(value)) return `${dateText(value, zone)} 00:00`;
  }
  const date = instantOf(value);
  if (!date) return String(value);
  const p = partsIn(date, zone);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** How far the zone's clock is ahead of UTC at `instant` (ms since the epoch), in ms: +7 h for
 *  Kemerovo. Read from the zone's calendar, so a zone that changed its offset gives each date its own. */
export function zoneOffsetMs(instant: number, zone: string): number {
  const minute = Math.floor(instant / 60_000) * 60_000;
  const p = partsIn(new Date(minute), zone);
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute) - minute;
}

/** The instant (ms since the epoch) at which the zone's clock reads the wall time given (month 1–12),
 *  as a dispatch system's local «ДД.ММ.ГГГГ ЧЧ:ММ:СС» is read (D57). */
export function instantOfWallTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
  second = 0,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Two steps settle a zone whose offset differs on the two sides of the first guess.
  const first = wall - zoneOffsetMs(wall, zone);
  return wall - zoneOffsetMs(first, zone);
}
