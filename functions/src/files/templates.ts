// The .xlsx form of an upload template (contract/templates.ts): the example on a first sheet, an
// explanation of each column on a second. Rendered behind the SpreadsheetWorker port (in AWS by the
// spreadsheet worker function), never imported by the API's routes.
import ExcelJS from "exceljs";
import type { Template } from "../contract/templates";

export async function templateXlsx(template: Template): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const data = workbook.addWorksheet("Данные", { views: [{ state: "frozen", ySplit: 1 }] });
  data.addRow(template.columns.map((c) => c.name)).font = { bold: true };
  for (const row of template.example) data.addRow(row);
  data.columns.forEach((column) => (column.width = 18));
  const help = workbook.addWorksheet("Пояснения");
  help.addRow(["Столбец", "Описание"]).font = { bold: true };
  for (const column of template.columns) help.addRow([column.name, column.description]);
  help.getColumn(1).width = 18;
  help.getColumn(2).width = 100;
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
