// A project's uncertainty model (docs/methodology.md, Uncertainty; until the inventory exists, the
// project stands in for it): each active calculation of an emission type as a sum of products of
// its uncertain inputs, as the calculation recorded them. The browser runs the uncertainty core on
// it (Approach 1, key categories, Monte Carlo); the exports compute the same intervals in Node.
// Only what the project's totals count (D18): alternatives are left out and named. Where its
// facility-year nets drained methane, the netted total's interval comes from the year's own
// computation (domain/inventory/uncertainty.ts) on the project's lines, so the project page and the
// year page give one uncertainty for one figure (methodology 10.1).
import { EMISSION_TYPES, type CalculationType } from "@core/registry";
import { DESTROYED_GAS_SOURCE, modelAtYearGwp, type CalculationModel } from "@core/calculation-uncertainty";
import { DESTRUCTION_TYPES, NETTING_LABEL, inventorySourceOf, roleOf } from "@core/inventory";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport, type LineInput } from "@core/year-uncertainty";
import { gwpText, projectFigures, projectNetting, type ProjectFigures, type ProjectNetting } from "../inventory/project-figures";
import { ipccOfItem } from "../inventory/sums";
import type { Actor, Deps } from "../context";
import type { StoredCalculation } from "../../ports";
import { getProject } from "./projects";
import { destroyedUncertaintyOf, lineUncertaintyOf, modelOf, type CountedGas } from "../inventory/uncertainty";
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
            ...(await nettedInterval(deps, actor, project.facility || null, nettingBasis, counted, figures)),
            source: DESTROYED_GAS_SOURCE,
            gwp: gwpText(nettingBasis),
          }
        : null,
    not_counted: notCountedLine(left_out),
    left_out: leftOutView(left_out),
  };
}

/** D27, methodology 10.1: the destroyed gas's uncertainty and the netted total's interval of the
 *  project, by the year's computation on the project's lines (category, IPCC code and gas): the
 *  destroyed gas as the facility-year's flares, boilers and engines metered it, wherever they are. */
async function nettedInterval(
  deps: Deps,
  actor: Actor,
  facility: string | null,
  netting: ProjectNetting,
  counted: readonly StoredCalculation[],
  figures: ProjectFigures,
) {
  const core = uncertaintyCore();
  const devices = (
    await Promise.all(
      netting.facility_year_projects.map((id) =>
        activeOfProject(deps.repos, actor.company, id, DESTRUCTION_TYPES as readonly CalculationType[]),
      ),
    )
  )
    .flat()
    .filter((calculation) => roleOf(calculation) === "primary" && !netting.duplicates.has(calculation.id));
  const destroyedU = destroyedUncertaintyOf(
    core,
    devices.map((calculation) => ({ facility, calculation })),
  );
  const byLine = new Map<string, CountedGas[]>();
  for (const calculation of counted) {
    const gases = figures.calculations.get(calculation.id);
    if (!gases) continue;
    const model = modelOf(calculation);
    const prefix = `${inventorySourceOf(calculation.type)!.category}|${ipccOfItem(calculation.type, calculation.coefficients)}`;
    for (const g of gases) {
      const id = `${prefix}|${g.gas}`;
      const own = { facility, gas: g.gas, gross_t_co2e: g.gross_t_co2e, subtracted_t_co2e: g.subtracted_t_co2e, model };
      (byLine.get(id) ?? byLine.set(id, []).get(id)!).push(own);
    }
  }
  const lines = [...byLine.entries()].map(([id, gases]): LineInput => {
    const { gross, without: _without, shared: _shared, ...u } = lineUncertaintyOf(core, gases, destroyedU);
    const current = gross - (u.destroyed ?? 0);
    return { id, base: current, current, ...u };
  });
  const destroyed = lines.reduce((sum, l) => sum + (l.destroyed ?? 0), 0);
  // The lines' destroyed gases, each metered apart (Eq. 3.2), as the netting line's uncertainty.
  const destroyedPct = destroyed > 0 ? Math.hypot(...lines.map((l) => (l.destroyed ?? 0) * (l.destroyed_u ?? 0))) / destroyed : 0;
  const total = figures.t_co2e;
  const u_pct = total !== 0 ? linesReport(core, lines).level_pct : 0;
  const half = (Math.abs(total) * u_pct) / 100;
  return {
    lower_pct: destroyedPct,
    upper_pct: destroyedPct,
    netted: { t_co2e: total, u_pct, lower: total - half, upper: total + half },
  };
}
