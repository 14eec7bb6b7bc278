// The preview of an upload (`?dry_run=1` on a calculation's POST, docs/user-guide.md › «Загрузка
// файла: предпросмотр»): the file read by the same reader and checked by the same rules as when
// it is saved, but every refused row listed rather than the first one thrown, and nothing stored.
import { FieldError, type SensitivityParams } from "@core/emissions";
import { FORECAST_FEATURES, FORECAST_METHODS, REGISTRY, type CalculationType, type ForecastMethod } from "@core/registry";
import { periodDate, type PeriodBounds } from "@core/measured-release";
import { ruDate } from "@core/dates";
import { MEASURED_PERIOD } from "@core/registry";
import type { Actor, Deps } from "../context";
import { CellInvalid, Invalid, invalidAt } from "../errors";
import { lineOf } from "../../contract/field-errors";
import { supportedType } from "../calculation-lookup";
import { getProject } from "./projects";
import { heavyWork, ru } from "../heavy-work";
import { FileRefused } from "../../files/errors";
import { checkTable, type CellValue, type TableSpec, type UploadReader, type UploadedFile } from "../../files/tabular";
import { periodsReader } from "./measured-periods";
import { fillingBlanksReader, fillingBlanksSpec, sensitivityReader } from "./series";
import { forecastReader, type ModelColumns } from "../forecast/forecast";
import { forecastModelFor } from "../forecast/models";
import { readForecastCsv } from "../forecast/file";
import type { ForecastColumns } from "../../ports";
import { keepPreviewColumns, uploadDigest } from "../forecast/preview-columns";
import { PREVIEW_REFUSED_ROWS, PREVIEW_ROWS, type UploadPreviewView } from "../../contract/schemas/upload-preview";
import { LIMITS } from "../../contract/schemas/limits";

export { PREVIEW_ROWS };
/** The errors a preview lists at most (a note says how many more there are): the answer stays small
 *  whatever the file holds. */
export const MAX_PREVIEW_ERRORS = LIMITS.calculations.previewErrors;

export interface PreviewError {
  sheet: string;
  /** The file's row (header = 1); null for a problem of the whole file. */
  row: number | null;
  /** The column as the file writes it; null when the problem is not one cell's. */
  column: string | null;
  message: string;
}

const text = (values: Record<string, unknown>, name: string) => {
  const value = values[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

/** Where a forecast's preview is handed the columns of the model its form names (set by the server, never the
 *  form's own: previewCalculationUpload puts it there or removes it). */
const PREVIEW_MODEL = "\u0000model";

/** The save's reader of the type's upload (its columns and its checks of the rows). */
function readerOf(type: CalculationType, values: Record<string, unknown>, bounds: PeriodBounds | undefined): UploadReader<unknown> {
  switch (type) {
    case "underground":
      return periodsReader(bounds);
    case "regres_methane": {
      // The columns the chosen model reads, as the save demands them; else every data column.
      const model = values[PREVIEW_MODEL] as ModelColumns | undefined;
      return forecastReader(model?.features ?? [], model);
    }
    case "filling_blanks": {
      const nameValue = text(values, "name_value");
      const nameElement = text(values, "name_element");
      // Without the value column's name the years and elements are still worth showing.
      return nameValue
        ? fillingBlanksReader(nameValue, nameElement, "Ряд")
        : { spec: fillingBlanksSpec(nameValue, nameElement), rows: () => undefined };
    }
    case "sensitivity": {
      const params = Object.fromEntries(REGISTRY.sensitivity.settings.map((s) => [s.name, values[s.name]]));
      return sensitivityReader(params as Partial<SensitivityParams>, "Ряд");
    }
    default:
      throw new Invalid("Для этого типа расчета файл не загружается");
  }
}

/** What the file holds as the save would read it, and every problem, without storing anything. */
export async function previewUpload(
  type: CalculationType,
  file: UploadedFile,
  values: Record<string, unknown>,
  bounds?: PeriodBounds,
  kept?: (columns: ForecastColumns) => void,
): Promise<UploadPreviewView> {
  const reader = readerOf(type, values, bounds);
  // A forecast's plain CSV that its one-pass reader takes has no refused row (forecast-file.ts).
  const read = type === "regres_methane" ? readForecastCsv(file, reader.spec) : undefined;
  if (read) {
    kept?.(read.columns);
    return {
      format: "csv",
      sheet: read.sheet,
      count: read.columns.count,
      columns: previewColumns(reader.spec, read.headers),
      rows: read.head,
      errors: [],
    };
  }
  return previewTable(file, reader);
}

/** What a file holds as `reader`'s save would read it, and every row it would refuse, without
 *  storing anything: a calculation's upload (previewUpload) and the register's sensor list
 *  (domain/monitoring/ingest/sensor-import.ts). `dates`: the columns whose Excel date cells read as dates. */
export async function previewTable(
  file: UploadedFile,
  reader: UploadReader<unknown>,
  dates: readonly string[] = DATE_COLUMNS,
): Promise<UploadPreviewView> {
  const table = await checkTable(file, reader.spec);
  const errors: PreviewError[] = table.errors.map((e) => ({ sheet: e.sheet, row: e.row, column: e.header, message: e.message }));
  // The save's own checks, once, on the rows whose cells were read: each refused row is listed and
  // left out, so a preview lists every row the save would refuse, not the first.
  const refuse = (error: unknown) => {
    if (error instanceof CellInvalid) {
      // A cell already refused as read is named once.
      if (unread.has(`${error.cell.row}\u0000${error.cell.header}`)) return;
      errors.push({ sheet: error.cell.sheet, row: error.cell.row, column: error.cell.header, message: error.reason });
      return;
    }
    const message =
      error instanceof FieldError ? lineOf(error) : error instanceof Invalid || error instanceof FileRefused ? error.message : undefined;
    if (message === undefined) throw error;
    errors.push({ sheet: table.sheet, row: null, column: null, message });
  };
  // Every row goes to the save's checks, a cell refused as read as an empty one: a row's other
  // problems are listed too, and the rows keep their places (a period's number is its row's).
  const unread = new Set(table.errors.map((e) => `${e.row}\u0000${e.header}`));
  const byRow = new Map<number, Set<string>>();
  for (const e of table.errors) byRow.set(e.row, (byRow.get(e.row) ?? new Set()).add(e.column));
  const rows = table.rows.map((r) => {
    const columns = byRow.get(r.row);
    if (!columns) return r;
    return { ...r, values: Object.fromEntries(Object.entries(r.values).map(([name, value]) => [name, columns.has(name) ? null : value])) };
  });
  if (rows.length > 0) {
    try {
      reader.rows({ ...table, rows }, refuse);
    } catch (error) {
      refuse(error);
    }
  }
  errors.sort((a, b) => (a.row ?? Infinity) - (b.row ?? Infinity));
  if (errors.length > MAX_PREVIEW_ERRORS) {
    const more = errors.length - MAX_PREVIEW_ERRORS;
    errors.splice(MAX_PREVIEW_ERRORS, more, {
      sheet: table.sheet,
      row: null,
      column: null,
      message: `Показаны первые ${ru(MAX_PREVIEW_ERRORS)} ошибок из ${ru(MAX_PREVIEW_ERRORS + more)}: исправьте их и проверьте файл снова`,
    });
  }
  return {
    format: table.format,
    sheet: table.sheet,
    count: table.rows.length,
    columns: previewColumns(reader.spec, table.headers),
    rows: withDates(previewRows(table.rows, errors), dates),
    errors,
  };
}

/** A measured period's dates as the user types them: an Excel date cell (a serial number, 45292)
 *  reads «01.01.2025», as the save takes it; anything else as the file holds it. */
const DATE_COLUMNS: readonly string[] = MEASURED_PERIOD.dates.map((column) => column.name);
function withDates<R extends { values: Record<string, CellValue> }>(rows: R[], columns: readonly string[]): R[] {
  return rows.map((row) => {
    // The text column reads the cell's serial as its digits («45292»).
    const dates = columns.filter((name) => /^\d+(\.\d+)?$/.test(String(row.values[name] ?? "").trim()));
    if (dates.length === 0) return row;
    const values = { ...row.values };
    for (const name of dates) {
      const iso = periodDate(values[name]);
      if (iso) values[name] = ruDate(iso);
    }
    return { ...row, values };
  });
}

const previewColumns = (spec: TableSpec, headers: Record<string, string>) =>
  spec.columns.map((c) => ({ name: c.name, header: headers[c.name] ?? null, label: c.label ?? c.name, unit: c.unit ?? "" }));

/** The first rows, then the first refused rows below them (in the file's order), so that every
 *  bad cell a user is first told about can be shown where it is. */
function previewRows<R extends { row: number }>(rows: readonly R[], errors: readonly PreviewError[]): R[] {
  const top = rows.slice(0, PREVIEW_ROWS);
  const last = top.length > 0 ? top[top.length - 1].row : 0;
  const refused = new Set(errors.flatMap((e) => (e.row !== null && e.row > last ? [e.row] : [])));
  const below = rows
    .slice(PREVIEW_ROWS)
    .filter((r) => refused.has(r.row))
    .slice(0, PREVIEW_REFUSED_ROWS);
  return [...top, ...below];
}

/** The preview of a calculation's upload in a project the user may read (the periods lie within
 *  the project's dates, D14). Reading a file is heavy work, bounded as a save's is, and runs off the
 *  request thread where the host can (the local server's worker threads, within their budget). */
export async function previewCalculationUpload(
  deps: Deps,
  actor: Actor,
  typeName: string,
  input: { project: unknown; values: Record<string, unknown>; file: UploadedFile | undefined },
): Promise<UploadPreviewView> {
  const type = supportedType(typeName);
  if (!input.file) throw invalidAt("file_data", "выберите файл .xlsx или .csv");
  if (typeof input.project !== "string" || !input.project) throw invalidAt("project", "укажите проект");
  const project = await getProject(deps, actor, input.project);
  const bounds = { start: project.start_date, end: project.end_date };
  const file = input.file;
  const values = type === "regres_methane" ? await withPreviewModel(deps, actor, input.values) : input.values;
  // A history sent straight to storage: its columns are kept for the save that names it next.
  const upload = file.upload;
  // Only columns read as every model reads them are kept: a preview that let a column its model does not read be
  // absent is no file a save with another model may take without reading it.
  const model = values[PREVIEW_MODEL] as ModelColumns | undefined;
  const whole = !model || FORECAST_FEATURES.every((f) => model.feature_names.includes(f));
  const kept =
    type === "regres_methane" && upload && whole
      ? (columns: ForecastColumns) =>
          keepPreviewColumns(deps, actor.company, upload, uploadDigest(file.bytes), columns, deps.clock.now().getTime())
      : undefined;
  return heavyWork(deps, actor, () =>
    deps.uploadFiles ? deps.uploadFiles.previewUpload(type, file, values, bounds, kept) : previewUpload(type, file, values, bounds, kept),
  );
}

/** A forecast form's values with the columns of the model it names (`model_id`, for its method and horizon), so
 *  that the preview demands what the save will: the x columns the model reads and its named channels. A model
 *  the save would refuse leaves the preview reading every data column (the save then names the problem). */
async function withPreviewModel(deps: Deps, actor: Actor, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { [PREVIEW_MODEL]: _sent, ...own } = values;
  const id = typeof own.model_id === "string" && own.model_id !== "" ? own.model_id : undefined;
  if (!id) return own;
  const method = (FORECAST_METHODS as readonly unknown[]).includes(own.method) ? (own.method as ForecastMethod) : "xgboost";
  const horizon = Number(own.horizon ?? 0);
  try {
    const version = await forecastModelFor(deps, method, actor.company, Number.isFinite(horizon) ? horizon : 0, id);
    const model: ModelColumns = {
      feature_names: [...version.feature_names],
      ...(version.features ? { features: [...version.features] } : {}),
    };
    return { ...own, [PREVIEW_MODEL]: model };
  } catch (error) {
    if (error instanceof Invalid) return own;
    throw error;
  }
}
