// GET v1/inventory/measured-vs-estimated/ — the year's comparison per underground mine
// (domain/inventory/measured-vs-estimated.ts builds it) with what the mine's monitoring adds: the
// accepted months' minutes (their evidence, D60, D62), the months whose readings moved since they were
// accepted (D63) and the points with channels of their own in the register. Here, beside the
// acceptances, since the inventory's folder reads nothing of the monitoring's. Computed in the heavy-read
// slot like the year's other folds (../../heavy-reads.ts), kept while the company's data, the mines'
// acceptances and their registers stay as they are.
import { createHash } from "node:crypto";
import { uncertaintyCore } from "@core/uncertainty-node";
import type { Actor, Deps } from "../../context";
import { NotFound } from "../../errors";
import { heavyRead } from "../../heavy-reads";
import { compareMines, yearLines, type ComparisonSources, type MonthMinutes } from "../../inventory/measured-vs-estimated";
import { acceptedEvidenceKey } from "./accepted-evidence";
import { listPointChannels } from "./offers";

/** The company's underground mines in scope (one facility when given). */
async function minesOf(deps: Pick<Deps, "repos">, company: string, facilityId: string | undefined) {
  const facilities = await deps.repos.facilities.list(company);
  if (facilityId && !facilities.some((f) => f.id === facilityId)) throw new NotFound("Площадка не найдена");
  return { facilities, mines: facilities.filter((f) => f.kind === "underground_mine" && (!facilityId || f.id === facilityId)) };
}

/** What the answer reads besides the company's data version: the mines' accepted months as rechecked
 *  (D63) and their registers' marks, so a kept answer is given up when either moves. */
async function monitoringMark(deps: Pick<Deps, "repos">, company: string, year: number, mines: ReadonlyArray<{ id: string }>) {
  const parts = await Promise.all(
    mines.map(async (f) => {
      const [acceptances, stamp] = await Promise.all([
        deps.repos.monitoring.acceptances(company, f.id),
        deps.repos.sensors.registerStamp(company, f.id),
      ]);
      const ofYear = acceptances.filter((a) => a.month.startsWith(`${year}-`));
      return [f.id, stamp ?? null, ofYear.map((a) => [a.calculation, a.version ?? 1, a.readings_sha256, a.now_ch4_t ?? null])];
    }),
  );
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** The accepted months' minutes (their evidence, D63), the months moved since, and the shafts and
 *  drainage stations without their own channels (a point's month comes from its own channels
 *  alone; what each lacks as «Данные АГК» names it). */
async function monitoringOf(deps: Deps, actor: Actor, mines: readonly string[], year: number) {
  const minutes = new Map<string, MonthMinutes>();
  const moved: NonNullable<ComparisonSources["moved"]>[number][] = [];
  const lacking = new Map<string, string[]>();
  for (const facility of mines) {
    const [acceptances, channels] = await Promise.all([
      deps.repos.monitoring.acceptances(actor.company, facility),
      listPointChannels(deps, actor, facility),
    ]);
    for (const point of channels) if (point.lacks.length > 0) lacking.set(point.point, point.lacks);
    for (const a of acceptances.filter((a) => a.month.startsWith(`${year}-`))) {
      const blob = await deps.blobs.get(acceptedEvidenceKey(a, "json"));
      const result = blob
        ? (JSON.parse(new TextDecoder().decode(blob.body)) as { result?: { completeness: number; minutes: MonthMinutes } }).result
        : undefined;
      if (result) minutes.set(a.calculation, { ...result.minutes, completeness: result.completeness });
      if (a.now_ch4_t !== undefined) {
        moved.push({ facility, point: a.point, month: a.month, calculation: a.calculation, ch4_t: a.ch4_t, now_ch4_t: a.now_ch4_t });
      }
    }
  }
  return { minutes, moved, lacking };
}

/** The year's comparison per underground mine (of one facility when given); an approved year compares
 *  its version's calculations (D40), as its pack does. */
export async function measuredVsEstimated(deps: Deps, actor: Actor, year: number, facilityId?: string) {
  const { facilities, mines } = await minesOf(deps, actor.company, facilityId);
  const mark = await monitoringMark(deps, actor.company, year, mines);
  // D93: a month not yet ended is neither missing nor compared, so the answer is today's.
  const today = deps.clock.now().toISOString().slice(0, 10);
  return heavyRead(deps, actor, ["measured_vs_estimated", year, facilityId ?? null, mark, today], async () => {
    const [{ lines, approved_version }, points, monitoring] = await Promise.all([
      yearLines(deps, actor, year, facilityId),
      deps.repos.emissionPoints.listOfCompany(actor.company),
      monitoringOf(
        deps,
        actor,
        mines.map((m) => m.id),
        year,
      ),
    ]);
    const scoped = facilities.filter((f) => !facilityId || f.id === facilityId);
    return {
      year,
      approved_version,
      facilities: compareMines(uncertaintyCore(), { year, lines, facilities: scoped, points, ...monitoring, today }),
    };
  });
}
