// Which typed day and which shifts of it have begun on the company's clock: pure,
// apart from DayShiftFields.tsx, so that its test runs in Node without React and antd.
import { isoDateIn } from "@core/company-clock";
import { shiftSpan } from "@core/monitoring";
import { typedDate } from "../../../shared/dates";

/** The typed day (ГГГГ-ММ-ДД) where it is a date that has begun on the company's clock; else none. */
export function begunDate(text: string, zone: string, now = Date.now()): string | undefined {
  const date = typedDate(text);
  return date && date <= isoDateIn(new Date(now), zone) ? date : undefined;
}

/** The shifts to choose from: those of `date` not yet begun disabled (0, «Все смены», never); a shift
 *  that says when it starts (`from`, UTC ms: the facility's calendar) is read by it. */
export function begunShifts<T extends { value: number; from?: number }>(
  shifts: T[],
  date: string | undefined,
  zone: string,
  now = Date.now(),
) {
  return shifts.map((s) => ({
    ...s,
    disabled: Boolean(date && s.value > 0 && (s.from ?? shiftSpan(`${date}#${s.value}`, zone)?.from ?? 0) > now),
  }));
}
