// D25 on an existing installation: the facilities and calculations stored before emission points
// existed get them, once per company, on start (local/server.ts) and by the daily reconciliation
// (lambda/reconcile-statistics.ts). Every facility gets one point «Шахта в целом» (kind
// whole_mine: it stands for the whole facility, as the calculations did), and its measured and
// destruction calculations, archived ones too, name it. Nothing is recomputed and no version moves:
// the calculations count as before, so the figures of every stored year stay as they were and an
// approved version (its snapshot) is untouched.
import type { Deps } from "../context";
import { newId } from "../ids";
import { Conflict } from "../errors";
import type { EmissionPoint } from "../../ports";
import { POINT_TYPES, WHOLE_MINE_POINT_NAME } from "@core/inventory";

export const POINTS_MIGRATION = "emission-points";

export interface PointsMigrationReport {
  company: string;
  /** «Шахта в целом» points made. */
  points: number;
  /** Calculations that now name one. */
  calculations: number;
  /** Calculations changed meanwhile (their next run takes them); the company is not marked done. */
  conflicts: number;
}

/** Runs `migrate` for every company whose migration `name` is not yet done (it marks itself done); a
 *  company that fails is reported, the others go on. */
export async function migrateEachCompany<R>(
  deps: Pick<Deps, "repos" | "clock">,
  name: string,
  migrate: (deps: Pick<Deps, "repos" | "clock">, companyId: string) => Promise<R>,
  options: { log?: (report: R | { company: string; failed: string }) => void } = {},
): Promise<R[]> {
  const reports: R[] = [];
  for (const company of await deps.repos.companies.list()) {
    try {
      if (await deps.repos.migrations.isDone(company.id, name)) continue;
      const report = await migrate(deps, company.id);
      reports.push(report);
      options.log?.(report);
    } catch (error) {
      options.log?.({ company: company.id, failed: error instanceof Error ? error.message : String(error) });
    }
  }
  return reports;
}

/** Migrates every company not yet migrated; a company that fails is reported, the others go on. */
export const migrateEmissionPoints = (
  deps: Pick<Deps, "repos" | "clock">,
  options: { log?: (report: PointsMigrationReport | { company: string; failed: string }) => void } = {},
): Promise<PointsMigrationReport[]> => migrateEachCompany(deps, POINTS_MIGRATION, migrateCompany, options);

export async function migrateCompany(deps: Pick<Deps, "repos" | "clock">, companyId: string): Promise<PointsMigrationReport> {
  const now = deps.clock.now().toISOString();
  const report: PointsMigrationReport = { company: companyId, points: 0, calculations: 0, conflicts: 0 };
  const points = await deps.repos.emissionPoints.listOfCompany(companyId);
  const wholeOf = new Map<string, string>();
  for (const facility of await deps.repos.facilities.list(companyId)) {
    let whole = points.find((p) => p.facility === facility.id && p.kind === "whole_mine");
    if (!whole) {
      whole = {
        id: newId(),
        company: companyId,
        facility: facility.id,
        name: WHOLE_MINE_POINT_NAME,
        kind: "whole_mine",
        instrument: "",
        frequency: "",
        in_service_from: null,
        in_service_to: null,
        is_active: true,
        created_at: now,
        updated_at: now,
        version: 1,
      } satisfies EmissionPoint;
      await deps.repos.emissionPoints.create(whole);
      report.points += 1;
    }
    wholeOf.set(facility.id, whole.id);
  }
  const facilityOf = new Map((await deps.repos.projects.listAllOfCompany(companyId)).map((p) => [p.id, p.facility || null]));
  for (const calculation of await deps.repos.calculations.listWithoutPoint(companyId, POINT_TYPES)) {
    const facility = facilityOf.get(calculation.project);
    const point = facility ? wholeOf.get(facility) : undefined;
    if (!point) continue;
    try {
      // The same version: a stored fact made explicit, not an edit.
      await deps.repos.calculations.replace({ ...calculation, point }, calculation.version);
      report.calculations += 1;
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      report.conflicts += 1;
    }
  }
  if (report.conflicts === 0) await deps.repos.migrations.markDone(companyId, POINTS_MIGRATION, now);
  return report;
}
