// D63: an accepted month whose readings change after it was accepted. A subscriber of «readings written»
// (the hosts' tables, ports/changes.ts): for each accepted month of a point whose sensor-days a batch wrote, the month is
// computed again as its offer is (offers.ts, pointMonth) and what it gives now is kept on the acceptance
// (`now_ch4_t`); the calculation accepted keeps its figures, and an approved year never moves (D32).
// The inventory's checks read it (inventory/checks.ts, «данные АГК изменились после принятия» beyond
// 0,1 %), on the year and in review, without reading a minute of readings themselves.
import { isoDateIn, zoneOf } from "@core/company-clock";
import type { Deps } from "../../context";
import type { ReadingsWritten, OfferAcceptance } from "../../../ports";
import { registerOfChange } from "../ingest/kept-register";
import { DAY_MS } from "@core/dates";
import { monthWindow, pointMonth } from "./offers";

export async function recheckAcceptances(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  change: Pick<ReadingsWritten, "company" | "facility" | "register"> & { days: readonly { sensor: string; day: string }[] },
): Promise<OfferAcceptance[]> {
  const acceptances = await deps.repos.monitoring.acceptances(change.company, change.facility);
  if (acceptances.length === 0) return [];
  const [sensors, points, company] = await Promise.all([
    registerOfChange(deps, change),
    deps.repos.emissionPoints.listOfFacility(change.company, change.facility),
    deps.repos.companies.get(change.company),
  ]);
  const zone = zoneOf(company);
  const pointOf = new Map(sensors.map((s) => [s.id, s.point]));
  // A UTC day touches the company's months of its first and its last minute.
  const touched = new Set<string>();
  for (const { sensor, day } of change.days) {
    const point = pointOf.get(sensor);
    if (!point) continue;
    const start = Date.parse(`${day}T00:00:00Z`);
    for (const t of [start, start + DAY_MS - 1]) touched.add(`${point}|${isoDateIn(new Date(t), zone).slice(0, 7)}`);
  }
  const now = deps.clock.now();
  const rechecked: OfferAcceptance[] = [];
  for (const acceptance of acceptances) {
    if (!touched.has(`${acceptance.point}|${acceptance.month}`)) continue;
    const point = points.find((p) => p.id === acceptance.point);
    const window = monthWindow(Number(acceptance.month.slice(0, 4)), Number(acceptance.month.slice(5, 7)), zone, now.getTime());
    if (!point || !window) continue;
    const month = await pointMonth(deps, change.company, point, sensors, window);
    const nowCh4 = month?.offer.ch4_t ?? 0;
    // Run again on the same days (a kill before the batch was done), it writes nothing.
    if (acceptance.now_ch4_t === nowCh4) continue;
    const next = { ...acceptance, now_ch4_t: nowCh4, rechecked_at: now.toISOString() };
    await deps.repos.monitoring.recheckAcceptance(next);
    rechecked.push(next);
  }
  return rechecked;
}
