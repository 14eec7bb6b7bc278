// A project's uncertainty model (docs/methodology.md, Uncertainty; until the inventory exists, the
// project stands in for it): each active calculation of an emission type as a sum of products of
// its uncertain inputs, as the calculation recorded them. The browser runs the uncertainty core on
// it (Approach 1, key categories, Monte Carlo); the exports compute the same intervals in Node.
// Only what the project's totals count (D18): alternatives are left out and named.
import { EMISSION_TYPES } from "@core/registry";
import { DESTROYED_GAS_UNCERTAINTY, modelAtYearGwp, type CalculationModel } from "@core/calculation-uncertainty";
import { NETTING_LABEL } from "@core/inventory";
import { gwpText, projectFigures, projectNetting } from "../inventory/project-figures";
import type { Actor, Deps } from "../context";
import { getProject } from "./projects";
import { modelOf } from "../inventory/uncertainty";
import { activeOfProject, countInProject, leftOutView, notCountedLine } from "./counting";

export async function projectUncertaintyModel(deps: Deps, actor: Actor, projectId: string) {
  const project = await getProject(deps, actor, projectId);
  // D18: the project's primary calculations only; alternatives are named in `not_counted`.
  const [active, nettingBasis] = await Promise.all([
    activeOfProject(deps.repos, actor.company, project.id, EMISSION_TYPES),
    projectNetting(deps, actor.company, project),
  ]);
  const { counted, left_out } = countInProject(project, active);
  // D26, D27: where the facility-year nets drained methane off the project's gross figures, the
  // page shows the netting line and the netted total after the calculations.
  const figures = projectFigures(nettingBasis, counted);
  const calculations: CalculationModel[] = [];
  for (const calculation of counted) {
    const model = modelOf(calculation);
    // D26: at the reporting year's GWP, as the inventory and the netting line count it.
    const gases = figures.calculations.get(calculation.id);
    if (model) calculations.push(gases ? modelAtYearGwp(model, gases) : model);
  }
  return {
    project: { id: project.id, name: project.name, is_deleted: project.is_deleted },
    calculations,
    count: calculations.length,
    netting:
      figures.subtracted_t_co2e > 0
        ? {
            label: NETTING_LABEL,
            subtracted_t_co2e: figures.subtracted_t_co2e,
            lower_pct: DESTROYED_GAS_UNCERTAINTY.lower_pct,
            upper_pct: DESTROYED_GAS_UNCERTAINTY.upper_pct,
            source: DESTROYED_GAS_UNCERTAINTY.source,
            gwp: gwpText(nettingBasis),
          }
        : null,
    not_counted: notCountedLine(left_out),
    left_out: leftOutView(left_out),
  };
}
