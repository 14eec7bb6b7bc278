// the facility's shifts as the sensor checks and the handover read them, by the facility's own
// shift calendar (D90: @core/shift-calendar, the one place every roll-up by shift asks which
// shift an instant is in), so a check's shift, what is due «each shift» and the handover's shifts agree
// with the operator's journal and the shift report.
import { zoneOf } from "@core/company-clock";
import { handoverShifts, shiftAt, shiftDay, shiftsOfDay, shiftTitle } from "@core/shift-calendar";
import type { Deps } from "../../context";
import { DAY_MS } from "@core/dates";

export interface FacilityShifts {
  zone: string;
  /** The shift key (ГГГГ-ММ-ДД#n) an instant (ms) falls in. */
  at(instant: number): string;
  /** The instants a shift key runs from and to. */
  span(key: string): { from: number; to: number } | undefined;
  /** «Смена 2 (08:00–16:00), 01.03.2026». */
  name(key: string): string;
  /** The shift after `key`. */
  next(key: string): string;
  /** The shifts a handover at an instant (ms) may be of: the one now and the one just ended (D95). */
  handover(instant: number): { now: string; ended: string };
}

/** The shifts of `facility` on its company's clock, by the facility's shift calendar. */
export async function facilityShifts(deps: Pick<Deps, "repos">, company: string, facility: string): Promise<FacilityShifts> {
  const [owner, kept] = await Promise.all([deps.repos.companies.get(company), deps.repos.facilities.get(company, facility)]);
  const zone = zoneOf(owner);
  const calendar = kept?.shift_calendar;
  const shiftOfKey = (key: string) => {
    const [day, n] = key.split("#");
    return shiftsOfDay(calendar, day, zone).find((s) => s.number === Number(n));
  };
  // D99: a day's last shift runs to the next day's first shift's start (a calendar's change that starts it
  // later stretches it), as the journal's shift day reads it.
  const span = (key: string) => {
    const [day, n] = key.split("#");
    const shift = shiftDay(calendar, day, zone).shifts.find((s) => s.number === Number(n));
    return shift && { from: shift.from, to: shift.to };
  };
  return {
    zone,
    at: (instant) => shiftAt(calendar, instant, zone).key,
    span,
    name(key) {
      const [date, n] = key.split("#");
      return shiftTitle(shiftOfKey(key) ?? { name: `Смена ${n}`, date });
    },
    handover(instant) {
      const { now, ended } = handoverShifts(calendar, instant, zone);
      return { now: now.key, ended: ended.key };
    },
    next(key) {
      const to = span(key)?.to;
      if (to === undefined) return key;
      const after = shiftAt(calendar, to, zone).key;
      if (after !== key) return after;
      // A gap at a calendar's change (a later first start): the shift runs on to the next one's start (D64),
      // which is the first shift of its day or the next day starting at or after its calendar end.
      const day = key.split("#")[0];
      const following = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
      return [...shiftsOfDay(calendar, day, zone), ...shiftsOfDay(calendar, following, zone)].find((s) => s.from >= to)?.key ?? key;
    },
  };
}
