// regres_methane (docs/api.md, docs/user-guide.md): rows of mine telemetry (x1 … x15) from a manual table or an
// uploaded file, and the predicted CH4 concentration in the longwall's outgoing air, %, per row
// by the active XGBoost or LightGBM model. Rows can be many (10-minute steps), so they are kept in
// the blob store (forecast-rows.ts); the calculation item holds a summary and the key.
import { predict, readRowTime } from "@core/gbdt";
import { FORECAST_MEASURED, REGISTRY, uploadColumns, type ForecastFeature, type NumberField } from "@core/registry";
import type { Deps, ForecastFileResult } from "./context";
import { Invalid } from "./errors";
import { FORECAST_FEATURES, activeModelVersion, runnableModel } from "./forecast-models";
import type { ForecastRow } from "./forecast-rows";
import { checkEach, parseTable, type ParsedTable, type RowRefusals, type TableSpec, type UploadedFile } from "../files/tabular";
import { columnSpec, headerOf } from "./series";
import type { ForecastModelVersion } from "../ports";
import { METHANE_LIMIT_PERCENT, type ForecastMethod } from "@core/registry";

export const MAX_FORECAST_ROWS = 100_000;

type Feature = ForecastFeature;

/** The data columns with their bounds (the registry's manual table). */
const DATA_COLUMNS = new Map(
  ((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]).map((c) => [c.name, c]),
);

/** A row's measured y (%, 0 … 100) and time t (readRowTime), each only when given. */
function history(y: unknown, t: unknown, where: (field: string) => string): Pick<ForecastRow, "y" | "t"> {
  const out: Pick<ForecastRow, "y" | "t"> = {};
  if (y !== undefined && y !== null && y !== "") {
    if (typeof y !== "number" || !Number.isFinite(y)) throw new Invalid(`${where("y")}: ожидается число`);
    if (y < 0) throw new Invalid(`${where("y")}: значение должно быть неотрицательным`);
    if (y > FORECAST_MEASURED.max) throw new Invalid(`${where("y")}: концентрация не больше ${FORECAST_MEASURED.max} %`);
    out.y = y;
  }
  if (t !== undefined && t !== null && t !== "") {
    const time = readRowTime(t);
    if (time === undefined) {
      throw new Invalid(`${where("t")}: ожидается дата и время (01.01.2025 08:10) или номер шага, найдено «${String(t).slice(0, 40)}»`);
    }
    out.t = time;
  }
  return out;
}

/** Every value is a finite number ≥ 0 or missing; a concentration (%, max 100 in the registry) is at
 *  most 100. `where` names the cell, only for an error (a file holds up to 1.5 million cells). */
function checkValue(value: unknown, where: () => string, feature: Feature): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Invalid(`${where()}: ожидается число`);
  if (value < 0) throw new Invalid(`${where()}: значение должно быть неотрицательным`);
  const max = DATA_COLUMNS.get(feature)?.max;
  if (max !== undefined && value > max) throw new Invalid(`${where()}: концентрация не больше ${max} %`);
  return value;
}

function numberRows(rows: Array<Omit<ForecastRow, "id"> & { id?: unknown }>): ForecastRow[] {
  const used = new Set<number>();
  const withIds = rows.map((row) => {
    const id = typeof row.id === "number" && Number.isInteger(row.id) && row.id > 0 && !used.has(row.id) ? row.id : undefined;
    if (id !== undefined) used.add(id);
    return { ...row, id };
  });
  let next = Math.max(0, ...used) + 1;
  return withIds.map((row) => ({ ...row, id: row.id ?? next++ }) as ForecastRow);
}

/** Manual rows as the dialog sends them: [{id?, x1, …, x15}], empty or null = missing. */
export function forecastRowsFromJson(data: unknown): ForecastRow[] {
  if (!Array.isArray(data) || data.length === 0) throw new Invalid("data: добавьте хотя бы одну строку данных или загрузите файл");
  if (data.length > MAX_FORECAST_ROWS) throw new Invalid(`data: не более ${MAX_FORECAST_ROWS} строк`);
  return numberRows(
    data.map((raw, index) => {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Invalid(`data[${index}]: ожидается строка данных`);
      const row = raw as Record<string, unknown>;
      const values = Object.fromEntries(FORECAST_FEATURES.map((f) => [f, checkValue(row[f], () => `data[${index}].${f}`, f)])) as Record<
        Feature,
        number | null
      >;
      return { id: row.id, ...values, ...history(row.y, row.t, (field) => `data[${index}].${field}`) };
    }),
  );
}

export const forecastSpec = (): TableSpec => ({
  maxRows: MAX_FORECAST_ROWS,
  columns: uploadColumns("regres_methane").map((column) => columnSpec(column)),
});

export async function forecastRowsFromFile(file: UploadedFile): Promise<ForecastRow[]> {
  return forecastRowsFromTable(await parseTable(file, forecastSpec()));
}

/** With `refused`, a row's error is handed to it and the row left out (the preview, files/tabular.ts). */
export function forecastRowsFromTable(table: ParsedTable, refused?: RowRefusals): ForecastRow[] {
  return numberRows(
    checkEach(
      table.rows,
      (r) => {
        const values = Object.fromEntries(
          FORECAST_FEATURES.map((f) => [
            f,
            checkValue(r.values[f], () => `Лист «${table.sheet}», строка ${r.row}, столбец «${headerOf(table, f)}»`, f),
          ]),
        ) as Record<Feature, number | null>;
        const where = (field: string) => `Лист «${table.sheet}», строка ${r.row}, столбец «${headerOf(table, field)}»`;
        return { id: r.values.id ?? undefined, ...values, ...history(r.values.y, r.values.t, where) };
      },
      refused,
    ),
  );
}

export async function runForecast(deps: Deps, method: ForecastMethod, rows: ForecastRow[]) {
  const version = await activeModelVersion(deps, method);
  return { version, rows: await predictRows(deps, version, rows) };
}

export async function predictRows(deps: Pick<Deps, "blobs">, version: ForecastModelVersion, rows: ForecastRow[]): Promise<ForecastRow[]> {
  const model = await runnableModel(deps, version);
  const matrix = new Float64Array(rows.length * FORECAST_FEATURES.length);
  rows.forEach((row, r) => {
    FORECAST_FEATURES.forEach((feature, c) => {
      matrix[r * FORECAST_FEATURES.length + c] = row[feature] ?? Number.NaN;
    });
  });
  const predictions = predict(model, matrix, FORECAST_FEATURES);
  return rows.map((row, i) => ({ ...row, result: predictions[i] }));
}

/** An uploaded telemetry file read, predicted by `version` and written as the stored JSON: the
 *  CPU work of a forecast upload (about a second for 100 000 rows), which the local host runs in a
 *  worker thread (local/spreadsheet-threads.ts) so other users' requests keep their latency. */
export async function forecastFromFile(
  deps: Pick<Deps, "blobs">,
  file: UploadedFile,
  version: ForecastModelVersion,
): Promise<ForecastFileResult> {
  const rows = await predictRows(deps, version, await forecastRowsFromFile(file));
  return { summary: forecastSummary(rows, version), json: new TextEncoder().encode(JSON.stringify(rows)) };
}

export function forecastSummary(rows: ForecastRow[], version: ForecastModelVersion) {
  let above = 0;
  let max = -Infinity;
  let sum = 0;
  for (const row of rows) {
    const value = row.result ?? Number.NaN;
    if (value > METHANE_LIMIT_PERCENT) above += 1;
    if (value > max) max = value;
    sum += value;
  }
  return {
    rows: rows.length,
    above_limit: above,
    max_result: rows.length ? max : null,
    mean_result: rows.length ? sum / rows.length : null,
    model: {
      method: version.method,
      id: version.id,
      version: version.version,
      library: version.library,
      library_version: version.library_version,
      objective: version.objective,
      file_name: version.file_name,
    },
  };
}
