// Infographics data of a project (docs/user-guide.md, «Infographics»; docs/api.md): the
// underground results, the open pit's CO2 and CH4 and the methane forecast by day, read in one call instead
// of the original list-then-item-by-item fetching. Missing results count as 0 (docs/api.md). The bars
// are what the project's totals count (D18): an alternative calculation is left out and named.
import { isCalculationType, type CalculationType } from "@core/registry";
import type { Calculation } from "../../ports";
import type { ForecastSeries, ProjectGraphs } from "../../contract/views";
import type { Actor, Deps } from "../context";
import { forecastRowsOf } from "../forecast/rows";
import { MAX_GRAPH_POINTS, thinnedPositions } from "../forecast/downsample";

export { MAX_GRAPH_POINTS };
import { getProject } from "./projects";
import { activeOfProject, countInProject, leftOutView, notCountedLine } from "./counting";
import { gwpText, projectFigures, projectNetting } from "../inventory/project-figures";
import { INVENTORY_TYPES } from "../inventory/sums";

const DRAWN_TYPES = ["underground", "open_mining_co2", "open_mining_ch4"];
/** The inventory types the charts do not draw, read for the project's total. */
const OTHER_INVENTORY_TYPES = INVENTORY_TYPES.filter((type) => !DRAWN_TYPES.includes(type)) as CalculationType[];

const numberOr0 = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Active calculations of a type; a type the registry does not (yet) declare has none. */
async function active(deps: Deps, actor: Actor, projectId: string, type: string): Promise<Calculation[]> {
  if (!isCalculationType(type)) return [];
  return deps.repos.calculations.listAllByProject(actor.company, projectId, type, "active");
}

type Point = ForecastSeries["points"][number];

/** `points` as the chart draws them (downsample.ts): within MAX_GRAPH_POINTS whole, else each
 *  bucket of consecutive days as its lowest and highest point in day order. */
export function downsampled(points: Point[], max = MAX_GRAPH_POINTS): Point[] {
  return thinnedPositions(points.length, [(i) => points[i].result], max).map((i) => points[i]);
}

/** A forecast's rows [{id, x1…x15, result}] as points: the day is the row's position. */
async function forecastPoints(deps: Deps, calculation: Calculation): Promise<Point[]> {
  const rows = await forecastRowsOf(deps, calculation);
  return downsampled(
    rows
      .map((row, index) => ({ day: index + 1, result: row?.result }))
      .filter((p): p is Point => typeof p.result === "number" && Number.isFinite(p.result)),
  );
}

async function forecastSeries(deps: Deps, forecasts: Calculation[]): Promise<ForecastSeries[]> {
  const series: ForecastSeries[] = [];
  for (const c of forecasts) series.push({ id: c.id, name: c.name, points: await forecastPoints(deps, c) });
  return series;
}

export async function projectGraphs(deps: Deps, actor: Actor, projectId: string): Promise<ProjectGraphs> {
  const project = await getProject(deps, actor, projectId);
  const [underground, openMining, openMiningCh4, forecasts] = await Promise.all([
    active(deps, actor, project.id, "underground"),
    active(deps, actor, project.id, "open_mining_co2"),
    active(deps, actor, project.id, "open_mining_ch4"),
    active(deps, actor, project.id, "regres_methane"),
  ]);
  // D26: the project's total counts every inventory type, at the reporting year's GWP, netted as
  // its facility-year is.
  const [others, netting] = await Promise.all([
    activeOfProject(deps.repos, actor.company, project.id, OTHER_INVENTORY_TYPES),
    projectNetting(deps, actor.company, project),
  ]);
  const emissions = countInProject(project, [...underground, ...openMining, ...openMiningCh4, ...others]);
  const counted = new Set(emissions.counted);
  const figures = projectFigures(netting, emissions.counted);
  const subtractedCh4 = (c: Calculation) => figures.calculations.get(c.id)?.find((g) => g.gas === "CH4")?.subtracted_t ?? 0;
  return {
    project,
    underground: underground
      .filter((c) => counted.has(c))
      .map((c) => ({
        id: c.id,
        name: c.name,
        res_co2: numberOr0(c.results.res_co2),
        res_ch4: numberOr0(c.results.res_ch4),
        subtracted_ch4: subtractedCh4(c),
      })),
    open_mining_co2: openMining
      .filter((c) => counted.has(c))
      .map((c) => ({
        id: c.id,
        name: c.name,
        ef: numberOr0(c.inputs.ef),
        res_co2: numberOr0(c.results.res_co2),
      })),
    // The open pit's methane: most of an open pit's emissions, beside its machinery's CO2.
    open_mining_ch4: openMiningCh4
      .filter((c) => counted.has(c))
      .map((c) => ({ id: c.id, name: c.name, res_ch4: numberOr0(c.results.res_ch4) })),
    // One forecast's rows in memory at a time (up to 100 000 each); only their downsampled points are kept.
    regres_methane: await forecastSeries(deps, forecasts),
    totals: {
      gross_t_co2e: figures.gross_t_co2e,
      subtracted_t_co2e: figures.subtracted_t_co2e,
      t_co2e: figures.t_co2e,
      gwp: gwpText(netting),
    },
    not_counted: notCountedLine(emissions.left_out),
    left_out: leftOutView(emissions.left_out),
  };
}
