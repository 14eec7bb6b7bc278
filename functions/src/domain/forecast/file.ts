// A forecast's history read from a CSV in one pass, straight into columns (docs/performance.md, «A
// year of 10-minute readings in the browser»): a year of 10-minute readings is 52 560 rows of 18
// cells, and the general reader (files/tabular.ts) makes an array per line, an object per row and
// another per checked row before the model sees a number. This reader makes none of them: it
// takes the file only when every cell reads as the general reader and the forecast's checks
// would read it and none is refused. Whatever it does not take (an .xlsx, quotes, a refused cell,
// a file-wide problem) it leaves to the general reader, which answers exactly as before: the same
// rows, the same Russian errors. So it decides nothing the general reader would not.
import { FORECAST_FEATURES, FORECAST_MEASURED, FORECAST_PRESSURE, REGISTRY, type NumberField } from "@core/registry";
import { readRowTime, timeMs } from "@core/gbdt";
import { csvDelimiter } from "@core/csv";
import { PREVIEW_ROWS } from "../../contract/schemas/upload-preview";
import {
  MAX_TEXT_CELL,
  decodeCsv,
  fileFormat,
  locateColumns,
  parseNumber,
  type CellValue,
  type TableRow,
  type TableSpec,
  type UploadedFile,
} from "../../files/tabular";
import type { ForecastColumns, ForecastKeptRow } from "../../ports";

/** A CSV read by this reader: the table's frame as the preview shows it, the first rows' cells as the
 *  general reader gives them, and the columns. */
export interface ForecastCsv {
  sheet: string;
  headers: Record<string, string>;
  /** The first PREVIEW_ROWS rows, as the general reader's rows (the preview shows them). */
  head: TableRow[];
  columns: ForecastColumns;
}

const FEATURE_MAX = new Map(
  ((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]).map((c) => [c.name, c.max]),
);
// One way only to match a run of digits (files/tabular.ts, MACHINE_NUMBER).
const MACHINE_NUMBER = /^[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?$/;
const DATE_TIME = /^(\d{1,2})\.(\d{1,2})\.(\d{4}) (\d{1,2}):(\d{2})$/;

/** Not for this reader: the general one reads it. */
class Declined extends Error {}
const declined = new Declined();

/** A number cell as the general reader reads it (null: empty); declined when it would refuse it. */
function numberCell(text: string): number | null {
  if (text === "") return null;
  if (MACHINE_NUMBER.test(text)) {
    const value = Number(text.replace(",", "."));
    if (!Number.isFinite(value)) throw declined;
    return value;
  }
  const value = parseNumber(text);
  if (value !== null && typeof value !== "number") throw declined;
  return value;
}

/** «01.01.2025 08:10» as readRowTime reads it, without its regular expressions and its string for
 *  the rows a monitoring system writes; any other text by readRowTime itself. */
function timeCell(text: string): { ms: number; kind: 1 | 2 } {
  const parts = DATE_TIME.exec(text);
  if (parts) {
    const year = Number(parts[3]);
    const month = Number(parts[2]);
    const day = Number(parts[1]);
    const hour = Number(parts[4]);
    const minute = Number(parts[5]);
    const ms = Date.UTC(year, month - 1, day, hour, minute);
    const date = new Date(ms);
    // Years before 1000 (Date.UTC's two-digit years), 31.02, 25:00: readRowTime decides.
    if (
      year >= 1000 &&
      hour <= 23 &&
      minute <= 59 &&
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day
    ) {
      return { ms, kind: 1 };
    }
  }
  const read = readRowTime(text);
  if (read === undefined) throw declined;
  return typeof read === "string" ? { ms: timeMs(read), kind: 1 } : { ms: read, kind: 2 };
}

/** The CSV's rows as columns, or undefined when the general reader is to read it (see above). */
export function readForecastCsv(file: UploadedFile, spec: TableSpec): ForecastCsv | undefined {
  try {
    if (fileFormat(file, spec) !== "csv") return undefined;
    return readColumns(decodeCsv(file.bytes), spec);
  } catch {
    return undefined;
  }
}

function readColumns(text: string, spec: TableSpec): ForecastCsv | undefined {
  // Quotes and lone carriage returns are the general reader's (files/tabular.ts, csvRecords).
  if (text.includes('"')) return undefined;
  const delimiter = csvDelimiter(text);
  const sheet = "CSV";
  const features = FORECAST_FEATURES.length;
  let capacity = 1024;
  let id = new Float64Array(capacity);
  let matrix = new Float64Array(capacity * features);
  let y = new Float64Array(capacity);
  let pressure = new Float64Array(capacity);
  let time = new Float64Array(capacity);
  let timeKind = new Uint8Array(capacity);
  let count = 0;
  let headers: Record<string, string> | undefined;
  let slots: Array<{ kind: "id" | "feature" | "y" | "p" | "t"; feature: number; max: number | undefined; name: string; index: number }> =
    [];
  const head: TableRow[] = [];
  const cells: string[] = [];
  let line = 0;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line += 1;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const raw = text.slice(start, stop);
    start = end + 1;
    if (raw.includes("\r")) return undefined;
    cells.length = 0;
    let blank = true;
    for (let from = 0; ; ) {
      const at = raw.indexOf(delimiter, from);
      const cell = (at === -1 ? raw.slice(from) : raw.slice(from, at)).trim();
      if (cell !== "") blank = false;
      cells.push(cell);
      if (at === -1) break;
      from = at + delimiter.length;
    }
    if (blank) continue;
    if (!headers) {
      const found = locateColumns({ sheet, header: cells.slice() }, spec);
      headers = found.headers;
      slots = found.located.flatMap(({ column, index }) =>
        index === undefined
          ? []
          : [
              {
                kind:
                  column.name === "id"
                    ? "id"
                    : column.name === FORECAST_MEASURED.name
                      ? "y"
                      : column.name === FORECAST_PRESSURE.name
                        ? "p"
                        : column.name === "t"
                          ? "t"
                          : "feature",
                feature: (FORECAST_FEATURES as readonly string[]).indexOf(column.name),
                max: FEATURE_MAX.get(column.name),
                name: column.name,
                index,
              },
            ],
      );
      if (slots.some((slot) => slot.kind === "feature" && slot.feature < 0)) return undefined;
      continue;
    }
    if (count >= spec.maxRows) return undefined;
    if (count === capacity) {
      capacity *= 2;
      id = grown(id, capacity);
      matrix = grown(matrix, capacity * features);
      y = grown(y, capacity);
      pressure = grown(pressure, capacity);
      time = grown(time, capacity);
      timeKind = grown(timeKind, capacity);
    }
    const values: Record<string, CellValue> | undefined = head.length < PREVIEW_ROWS ? {} : undefined;
    const base = count * features;
    matrix.fill(Number.NaN, base, base + features);
    id[count] = Number.NaN;
    y[count] = Number.NaN;
    pressure[count] = Number.NaN;
    time[count] = Number.NaN;
    timeKind[count] = 0;
    for (const slot of slots) {
      const cell = cells[slot.index] ?? "";
      if (slot.kind === "t") {
        if (cell.length > MAX_TEXT_CELL) return undefined;
        if (values) values[slot.name] = cell === "" ? null : cell;
        if (cell === "") continue;
        const read = timeCell(cell);
        time[count] = read.ms;
        timeKind[count] = read.kind;
        continue;
      }
      const value = numberCell(cell);
      if (values) values[slot.name] = value;
      if (value === null) continue;
      if (slot.kind === "id") id[count] = value;
      else if (slot.kind === "y") {
        if (value < 0 || value > FORECAST_MEASURED.max) return undefined;
        y[count] = value;
      } else if (slot.kind === "p") {
        if (value < 0 || value > FORECAST_PRESSURE.max) return undefined;
        pressure[count] = value;
      } else {
        if (value < 0 || (slot.max !== undefined && value > slot.max)) return undefined;
        matrix[base + slot.feature] = value;
      }
    }
    if (values) head.push({ row: line, values });
    count += 1;
  }
  if (!headers || count === 0) return undefined;
  return {
    sheet,
    headers,
    head,
    columns: {
      count,
      id: id.slice(0, count),
      features: matrix.slice(0, count * features),
      y: y.slice(0, count),
      pressure: pressure.slice(0, count),
      time: time.slice(0, count),
      timeKind: timeKind.slice(0, count),
    },
  };
}

/** The columns' buffers, to hand them to another thread without a copy. */
export function columnBuffers(columns: ForecastColumns): ArrayBuffer[] {
  return [columns.id, columns.features, columns.y, columns.pressure, columns.time, columns.timeKind].map((a) => a.buffer as ArrayBuffer);
}

function grown<T extends Float64Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** The rows as the general reader and the forecast's checks make them (forecast.ts,
 *  forecastRowsFromTable), before they are numbered: the same fields in the same order. */
export function columnRows(columns: ForecastColumns): Array<Omit<ForecastKeptRow, "id"> & { id?: unknown }> {
  const n = FORECAST_FEATURES.length;
  const rows = new Array<Omit<ForecastKeptRow, "id"> & { id?: unknown }>(columns.count);
  for (let r = 0; r < columns.count; r++) {
    const id = columns.id[r];
    const row: Record<string, unknown> = { id: Number.isNaN(id) ? undefined : id };
    const base = r * n;
    for (let f = 0; f < n; f++) {
      const value = columns.features[base + f];
      row[FORECAST_FEATURES[f]] = Number.isNaN(value) ? null : value;
    }
    if (!Number.isNaN(columns.y[r])) row.y = columns.y[r];
    if (!Number.isNaN(columns.pressure[r])) row.p_atm = columns.pressure[r];
    const kind = columns.timeKind[r];
    if (kind === 1) row.t = isoOf(columns.time[r]);
    else if (kind === 2) row.t = columns.time[r];
    rows[r] = row as Omit<ForecastKeptRow, "id"> & { id?: unknown };
  }
  return rows;
}
