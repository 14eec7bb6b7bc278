// The profile's statistics (GET users/statistics/): what the user's company has in the platform.
import type { Actor, Deps } from "./context";
import { calculationDefinition, isCalculationType } from "../../../wasm-core/src/registry";

export interface Statistics {
  projects: { active: number; archived: number };
  /** Active calculations per calculation type. */
  calculations: Record<string, number>;
  /** Sum of the CO2-equivalent results of the company's active calculations, t. */
  total_co2e: number;
}

export async function companyStatistics(deps: Deps, actor: Actor): Promise<Statistics> {
  const [active, archived, calculations] = await Promise.all([
    deps.repos.projects.count(actor.company, "active"),
    deps.repos.projects.count(actor.company, "archived"),
    deps.repos.calculations.listActiveByCompany(actor.company),
  ]);
  const perType: Record<string, number> = {};
  let total = 0;
  for (const calculation of calculations) {
    perType[calculation.type] = (perType[calculation.type] ?? 0) + 1;
    const co2e = isCalculationType(calculation.type) ? calculationDefinition(calculation.type).co2e : undefined;
    const value = co2e ? calculation.results[co2e] : undefined;
    if (typeof value === "number" && Number.isFinite(value)) total += value;
  }
  return { projects: { active, archived }, calculations: perType, total_co2e: total };
}
