// Feature rows from a CSV file with a header: the model's features may come in any column order,
// other columns (id, y, ...) are ignored. An empty cell or NaN is a missing value (a row of empty
// cells is a row of missing values, predicted as such; a blank line is no row); anything else
// that is not a decimal number is an error naming the line and the column.
import { parseCsvRecords } from "../csv";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITY = /^[+-]?(inf|infinity)$/i;

/** A blank line of the file (nothing on it), never a row: a row of empty cells («,,,,») is a row of
 *  missing values, kept so that the output lines up with the input. */
export const isBlankRecord = (cells: readonly string[]): boolean => cells.length <= 1 && (cells[0] ?? "") === "";

/** Rows of the named features, row-major in the order of featureNames. */
export function readFeatureCsv(text: string, featureNames: readonly string[]): { rows: Float64Array; rowCount: number } {
  const records = parseCsvRecords(text, { keepEmptyRows: true })
    .map((record) => ({ line: record.line, cells: record.fields.map((field) => field.trim()) }))
    .filter((record) => !isBlankRecord(record.cells));
  const header = records[0]?.cells ?? [];
  const columns = featureNames.map((name) => header.indexOf(name));
  const lacking = featureNames.filter((_, f) => columns[f] < 0);
  if (lacking.length > 0) {
    throw new Error(`CSV header lacks feature column(s) ${lacking.join(", ")} (the model uses ${featureNames.join(", ")})`);
  }
  const dataRecords = records.slice(1);

  const width = featureNames.length;
  const rows = new Float64Array(dataRecords.length * width);
  dataRecords.forEach(({ line, cells: row }, r) => {
    columns.forEach((column, f) => {
      const cell = row[column];
      const where = `line ${line} (data row ${r + 1}), column ${featureNames[f]}`;
      if (cell === undefined) throw new Error(`CSV ${where}: the row has only ${row.length} cells`);
      let value: number;
      if (cell === "" || cell.toLowerCase() === "nan") value = NaN;
      else if (NUMBER.test(cell)) value = Number(cell);
      else if (INFINITY.test(cell)) value = cell.startsWith("-") ? -Infinity : Infinity;
      else throw new Error(`CSV ${where}: "${cell}" is not a number`);
      rows[r * width + f] = value;
    });
  });
  return { rows, rowCount: dataRecords.length };
}
