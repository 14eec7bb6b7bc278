// D12: changing a project's reporting year offers to recompute its calculations with the GWP set
// now in force: a preview (before and after, nothing stored) and an apply (each calculation whose
// set differs becomes a new version with the set in force; an earlier version keeps the old one).
import { REGISTRY, isCalculationType } from "@core/registry";
import { resultsUnderGwp } from "@core/gwp-in-force";
import type { Actor, Deps } from "../context";
import { invalidAt } from "../errors";
import { getProject } from "./projects";
import { gwpSetInForce, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "../reference/gwp-years";
import { patchCalculation } from "./calculations";
import { guardFrozen } from "../inventory/freeze";

const GWP_RESULTS = ["res_ch4_to_co2", "sum_co2"];

export interface GwpChange {
  type: string;
  id: string;
  name: string;
  version: number;
  before: { gwp_set: number | undefined; gwp_ch4: number; results: Record<string, number> };
  after: { gwp_set: number; gwp_ch4: number; results: Record<string, number> };
}

const gwpTypes = () =>
  Object.keys(REGISTRY).filter(
    (t) => isCalculationType(t) && [...REGISTRY[t].inputs, ...REGISTRY[t].settings].some((f) => f.name === "gwp_ch4"),
  );

function year(value: unknown): number {
  const y = typeof value === "string" && /^\d{4}$/.test(value) ? Number(value) : value;
  if (typeof y !== "number" || !Number.isInteger(y) || y < REPORTING_YEAR_MIN || y > REPORTING_YEAR_MAX) {
    throw invalidAt("reporting_year", `ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`);
  }
  return y;
}

const numbersOf = (r: Record<string, unknown>) =>
  Object.fromEntries(GWP_RESULTS.filter((k) => typeof r[k] === "number").map((k) => [k, r[k] as number]));

export async function previewGwpRecompute(deps: Deps, actor: Actor, projectId: string, reportingYear?: unknown) {
  const project = await getProject(deps, actor, projectId);
  const y = reportingYear === undefined ? project.reporting_year : year(reportingYear);
  const set = await gwpSetInForce(deps, y);
  if (!set) throw invalidAt("reporting_year", "нет набора ПГП, действующего для этого года");
  const gwp = set.values.gwp_ch4.value;
  const changes: GwpChange[] = [];
  for (const type of gwpTypes()) {
    for (const c of await deps.repos.calculations.listAllByProject(actor.company, project.id, type, "active")) {
      const used = c.coefficients.gwp_ch4;
      // D41: the set's version for the year may carry another value than the one stored.
      if (!used || (used.item_id === set.id && used.value === gwp)) continue;
      changes.push({
        type,
        id: c.id,
        name: c.name,
        version: c.version,
        before: { gwp_set: used.item_id, gwp_ch4: used.value, results: numbersOf(c.results) },
        after: { gwp_set: set.id, gwp_ch4: gwp, results: resultsUnderGwp(c.results, gwp) },
      });
    }
  }
  return { reporting_year: y, gwp_set: { id: set.id, name: set.name, gwp_ch4: gwp }, results: changes, count: changes.length };
}

/** Recomputes with the set in force for the project's (already saved) reporting year the listed
 *  calculations, or all that the preview lists. */
export async function applyGwpRecompute(deps: Deps, actor: Actor, projectId: string, ids?: string[]) {
  const preview = await previewGwpRecompute(deps, actor, projectId);
  await guardFrozen(deps, actor, { kind: "gwp_recompute", project: await getProject(deps, actor, projectId) });
  const wanted = ids ? new Set(ids) : undefined;
  const recomputed = [];
  for (const change of preview.results) {
    if (wanted && !wanted.has(change.id)) continue;
    const next = await patchCalculation(deps, actor, change.type, change.id, {
      values: {},
      gwp_set: preview.gwp_set.id,
      version: change.version,
    });
    recomputed.push({ ...change, version: next.version, after: { ...change.after, results: numbersOf(next.results) } });
  }
  return { reporting_year: preview.reporting_year, gwp_set: preview.gwp_set, results: recomputed, count: recomputed.length };
}
