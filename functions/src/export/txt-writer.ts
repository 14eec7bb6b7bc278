// The txt export: the same sheets as the spreadsheets, as readable UTF-8 text. The project as
// «Параметр: значение» lines, each calculation as a numbered block of «column: value» lines with
// units in the column names; row-detail sheets are left out (the blocks summarise them). Numbers
// are rounded for reading only, with the column's decimals, and written the Russian way like the
// web app's: a decimal comma, thousands grouped by a no-break space (2 662,48).
import { cellDecimals, type Cell, type Column, type Sheet } from "./content";
import { formatNumber } from "../domain/forecast/russian-numbers";

export { formatNumber };

function show(cell: Cell, column: Column): string | undefined {
  if (cell === null || cell === "") return undefined;
  if (typeof cell === "number") return formatNumber(cell, cellDecimals(cell, column), column.grouping !== false);
  // One value per line: line breaks inside a value would look like the next field.
  return cell.replace(/\s*[\r\n]+\s*/g, " ");
}

async function* sheetLines(sheet: Sheet): AsyncGenerator<string> {
  if (sheet.text.layout === "none") return;
  yield sheet.title;
  yield "=".repeat(Math.min(80, sheet.title.length));
  if (sheet.text.layout === "pairs") {
    for await (const row of sheet.rows) {
      const value = show(row[1] ?? null, sheet.columns[1]);
      yield `${row[0]}: ${value ?? "—"}`;
    }
    yield "";
    return;
  }
  const lead = sheet.text.lead;
  for await (const row of sheet.rows) {
    const heading = (row as Cell[])
      .slice(0, lead)
      .map((cell, i) => show(cell, sheet.columns[i]))
      .filter((v) => v !== undefined);
    yield lead >= 2 && typeof row[0] === "number" ? `${heading[0]}. ${heading.slice(1).join(" ")}` : heading.join(" ");
    for (let i = lead; i < row.length; i++) {
      const value = show(row[i], sheet.columns[i]);
      if (value !== undefined) yield `    ${sheet.columns[i].header}: ${value}`;
    }
  }
  yield "";
}

/** Lines in one chunk: the text is streamed as it is made, never a whole sheet at once. */
const LINES_PER_CHUNK = 1000;

/** Text chunks of the whole export, up to LINES_PER_CHUNK lines each. */
export async function* txtChunks(sheets: AsyncIterable<Sheet>): AsyncGenerator<string> {
  for await (const sheet of sheets) {
    let lines: string[] = [];
    for await (const line of sheetLines(sheet)) {
      lines.push(line);
      if (lines.length === LINES_PER_CHUNK) {
        yield lines.join("\n") + "\n";
        lines = [];
      }
    }
    if (lines.length) yield lines.join("\n") + "\n";
  }
}
