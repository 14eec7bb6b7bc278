// D98: the tile says what the book says. A methane meter with an entry of the gassing book in force — found
// by the record keeper (gassing-record.ts) and not over: its gassing as the readings last gave it (the
// latest correction's, else as found) has no end — reads `gassing` on the tile, the day chart and the
// handover, «загазирование: 0,80 % при норме 0,75 %», whatever its W and A: those are alarms the mine sets
// (a W of 0,7 % under a norm of 0,75 % read amber «предупредительный» while the book said «продолжается»);
// a W/A state the reading reached is said beside it. The norm is the one the book's entry was read against
// (D87: the place's). Pure but for the one read of the book's entries; the state itself is live.ts's meterState.
import type { Deps } from "../../context";
import type { GassingRegistration } from "../../../ports";

/** A meter's entry in force: its start and the norm it is read against. */
export interface OpenGassing {
  since: string;
  norm: number;
}

const fixed = (v: number) => v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Whether the entry's gassing is in force: not closed, and the readings last gave it no end (a correction
 *  that no longer gives it — `after` null — or gives it an end, ends it). */
export function inForce(entry: Pick<GassingRegistration, "closed" | "found" | "corrections">): boolean {
  if (entry.closed || !entry.found) return false;
  const last = entry.corrections?.at(-1);
  const now = last ? last.after : entry.found;
  return now !== null && now.end === null;
}

/** The facility's meters (by code) with an entry of the book in force, from the company's entries. */
export function openGassingsOf(entries: readonly GassingRegistration[], facility: string): Map<string, OpenGassing> {
  const out = new Map<string, OpenGassing>();
  for (const entry of entries) {
    if (entry.facility !== facility || !inForce(entry) || !entry.found) continue;
    entry.found.sensors.forEach((code, i) => {
      const norm = entry.found?.limits[i];
      const held = out.get(code);
      if (norm !== undefined && (!held || held.since > entry.start)) out.set(code, { since: entry.start, norm });
    });
  }
  return out;
}

/** The facility's meters with an entry in force (one read of the company's entries: a few a month). */
export async function openGassings(deps: Pick<Deps, "repos">, company: string, facility: string): Promise<Map<string, OpenGassing>> {
  return openGassingsOf(await deps.repos.gassings.list(company), facility);
}

/** «загазирование: 0,80 % при норме 0,75 %». */
export const gassingLabel = (value: number, norm: number) => `загазирование: ${fixed(value)} % при норме ${fixed(norm)} %`;
