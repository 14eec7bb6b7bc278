// A monitoring period's report on implementation as a file (GET …/periods/{p}/report/?format=xlsx|pdf;
// methodology 13.4, D80): the sections the screen shows (domain/climate/report-content.ts), in Order
// 248's order, every figure as the screen writes it. xlsx: one sheet, a section's title row, then its
// items, tables and the executor's fields, so the sheet reads top to bottom as the form; PDF (pdfkit,
// DejaVu Sans as the passport): the same with tables drawn. Both dated by the report's moment.
import { HAND_MARK } from "../contract/schemas/climate-report";
import { type ClimateReport, type ClimateReportSources, climateReportContent } from "../domain/climate/report-content";
import type { Cell, Column, Sheet } from "./content";
import { textPdf } from "./pdf-writer";
import { xlsxBytes } from "./xlsx-writer";

export type ClimateReportFormat = "xlsx" | "pdf";

/** The columns of the sheet: the section's number, then an item's name and value or a table's columns. */
const COLUMNS = 10;

export function climateReportSheet(report: ClimateReport): Sheet {
  const columns: Column[] = [
    { header: "Раздел", kind: "text", width: 8 },
    { header: "Пункт", kind: "text", width: 48 },
    { header: "Значение", kind: "text", width: 48 },
    ...Array.from({ length: COLUMNS - 3 }, (): Column => ({ header: "", kind: "text", width: 16 })),
  ];
  const rows: Cell[][] = [
    [null, report.subtitle],
    [null, "Дата составления", report.issued],
  ];
  for (const section of report.sections) {
    const n = String(section.number);
    rows.push([n, `${section.number}. ${section.title}`]);
    for (const item of section.filled) rows.push([n, item.label, item.value]);
    for (const table of section.tables) {
      rows.push([n, table.title]);
      rows.push([n, ...table.columns]);
      for (const row of table.rows) rows.push([n, ...row]);
      if (table.rows.length === 0) rows.push([n, "нет"]);
    }
    for (const field of section.hand) rows.push([n, `${field.label} (${HAND_MARK})`, field.text || HAND_MARK]);
  }
  // a figure the report writes the Russian way («4 563,274», «15») is a number in the
  // sheet, shown with as many decimals as the report gives it and its thousands grouped.
  const decimals = new Map<string, number>();
  const numbered = rows.map((row, r) =>
    row.map((cell, c) => {
      const figure = c > 0 && typeof cell === "string" ? russianFigure(cell) : undefined;
      if (!figure) return cell;
      decimals.set(`${r}|${c}`, figure.decimals);
      return figure.value;
    }),
  );
  return {
    name: "Отчет о реализации",
    text: { layout: "none" },
    title: report.title,
    columns,
    rows: numbered,
    cellDecimals: (row, column) => decimals.get(`${row}|${column}`),
  };
}

/** «4 563,274» (spaces or no-break spaces between thousands, a decimal comma) as a number and its
 *  decimals; anything else (a date, a code, a figure with its unit) is no figure. */
function russianFigure(text: string): { value: number; decimals: number } | undefined {
  const match = /^(-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*)(?:,(\d+))?$/.exec(text);
  if (!match) return undefined;
  const value = Number(`${match[1].replace(/[ \u00a0\u202f]/g, "")}.${match[2] ?? "0"}`);
  return Number.isFinite(value) ? { value, decimals: match[2]?.length ?? 0 } : undefined;
}

export async function climateReportXlsx(report: ClimateReport, issued: Date): Promise<Uint8Array> {
  return xlsxBytes([climateReportSheet(report)], issued);
}

export async function climateReportPdf(report: ClimateReport, issued: Date): Promise<Uint8Array> {
  const { doc, font, left, width, heading, line, bytes } = textPdf(report.title, issued, { margin: 40 });
  /** A table whose header row is repeated on each page it runs onto. */
  const table = (columns: string[], rows: string[][]) => {
    // Each column at least its longest word (a date or a code never breaks across lines), the room
    // left shared by how much more its longest text asks (a long detail gets the most).
    const longest = (text: string, cut: RegExp) => Math.max(0, ...text.split(cut).map((word) => word.length));
    const need = columns.map(
      (title, i) => 1 + Math.max(longest(title, /[\s-]+/) * 1.1, ...rows.map((row) => longest(row[i] ?? "", /\s+/))),
    );
    const want = columns.map((title, i) =>
      Math.max(need[i], Math.min(40, Math.max(title.length / 2, ...rows.map((row) => (row[i] ?? "").length)))),
    );
    const CHAR = 7.5 * 0.6;
    const PADDING = 6;
    const room = (width - columns.length * PADDING) / CHAR;
    const needed = need.reduce((sum, n) => sum + n, 0);
    const more = want.reduce((sum, w, i) => sum + w - need[i], 0);
    const chars =
      needed + more <= room
        ? want.map((w) => (w * room) / (needed + more))
        : need.map((n, i) => n + (more > 0 ? ((want[i] - n) * Math.max(0, room - needed)) / more : 0));
    const widths = chars.map((c) => c * CHAR + PADDING);
    const start = () => {
      doc.font(font).fontSize(7.5);
      const t = doc.table({
        position: { x: left },
        columnStyles: widths,
        defaultStyle: { padding: [2, 3] as [number, number], border: 0.5, borderColor: "#999999" },
      });
      t.row(columns.map((text) => ({ text, font: { src: "Bold" } })));
      return t;
    };
    if (doc.y + 60 > doc.page.maxY()) doc.addPage();
    let t = start();
    for (const row of rows) {
      if (doc.y + 30 > doc.page.maxY()) {
        t.end();
        doc.addPage();
        t = start();
      }
      doc.font(font).fontSize(7.5);
      t.row(row);
    }
    t.end();
    doc.moveDown(0.4);
  };

  heading(report.title, 14);
  line(report.subtitle);
  line(`Дата составления: ${report.issued}`);
  for (const section of report.sections) {
    heading(`${section.number}. ${section.title}`);
    for (const item of section.filled) line(`${item.label}: ${item.value}`);
    for (const t of section.tables) {
      doc.moveDown(0.3).font("Bold").fontSize(9).text(t.title, left, undefined, { width }).font(font);
      if (t.rows.length === 0) line("нет");
      else table(t.columns, t.rows);
    }
    for (const field of section.hand) {
      doc.moveDown(0.2).font("Bold").fontSize(9).text(`${field.label} (${HAND_MARK}):`, left, undefined, { width }).font(font);
      line(field.text || `— ${HAND_MARK} —`);
    }
  }
  return bytes();
}

/** The report as a file of its content: what the worker renders. */
export function climateReportFile(report: ClimateReport, format: ClimateReportFormat, issued: Date): Promise<Uint8Array> {
  return format === "pdf" ? climateReportPdf(report, issued) : climateReportXlsx(report, issued);
}

/** The report of a period as a file, from its sources (the period, the project, the executor's fields,
 *  the company, the facility and its register): what the verifier's pack calls. */
export function climateReportBytes(sources: ClimateReportSources, format: ClimateReportFormat): Promise<Uint8Array> {
  return climateReportFile(climateReportContent(sources), format, sources.issued);
}
