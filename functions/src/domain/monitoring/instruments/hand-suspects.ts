// D105: a hand measurement's `suspect` event (reason `hand`) holds its meter's minutes «под сомнением» to the
// meter's next passed check (D94): recording that check closes it. Apart from hand-measurements.ts so the
// checks' module (sensor-checks.ts) calls it without importing the journal that imports it.
import { DAY_MS, MINUTE_MS } from "@core/dates";
import type { Deps } from "../../context";
import { LIMITS } from "../../../contract/schemas/limits";

/** D105: a passed check of `sensor` at `at` closes the hand events of it open from before (their doubt ends). */
export async function closeHandSuspects(deps: Pick<Deps, "repos">, company: string, facility: string, sensor: string, at: number) {
  const open = (
    await deps.repos.sensorEvents.listOfFacility(
      company,
      facility,
      new Date(at - LIMITS.sensorChecks.lookbackDays * DAY_MS).toISOString(),
      new Date(at).toISOString(),
    )
  ).filter((e) => e.sensor === sensor && e.kind === "suspect" && e.suspect?.reason === "hand" && e.end === null);
  for (const e of open) {
    const start = Date.parse(e.start);
    const next = { ...e, end: new Date(at).toISOString(), minutes_above: Math.max(0, Math.round((at - start) / MINUTE_MS)) };
    await deps.repos.sensorEvents.put(next, e.version);
  }
}
