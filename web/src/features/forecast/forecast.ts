// The regres_methane dialog as data (docs/api.md, docs/user-guide.md): the method, either an uploaded file or a
// table of manual rows (x1 … x15 of the registry, empty = missing), the rows the live preview
// predicts, and the requests that are sent — POST as JSON rows or as a multipart form with the
// file; on edit the main PATCH and then data_update with the rows and their ids.
//
// The preview feeds the model exactly what the server will: the same numbers (a typed text is
// parsed once here, and JSON carries that double unchanged), NaN for a missing value, the columns
// in FORECAST_FEATURES order — so the stored result equals the preview bit for bit.
import {
  FORECAST_FEATURES,
  FORECAST_METHOD_TITLES,
  METHANE_LIMIT_PERCENT,
  REGISTRY,
  uploadColumns,
  uploadHeader,
  type CalculationDefinition,
  type ForecastMethod,
  type NumberField,
  type OtherField,
} from "@core/registry";
import { formatStored, numberText, numericInputProblem, parseNumericInput } from "../../shared/decimals";
import type { Body, Calculation } from "../../api/calculations";
import { russianPlural } from "@core/inventory";
import { LIMITS } from "@server/contract";

const forecastDef: CalculationDefinition = REGISTRY.regres_methane;
const dataField = forecastDef.inputs.find((f): f is OtherField => f.name === "data" && f.type === "table");
/** The data columns with their labels and units, in registry (and model feature) order. */
export const FORECAST_COLUMNS: readonly NumberField[] = dataField?.columns ?? [];
export { FORECAST_FEATURES };

/** The upload's columns as the dialog lists them under the file (registry): «id (необязательно), x1, …». */
export function forecastUploadHint(): string {
  // The template's Russian headers; the reader also takes x1…x15 and the short forms.
  const columns = uploadColumns("regres_methane").map((c) => `«${uploadHeader(c)}»${c.optional ? " (необязательно)" : ""}`);
  return `Столбцы, как в шаблоне: ${columns.join(", ")}. Пустая ячейка — пропуск.`;
}

/** docs/user-guide.md: regression data cells accept up to 4 decimals, whatever the decimals setting. */
export const FORECAST_CELL_DECIMALS = 4;
/** docs/user-guide.md: the data entry table shows 3 rows a page; results tables 5 (RESULTS_PAGE_SIZE). */
export const ENTRY_PAGE_SIZE = LIMITS.page.forecastEntry;
export interface EntryRow {
  /** React key; stable while the row lives in the dialog. */
  key: string;
  /** The stored row's id (edit); new rows get theirs from the server. */
  id?: number;
  /** What is typed in each data column, by feature name; "" = missing. */
  texts: Readonly<Record<string, string>>;
}

export type DataSource = "manual" | "file";

export interface ForecastState {
  name: string;
  method: ForecastMethod;
  source: DataSource;
  rows: readonly EntryRow[];
  /** The chosen file (file source); on edit, none keeps the stored rows. */
  file?: File;
  /** Minutes ahead (0: the nowcast). Above 0 the rows come from a file with the time and the facts. */
  horizon: number;
  /** The model version picked for the horizon; none: the server's choice. */
  model?: string;
}

/** A stored data row as single_calc returns it. */
export interface ForecastDataRow {
  id: number;
  result: number;
  [feature: string]: number | null;
}

/** The model a forecast was computed with (the summary's `model`). */
export interface ForecastModelUse {
  method: ForecastMethod;
  id: string;
  version: number;
  library: string;
  library_version: string;
  /** What the model is, as the models screen describes it (shown instead of its file's name). */
  description?: string;
}

let keys = 0;
const newKey = () => `row-${++keys}`;

export function emptyRow(): EntryRow {
  return { key: newKey(), texts: Object.fromEntries(FORECAST_FEATURES.map((f) => [f, ""])) };
}

export function storedRows(stored: Calculation): ForecastDataRow[] {
  return Array.isArray(stored.data) ? (stored.data as ForecastDataRow[]) : [];
}

/** Create: the first method, one empty manual row. Edit: the stored method and rows (file or manual as stored). */
export function initialForecastState(stored?: Calculation): ForecastState {
  if (!stored) return { name: "", method: "xgboost", source: "manual", rows: [emptyRow()], horizon: 0 };
  const rows = storedRows(stored).map((row) => ({
    key: newKey(),
    id: row.id,
    texts: Object.fromEntries(FORECAST_FEATURES.map((f) => [f, numberText(row[f] ?? undefined)])),
  }));
  return {
    name: stored.name,
    method: stored.method === "lightgbm" ? "lightgbm" : "xgboost",
    source: stored.file_data ? "file" : "manual",
    rows: rows.length > 0 ? rows : [emptyRow()],
    horizon: typeof stored.horizon === "number" ? stored.horizon : 0,
    ...(typeof stored.model_id === "string" ? { model: stored.model_id } : {}),
  };
}

// ---- row editing -------------------------------------------------------------------------------

export function addRow(state: ForecastState): ForecastState {
  return { ...state, rows: [...state.rows, emptyRow()] };
}

export function removeRow(state: ForecastState, key: string): ForecastState {
  const rows = state.rows.filter((r) => r.key !== key);
  return { ...state, rows: rows.length > 0 ? rows : [emptyRow()] };
}

export function setCell(state: ForecastState, key: string, feature: string, text: string): ForecastState {
  return { ...state, rows: state.rows.map((r) => (r.key === key ? { ...r, texts: { ...r.texts, [feature]: text } } : r)) };
}

export function isBlankRow(row: EntryRow): boolean {
  return FORECAST_FEATURES.every((f) => (row.texts[f] ?? "").trim() === "");
}

/** A cell that is not a number as typed, or that the server would refuse (over 100 %), or undefined. */
export function cellError(feature: string, text: string): string | undefined {
  const column = FORECAST_COLUMNS.find((c) => c.name === feature);
  const problem = numericInputProblem(text, { decimals: FORECAST_CELL_DECIMALS, negative: (column?.min ?? 0) < 0 });
  if (problem) return problem;
  const value = parseNumericInput(text);
  if (value === undefined || !column) return undefined;
  if (column.max !== undefined && value > column.max) return `Не больше ${formatStored(column.max)}`;
  if (value < column.min) return `Не меньше ${formatStored(column.min)}`;
  return undefined;
}

export function rowHasError(row: EntryRow): boolean {
  return FORECAST_FEATURES.some((f) => cellError(f, row.texts[f] ?? "") !== undefined);
}

/** A row as the API takes it: every feature, null when missing; the id when it has one. */
export function rowPayload(row: EntryRow): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  if (row.id !== undefined) values.id = row.id;
  for (const f of FORECAST_FEATURES) values[f] = parseNumericInput(row.texts[f] ?? "") ?? null;
  return values;
}

// ---- the live preview --------------------------------------------------------------------------

export interface PreviewInputs {
  /** Keys of the rows predicted, in matrix order (blank and refused rows are left out). */
  keys: string[];
  /** Row-major, FORECAST_FEATURES order, NaN = missing: what the server builds from the same rows. */
  matrix: Float64Array;
}

export function previewInputs(rows: readonly EntryRow[]): PreviewInputs {
  const used = rows.filter((r) => !isBlankRow(r) && !rowHasError(r));
  const width = FORECAST_FEATURES.length;
  const matrix = new Float64Array(used.length * width);
  used.forEach((row, r) => {
    FORECAST_FEATURES.forEach((f, c) => {
      matrix[r * width + c] = parseNumericInput(row.texts[f] ?? "") ?? Number.NaN;
    });
  });
  return { keys: used.map((r) => r.key), matrix };
}

/** Predictions by row key. */
export function previewByKey(inputs: PreviewInputs, predictions: ArrayLike<number>): Map<string, number> {
  return new Map(inputs.keys.map((key, i) => [key, predictions[i]]));
}

// ---- the requests ------------------------------------------------------------------------------

export const NO_ROWS = "Добавьте хотя бы одну строку данных или загрузите файл";
export const NO_FILE = "Выберите файл .xlsx или .csv";
export const ROW_ERRORS = "Исправьте отмеченные значения в таблице";

/** Why the form cannot be sent as it is, by dialog target ("name", "data", "file_data"). */
export function forecastErrors(state: ForecastState, mode: "create" | "edit", stored?: Calculation): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!state.name.trim()) errors.name = "Введите название расчета";
  if (state.horizon > 0 && state.source === "manual") {
    errors.horizon = "Прогноз вперед считается по истории из файла со столбцами «Время» и «Концентрация CH4 в исходящей струе лавы, факт»";
  }
  if (state.source === "manual") {
    if (state.rows.some(rowHasError)) errors.data = ROW_ERRORS;
    else if (state.rows.every(isBlankRow)) errors.data = NO_ROWS;
  } else if (!state.file && (mode === "create" || !stored?.file_data)) {
    errors.file_data = NO_FILE;
  }
  return errors;
}

/** The manual rows sent: blank rows are left out; ids only for rows that came from the server. */
export function dataRows(state: ForecastState): Record<string, number | null>[] {
  return state.rows.filter((r) => !isBlankRow(r)).map(rowPayload);
}

/** The table's row number (1-based) of each sent row, by its index in `data` (blank rows are not sent). */
export function sentRowNumbers(state: ForecastState): number[] {
  return state.rows.flatMap((r, i) => (isBlankRow(r) ? [] : [i + 1]));
}

/** The horizon and the picked model as sent: the nowcast sends neither (the server's default, 0). */
function aheadFields(state: ForecastState): { horizon?: number; model_id?: string } {
  if (state.horizon === 0) return {};
  return { horizon: state.horizon, ...(state.model ? { model_id: state.model } : {}) };
}

/** POST regres_methane/: JSON with the rows, or a multipart form with the file (docs/user-guide.md, docs/api.md). */
export function createRequest(state: ForecastState, projectId: string): Body<"regres_methane"> {
  const common = { name: state.name.trim(), project: projectId, method: state.method, ...aheadFields(state) };
  if (state.source === "file" && state.file) {
    const form = new FormData();
    for (const [key, value] of Object.entries(common)) form.set(key, String(value));
    form.set("file_data", state.file, state.file.name);
    return { kind: "form", form };
  }
  return { kind: "create", body: { ...common, data: dataRows(state) } };
}

export interface EditRequests {
  /** PATCH regres_methane/{id}/ (multipart when a new file replaces the rows). */
  patch: Body<"regres_methane">;
  /** Then PATCH …/data_update/ with these rows (their ids kept) and the version the first call returned. */
  data?: Record<string, number | null>[];
}

/** docs/user-guide.md: editing a regression sends the name and method, then the data rows with their ids. */
export function editRequests(state: ForecastState, version: number): EditRequests {
  const common = { name: state.name.trim(), method: state.method, ...aheadFields(state) };
  if (state.source === "file") {
    if (!state.file) return { patch: { kind: "patch", body: { ...common, version } } };
    const form = new FormData();
    for (const [key, value] of Object.entries(common)) form.set(key, String(value));
    form.set("version", String(version));
    form.set("file_data", state.file, state.file.name);
    return { patch: { kind: "form", form } };
  }
  return { patch: { kind: "patch", body: { ...common, version } }, data: dataRows(state) };
}

// ---- the stored results ------------------------------------------------------------------------

export interface ForecastSummary {
  rows: number;
  /** The forecast's own limit, %, as stored with it (1 % unless it was made with another). */
  limit: number;
  /** Rows above that limit, as the server counted them. */
  above: number;
  /** Share of rows above the limit, 0..1. */
  share: number;
  max: number | null;
  mean: number | null;
  model?: ForecastModelUse;
}

export function forecastSummary(calculation: Calculation): ForecastSummary {
  const rows = typeof calculation.rows === "number" ? calculation.rows : storedRows(calculation).length;
  const above = typeof calculation.above_limit === "number" ? calculation.above_limit : 0;
  const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  return {
    rows,
    limit: forecastLimit(calculation),
    above,
    share: rows > 0 ? above / rows : 0,
    max: number(calculation.max_result),
    mean: number(calculation.mean_result),
    model: calculation.model as ForecastModelUse | undefined,
  };
}

/** The limit a stored forecast was made and counted with; a forecast stored before limits were kept has 1 %. */
export const forecastLimit = (calculation: Calculation): number =>
  typeof calculation.limit === "number" && Number.isFinite(calculation.limit) ? calculation.limit : METHANE_LIMIT_PERCENT;

/** «1», «0,5»: a limit as its labels write it. */
export const limitText = (limit: number) => numberText(limit);

export const isAboveLimit = (value: number | null | undefined, limit = METHANE_LIMIT_PERCENT) => typeof value === "number" && value > limit;

/** «XGBoost» / «LightGBM». */
export const METHOD_TITLES: Readonly<Record<ForecastMethod, string>> = FORECAST_METHOD_TITLES;

/** The list's result column: «XGBoost: 12 строк, выше 1 % — 3», at the forecast's own limit. */
export function forecastListSummary(calculation: Calculation): string {
  const s = forecastSummary(calculation);
  const method = METHOD_TITLES[calculation.method as ForecastMethod] ?? String(calculation.method ?? "");
  return `${method}: ${s.rows} ${russianPlural(s.rows, "строка", "строки", "строк")}, выше ${limitText(s.limit)} % — ${s.above}`;
}

/** A model's library as its makers write it («XGBoost», «LightGBM»), never the internal key. */
export const libraryTitle = (library: string) => METHOD_TITLES[library as ForecastMethod] ?? library;

/** A library's version as people write it: «4», «2.1.3» (a model file's «v4» without its «v»). */
export const libraryVersion = (version: string) => version.replace(/^v(?=\d)/, "");
