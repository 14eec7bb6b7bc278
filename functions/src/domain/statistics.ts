// The profile's statistics (GET users/statistics/): what the user's company has in the platform.
// A snapshot per company is refreshed by the table's stream handler whenever one of the company's
// projects or calculations changes (in AWS a DynamoDB stream, locally the same handler called
// in-process), so a read is one GetItem; a company with no snapshot yet gets one on first read.
import type { Actor } from "./context";
import type { Calculation, Clock, CompanyStatistics, Repositories } from "../ports";
import type { Project } from "../schemas/project";
import { calculationDefinition, isCalculationType } from "../../../wasm-core/src/registry";

/** The figures of a company from its projects and its calculations that are not deleted. */
export function summarise(
  projects: Pick<Project, "is_deleted">[],
  calculations: Pick<Calculation, "type" | "results">[],
): Omit<CompanyStatistics, "computed_at"> {
  const active = projects.filter((p) => !p.is_deleted).length;
  const perType: Record<string, number> = {};
  let total = 0;
  for (const calculation of calculations) {
    perType[calculation.type] = (perType[calculation.type] ?? 0) + 1;
    const co2e = isCalculationType(calculation.type) ? calculationDefinition(calculation.type).co2e : undefined;
    const value = co2e ? calculation.results[co2e] : undefined;
    if (typeof value === "number" && Number.isFinite(value)) total += value;
  }
  return { projects: { active, archived: projects.length - active }, calculations: perType, total_co2e: total };
}

/** Reads the company's projects and calculations and stores the figures. The start time goes
 *  with them, so an overlapping refresh that began earlier cannot overwrite a newer snapshot. */
export async function refreshCompanyStatistics(
  deps: { repos: Repositories; clock: Clock },
  companyId: string,
): Promise<CompanyStatistics> {
  const computed_at = deps.clock.now().toISOString();
  const [projects, calculations] = await Promise.all([
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.calculations.listActiveByCompany(companyId),
  ]);
  const snapshot = { ...summarise(projects, calculations), computed_at };
  await deps.repos.statistics.put(companyId, snapshot);
  return snapshot;
}

export async function companyStatistics(deps: { repos: Repositories; clock: Clock }, actor: Actor): Promise<CompanyStatistics> {
  return (await deps.repos.statistics.get(actor.company)) ?? refreshCompanyStatistics(deps, actor.company);
}
