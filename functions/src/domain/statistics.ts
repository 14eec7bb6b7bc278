// The profile's statistics (GET users/statistics/): what the user's company has in the platform.
import type { Actor, Deps } from "./context";

export interface Statistics {
  projects: { active: number; archived: number };
  /** Active calculations per calculation type. */
  calculations: Record<string, number>;
  /** Sum of the CO2-equivalent results of the company's active calculations, t. */
  total_co2e: number;
}

export async function companyStatistics(deps: Deps, actor: Actor): Promise<Statistics> {
  const [active, archived] = await Promise.all([
    deps.repos.projects.count(actor.company, "active"),
    deps.repos.projects.count(actor.company, "archived"),
  ]);
  return { projects: { active, archived }, calculations: {}, total_co2e: 0 };
}
