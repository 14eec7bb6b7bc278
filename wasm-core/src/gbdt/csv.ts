// Feature rows from a CSV file with a header: the model's features may come in any column order,
// other columns (id, y, ...) are ignored. The delimiter is the product's (csvDelimiter: «;», a tab
// or «,»), and under «;» or a tab a decimal comma reads as a point, as Russian Excel writes it. An
// empty cell or NaN is a missing value (a row of empty cells is kept, so that the output lines up
// with the input; a blank line is no row); anything else that is not a decimal number is an error
// naming the file's line (the spreadsheet's row) and the column. One pass, nothing kept but the
// numbers, and a cap on the rows checked as they come: a file of a million rows is refused without
// holding its records.
import { csvDelimiter, csvRecords, UnterminatedQuote } from "../csv";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITY = /^[+-]?(inf|infinity)$/i;

/** A blank line of the file (nothing on it), never a row: a row of empty cells («,,,,») is a row of
 *  missing values, kept so that the output lines up with the input. */
export const isBlankRecord = (cells: readonly string[]): boolean => cells.length <= 1 && (cells[0] ?? "") === "";

export interface FeatureCsvOptions {
  /** More data rows than this are refused with `tooMany` as soon as the next one is read. */
  maxRows?: number;
  tooMany?: string;
  /** A column read as text into a number by `read` (a time), its error naming the line. */
  textColumn?: { name: string; read: (cell: string) => number; problem: string };
}

export interface FeatureCsv {
  /** Row-major in the order of featureNames. */
  rows: Float64Array;
  rowCount: number;
  /** The data rows (0-based) whose every feature cell is empty: nothing to predict from. */
  emptyRows: number[];
  /** The text column's values, when asked for and present. */
  textValues: Float64Array | null;
}

/** Rows of the named features, row-major in the order of featureNames. */
export function readFeatureCsv(text: string, featureNames: readonly string[], options: FeatureCsvOptions = {}): FeatureCsv {
  const delimiter = csvDelimiter(text);
  const decimalComma = delimiter !== ",";
  const width = featureNames.length;
  const values: number[] = [];
  const times: number[] = [];
  const emptyRows: number[] = [];
  let columns: number[] | null = null;
  let timeColumn = -1;
  let rowCount = 0;
  let line = 0;
  try {
    for (const record of csvRecords(text, { delimiter, keepEmptyRows: true })) {
      line = record.line;
      const cells = record.fields.map((field) => field.trim());
      if (isBlankRecord(cells)) continue;
      if (!columns) {
        const header = cells;
        columns = featureNames.map((name) => header.indexOf(name));
        const lacking = featureNames.filter((_, f) => (columns as number[])[f] < 0);
        if (lacking.length > 0) {
          throw new Error(`В заголовке CSV нет столбцов признаков ${lacking.join(", ")} (модель использует ${featureNames.join(", ")})`);
        }
        timeColumn = options.textColumn ? header.indexOf(options.textColumn.name) : -1;
        continue;
      }
      if (options.maxRows !== undefined && rowCount >= options.maxRows) {
        throw new Error(options.tooMany ?? `В файле больше ${options.maxRows} строк данных`);
      }
      let empty = true;
      for (let f = 0; f < width; f++) {
        const cell = cells[columns[f]];
        const where = `CSV, строка ${line}, столбец ${featureNames[f]}`;
        if (cell === undefined) throw new Error(`${where}: в строке всего ${cells.length} ячеек`);
        let value: number;
        const number = decimalComma ? cell.replace(",", ".") : cell;
        if (cell === "" || cell.toLowerCase() === "nan") value = Number.NaN;
        else if (NUMBER.test(number)) value = Number(number);
        else if (INFINITY.test(cell)) value = cell.startsWith("-") ? -Infinity : Infinity;
        else throw new Error(`${where}: «${cell}» — не число`);
        if (cell !== "") empty = false;
        values.push(value);
      }
      if (empty) emptyRows.push(rowCount);
      if (timeColumn >= 0 && options.textColumn) {
        const cell = cells[timeColumn] ?? "";
        const value = options.textColumn.read(cell);
        if (Number.isNaN(value))
          throw new Error(`CSV, строка ${line}, столбец ${options.textColumn.name}: «${cell}» — ${options.textColumn.problem}`);
        times.push(value);
      }
      rowCount += 1;
    }
  } catch (error) {
    if (error instanceof UnterminatedQuote) throw new Error(`CSV, строка ${error.line}: кавычки поля не закрыты до конца файла`);
    throw error;
  }
  if (!columns && width > 0) throw new Error("Файл CSV пуст: нужна строка заголовков и строки данных");
  return {
    rows: Float64Array.from(values),
    rowCount,
    emptyRows,
    textValues: timeColumn >= 0 ? Float64Array.from(times) : null,
  };
}
