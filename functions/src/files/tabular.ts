// Tabular uploads (.xlsx and .csv) read into rows of named columns. Every content error names the
// sheet, the row and the column, so a user can find the cell. Limits keep a hostile file from
// exhausting memory: the byte size is capped before reading, an .xlsx's ZIP directory is checked
// before inflating (zip-guard.ts), and reading stops at the row limit.
import { problemAt } from "../contract/field-errors";
import { badFile, cellText, FileRefused } from "./errors";
import { readTypedNumber, TYPED_NUMBER_PROBLEMS } from "@core/typed-numbers";
import { headerKey } from "@core/registry";
import { CSV_ENCODING_MESSAGE, CsvEncodingError, csvDelimiter, csvRecords, decodeCsvBytes, UnterminatedQuote } from "@core/csv";

export { CSV_ENCODING_MESSAGE, plausibleCp1251 } from "@core/csv";
import { checkZipContents } from "./zip-guard";
import { openFirstSheet, type ReadDeadline } from "./xlsx-reader";
import { MAX_TABULAR_UPLOAD_BYTES, MAX_TABULAR_UPLOAD_TEXT } from "../contract/schemas/uploads";

/** A text cell (an element's name, a label) as stored: names, not documents. */
export const MAX_TEXT_CELL = 255;
/** Blank rows between and after the data count toward the row cap beyond this many: a sheet of
 *  millions of empty rows is work without data. */
const BLANK_ROW_ALLOWANCE = 10_000;
/** Wall-clock budget for reading one workbook: any upload is answered within about that long. */
const XLSX_READ_MS = 2000;

/** The product's deadline for reading one workbook: XLSX_READ_MS from now on the wall clock. */
export function xlsxReadDeadline(): ReadDeadline {
  const end = Date.now() + XLSX_READ_MS;
  return () => Date.now() > end;
}

export interface ColumnSpec {
  name: string;
  label?: string;
  required: boolean;
  kind: "number" | "text";
  /** Headers that read as this column, compared by headerKey (the registry's table); default: the name. */
  headers?: readonly string[];
  /** The column's unit, for the preview. */
  unit?: string;
}

export interface TableSpec {
  columns: ColumnSpec[];
  maxRows: number;
  /** The file's cap when not a request's (MAX_TABULAR_UPLOAD_BYTES): a forecast's history, which
   *  may come straight from storage (MAX_FORECAST_UPLOAD_BYTES). */
  maxBytes?: { bytes: number; text: string };
  /** Two headers naming one column are refused (a model's training: which of them would it learn?). */
  uniqueHeaders?: boolean;
}

export type CellValue = number | string | null;

export interface TableRow {
  /** Row number as the user sees it in the file (header = 1). */
  row: number;
  values: Record<string, CellValue>;
}

export interface ParsedTable {
  format: "xlsx" | "csv";
  sheet: string;
  rows: TableRow[];
  /** Each spec column's header as the file writes it (absent: the optional column is not in the file). */
  headers: Record<string, string>;
}

/** A cell the reader refused: where it is and why. `column` is the spec's name, `header` the file's. */
export interface CellError {
  sheet: string;
  row: number;
  column: string;
  header: string;
  message: string;
}

/** A table read without refusing a cell: the rows with their refused cells as written, and why. */
export interface CheckedTable extends ParsedTable {
  errors: CellError[];
}

/** «Лист «CSV», строка 3, столбец «Расход газовой смеси, м³/мин»: …», as every upload error reads. */
export const cellErrorText = (error: Omit<CellError, "column">): string => cellText(error, error.message);

/** Where a check of a table's rows hands a row's error instead of throwing it: the preview lists
 *  every refused row after one pass. It throws what is not a row's error. */
export type RowRefusals = (error: unknown) => void;

/** `check` of every item, as `map`; with `refused`, an item whose check throws is handed to it and left out. */
export function checkEach<T, R>(items: readonly T[], check: (item: T, index: number) => R, refused?: RowRefusals): R[] {
  if (!refused) return items.map(check);
  const kept: R[] = [];
  items.forEach((item, index) => {
    try {
      kept.push(check(item, index));
    } catch (error) {
      refused(error);
    }
  });
  return kept;
}

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
  /** The key of the stored upload it was read from: a history sent straight to storage
   *  (domain/forecast/uploads.ts), whose preview's columns its save may find (forecast-preview-columns.ts). */
  upload?: string;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function detectFormat(file: UploadedFile): "xlsx" | "csv" {
  const name = file.name.toLowerCase();
  const isZip = ZIP_MAGIC.every((b, i) => file.bytes[i] === b);
  if (name.endsWith(".xlsx") && isZip) return "xlsx";
  // Excel's «Текст Юникод» is UTF-16 (its NUL bytes would otherwise read as a binary file).
  const [b0, b1] = file.bytes;
  if ((name.endsWith(".csv") || name.endsWith(".txt")) && ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff))) {
    throw badFile(CSV_ENCODING_MESSAGE);
  }
  if ((name.endsWith(".csv") || name.endsWith(".txt")) && !isZip && !file.bytes.subarray(0, 4096).includes(0)) return "csv";
  throw new FileRefused("unsupported_media", "Неподдерживаемый тип файла: загрузите книгу Excel (.xlsx) или файл CSV (.csv)");
}

export async function parseTable(file: UploadedFile, spec: TableSpec): Promise<ParsedTable> {
  const { errors, ...table } = await checkTable(file, spec);
  if (errors.length > 0) throw badFile(cellErrorText(errors[0]));
  return table;
}

/** How one kind of upload is read: its table's columns, and the save's checks of its rows (with
 *  `refused`, each row's error handed to it and the row left out: the preview). A domain module
 *  gives its reader; the file itself is parsed here, by readUpload or by the preview's checkTable. */
export interface UploadReader<T> {
  spec: TableSpec;
  rows(table: ParsedTable, refused?: RowRefusals): T;
}

/** An upload parsed once and checked as its save checks it. */
export async function readUpload<T>(file: UploadedFile, reader: UploadReader<T>): Promise<T> {
  return reader.rows(await parseTable(file, reader.spec));
}

/** The file read with every refused cell listed rather than the first thrown: for the preview. */
export async function checkTable(file: UploadedFile, spec: TableSpec): Promise<CheckedTable> {
  const format = fileFormat(file, spec);
  const raw = format === "xlsx" ? await readXlsx(file.bytes, spec.maxRows, xlsxReadDeadline()) : readCsv(file.bytes, spec.maxRows);
  return { format, sheet: raw.sheet, ...toRows(raw, spec) };
}

/** The file's format, once its size is within the spec's cap and it is not empty. */
export function fileFormat(file: UploadedFile, spec: TableSpec): "xlsx" | "csv" {
  const cap = spec.maxBytes ?? { bytes: MAX_TABULAR_UPLOAD_BYTES, text: MAX_TABULAR_UPLOAD_TEXT };
  if (file.bytes.byteLength > cap.bytes) throw new FileRefused("too_large", `Файл больше ${cap.text}`);
  if (file.bytes.byteLength === 0) throw new FileRefused("invalid", [problemAt("file_data", "файл пуст")]);
  return detectFormat(file);
}

export interface RawTable {
  sheet: string;
  header: string[];
  /** [file row number, cells] */
  lines: Array<[number, unknown[]]>;
}

function tooManyRows(sheet: string, maxRows: number): never {
  throw badFile(`Лист «${sheet}»: слишком много строк, допускается не более ${maxRows}`);
}

/** The first worksheet's header and non-blank rows, refused once `deadline` has passed; exported
 *  for the reader's differential test. */
export async function readXlsx(bytes: Uint8Array, maxRows: number, deadline: ReadDeadline): Promise<RawTable> {
  const parts = checkZipContents(bytes);
  try {
    // The first worksheet holds the data; a template may add a second one with explanations.
    const worksheet = await openFirstSheet(parts, deadline);
    if (!worksheet) throw badFile("Книга Excel не содержит листов");
    const sheet = worksheet.name;
    let header: string[] | undefined;
    const lines: Array<[number, unknown[]]> = [];
    let blank = 0;
    for await (const [number, cells] of worksheet.rows) {
      if (cells.every((c) => c === "")) {
        if (++blank > BLANK_ROW_ALLOWANCE + maxRows) tooManyRows(sheet, maxRows);
        continue;
      }
      if (!header) {
        header = cells.map((c) => String(c).trim());
        continue;
      }
      if (lines.length >= maxRows) tooManyRows(sheet, maxRows);
      lines.push([number, cells]);
    }
    if (!header) throw badFile(`Лист «${sheet}»: нет строки заголовков`);
    return { sheet, header, lines };
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    throw badFile("Файл поврежден: не удалось прочитать книгу Excel (.xlsx)");
  }
}

/** A CSV's text by the product's one decoder (@core/csv, decodeCsvBytes), refused in words as a
 *  file's content. */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return decodeCsvBytes(bytes);
  } catch (error) {
    if (error instanceof CsvEncodingError) throw badFile(CSV_ENCODING_MESSAGE);
    throw error;
  }
}

function readCsv(bytes: Uint8Array, maxRows: number): RawTable {
  const text = decodeCsv(bytes);
  const delimiter = csvDelimiter(text);
  const sheet = "CSV";
  const lines: Array<[number, unknown[]]> = [];
  let header: string[] | undefined;
  try {
    for (const record of csvRecords(text, { delimiter })) {
      const cells = record.fields.map((f) => (f.trim() === "" ? null : f.trim()));
      if (cells.every((c) => c === null)) continue;
      if (!header) header = cells.map((c) => String(c ?? ""));
      else {
        if (lines.length >= maxRows) tooManyRows(sheet, maxRows);
        lines.push([record.line, cells]);
      }
    }
  } catch (error) {
    if (error instanceof UnterminatedQuote) throw badFile(`Лист «${sheet}», строка ${error.line}: незакрытая кавычка`);
    throw error;
  }
  if (!header) throw badFile("Файл CSV не содержит данных");
  return { sheet, header, lines };
}

// Machine exports write an exponent or a plus sign («1.5e-3», «+2»); people write groups and a
// comma, read by the same rule as the app's inputs (readTypedNumber).
const MACHINE_NUMBER = /^[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?$/;

/** A cell's number, null for an empty or NaN cell, or why the text is not a number. */
export function parseNumber(value: unknown): number | null | { problem: string } {
  if (value === null || value === "") return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : { problem: "" };
  const text = String(value).trim();
  if (text === "" || /^nan$/i.test(text)) return null;
  // One way only to match a run of digits: with \d+\.?\d* a long run backtracks in quadratic time.
  if (MACHINE_NUMBER.test(text)) {
    const number = Number(text.replace(",", "."));
    return Number.isFinite(number) ? number : { problem: "" };
  }
  const read = readTypedNumber(text);
  if (read.ok) return read.value;
  return { problem: read.problem === "ambiguous" || read.problem === "grouping" ? TYPED_NUMBER_PROBLEMS[read.problem] : "" };
}

/** Each spec column's position in the file's header (undefined: an optional column not in it), and
 *  its header as written; a required column missing is refused. */
export function locateColumns(
  raw: Pick<RawTable, "sheet" | "header">,
  spec: TableSpec,
): { located: Array<{ column: ColumnSpec; index: number | undefined }>; headers: Record<string, string> } {
  const positions = new Map<string, number>();
  raw.header.forEach((h, i) => {
    const key = headerKey(h);
    if (key && !positions.has(key)) positions.set(key, i);
  });
  // A header whose unit was lost or written otherwise («м?/мин»: Windows-1251 has no «³») still
  // reads as its label: the text before the unit's comma or parenthesis.
  raw.header.forEach((h, i) => {
    const key = headerKey(h.replace(/\s*[,(].*$/s, ""));
    if (key && !positions.has(key)) positions.set(key, i);
  });
  const headers: Record<string, string> = {};
  // Every required column the file lacks, named together (a forecast's file missing two columns its
  // model reads was told of the first only), each as the template heads it; a column the user named (gap
  // filling's) by that name.
  const missing: string[] = [];
  const located = spec.columns.map((column) => {
    const keys = column.headers ?? [headerKey(column.name)];
    const index = keys.map((key) => positions.get(key)).find((i) => i !== undefined);
    if (index === undefined && column.required) {
      const internal = column.label && /^[a-z][a-z0-9_]*$/.test(column.name);
      missing.push(
        `«${internal ? column.label : column.name}»${!internal && column.label && column.label !== column.name ? ` (${column.label})` : ""}`,
      );
    }
    if (index !== undefined) headers[column.name] = raw.header[index];
    if (index !== undefined && spec.uniqueHeaders) {
      const same = raw.header.filter((h) => keys.includes(headerKey(h)) || keys.includes(headerKey(h.replace(/\s*[,(].*$/s, ""))));
      if (same.length > 1) throw badFile(`Лист «${raw.sheet}»: столбцы «${same[0]}» и «${same[1]}» означают одно и то же`);
    }
    return { column, index };
  });
  if (missing.length > 0) {
    throw badFile(`Лист «${raw.sheet}»: ${missing.length === 1 ? "нет столбца" : "нет столбцов"} ${missing.join(", ")}`);
  }
  return { located, headers };
}

function toRows(raw: RawTable, spec: TableSpec): { rows: TableRow[]; headers: Record<string, string>; errors: CellError[] } {
  const { located, headers } = locateColumns(raw, spec);
  if (raw.lines.length === 0) throw badFile(`Лист «${raw.sheet}»: нет строк с данными`);
  const errors: CellError[] = [];
  // One function for the whole table, not a closure per cell: the local server runs through tsx,
  // which names every function it makes (esbuild's keepNames), and a closure per cell of 50 000
  // rows was half the reading's time.
  function refuse(values: Record<string, CellValue>, row: number, column: ColumnSpec, cell: unknown, message: string) {
    errors.push({ sheet: raw.sheet, row, column: column.name, header: headers[column.name], message });
    values[column.name] = String(cell).slice(0, 40);
  }
  const rows = raw.lines.map(([row, cells]) => {
    const values: Record<string, CellValue> = {};
    for (const { column, index } of located) {
      if (index === undefined) continue;
      const cell = cells[index] ?? null;
      if (column.kind === "text") {
        const text = cell === null ? null : String(cell).trim();
        if (text !== null && text.length > MAX_TEXT_CELL) {
          refuse(values, row, column, cell, `текст длиннее ${MAX_TEXT_CELL} символов (${text.length}); сократите его`);
          continue;
        }
        values[column.name] = text;
        continue;
      }
      const number = parseNumber(cell);
      if (typeof number === "object" && number !== null) {
        refuse(
          values,
          row,
          column,
          cell,
          `ожидается число, найдено «${String(cell).slice(0, 40)}»` + (number.problem ? `. ${number.problem}` : ""),
        );
        continue;
      }
      values[column.name] = number;
    }
    return { row, values };
  });
  return { rows, headers, errors };
}
