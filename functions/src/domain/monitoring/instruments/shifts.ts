// Issue 118: the facility's shifts as the sensor checks and the handover read them — one place, so the
// facility's own shift calendar (issue 114) plugs in here. Today every facility keeps the journal's
// shifts (D64: three of 8 hours from 00:00 on the company's clock, @core/monitoring DEFAULT_SHIFT_STARTS),
// which is what operatorJournal (derive/journal.ts) rolls its shift means up by.
import { zoneOf } from "@core/company-clock";
import { DEFAULT_SHIFT_STARTS, shiftName, shiftOf, shiftSpan } from "@core/monitoring";
import type { Deps } from "../../context";

export interface FacilityShifts {
  zone: string;
  /** Minutes of the local day each shift starts at. */
  starts: readonly number[];
  /** The shift key (ГГГГ-ММ-ДД#n) an instant (ms) falls in. */
  at(instant: number): string;
  /** The instants a shift key runs from and to. */
  span(key: string): { from: number; to: number } | undefined;
  /** «Смена 2 (08:00–16:00), 01.03.2026». */
  name(key: string): string;
  /** The shift after `key`. */
  next(key: string): string;
}

/** The shifts of `facility` on its company's clock. */
export async function facilityShifts(deps: Pick<Deps, "repos">, company: string, _facility: string): Promise<FacilityShifts> {
  const zone = zoneOf(await deps.repos.companies.get(company));
  const starts = DEFAULT_SHIFT_STARTS;
  const span = (key: string) => shiftSpan(key, zone, starts);
  return {
    zone,
    starts,
    at: (instant) => shiftOf(instant, zone, starts),
    span,
    name(key) {
      const [day, n] = key.split("#");
      const [y, m, d] = day.split("-");
      return `${shiftName(Number(n), starts)}, ${d}.${m}.${y}`;
    },
    next(key) {
      const to = span(key)?.to;
      return to === undefined ? key : shiftOf(to, zone, starts);
    },
  };
}
