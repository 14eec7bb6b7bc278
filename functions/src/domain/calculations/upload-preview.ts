// The preview of an upload (`?dry_run=1` on a calculation's POST, docs/user-guide.md › «Загрузка
// файла: предпросмотр»): the file read by the same reader and checked by the same rules as when
// it is saved, but every refused row listed rather than the first one thrown, and nothing stored.
import { FieldError, type SensitivityParams } from "@core/emissions";
import { REGISTRY, type CalculationType } from "@core/registry";
import { periodDate, ruDate, type PeriodBounds } from "@core/measured-release";
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
import { forecastReader } from "../forecast/forecast";
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

/** The save's reader of the type's upload (its columns and its checks of the rows). */
function readerOf(type: CalculationType, values: Record<string, unknown>, bounds: PeriodBounds | undefined): UploadReader<unknown> {
  switch (type) {
    case "underground":
      return periodsReader(bounds);
    case "regres_methane":
      return forecastReader();
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
  // A history sent straight to storage: its columns are kept for the save that names it next.
  const upload = file.upload;
  const kept =
    type === "regres_methane" && upload
      ? (columns: ForecastColumns) =>
          keepPreviewColumns(deps, actor.company, upload, uploadDigest(file.bytes), columns, deps.clock.now().getTime())
      : undefined;
  return heavyWork(deps, actor, () =>
    deps.uploadFiles
      ? deps.uploadFiles.previewUpload(type, file, input.values, bounds, kept)
      : previewUpload(type, file, input.values, bounds, kept),
  );
}
