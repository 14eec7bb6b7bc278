// Where a forecast's rows live (regres_methane, docs/api.md): the blob store, one JSON object per
// computed version, named by results.data_key; the calculation item keeps the summary only (rows
// can be 100 000). A module of its own, without the models and their runtime, so the spreadsheet
// worker reads rows without carrying either.
import type { Deps } from "../context";
import { NotFound } from "../errors";
import { newId } from "../ids";
import type { Calculation, ForecastRow } from "../../ports";

export type { ForecastRow };

export async function storeForecastRows(
  deps: Pick<Deps, "blobs">,
  companyId: string,
  calculationId: string,
  rows: ForecastRow[],
): Promise<string> {
  return storeForecastJson(deps, companyId, calculationId, new TextEncoder().encode(JSON.stringify(rows)));
}

/** Rows already written as JSON (a forecast computed in a worker thread, forecast.ts). */
export async function storeForecastJson(
  deps: Pick<Deps, "blobs">,
  companyId: string,
  calculationId: string,
  json: Uint8Array,
): Promise<string> {
  const key = `forecasts/${companyId}/${calculationId}/${newId()}.json`;
  await deps.blobs.put(key, json, "application/json");
  return key;
}

/** The one reader of a forecast's rows, for every consumer (the calculation view, an edit, the
 *  charts, every export): never results.data, which the item does not hold. A calculation without
 *  a key has no rows; a key whose object is gone is lost data, and says so. */
export async function forecastRowsOf(deps: Pick<Deps, "blobs">, calculation: Pick<Calculation, "results">): Promise<ForecastRow[]> {
  const key = calculation.results.data_key;
  if (typeof key !== "string") return [];
  const blob = await deps.blobs.get(key);
  if (!blob) throw new NotFound("Данные прогноза не найдены");
  return JSON.parse(new TextDecoder().decode(blob.body)) as ForecastRow[];
}
