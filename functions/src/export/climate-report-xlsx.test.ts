// the report on implementation's xlsx holds its figures as numbers with a number
// format that shows them the Russian way («4 563,274» in a Russian Excel), not as text; dates, codes
// and figures with their units stay text.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { ClimateReport } from "../contract/schemas/climate-report";
import { climateReportXlsx } from "./climate-report";

const REPORT: ClimateReport = {
  project: "p1",
  period: "per1",
  title: "Отчет о реализации климатического проекта «Факелы»",
  subtitle: "Отчетный период 01.06.2026 00:00 – 01.06.2026 06:00",
  issued: "02.06.2026",
  file_name: "Отчет",
  version: 0,
  updated_at: null,
  updated_by: null,
  empty_hand: 0,
  missing: { fields: [], deviation_groups: [] },
  sections: [
    {
      number: 13,
      title: "Количество углеродных единиц к выпуску",
      filled: [
        { label: "Сокращение выбросов ER, т CO2-экв.", value: "4\u00a0563,274" },
        { label: "Углеродные единицы к выпуску", value: "4\u00a0563" },
        { label: "EF_grid, т CO2/МВт·ч", value: "0,620 — ОЭС Сибири" },
        { label: "Дата", value: "01.06.2026" },
      ],
      tables: [{ title: "По устройствам", columns: ["Устройство", "ER"], rows: [["Ф-1", "-12,500"]] }],
      hand: [],
    },
  ],
};

describe("the report's xlsx", () => {
  it("writes each figure as a number with a grouped format of its decimals", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await climateReportXlsx(REPORT, new Date("2026-06-02T03:00:00Z"))).slice().buffer as ArrayBuffer);
    const sheet = book.worksheets[0];
    const cells = new Map<string, ExcelJS.Cell>();
    sheet.eachRow((row) => {
      const label = row.getCell(2).value;
      if (typeof label === "string") cells.set(label, row.getCell(3));
      if (row.getCell(2).value === "Ф-1") cells.set("Ф-1", row.getCell(3));
    });
    const er = cells.get("Сокращение выбросов ER, т CO2-экв.")!;
    expect(er.value).toBe(4563.274);
    expect(er.numFmt).toBe("#,##0.000");
    expect(cells.get("Углеродные единицы к выпуску")!.value).toBe(4563);
    expect(cells.get("Углеродные единицы к выпуску")!.numFmt).toBe("#,##0");
    expect(cells.get("Ф-1")!.value).toBe(-12.5);
    expect(cells.get("EF_grid, т CO2/МВт·ч")!.value).toBe("0,620 — ОЭС Сибири");
    expect(cells.get("Дата")!.value).toBe("01.06.2026");
  });
});
