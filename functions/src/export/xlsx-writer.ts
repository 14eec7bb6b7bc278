// The xlsx export with exceljs's streaming WorkbookWriter: rows are committed as they are made and
// each sheet is finished before the next starts (the zip is written sequentially; an open second
// sheet would be buffered whole), so a 10 000-calculation project never sits in memory as a
// workbook. Text is always written as a string value, never as {formula}, so a name such as
// "=HYPERLINK(…)" stays text (formula injection).
import ExcelJS from "exceljs";
import type { Writable } from "node:stream";
import type { Column, Sheet } from "./content";

export const numberFormat = (decimals: number): string => (decimals > 0 ? `0.${"0".repeat(decimals)}` : "0");

const columnStyle = (column: Column): Partial<ExcelJS.Style> =>
  column.kind === "number" ? { numFmt: numberFormat(column.decimals ?? 2) } : {};

export async function writeXlsx(sheets: AsyncIterable<Sheet>, output: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Цифровая платформа расчета неорганизованных выбросов";
  for await (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: "frozen", xSplit: 0, ySplit: 2 }] });
    worksheet.columns = sheet.columns.map((column) => ({ width: column.width, style: columnStyle(column) }));
    const title = worksheet.addRow([sheet.title]);
    title.font = { bold: true, size: 12 };
    title.commit();
    const header = worksheet.addRow(sheet.columns.map((c) => c.header));
    header.font = { bold: true };
    header.alignment = { wrapText: true, vertical: "top" };
    header.commit();
    for await (const cells of sheet.rows) worksheet.addRow(cells).commit();
    worksheet.commit();
  }
  await workbook.commit();
}
