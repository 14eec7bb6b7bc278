// The legacy .xls export: a genuine Excel 97-2003 workbook (BIFF8 in an OLE2 compound file), for
// users whose software opens nothing newer.
//
// Why SheetJS: exceljs writes only OOXML, and no maintained npm library besides SheetJS writes
// BIFF8 (the old writers are abandoned or produce SpreadsheetML-XML or HTML renamed to .xls, which
// Excel opens with a warning). SheetJS "xlsx" 0.18.5 is the last build on the npm registry.
//
// WRITE-ONLY. This module is the only place that imports "xlsx", and it uses `write` and nothing
// else (besides CFB, to reopen the container of the file it has just written, below): SheetJS's read side has known advisories (prototype pollution when parsing crafted files,
// CVE-2023-30533; ReDoS, CVE-2024-22363) that are fixed only in builds outside npm. User files are
// read by files/tabular.ts (its own reader, files/xlsx-reader.ts); never call XLSX.read / readFile on
// anything. It runs in the spreadsheet worker (lambda/spreadsheets.ts), never in the API function.
//
// Format limits handled here:
// - 65 536 rows per sheet: longer sheets continue on «… (2)». (SheetJS itself would silently cut
//   an oversized range to its first rows.)
// - Text: the shared string table (SST) stores each distinct text once and holds texts of any
//   length; a LABEL cell repeats its text (UTF-16) and holds at most 255 characters. But SheetJS
//   0.18.5 looks every string up in its SST by a linear scan in BIFF8 mode, so the SST costs
//   (string cells × distinct strings): ~30 s for a 10 000-calculation detailed export. Hence the
//   SST up to SST_MAX_STRING_CELLS string cells (at worst ~1 s), LABEL cells beyond, with texts
//   longer than 255 characters shortened and a note saying so on the first sheet (xlsx keeps them).
// - No frozen panes in SheetJS's BIFF8 writer; the xlsx export has them.
// Text cells are type "s", never formulas, so "=HYPERLINK(…)" stays text.
// A text that starts like a formula (= + - @, tab, CR; startsLikeFormula) also gets the quote
// prefix, as OWASP's CSV-injection guidance advises, so that editing it in Excel keeps it text: the
// f123Prefix bit of its XF record ([MS-XLS] 2.4.353; Excel sets it when one types '=1+1). SheetJS
// writes XF records with no way to set that bit and makes one XF per number format, so such cells
// get the Text format «@» (itself a guard: Excel keeps what is typed into a Text cell as text), which
// no other cell uses, and setQuotePrefix then sets the bit on that XF in the written Workbook
// stream. No apostrophe is added to the text itself.
import * as sheetjs from "xlsx";
import type { CellObject, ColInfo, WorkBook, WorkSheet } from "xlsx";
import { cellDecimals, SheetNames, type Cell, type Column, type Sheet } from "./content";
import { numberFormat, startsLikeFormula } from "./xlsx-writer";
// Plain Node loads SheetJS's CommonJS build, whose CFB Node cannot see as a named export (it is on
// the module object, the default export); esbuild and Vite load its ES module build, which has it.
const commonJs = (module: object, name: string) => (module as Record<string, typeof sheetjs>)[name];
const { CFB, write } = "CFB" in sheetjs ? sheetjs : commonJs(sheetjs, "default");

export const XLS_MAX_ROWS = 65_536;
export const LABEL_MAX_CHARS = 255;
export const SST_MAX_STRING_CELLS = 15_000;
export const SHORTENED_NOTE =
  "Тексты длиннее 255 символов сокращены (ограничение формата xls для больших книг); полные тексты — в выгрузке xlsx.";

function encodeCell(row: number, col: number): string {
  let letters = "";
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** The number format that marks (only) the cells whose XF gets the quote prefix: Text, format 49. */
const QUOTED_FORMAT = "@";
const QUOTED_FORMAT_ID = 49;

/** String cells of the whole workbook, which of them are too long for a LABEL record, and how many
 *  start like a formula. */
class TextCells {
  count = 0;
  quoted = 0;
  readonly long: CellObject[] = [];

  make(value: string): CellObject {
    const cell: CellObject = { t: "s", v: value };
    this.count += 1;
    if (value.length > LABEL_MAX_CHARS) this.long.push(cell);
    if (startsLikeFormula(value)) {
      cell.z = QUOTED_FORMAT;
      this.quoted += 1;
    }
    return cell;
  }
}

/** Sets f123Prefix (bit 3 of the flags word after ifnt and ifmt) on every cell XF record of the
 *  Text format in the Workbook stream's globals, and returns the file written again. The file is
 *  our own, just written: reopening its container is not reading a user's file. */
function setQuotePrefix(bytes: Uint8Array): Uint8Array {
  const container = CFB.read(bytes, { type: "buffer" });
  const stream = (CFB.find(container, "/Workbook") as { content: Uint8Array }).content;
  const u16 = (at: number) => stream[at] | (stream[at + 1] << 8);
  let patched = 0;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = u16(at);
    const data = at + 4;
    if (type === 0x000a) break; // EOF of the globals: the XF records are all before it
    if (type === 0x00e0 && u16(data + 2) === QUOTED_FORMAT_ID && (u16(data + 4) & 0x0004) === 0) {
      stream[data + 4] |= 0x08;
      patched += 1;
    }
    at = data + u16(at + 2);
  }
  if (patched === 0) throw new Error("xls: no XF record of the Text format to set the quote prefix on");
  const out = CFB.write(container, { type: "buffer" }) as Buffer;
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

class SheetBuilder {
  readonly sheet: WorkSheet = {};
  private row = 0;

  constructor(
    private readonly source: Sheet,
    private readonly texts: TextCells,
  ) {
    this.sheet["!cols"] = source.columns.map((c): ColInfo => ({ wch: c.width }));
    this.add([source.title]);
    this.add(
      source.columns.map((c) => c.header),
      true,
    );
  }

  get full(): boolean {
    return this.row >= XLS_MAX_ROWS;
  }

  private cell(value: Cell, column: Column | undefined, asText: boolean): CellObject | undefined {
    if (value === null || value === "") return undefined;
    if (typeof value === "number" && !asText)
      return { t: "n", v: value, z: numberFormat(cellDecimals(value, column), column?.grouping !== false) };
    return this.texts.make(String(value));
  }

  add(cells: Cell[], asText = false): void {
    cells.forEach((value, col) => {
      const cell = this.cell(value, this.source.columns[col], asText);
      if (cell) this.sheet[encodeCell(this.row, col)] = cell;
    });
    this.row += 1;
  }

  finish(): WorkSheet {
    const lastCol = Math.max(0, this.source.columns.length - 1);
    this.sheet["!ref"] = `A1:${encodeCell(Math.max(0, this.row - 1), lastCol)}`;
    return this.sheet;
  }

  /** The note about shortened texts under the first sheet's rows (the project sheet of an export),
   *  or on a sheet of its own in front when the first sheet is full. */
  static note(workbook: WorkBook, text: string, texts: TextCells): void {
    const first = workbook.Sheets[workbook.SheetNames[0]];
    const lastRow = Number(/(\d+)$/.exec(String(first?.["!ref"]))?.[1] ?? XLS_MAX_ROWS);
    if (first && lastRow + 2 <= XLS_MAX_ROWS) {
      // One empty row between the rows and the note.
      first[encodeCell(lastRow + 1, 0)] = texts.make(text);
      first["!ref"] = String(first["!ref"]).replace(/\d+$/, String(lastRow + 2));
      return;
    }
    const name = new SheetNames(workbook.SheetNames).take("Примечание");
    workbook.SheetNames.unshift(name);
    workbook.Sheets[name] = { A1: texts.make(text), "!ref": "A1:A1", "!cols": [{ wch: 100 }] };
  }
}

/** The whole workbook as BIFF8 bytes (SheetJS builds it in memory; xls is bounded by 65 536 rows a sheet anyway). */
export async function writeXls(sheets: AsyncIterable<Sheet>): Promise<Uint8Array> {
  const workbook: WorkBook = { SheetNames: [], Sheets: {} };
  const names = new SheetNames();
  const texts = new TextCells();
  const append = (name: string, sheet: WorkSheet) => {
    workbook.SheetNames.push(name);
    workbook.Sheets[name] = sheet;
  };
  for await (const source of sheets) {
    let name = names.take(source.name);
    let builder = new SheetBuilder(source, texts);
    for await (const cells of source.rows) {
      if (builder.full) {
        append(name, builder.finish());
        name = names.take(source.name);
        builder = new SheetBuilder(source, texts);
      }
      builder.add(cells);
    }
    append(name, builder.finish());
  }

  const sst = texts.count <= SST_MAX_STRING_CELLS;
  if (!sst && texts.long.length > 0) {
    for (const cell of texts.long) cell.v = `${String(cell.v).slice(0, LABEL_MAX_CHARS - 1)}…`;
    SheetBuilder.note(workbook, SHORTENED_NOTE, texts);
  }
  const bytes = write(workbook, { type: "buffer", bookType: "biff8", bookSST: sst, compression: false }) as Buffer;
  const file = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return texts.quoted > 0 ? setQuotePrefix(file) : file;
}
