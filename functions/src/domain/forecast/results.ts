// A forecast's rows as its results dialog reads them (docs/api.md, docs/user-guide.md): a page of
// the table at a time, and the history's chart thinned to at most MAX_GRAPH_POINTS points, so a
// year of 10-minute readings (52 560 rows, 16 MB as JSON) never travels to the browser whole. The
// summary and the back-test stay those of every row, computed when the forecast was saved.
import { DEFAULT_WARNING_PERCENT } from "@core/gbdt/backtest";
import { METHANE_LIMIT_PERCENT } from "@core/registry";
import type { ForecastChart, ForecastRowsPage } from "../../contract/views";
import type { Calculation } from "../../ports";
import { getCalculation } from "../calculation-lookup";
import type { Actor, Deps } from "../context";
import { NotFound } from "../errors";
import { forecastRowsOf, type ForecastRow } from "./rows";
import { MAX_GRAPH_POINTS, thinnedPositions } from "./downsample";

export interface RowsPageQuery {
  offset: number;
  limit: number;
  /** Only the rows whose forecast is above the forecast's limit («Только выше 1 %»). */
  above: boolean;
}

const numberIn = (calculation: Calculation, name: string, fallback: number): number => {
  const value = calculation.results[name] ?? calculation.inputs[name];
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
};

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The rows last read here, by their blob key, the most recent last. A key names one computed
 *  version of one company's forecast and is never rewritten (forecast-rows.ts), so the dialog's
 *  chart and its pages, asked together and then page after page, parse the 16 MB once, not per
 *  call. Two forecasts at most: a year of 10-minute readings is some 40 MB in memory. */
const recent = new Map<string, Promise<ForecastRow[]>>();
const RECENT_FORECASTS = 2;

function rowsOf(deps: Pick<Deps, "blobs">, calculation: Calculation): Promise<ForecastRow[]> {
  const key = calculation.results.data_key;
  if (typeof key !== "string") return forecastRowsOf(deps, calculation);
  let rows = recent.get(key);
  if (rows) recent.delete(key);
  else {
    rows = forecastRowsOf(deps, calculation);
    // A failed read (the blob is gone: 404) is asked again next time.
    rows.catch(() => recent.delete(key));
  }
  recent.set(key, rows);
  for (const oldest of recent.keys()) if (recent.size > RECENT_FORECASTS) recent.delete(oldest);
  return rows;
}

/** A forecast of the company with its rows; another type has none (404, as data_update answers).
 *  The company is checked before anything is read. */
async function forecastWithRows(deps: Deps, actor: Actor, typeName: string, id: string) {
  const calculation = await getCalculation(deps, actor, typeName, id);
  if (calculation.type !== "regres_methane") throw new NotFound("У этого типа расчета нет строк данных");
  return { calculation, rows: await rowsOf(deps, calculation) };
}

/** GET v1/regres_methane/{id}/rows/: `limit` rows from `offset`, of all or of those above the limit. */
export async function forecastRowsPage(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  query: RowsPageQuery,
): Promise<ForecastRowsPage> {
  const { calculation, rows } = await forecastWithRows(deps, actor, typeName, id);
  const limit = numberIn(calculation, "limit", METHANE_LIMIT_PERCENT);
  const chosen = query.above ? rows.filter((row) => finite(row.result) && row.result > limit) : rows;
  return { results: chosen.slice(query.offset, query.offset + query.limit) as ForecastRowsPage["results"], count: chosen.length };
}

/** GET v1/regres_methane/{id}/chart/: measured vs forecast with the band at most MAX_GRAPH_POINTS
 *  points (downsample.ts: each bucket's lowest and highest measured and forecast value, and every
 *  row at or above the warning level while they are few), and the row with the highest forecast. */
export async function forecastChart(deps: Deps, actor: Actor, typeName: string, id: string): Promise<ForecastChart> {
  const { calculation, rows } = await forecastWithRows(deps, actor, typeName, id);
  return forecastChartOf(rows, numberIn(calculation, "warning", DEFAULT_WARNING_PERCENT));
}

/** The chart's points of `rows` (pure: the route above and the tests). */
export function forecastChartOf(rows: readonly ForecastRow[], warning: number, max = MAX_GRAPH_POINTS): ForecastChart {
  const result = (i: number) => rows[i].result;
  const measured = (i: number) => rows[i].y;
  const atWarning = (i: number) => {
    const { y, result: forecast } = rows[i];
    return (finite(y) && y >= warning) || (finite(forecast) && forecast >= warning);
  };
  const points: ForecastChart["points"] = [];
  for (const i of thinnedPositions(rows.length, [result, measured], max, atWarning)) {
    const row = rows[i];
    if (!finite(row.result)) continue;
    points.push({
      id: row.id,
      ...(row.t !== undefined ? { t: row.t } : {}),
      ...(row.y !== undefined ? { y: row.y } : {}),
      result: row.result,
      ...(row.lo !== undefined ? { lo: row.lo } : {}),
      ...(row.hi !== undefined ? { hi: row.hi } : {}),
    });
  }
  let peak: ForecastRow | null = null;
  for (const row of rows) if (finite(row.result) && (peak === null || row.result > (peak.result as number))) peak = row;
  return { rows: rows.length, points, peak: peak as ForecastChart["peak"] };
}
