// D90: the facility's shift calendar — shifts per day (3 × 8 h or 4 × 6 h; 2 × 12 h
// where the mine works so) and the first shift's start, dated: a day is read with the calendar in force on
// it (the entry with the latest `valid_from` not after it). Minutes before the first shift's start belong
// to the day before's last shift (D64). The one place every roll-up by shift asks which shift an instant
// is in (`shiftAt`) and which shifts a day has (`shiftsOfDay`): the journal, «Загазирования смены», the
// shift report, the events' shift and the handover. Pure and browser-safe.
import { instantOfWallTime, zoneOffsetMs } from "./company-clock";
import { HOUR_MS, ruDate } from "./dates";

/** Shifts a day: 3 × 8 h, 4 × 6 h [A], 2 × 12 h. */
export const SHIFTS_PER_DAY = [3, 4, 2] as const;
export type ShiftsPerDay = (typeof SHIFTS_PER_DAY)[number];

export interface ShiftCalendarEntry {
  /** The first company day it holds (ГГГГ-ММ-ДД). */
  readonly valid_from: string;
  readonly shifts: ShiftsPerDay;
  /** The first shift's start on the company's clock, «ЧЧ:ММ». */
  readonly first_start: string;
}

/** D64's default: three 8-hour shifts from 00:00 [A], from the beginning. */
export const DEFAULT_SHIFT_CALENDAR: readonly ShiftCalendarEntry[] = [{ valid_from: "1970-01-01", shifts: 3, first_start: "00:00" }];

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};
const two = (n: number) => String(n).padStart(2, "0");

/** The calendar's entry in force on the company day `day` (the default before its first). */
export function calendarOn(calendar: readonly ShiftCalendarEntry[] | undefined, day: string): ShiftCalendarEntry {
  let found = DEFAULT_SHIFT_CALENDAR[0];
  for (const entry of [...(calendar ?? [])].sort((a, b) => a.valid_from.localeCompare(b.valid_from)))
    if (entry.valid_from <= day) found = entry;
  return found;
}

/** The shifts' starts on `day`, minutes of the local day, in order (e.g. 4 × 6 h from 06:00: 360, 720,
 *  1080, 1440 — the last starts at midnight, the next day's wall time, and is this day's fourth). */
export function shiftStartsOn(calendar: readonly ShiftCalendarEntry[] | undefined, day: string): number[] {
  const entry = calendarOn(calendar, day);
  const first = minutesOf(entry.first_start);
  const length = 1440 / entry.shifts;
  return Array.from({ length: entry.shifts }, (_, i) => first + i * length);
}

/** A shift of a company day: its key («2026-03-01#2», the key rollUp uses), its day and number, its name
 *  as every page and file says it («Смена 2 (14:00–22:00)») and the instants it runs from and to. */
export interface Shift {
  readonly key: string;
  readonly date: string;
  readonly number: number;
  readonly name: string;
  readonly from: number;
  readonly to: number;
}

const hhmm = (minute: number) => `${two(Math.floor((minute % 1440) / 60))}:${two(minute % 60)}`;

/** «Смена 2 (12:00–18:00)»: a shift's number on its day and its wall hours, an end at midnight «24:00». */
export function calendarShiftName(number: number, from: number, to: number): string {
  return `Смена ${number} (${hhmm(from)}–${to % 1440 === 0 ? "24:00" : hhmm(to)})`;
}

/** The shifts of the company day `day` (ГГГГ-ММ-ДД) by the calendar in force on it, in order; a shift
 *  over a clock change lasts its wall hours. */
export function shiftsOfDay(calendar: readonly ShiftCalendarEntry[] | undefined, day: string, zone: string): Shift[] {
  const starts = shiftStartsOn(calendar, day);
  const [y, m, d] = day.split("-").map(Number);
  const wall = (minute: number) => {
    const at = new Date(Date.UTC(y, m - 1, d, 0, minute));
    return instantOfWallTime(at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes(), zone);
  };
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : starts[0] + 1440;
    return {
      key: `${day}#${i + 1}`,
      date: day,
      number: i + 1,
      name: calendarShiftName(i + 1, start, end),
      from: wall(start),
      to: wall(end),
    };
  });
}

/** An hour of a shift day (D99): its wall hour on the company's clock (0–23, its start's) and its span. */
export interface ShiftDayHour {
  readonly hour: number;
  readonly from: number;
  readonly to: number;
}

/** D99: a shift day — the company day `day`'s shifts from its first shift's start to the next day's first
 *  shift's start (08:00–08:00 with a first shift at 08:00), the last shift running to it (a calendar's
 *  change that starts the next day later stretches it, as shiftAt reads the gap), and its hours in the order
 *  worked, each in exactly one shift: with 4 × 6 h from 08:00 the fourth shift's hours are 2, 3, 4, 5, 6, 7.
 *  A shift day longer than 24 hours (that change) counts its extra minutes in its last hour. */
export function shiftDay(
  calendar: readonly ShiftCalendarEntry[] | undefined,
  day: string,
  zone: string,
): { from: number; to: number; shifts: Shift[]; hours: ShiftDayHour[] } {
  const own = shiftsOfDay(calendar, day, zone);
  const next = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + 1));
  const following = `${next.getUTCFullYear()}-${two(next.getUTCMonth() + 1)}-${two(next.getUTCDate())}`;
  const last = own[own.length - 1];
  const to = Math.max(shiftsOfDay(calendar, following, zone)[0].from, last.from + HOUR_MS);
  const shifts = own.map((s, i) => (i === own.length - 1 ? { ...s, to } : s));
  const from = own[0].from;
  const hours: ShiftDayHour[] = [];
  for (let k = 0; k < 24 && from + k * HOUR_MS < to; k++) {
    const start = from + k * HOUR_MS;
    const local = new Date(start + zoneOffsetMs(start, zone));
    hours.push({ hour: local.getUTCHours(), from: start, to: k === 23 ? to : Math.min(to, start + HOUR_MS) });
  }
  return { from, to, shifts, hours };
}

/** The shift the instant (UTC ms) falls in on the company's clock, by the calendar in force on its day:
 *  before the day's first shift, the day before's last (D64). */
export function shiftAt(calendar: readonly ShiftCalendarEntry[] | undefined, instant: number, zone: string): Shift {
  return shiftIn((day) => shiftsOfDay(calendar, day, zone), instant, zone);
}

/** shiftAt for many instants of one calendar and zone (a page of events): each day's shifts are made
 *  once, not twice an instant (200 events took 30 ms of a request's thread so). */
export function shiftFinder(calendar: readonly ShiftCalendarEntry[] | undefined, zone: string): (instant: number) => Shift {
  const days = new Map<string, Shift[]>();
  const ofDay = (day: string) => {
    let shifts = days.get(day);
    if (!shifts) {
      shifts = shiftsOfDay(calendar, day, zone);
      days.set(day, shifts);
    }
    return shifts;
  };
  return (instant) => shiftIn(ofDay, instant, zone);
}

function shiftIn(shiftsOf: (day: string) => Shift[], instant: number, zone: string): Shift {
  const local = new Date(instant + zoneOffsetMs(instant, zone));
  const day = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
  const before = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - 1));
  const dayBefore = `${before.getUTCFullYear()}-${two(before.getUTCMonth() + 1)}-${two(before.getUTCDate())}`;
  const shifts = [...shiftsOf(dayBefore), ...shiftsOf(day)];
  const found = shifts.find((s) => s.from <= instant && instant < s.to);
  if (found) return found;
  // A gap at a calendar's change (a later first start): the day before's last shift runs on to it.
  const earlier = shifts.filter((s) => s.from <= instant);
  return earlier.at(-1) ?? shifts[0];
}

/** What is wrong with a calendar's entries, in Russian; undefined when nothing is. */
export function calendarProblem(entries: readonly ShiftCalendarEntry[]): string | undefined {
  const days = entries.map((e) => e.valid_from);
  if (new Set(days).size !== days.length) return "два изменения календаря с одного дня";
  for (const e of entries) {
    if (!(SHIFTS_PER_DAY as readonly number[]).includes(e.shifts)) return "смен в сутках: 3 по 8 ч, 4 по 6 ч или 2 по 12 ч";
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(e.first_start);
    if (!match) return "начало первой смены: ЧЧ:ММ, от 00:00 до 23:59";
  }
  return undefined;
}

/** «4 смены по 6 ч, первая с 06:00» — an entry in words. */
export function calendarText(entry: Pick<ShiftCalendarEntry, "shifts" | "first_start">): string {
  return `${entry.shifts} смены по ${24 / entry.shifts} ч, первая с ${entry.first_start}`;
}

/** «Смена 2 (08:00–16:00), 02.03.2026»: a shift with its company day, as the handover, its form and the
 *  journal's signature name it. */
export function shiftTitle(shift: Pick<Shift, "name" | "date">): string {
  return `${shift.name}, ${ruDate(shift.date)}`;
}

/** The shifts a handover written at `instant` may be of (D95): the one now and the one that has just ended
 *  (a handover written at 16:05 of the shift that ended at 16:00); the API takes no other, and the form
 *  offers these two. */
export function handoverShifts(
  calendar: readonly ShiftCalendarEntry[] | undefined,
  instant: number,
  zone: string,
): { now: Shift; ended: Shift } {
  const now = shiftAt(calendar, instant, zone);
  return { now, ended: shiftAt(calendar, now.from - 1, zone) };
}

/** The shift the handover's form offers first: the one that has just ended while no handover of it into
 *  the shift now is written and the shift now is in its first half (the handover at the boundary, written
 *  late); otherwise the one now. `handed` — the keys of the shifts whose handovers are written. */
export function handoverShiftFirst(
  calendar: readonly ShiftCalendarEntry[] | undefined,
  instant: number,
  zone: string,
  handed: readonly string[],
): Shift {
  const { now, ended } = handoverShifts(calendar, instant, zone);
  const early = instant < now.from + (now.to - now.from) / 2;
  return early && ended.key !== now.key && !handed.includes(ended.key) ? ended : now;
}
