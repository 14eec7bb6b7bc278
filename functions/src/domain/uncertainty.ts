// A project's uncertainty model (methodology-uncertainty.md; until the inventory exists, the
// project stands in for it): each active calculation of an emission type as a sum of products of
// its uncertain inputs, as the calculation recorded them. The browser runs the uncertainty core on
// it (Approach 1, key categories, Monte Carlo); the exports compute the same intervals in Node.
import { EMISSION_TYPES } from "@core/registry";
import { calculationModel, type CalculationModel, type UsedValue } from "@core/calculation-uncertainty";
import type { Calculation } from "../ports";
import type { Actor, Deps } from "./context";
import { getProject } from "./projects";

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
  const calculations: CalculationModel[] = [];
  for (const type of EMISSION_TYPES) {
    for (const calculation of await deps.repos.calculations.listAllByProject(actor.company, project.id, type, "active")) {
      const model = modelOf(calculation);
      if (model) calculations.push(model);
    }
  }
  return { project: { id: project.id, name: project.name, is_deleted: project.is_deleted }, calculations, count: calculations.length };
}
