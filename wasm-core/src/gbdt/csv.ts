// Feature rows from a CSV file with a header: the model's features may come in any column order,
// other columns (id, y, ...) are ignored. An empty cell or NaN is a missing value; anything else
// that is not a decimal number is an error naming the line and the column.

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITY = /^[+-]?(inf|infinity)$/i;

function cells(line: string): string[] {
  return line.split(",").map((cell) => cell.trim().replace(/^"(.*)"$/, "$1").trim());
}

/** Rows of the named features, row-major in the order of featureNames. */
export function readFeatureCsv(text: string, featureNames: readonly string[]): { rows: Float64Array; rowCount: number } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = cells(lines[0] ?? "");
  const columns = featureNames.map((name) => header.indexOf(name));
  const lacking = featureNames.filter((_, f) => columns[f] < 0);
  if (lacking.length > 0) {
    throw new Error(`CSV header lacks feature column(s) ${lacking.join(", ")} (the model uses ${featureNames.join(", ")})`);
  }
  const dataLines: number[] = [];
  for (let i = 1; i < lines.length; i++) if (lines[i].trim() !== "") dataLines.push(i);

  const width = featureNames.length;
  const rows = new Float64Array(dataLines.length * width);
  dataLines.forEach((lineIndex, r) => {
    const row = cells(lines[lineIndex]);
    columns.forEach((column, f) => {
      const cell = row[column];
      const where = `line ${lineIndex + 1} (data row ${r + 1}), column ${featureNames[f]}`;
      if (cell === undefined) throw new Error(`CSV ${where}: the row has only ${row.length} cells`);
      let value: number;
      if (cell === "" || cell.toLowerCase() === "nan") value = NaN;
      else if (NUMBER.test(cell)) value = Number(cell);
      else if (INFINITY.test(cell)) value = cell.startsWith("-") ? -Infinity : Infinity;
      else throw new Error(`CSV ${where}: "${cell}" is not a number`);
      rows[r * width + f] = value;
    });
  });
  return { rows, rowCount: dataLines.length };
}
