// Infographics data of a project (docs/user-guide.md, «Infographics»; docs/api.md): the
// underground results, the open pit's CO2 and CH4 and the methane forecast by day, read in one call instead
// of the original list-then-item-by-item fetching. Missing results count as 0 (docs/api.md). The bars
// are what the project's totals count (D18): an alternative calculation is left out and named.
import { isCalculationType, type CalculationType } from "@core/registry";
import type { StoredCalculation } from "../../ports";
import type { ForecastSeries, ProjectGraphs } from "../../contract/views";
import { WHOLE_MINE_POINT_NAME } from "@core/inventory";
import type { Actor, Deps } from "../context";
import { forecastRowsOf } from "../forecast/rows";
import { MAX_GRAPH_POINTS, thinnedPositions } from "../forecast/downsample";
import { DAY_MS } from "@core/dates";

export { MAX_GRAPH_POINTS };
import { getProject } from "./projects";
import { activeOfProject, countInProject, leftOutView, notCountedLine } from "./counting";
import { gwpText, projectFigures, projectNetting, type ProjectNetting } from "../inventory/project-figures";
import { balanceRow } from "../inventory/year";
import { INVENTORY_TYPES } from "../inventory/sums";

const DRAWN_TYPES = ["underground", "open_mining_co2", "open_mining_ch4"];
/** The inventory types the charts do not draw, read for the project's total. */
const OTHER_INVENTORY_TYPES = INVENTORY_TYPES.filter((type) => !DRAWN_TYPES.includes(type)) as CalculationType[];

const numberOr0 = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Active calculations of a type; a type the registry does not (yet) declare has none. */
async function active(deps: Deps, actor: Actor, projectId: string, type: string): Promise<StoredCalculation[]> {
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
async function forecastPoints(deps: Deps, calculation: StoredCalculation): Promise<Point[]> {
  const rows = await forecastRowsOf(deps, calculation);
  return downsampled(
    rows
      .map((row, index) => ({ day: index + 1, result: row?.result }))
      .filter((p): p is Point => typeof p.result === "number" && Number.isFinite(p.result)),
  );
}

async function forecastSeries(deps: Deps, forecasts: StoredCalculation[]): Promise<ForecastSeries[]> {
  const series: ForecastSeries[] = [];
  for (const c of forecasts) series.push({ id: c.id, name: c.name, points: await forecastPoints(deps, c) });
  return series;
}

/** A measured period's CH4 by calendar month ("YYYY-MM"): a period across months is shared by its days. */
export function monthsOfPeriod(period: { from: string; to: string; res_ch4: number }): Map<string, number> {
  const from = Date.parse(`${period.from}T00:00:00Z`);
  const to = Date.parse(`${period.to}T00:00:00Z`);
  const months = new Map<string, number>();
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return months;
  const days = Math.round((to - from) / DAY_MS) + 1;
  for (let day = from; day <= to; day += DAY_MS) {
    const month = new Date(day).toISOString().slice(0, 7);
    months.set(month, (months.get(month) ?? 0) + period.res_ch4 / days);
  }
  return months;
}

type MonthlyPoint = ProjectGraphs["monthly_ch4"][number];

/** D14, D25: the CH4 each point released by month, from the measured periods of the counted
 *  `underground` calculations (one typed volume has no months and is left to the bars). */
export function monthlyByPoint(calculations: readonly StoredCalculation[], points: ProjectNetting["points"]): MonthlyPoint[] {
  const byPoint = new Map<string | null, Map<string, number>>();
  for (const c of calculations) {
    const periods = c.results.periods;
    if (!Array.isArray(periods)) continue;
    const months = byPoint.get(c.point ?? null) ?? new Map<string, number>();
    byPoint.set(c.point ?? null, months);
    for (const period of periods as Array<{ from?: unknown; to?: unknown; res_ch4?: unknown }>) {
      if (typeof period.from !== "string" || typeof period.to !== "string") continue;
      const released = { from: period.from, to: period.to, res_ch4: numberOr0(period.res_ch4) };
      for (const [month, t] of monthsOfPeriod(released)) months.set(month, (months.get(month) ?? 0) + t);
    }
  }
  return [...byPoint]
    .map(([pointId, months]): MonthlyPoint => {
      const point = pointId ? points.find((p) => p.id === pointId) : undefined;
      return {
        point: pointId,
        name: point?.name ?? WHOLE_MINE_POINT_NAME,
        kind: point?.kind ?? "whole_mine",
        months: [...months].sort(([a], [b]) => a.localeCompare(b)).map(([month, t]) => ({ month, t })),
      };
    })
    .filter((p) => p.months.length > 0)
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name, "ru"));
}

/** The balance of the project's facility-year, named as the inventory names it; none without a facility. */
async function facilityBalance(deps: Deps, actor: Actor, facilityId: string | null | undefined, netting: ProjectNetting) {
  if (!facilityId || !netting.yearBalance) return undefined;
  const facility = await deps.repos.facilities.get(actor.company, facilityId);
  return balanceRow(netting.yearBalance, facility?.name ?? "", netting.points);
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
  const countedUnderground = underground.filter((c) => counted.has(c));
  const balance = await facilityBalance(deps, actor, project.facility, netting);
  const subtractedCh4 = (c: StoredCalculation) => figures.calculations.get(c.id)?.find((g) => g.gas === "CH4")?.subtracted_t ?? 0;
  return {
    project,
    underground: countedUnderground.map((c) => ({
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
    monthly_ch4: monthlyByPoint(countedUnderground, netting.points),
    ...(balance ? { balance } : {}),
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
