// A forecast's rows as its results dialog reads them (docs/api.md, docs/user-guide.md): a page of
// the table at a time, and the history's chart thinned to at most MAX_GRAPH_POINTS points, so a
// year of 10-minute readings (52 560 rows, 16 MB as JSON) never travels to the browser whole. The
// summary and the back-test stay those of every row, computed when the forecast was saved.
import { DEFAULT_WARNING_PERCENT } from "@core/gbdt/backtest";
import { METHANE_LIMIT_PERCENT } from "@core/registry";
import type { ForecastChart, ForecastRowsPage } from "../../contract/views";
import type { StoredCalculation } from "../../ports";
import { getCalculation } from "../calculation-lookup";
import type { Actor, Deps } from "../context";
import { NotFound } from "../errors";
import { HEAVY_FORECAST_ROWS, heavyWork } from "../heavy-work";
import { forecastJsonOf, forecastRowsOf, rowBytesBetween, rowsBetween, type ForecastKeptRow } from "./rows";
import { MAX_GRAPH_POINTS, thinnedPositions } from "./downsample";
import { keptState } from "../../ports/runtime";

export interface RowsPageQuery {
  offset: number;
  limit: number;
  /** Only the rows whose forecast is above the forecast's limit («Только выше 1 %»). */
  above: boolean;
}

const numberIn = (calculation: StoredCalculation, name: string, fallback: number): number => {
  const value = calculation.results[name] ?? calculation.inputs[name];
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
};

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The rows last read here, by their blob key, the most recent last. A key names one computed
 *  version of one company's forecast and is never rewritten (forecast-rows.ts), so the dialog's
 *  chart and its pages, asked together and then page after page, parse the 16 MB once, not per
 *  call. Two forecasts at most: a year of 10-minute readings is some 40 MB in memory. */
const RECENT_FORECASTS = 2;
/** The host keeps both: the parsed rows and, below, the stored JSON of a page, by blob key. */
const recentForecasts = keptState("recent forecasts", () => ({
  rows: new Map<string, Promise<ForecastKeptRow[]>>(),
  json: new Map<string, ReturnType<typeof forecastJsonOf>>(),
}));

/** A forecast's rows, read through the recent ones: every read of them (its table's pages, its
 *  chart, the calculation's read) shares one parse. Reading one of many rows that is not among them
 *  is heavy work (a slot of the user's and the company's, heavy-work.ts), so parallel reads of
 *  different forecasts cannot hold the server's memory; reads of one wait for the same parse. */
function cachedForecastRows(
  deps: Pick<Deps, "blobs" | "repos" | "runtime">,
  actor: Actor,
  calculation: StoredCalculation,
): Promise<ForecastKeptRow[]> {
  return recentRead(deps.runtime.kept(recentForecasts).rows, deps, actor, calculation, forecastRowsOf);
}

/** The stored JSON last read here for a page, by blob key, with its rows' bounds: a page is parsed
 *  alone, so a read of 1 000 of 100 000 rows costs one pass over the bytes once and a small parse
 *  each time, never the 100 000 objects (forecast/rows.ts). */

/** The recent stored JSON of a forecast with its rows' bounds; reading one of many rows that is
 *  not among them is heavy work, as cachedForecastRows. */
function recentForecastJson(deps: Pick<Deps, "blobs" | "repos" | "runtime">, actor: Actor, calculation: StoredCalculation) {
  return recentRead(deps.runtime.kept(recentForecasts).json, deps, actor, calculation, forecastJsonOf);
}

/** What `readOf` reads of a forecast's stored rows, through `cache` by their blob key; reading one of
 *  many rows that is not among them is heavy work (a slot of the user's and the company's). */
function recentRead<T>(
  cache: Map<string, Promise<T>>,
  deps: Pick<Deps, "blobs" | "repos" | "runtime">,
  actor: Actor,
  calculation: StoredCalculation,
  readOf: (deps: Pick<Deps, "blobs">, calculation: StoredCalculation) => Promise<T>,
): Promise<T> {
  const read = () =>
    Number(calculation.results.rows ?? 0) > HEAVY_FORECAST_ROWS
      ? heavyWork(deps, actor, () => readOf(deps, calculation))
      : readOf(deps, calculation);
  const key = calculation.results.data_key;
  return typeof key === "string" ? remembered(cache, key, read) : read();
}

/** Rows `offset` … `offset + limit` of a forecast and how many it has, read through the recent JSON. */
export async function forecastRowsWindow(
  deps: Pick<Deps, "blobs" | "repos" | "runtime">,
  actor: Actor,
  calculation: StoredCalculation,
  offset: number,
  limit: number,
): Promise<{ rows: ForecastKeptRow[]; count: number }> {
  const { json, bounds } = await recentForecastJson(deps, actor, calculation);
  return { rows: rowsBetween(json, bounds, offset, limit), count: bounds.starts.length };
}

/** As forecastRowsWindow, the rows as their stored bytes (rowBytesBetween): a read of a page costs
 *  no parse of its rows and no serialising them again. */
export async function forecastRowBytesWindow(
  deps: Pick<Deps, "blobs" | "repos" | "runtime">,
  actor: Actor,
  calculation: StoredCalculation,
  offset: number,
  limit: number,
): Promise<{ rows: Uint8Array; count: number }> {
  const { json, bounds } = await recentForecastJson(deps, actor, calculation);
  return { rows: rowBytesBetween(json, bounds, offset, limit), count: bounds.starts.length };
}

/** `key`'s entry of `recent`, made by `read` when it has none; the most recent RECENT_FORECASTS kept. */
function remembered<T>(recent: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let value = recent.get(key);
  if (value) recent.delete(key);
  else {
    value = read();
    // A failed read (the blob is gone: 404; no slot: 429) is asked again next time.
    value.catch(() => recent.delete(key));
  }
  recent.set(key, value);
  for (const oldest of recent.keys()) if (recent.size > RECENT_FORECASTS) recent.delete(oldest);
  return value;
}

/** A forecast of the company with its rows; another type has none (404, as data_update answers).
 *  The company is checked before anything is read. */
async function forecastOf(deps: Deps, actor: Actor, typeName: string, id: string) {
  const calculation = await getCalculation(deps, actor, typeName, id);
  if (calculation.type !== "regres_methane") throw new NotFound("У этого типа расчета нет строк данных");
  return calculation;
}

async function forecastWithRows(deps: Deps, actor: Actor, typeName: string, id: string) {
  const calculation = await forecastOf(deps, actor, typeName, id);
  return { calculation, rows: await cachedForecastRows(deps, actor, calculation) };
}

/** GET v1/regres_methane/{id}/rows/: `limit` rows from `offset`, of all or of those above the limit. */
export async function forecastRowsPage(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  query: RowsPageQuery,
): Promise<ForecastRowsPage> {
  if (!query.above) {
    const calculation = await forecastOf(deps, actor, typeName, id);
    const { rows, count } = await forecastRowsWindow(deps, actor, calculation, query.offset, query.limit);
    return { results: shownChance(calculation, rows) as ForecastRowsPage["results"], count };
  }
  const { calculation, rows } = await forecastWithRows(deps, actor, typeName, id);
  const limit = numberIn(calculation, "limit", METHANE_LIMIT_PERCENT);
  const chosen = rows.filter((row) => finite(row.result) && row.result > limit);
  return {
    results: shownChance(calculation, chosen.slice(query.offset, query.offset + query.limit)) as ForecastRowsPage["results"],
    count: chosen.length,
  };
}

/** the table's rows carry `p_exceed` only where the chance is shown (judged better than the base
 *  rate: the summary's `probability.reliable`), as the screen and the export show it. */
function shownChance<T extends { p_exceed?: unknown }>(calculation: StoredCalculation, rows: readonly T[]): T[] {
  const probability = calculation.results.probability as { reliable?: unknown } | null | undefined;
  if (probability?.reliable === true) return [...rows];
  return rows.map(({ p_exceed: _p, ...row }) => row as T);
}

/** GET v1/regres_methane/{id}/chart/: measured vs forecast with the band at most MAX_GRAPH_POINTS
 *  points (downsample.ts: each bucket's lowest and highest measured and forecast value, and every
 *  row at or above the warning level while they are few), and the row with the highest forecast. */
export async function forecastChart(deps: Deps, actor: Actor, typeName: string, id: string): Promise<ForecastChart> {
  const { calculation, rows } = await forecastWithRows(deps, actor, typeName, id);
  return forecastChartOf(rows, numberIn(calculation, "warning", DEFAULT_WARNING_PERCENT));
}

/** The chart's points of `rows` (pure: the route above and the tests). */
export function forecastChartOf(rows: readonly ForecastKeptRow[], warning: number, max = MAX_GRAPH_POINTS): ForecastChart {
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
  let peak: ForecastKeptRow | null = null;
  for (const row of rows) if (finite(row.result) && (peak === null || row.result > (peak.result as number))) peak = row;
  return { rows: rows.length, points, peak: peak as ForecastChart["peak"] };
}
