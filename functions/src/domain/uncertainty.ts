// A project's uncertainty model (docs/methodology.md, Uncertainty; until the inventory exists, the
// project stands in for it): each active calculation of an emission type as a sum of products of
// its uncertain inputs, as the calculation recorded them. The browser runs the uncertainty core on
// it (Approach 1, key categories, Monte Carlo); the exports compute the same intervals in Node.
// Only what the project's totals count (D18): alternatives are left out and named.
import { EMISSION_TYPES } from "@core/registry";
import { calculationModel, type CalculationModel, type UsedValue } from "@core/calculation-uncertainty";
import type { Calculation } from "../ports";
import type { Actor, Deps } from "./context";
import { getProject } from "./projects";
import { activeOfProject, countInProject, leftOutView, notCountedLine } from "./counting";

export function modelOf(calculation: Calculation): CalculationModel | undefined {
  return calculationModel({
    id: calculation.id,
    type: calculation.type,
    name: calculation.name,
    results: calculation.results,
    coefficients: calculation.coefficients as Record<string, UsedValue>,
  });
}

export async function projectUncertaintyModel(deps: Deps, actor: Actor, projectId: string) {
  const project = await getProject(deps, actor, projectId);
  // D18: the project's primary calculations only; alternatives are named in `not_counted`.
  const { counted, left_out } = countInProject(project, await activeOfProject(deps.repos, actor.company, project.id, EMISSION_TYPES));
  const calculations: CalculationModel[] = [];
  for (const calculation of counted) {
    const model = modelOf(calculation);
    if (model) calculations.push(model);
  }
  return {
    project: { id: project.id, name: project.name, is_deleted: project.is_deleted },
    calculations,
    count: calculations.length,
    not_counted: notCountedLine(left_out),
    left_out: leftOutView(left_out),
  };
}
