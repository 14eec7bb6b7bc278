// D92 on an existing installation: a drainage station's month accepted from the АГК before
// D92 was stored with the measured type's default basis, «чистый», though the station's own pipeline
// meters measure all the drained gas: a flare fed from it counted its burnt methane twice
// (`possible_double_count`), and the comparison said the burnt gas was missing. Once per company, on
// start (local/server.ts) and by the daily reconciliation (lambda/reconcile-statistics.ts), each such
// month is made gross — its figures unchanged, the balance nets the burnt gas (D26) — with an entry in
// the company's change log by «система». A meter the register places after a take-off keeps what its
// acceptance recorded. A month of a year sent or approved keeps its figures: the company is not marked
// done, so the month is corrected once the year is reopened, and its next version takes it.
import { basisOf } from "@core/methane-balance";
import type { Deps } from "../../context";
import { Conflict } from "../../errors";
import { migrateEachCompany } from "../../company/emission-points-migration";
import { recordFacilityChange } from "../../company/facilities";
import { DRAINAGE_BASIS_ACTION } from "../../company/requisites-audit";
import { frozenReview } from "../../inventory/freeze";
import { withProjectLines } from "../../inventory/magnitudes";

export const DRAINAGE_GROSS_MIGRATION = "accepted-drainage-gross";
/** Who the change log names for a change the platform made (shown «система»). */
const PLATFORM = { id: "system", email: "system" } as const;
const WHY =
  "Месяц дегазационной установки, принятый по ее собственным счетчикам на трубопроводе, измеряет весь каптированный газ — " +
  "основа «валовый»; сожженный газ вычитается балансом метана";

export interface DrainageBasisReport {
  company: string;
  /** Accepted months made gross. */
  months: number;
  /** Months of a year sent or approved, kept as they are until the year is reopened. */
  kept: number;
  /** Months changed meanwhile (the next run takes them). */
  conflicts: number;
}

/** Migrates every company not yet migrated; a company that fails is reported, the others go on. */
export const migrateDrainageBasis = (
  deps: Pick<Deps, "repos" | "clock">,
  options: { log?: (report: DrainageBasisReport | { company: string; failed: string }) => void } = {},
): Promise<DrainageBasisReport[]> => migrateEachCompany(deps, DRAINAGE_GROSS_MIGRATION, migrateCompanyDrainageBasis, options);

export async function migrateCompanyDrainageBasis(deps: Pick<Deps, "repos" | "clock">, companyId: string): Promise<DrainageBasisReport> {
  const now = deps.clock.now().toISOString();
  const report: DrainageBasisReport = { company: companyId, months: 0, kept: 0, conflicts: 0 };
  for (const facility of await deps.repos.facilities.list(companyId)) {
    const points = new Map((await deps.repos.emissionPoints.listOfFacility(companyId, facility.id)).map((p) => [p.id, p]));
    for (const accepted of await deps.repos.monitoring.acceptances(companyId, facility.id)) {
      const point = points.get(accepted.point);
      if (point?.kind !== "drainage_station" || point.meter_after_takeoff) continue;
      const calculation = await deps.repos.calculations.get(companyId, "underground", accepted.calculation);
      if (!calculation || calculation.is_deleted) continue;
      const before = basisOf(calculation.type, calculation.inputs);
      if (before === "gross") continue;
      const project = await deps.repos.projects.get(companyId, calculation.project);
      if (!project) continue;
      if (await frozenReview(deps, companyId, project.reporting_year)) {
        report.kept += 1;
        continue;
      }
      const next = {
        ...calculation,
        inputs: { ...calculation.inputs, basis: "gross" },
        version: calculation.version + 1,
        updated_at: now,
        updated_by: PLATFORM.email,
      };
      try {
        await withProjectLines(deps, companyId, next, calculation, undefined, (lines) =>
          deps.repos.calculations.replace(next, calculation.version, lines),
        );
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        report.conflicts += 1;
        continue;
      }
      report.months += 1;
      await recordFacilityChange(
        deps,
        PLATFORM,
        facility.name,
        { id: calculation.id, company: companyId, label: calculation.name },
        {
          action: DRAINAGE_BASIS_ACTION,
          target_type: "accepted_month",
          before: { month: accepted.month, point_name: point.name, basis: before ?? "net", calculation_version: calculation.version },
          after: { month: accepted.month, point_name: point.name, basis: "gross", calculation_version: next.version, reason: WHY },
        },
      );
    }
  }
  if (report.conflicts === 0 && report.kept === 0) await deps.repos.migrations.markDone(companyId, DRAINAGE_GROSS_MIGRATION, now);
  return report;
}
