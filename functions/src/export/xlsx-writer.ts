// The xlsx export with exceljs's streaming WorkbookWriter: rows are committed as they are made and
// each sheet is finished before the next starts (the zip is written sequentially; an open second
// sheet would be buffered whole), so a 10 000-calculation project never sits in memory as a
// workbook. Text is always written as a string value, never as {formula}, so a name such as
// "=HYPERLINK(…)" stays text (formula injection). A text that starts like a formula (= + - @, tab,
// CR) also gets the quote prefix, quotePrefix="1" on its cellXfs entry, as OWASP's CSV-injection
// guidance advises: Excel shows it with a leading apostrophe in the formula bar, and editing the
// cell keeps it text instead of turning it into a live formula. Numbers are never prefixed.
import ExcelJS from "exceljs";
import { PassThrough, type Writable } from "node:stream";
import { cellDecimals, type Cell, type Column, type Sheet } from "./content";

/** Excel's number format for a column: thousands grouped (Russian Excel shows «2 662,48») unless
 *  the number is a name such as a year or a row number. */
export const numberFormat = (decimals: number, grouping = true): string =>
  (grouping ? "#,##0" : "0") + (decimals > 0 ? `.${"0".repeat(decimals)}` : "");

/** A text cell that a spreadsheet would read as the start of a formula once edited (OWASP: = + - @
 *  tab CR). Such cells get the quote prefix in xlsx and xls. */
export const startsLikeFormula = (value: Cell): value is string => typeof value === "string" && /^[=+\-@\t\r]/.test(value);

// XML 1.0 has no way to write these (its Char production): the C0 controls other than tab, LF and
// CR, U+FFFE, U+FFFF and a surrogate without its pair. exceljs writes them as they are and the file
// is no longer well-formed (Excel refuses it), so every text on its way to an xlsx loses them here.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\p{Cs}]/gu;

/** The text without the characters XML 1.0 cannot carry. */
export const xmlText = (text: string): string => text.replace(NOT_XML, "");

/** The row's texts without the characters XML 1.0 cannot carry; numbers and empty cells as they are. */
export const xmlCells = (cells: readonly Cell[]): Cell[] => cells.map((value) => (typeof value === "string" ? xmlText(value) : value));

/** The part of exceljs's style table (StylesXform, exceljs 4.4) that the quote prefix needs. */
interface StyleTable {
  addStyleModel(model: object | undefined, cellType?: number): number;
  model: { styles: string[] };
  index: { style: Record<string, number> };
}

/** exceljs's style model has no quotePrefix, and its streaming writer cannot be given raw styles
 *  XML. So this workbook's style table learns it: a cell style with `quotePrefix: true` gets the
 *  cellXfs entry of the same style without it, plus quotePrefix="1". (The whole file is streamed,
 *  so patching styles.xml afterwards would mean holding the zip.) spreadsheet-safety.test.ts reads
 *  the attribute back from the XML, so an exceljs upgrade that changes these internals fails there. */
export function learnQuotePrefix(workbook: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const styles = (workbook as unknown as { styles: StyleTable }).styles;
  const addStyleModel = styles.addStyleModel.bind(styles);
  styles.addStyleModel = (model, cellType) => {
    if (!model || !(model as { quotePrefix?: boolean }).quotePrefix) return addStyleModel(model, cellType);
    const { quotePrefix: _, ...base } = model as { quotePrefix?: boolean };
    const xml = styles.model.styles[addStyleModel(base, cellType)].replace(/^<xf\b/, '<xf quotePrefix="1"');
    let id = styles.index.style[xml];
    if (id === undefined) {
      id = styles.index.style[xml] = styles.model.styles.length;
      styles.model.styles.push(xml);
    }
    return id;
  };
}

/** Marks the row's formula-like texts for the quote prefix (after its own styles are set). */
export function quoteFormulaLike(row: ExcelJS.Row, cells: Cell[]): ExcelJS.Row {
  cells.forEach((value, i) => {
    if (!startsLikeFormula(value)) return;
    const cell = row.getCell(i + 1);
    cell.style = { ...cell.style, quotePrefix: true } as Partial<ExcelJS.Style>;
  });
  return row;
}

const columnStyle = (column: Column): Partial<ExcelJS.Style> =>
  column.datetime
    ? { numFmt: "dd.mm.yyyy hh:mm" }
    : column.kind === "number"
      ? { numFmt: numberFormat(column.decimals ?? 2, column.grouping !== false) }
      : {};

/** A small number gets its own format where the column's decimals would show it as 0,00. */
function withSmallNumbers(row: ExcelJS.Row, cells: Cell[], columns: Column[]): ExcelJS.Row {
  cells.forEach((value, i) => {
    if (typeof value !== "number" || columns[i]?.kind !== "number" || columns[i].datetime) return;
    const decimals = cellDecimals(value, columns[i]);
    if (decimals !== (columns[i].decimals ?? 2)) row.getCell(i + 1).numFmt = numberFormat(decimals, columns[i].grouping !== false);
  });
  return row;
}

/** Rows written between two looks at the reader (a forecast's 100 000 rows come in one go). */
const ROWS_PER_BATCH = 1000;

/** Lets the zip compress what was committed, then waits while the reader has not taken the last
 *  batch: the file is produced at the pace it is read, so a slow download holds a few batches in
 *  memory, not the workbook (docs/security.md). A reader gone away ends the writing. */
async function drained(output: Writable): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (output.writableNeedDrain && !output.destroyed) {
    await new Promise<void>((resolve) => {
      const done = () => {
        output.off("drain", done);
        output.off("close", done);
        resolve();
      };
      output.on("drain", done);
      output.on("close", done);
    });
  }
  if (output.destroyed) throw new Error("the export's reader went away");
}

/** A stream a workbook is written into whole, and the bytes it held once the workbook's commit ended it. */
export function workbookBytes(): { stream: PassThrough; bytes: Promise<Uint8Array> } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  const bytes = new Promise<Uint8Array>((resolve, reject) => {
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const all = Buffer.concat(chunks);
      resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    });
    stream.on("error", reject);
  });
  return { stream, bytes };
}

/** The bytes of a workbook of these sheets, written whole in memory (dated as writeXlsx dates it). */
export async function xlsxBytes(sheets: Iterable<Sheet> | AsyncIterable<Sheet>, dated?: Date): Promise<Uint8Array> {
  const { stream, bytes } = workbookBytes();
  // The workbook's commit ends the stream.
  await writeXlsx(sheets, stream, dated);
  return bytes;
}

export async function writeXlsx(sheets: Iterable<Sheet> | AsyncIterable<Sheet>, output: Writable, dated?: Date): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  // A document of a moment of its own (an approved version's, D39) is dated by it, not by the clock.
  if (dated) {
    workbook.created = dated;
    workbook.modified = dated;
  }
  learnQuotePrefix(workbook);
  workbook.creator = "Цифровая платформа расчета неорганизованных выбросов";
  for await (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(xmlText(sheet.name), { views: [{ state: "frozen", xSplit: 0, ySplit: 2 }] });
    worksheet.columns = sheet.columns.map((column) => ({ width: column.width, style: columnStyle(column) }));
    const titleCells = xmlCells([sheet.title]);
    const title = worksheet.addRow(titleCells);
    title.font = { bold: true, size: 12 };
    quoteFormulaLike(title, titleCells).commit();
    const headerCells = xmlCells(sheet.columns.map((c) => c.header));
    const header = worksheet.addRow(headerCells);
    header.font = { bold: true };
    header.alignment = { wrapText: true, vertical: "top" };
    quoteFormulaLike(header, headerCells).commit();
    let batch = 0;
    let index = 0;
    for await (const row of sheet.rows) {
      const cells = xmlCells(row);
      const added = withSmallNumbers(worksheet.addRow(cells), cells, sheet.columns);
      if (sheet.cellDecimals) {
        const at = index;
        cells.forEach((value, i) => {
          const decimals = typeof value === "number" ? sheet.cellDecimals?.(at, i) : undefined;
          if (decimals !== undefined) added.getCell(i + 1).numFmt = numberFormat(decimals);
        });
      }
      index += 1;
      quoteFormulaLike(added, cells).commit();
      if (++batch === ROWS_PER_BATCH) {
        batch = 0;
        await drained(output);
      }
    }
    worksheet.commit();
  }
  await workbook.commit();
}
