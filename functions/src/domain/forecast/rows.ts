// Where a forecast's rows live (regres_methane, docs/api.md): the blob store, one JSON object per
// computed version, named by results.data_key; the calculation item keeps the summary only (rows
// can be 100 000). A module of its own, without the models and their runtime, so the spreadsheet
// worker reads rows without carrying either.
import type { Deps } from "../context";
import { NotFound } from "../errors";
import { newId } from "../ids";
import type { StoredCalculation, ForecastKeptRow } from "../../ports";

export type { ForecastKeptRow };

export async function storeForecastRows(
  deps: Pick<Deps, "blobs">,
  companyId: string,
  calculationId: string,
  rows: ForecastKeptRow[],
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
export async function forecastRowsOf(
  deps: Pick<Deps, "blobs">,
  calculation: Pick<StoredCalculation, "results">,
): Promise<ForecastKeptRow[]> {
  const key = calculation.results.data_key;
  if (typeof key !== "string") return [];
  const blob = await deps.blobs.get(key);
  if (!blob) throw new NotFound("Данные прогноза не найдены");
  return JSON.parse(new TextDecoder().decode(blob.body)) as ForecastKeptRow[];
}

/** Where each row of a forecast's stored JSON (an array of flat objects) begins and ends: rows
 *  `i` is `json[starts[i], ends[i])`. One pass over the bytes, no object made, so a page of 100 000
 *  rows is read without parsing the others. */
export function rowBounds(json: Uint8Array): { starts: Uint32Array; ends: Uint32Array } {
  const starts: number[] = [];
  const ends: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // an escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (depth === 1) starts.push(i);
      depth++;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--;
      if (depth === 1) ends.push(i + 1);
    }
  }
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends) };
}

/** Rows `offset` … `offset + limit` of a forecast's stored JSON as its own bytes, an array's
 *  elements without the brackets: a read answers them as stored, without parsing them. */
export function rowBytesBetween(json: Uint8Array, bounds: ReturnType<typeof rowBounds>, offset: number, limit: number): Uint8Array {
  const last = Math.min(bounds.starts.length, offset + limit) - 1;
  return offset > last ? new Uint8Array() : json.subarray(bounds.starts[offset], bounds.ends[last]);
}

/** Rows `offset` … `offset + limit` of a forecast's stored JSON, parsed alone. */
export function rowsBetween(json: Uint8Array, bounds: ReturnType<typeof rowBounds>, offset: number, limit: number): ForecastKeptRow[] {
  const last = Math.min(bounds.starts.length, offset + limit) - 1;
  if (offset > last) return [];
  return JSON.parse(`[${new TextDecoder().decode(json.subarray(bounds.starts[offset], bounds.ends[last]))}]`) as ForecastKeptRow[];
}

/** A forecast's stored JSON as it is, with its rows' bounds (forecast/results.ts keeps the recent ones). */
export async function forecastJsonOf(
  deps: Pick<Deps, "blobs">,
  calculation: Pick<StoredCalculation, "results">,
): Promise<{ json: Uint8Array; bounds: ReturnType<typeof rowBounds> }> {
  const key = calculation.results.data_key;
  if (typeof key !== "string") return { json: new Uint8Array(), bounds: { starts: new Uint32Array(), ends: new Uint32Array() } };
  const blob = await deps.blobs.get(key);
  if (!blob) throw new NotFound("Данные прогноза не найдены");
  return { json: blob.body, bounds: rowBounds(blob.body) };
}
