// The legacy .xls export: a genuine Excel 97-2003 workbook (BIFF8 in an OLE2 compound file), for
// users whose software opens nothing newer.
//
// Why SheetJS: exceljs writes only OOXML, and no maintained npm library besides SheetJS writes
// BIFF8 (the old writers are abandoned or produce SpreadsheetML-XML or HTML renamed to .xls, which
// Excel opens with a warning). SheetJS "xlsx" 0.18.5 is the last build on the npm registry.
//
// WRITE-ONLY. This module is the only place that imports "xlsx", and it uses `write` and nothing
// else: SheetJS's read side has known advisories (prototype pollution when parsing crafted files,
// CVE-2023-30533; ReDoS, CVE-2024-22363) that are fixed only in builds outside npm. User files are
// read by files/tabular.ts with exceljs; never call XLSX.read / readFile on anything.
//
// Format limits handled here: 65 536 rows per sheet (longer sheets continue on «… (2)»), 31
// characters per sheet name, strings kept in the shared string table (no 255-character cut). The
// BIFF8 writer has no frozen panes; the xlsx export has them. Text cells are type "s", never
// formulas, so "=HYPERLINK(…)" stays text.
import { write, type CellObject, type ColInfo, type WorkBook, type WorkSheet } from "xlsx";
import { SheetNames, type Cell, type Column, type Sheet } from "./content";
import { numberFormat } from "./xlsx-writer";

export const XLS_MAX_ROWS = 65_536;

function encodeCell(row: number, col: number): string {
  let letters = "";
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

function cellObject(value: Cell, column: Column | undefined): CellObject | undefined {
  if (value === null || value === "") return undefined;
  if (typeof value === "number") return { t: "n", v: value, z: numberFormat(column?.decimals ?? 2) };
  return { t: "s", v: value };
}

class SheetBuilder {
  readonly sheet: WorkSheet = {};
  private row = 0;

  constructor(private readonly source: Sheet) {
    this.sheet["!cols"] = source.columns.map((c): ColInfo => ({ wch: c.width }));
    this.add([source.title]);
    this.add(source.columns.map((c) => c.header), true);
  }

  get full(): boolean {
    return this.row >= XLS_MAX_ROWS;
  }

  add(cells: Cell[], asText = false): void {
    cells.forEach((value, col) => {
      const cell = asText ? (value === null ? undefined : { t: "s" as const, v: String(value) }) : cellObject(value, this.source.columns[col]);
      if (cell) this.sheet[encodeCell(this.row, col)] = cell;
    });
    this.row += 1;
  }

  finish(): WorkSheet {
    const lastCol = Math.max(0, this.source.columns.length - 1);
    this.sheet["!ref"] = `A1:${encodeCell(Math.max(0, this.row - 1), lastCol)}`;
    return this.sheet;
  }
}

/** The whole workbook as BIFF8 bytes (SheetJS builds it in memory; xls is bounded by 65 536 rows a sheet anyway). */
export async function writeXls(sheets: AsyncIterable<Sheet>): Promise<Uint8Array> {
  const workbook: WorkBook = { SheetNames: [], Sheets: {} };
  const names = new SheetNames();
  const append = (name: string, sheet: WorkSheet) => {
    workbook.SheetNames.push(name);
    workbook.Sheets[name] = sheet;
  };
  for await (const source of sheets) {
    let name = names.take(source.name);
    let builder = new SheetBuilder(source);
    for (const cells of source.rows) {
      if (builder.full) {
        append(name, builder.finish());
        name = names.take(source.name);
        builder = new SheetBuilder(source);
      }
      builder.add(cells);
    }
    append(name, builder.finish());
  }
  const bytes = write(workbook, { type: "buffer", bookType: "biff8", bookSST: true, compression: false }) as Buffer;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
