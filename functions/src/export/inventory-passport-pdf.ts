// The report passport as a PDF (pdfkit: no browser in Lambda). DejaVu Sans is embedded for the
// Cyrillic text (fonts/README.md): it is read from ./fonts beside this module, which in AWS is
// beside the worker's bundle (the CDK stack copies it there). Numbers are written the Russian way:
// thousands grouped, decimal comma.
import PDFDocument from "pdfkit";
import { fileURLToPath } from "node:url";
import {
  EMISSION_DECIMALS,
  SIGNING_KEY_LABEL,
  columnDecimals,
  destructionDecimals,
  passportUnitDecimals,
  type Passport,
} from "./inventory-passport";
import { PASSPORT_FONTS } from "./formats";
import { formatNumber } from "./txt-writer";
import { NETTING_LABEL } from "@core/inventory";

const fontFile = (name: string) => fileURLToPath(new URL(`./${PASSPORT_FONTS.dir}/${name}`, import.meta.url));
const FONT = fontFile(PASSPORT_FONTS.regular);
const BOLD_FONT = fontFile(PASSPORT_FONTS.bold);

const emissions = (value: number) => formatNumber(value, EMISSION_DECIMALS);

/** A figure of a table: printed right-aligned at its column's decimals (columnDecimals), whole. */
interface Figure {
  value: number;
  decimals: number;
  bold?: boolean;
  /** Printed at exactly `decimals`, its unit's across the passport (not its column's in this table). */
  fixed?: boolean;
}
type TextCell = { text: string; font?: { src: string }; align?: { x: "right" } };
type TextRow = Array<string | TextCell>;
type Row = Array<string | TextCell | Figure>;
const bold = (text: string) => ({ text, font: { src: "Bold" } });
const right = (text: string) => ({ text, align: { x: "right" as const } });
const figure = (value: number, decimals: number): Figure => ({ value, decimals });
const fixedFigure = (value: number, decimals: number): Figure => ({ value, decimals, fixed: true });
const emission = (value: number, strong = false): Figure => ({ value, decimals: EMISSION_DECIMALS, bold: strong, fixed: true });
const isFigure = (cell: Row[number]): cell is Figure => typeof cell === "object" && "value" in cell;

/** Sources laid out between two reports of progress (and a turn of the event loop, so that a job's
 *  progress is written while the layout runs). */
const SOURCES_PER_STEP = 200;

export async function passportPdf(p: Passport, progress?: (done: number) => void): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 40,
    font: FONT,
    lang: "ru-RU",
    // D39: dated by the document's own moment, so the file ID pdfkit derives from it is the same too.
    info: { Title: p.title, Creator: "Цифровая платформа расчета неорганизованных выбросов", CreationDate: p.issued },
  });
  const chunks: Buffer[] = [];
  const written = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  // The regular face by its path, never by a registered name: pdfkit caches a face under the key it
  // was first opened with, and a registered name whose face is already open is opened and parsed
  // again from the file at each call (pdfkit 0.20; 16 times a source, most of the PDF's time).
  // Tables go back to the path after each bold cell, so the path is the one key that stays cached.
  doc.registerFont("Bold", BOLD_FONT);
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const left = doc.page.margins.left;

  const heading = (text: string, size = 12) => {
    doc.moveDown(0.6).font("Bold").fontSize(size).text(text, left, undefined, { width }).font(FONT).fontSize(9).moveDown(0.3);
  };
  const paragraph = (text: string) => doc.font(FONT).fontSize(9).text(text, left, undefined, { width });
  const padding = 3;
  const FONT_SIZE = 8.5;
  /** The height a row will take, estimated from its texts' lengths (DejaVu Sans is about 0.6 em a
   *  character; words wrap, so a little more): measuring every cell with the font costs about as
   *  much as drawing it. An estimate too high only starts the page a row early. */
  const rowHeight = (columns: number[], row: TextRow) => {
    const lines = row.map((cell, i) => {
      const text = typeof cell === "string" ? cell : cell.text;
      const perLine = Math.max(1, Math.floor((columns[i] - 2 * padding) / (FONT_SIZE * 0.6)));
      return text.split("\n").reduce((n, part) => n + Math.max(1, Math.ceil((part.length * 1.2) / perLine)), 0);
    });
    return Math.max(...lines) * FONT_SIZE * 1.2 + 2 * 2 + 2;
  };
  /** A table whose header row is repeated on every page it runs onto (8.1: long tables break).
   *  Each column of figures has one count of decimals, and is at least as wide as its widest figure
   *  (taken from the widest column of text), so a number never breaks across lines. */
  const table = (widths: number[], header: TextRow | null, figures: Row[]) => {
    const places = widths.map((_, i) => {
      const column = figures.map((row) => row[i]).filter(isFigure);
      return column.length > 0 ? columnDecimals(column) : 0;
    });
    const rows: TextRow[] = figures.map((row) =>
      row.map((cell, i) =>
        isFigure(cell)
          ? { ...(cell.bold ? bold("") : {}), ...right(formatNumber(cell.value, cell.fixed ? cell.decimals : places[i])) }
          : cell,
      ),
    );
    const columns = [...widths];
    // DejaVu Sans digits are about 0,64 em wide (bold 0,7); a column of text gives the room.
    const textColumn = columns.reduce((best, width, j) => (places[j] === 0 && (best < 0 || width > columns[best]) ? j : best), -1);
    for (const [i, decimals] of places.entries()) {
      if (decimals === 0 || textColumn < 0) continue;
      const widest = Math.max(
        ...figures.map((row, r) => {
          const cell = row[i];
          return isFigure(cell) ? (rows[r][i] as TextCell).text.length * FONT_SIZE * (cell.bold ? 0.7 : 0.64) : 0;
        }),
      );
      const need = Math.ceil(widest + 2 * padding + 2);
      if (need > columns[i]) {
        columns[textColumn] -= need - columns[i];
        columns[i] = need;
      }
    }
    const options = {
      position: { x: left },
      columnStyles: columns,
      defaultStyle: { padding: [2, padding] as [number, number], border: 0.5, borderColor: "#999999" },
    };
    const start = () => {
      doc.font(FONT).fontSize(FONT_SIZE);
      const t = doc.table(options);
      if (header) t.row(header);
      return t;
    };
    if (header && doc.y + rowHeight(columns, header) + (rows[0] ? rowHeight(columns, rows[0]) : 0) > doc.page.maxY()) doc.addPage();
    let current = start();
    for (const row of rows) {
      if (header && doc.y + rowHeight(columns, row) > doc.page.maxY()) {
        current.end();
        doc.addPage();
        current = start();
      }
      doc.font(FONT).fontSize(FONT_SIZE);
      current.row(row);
    }
    current.end();
    doc.moveDown(0.4);
  };

  doc.font("Bold").fontSize(14).text(p.title, { width });
  doc.moveDown(0.5);
  heading("Организация");
  table([150, width - 150], null, [
    ...p.requisites.map(([label, value]): Row => [label, value]),
    ["Отчетный период", p.period],
    ["Отчетный год", String(p.year)],
    ["Статус", p.status],
    ...(p.version ? [["Версия", String(p.version.number)] satisfies Row, ["SHA-256 версии", p.version.sha256] satisfies Row] : []),
    ...(p.version?.key ? [[SIGNING_KEY_LABEL, p.version.key] satisfies Row] : []),
    ...(p.approvals.length > 0 ? [["Согласование", p.approvals.join("\n")] satisfies Row] : []),
    ["Площадки", p.scope],
    ["Потенциал глобального потепления", p.gwp],
  ]);

  heading("Ответственное лицо");
  table([150, width - 150], null, [...p.responsible.map(([label, value]): Row => [label, value]), ["Дата подписания", p.signing]]);

  heading("Порог 296-ФЗ");
  paragraph(p.threshold);

  heading("Измерено и оценено");
  paragraph(p.measured_vs_estimated);

  heading("Выбросы по газам");
  table(
    [width - 200, 100, 100],
    [bold("Газ"), bold("Выбросы, т"), bold("Выбросы, т CO2-экв.")],
    [
      ...p.gases.map(
        // A note that says why (10.1: «не рассчитывается: …») reads left to right, a figure is right-aligned.
        (g): Row => [g.gas, g.t === null ? g.note : emission(g.t), g.t_co2e === null ? right("—") : emission(g.t_co2e)],
      ),
      [bold("Итого"), "", emission(p.total_t_co2e, true)],
    ],
  );
  if (p.rounding.gases) paragraph(p.rounding.gases);

  heading("Выбросы по категориям и газам");
  table(
    [140, width - 140 - 40 - 75 - 90, 40, 75, 90],
    [bold("Категория (Приказ № 371)"), bold("Код МГЭИК"), bold("Газ"), bold("Выбросы, т"), bold("Выбросы, т CO2-экв.")],
    [
      ...p.totals.map((row): Row => [row.category, row.ipcc, row.gas, emission(row.t), emission(row.t_co2e)]),
      [bold("Итого"), "", "", "", emission(p.total_t_co2e, true)],
    ],
  );
  if (p.rounding.totals) paragraph(p.rounding.totals);

  heading("Выбросы по площадкам");
  table(
    [width - 110, 110],
    [bold("Площадка"), bold("Выбросы, т CO2-экв.")],
    p.facilities.map((f): Row => [f.details ? `${f.name}: ${f.details}` : f.name, emission(f.t_co2e)]),
  );
  if (p.rounding.facilities) paragraph(p.rounding.facilities);

  const units = passportUnitDecimals(p);
  heading("Данные о деятельности");
  if (p.activity.length === 0) paragraph("Нет учтенных расчетов");
  else {
    table(
      [130, width - 130 - 90 - 60, 90, 60],
      [bold("Площадка"), bold("Показатель"), bold("Значение"), bold("Единица")],
      p.activity.map((a): Row => [a.facility, a.label, fixedFigure(a.value, units.get(a.unit) ?? a.decimals), a.unit]),
    );
  }

  heading("Источники выбросов");
  const sourceCount = p.facilities.reduce((sum, f) => sum + f.categories.reduce((n, c) => n + c.sources.length, 0), 0);
  let laidOut = 0;
  for (const facility of p.facilities) {
    heading(facility.name, 11);
    if (facility.details) paragraph(facility.details);
    for (const category of facility.categories) {
      heading(`${category.title}: ${emissions(category.t_co2e)} т CO2-экв.`, 10);
      for (const source of category.sources) {
        if (progress && ++laidOut % SOURCES_PER_STEP === 0) {
          progress(laidOut / sourceCount);
          await new Promise((resolve) => setImmediate(resolve));
        }
        doc.moveDown(0.3).font("Bold").fontSize(9).text(`«${source.name}» (проект «${source.project}»)`, left, undefined, { width });
        paragraph(`${source.ipcc}. Метод: ${source.method}`);
        paragraph(`Формула: ${source.formula}`);
        if (source.period) paragraph(`Период: ${source.period}`);
        if (source.point) paragraph(source.point);
        doc.moveDown(0.2);
        const [labelWidth, valueWidth, unitWidth, tierWidth] = [120, 65, 55, 75];
        table(
          [labelWidth, valueWidth, unitWidth, width - labelWidth - valueWidth - unitWidth - tierWidth, tierWidth],
          [bold("Показатель"), bold("Значение"), bold("Единица"), bold("Источник значения"), bold("Уровень")],
          [
            ...source.activity.map(
              (q): Row => [`Данные о деятельности: ${q.label}`, fixedFigure(q.value, units.get(q.unit) ?? q.decimals), q.unit, "", q.tier],
            ),
            ...source.coefficients.map(
              (c): Row => [c.label, fixedFigure(c.value, units.get(c.unit) ?? c.decimals), c.unit, c.source, c.tier],
            ),
            ...source.gases.flatMap((g): Row[] => {
              // D26: gross, the netting and net, so the category's subtotal adds up.
              const off = source.netting.find((n) => n.gas === g.gas);
              const net = source.net.find((n) => n.gas === g.gas) ?? g;
              return off
                ? [
                    [`Выбросы ${g.gas}, валовые`, emission(g.t), `т ${g.gas}`, "", ""],
                    [NETTING_LABEL, emission(off.t), `т ${g.gas}`, "", ""],
                    [`Выбросы ${g.gas}, чистые`, emission(net.t), `т ${g.gas}`, "", ""],
                    [`Выбросы ${g.gas} в CO2-эквиваленте, чистые`, emission(net.t_co2e), "т CO2-экв.", "", ""],
                  ]
                : [
                    [`Выбросы ${g.gas}`, emission(g.t), `т ${g.gas}`, "", ""],
                    [`Выбросы ${g.gas} в CO2-эквиваленте`, emission(g.t_co2e), "т CO2-экв.", "", ""],
                  ];
            }),
          ],
        );
      }
    }
  }

  if (p.measurements.length > 0) {
    heading("Измерения (Приказ № 371, формула 3.1)");
    for (const m of p.measurements) {
      doc.moveDown(0.3).font("Bold").fontSize(9).text(`${m.facility}: «${m.source}» (проект «${m.project}»)`, left, undefined, { width });
      paragraph(`Периодичность измерений: ${m.frequency}. Средства измерений: ${m.instruments}`);
      doc.moveDown(0.2);
      const optional = (value: number | null, decimals: number) => (value === null ? right("—") : figure(value, decimals));
      table(
        [width - 5 * 75, 75, 75, 75, 75, 75],
        [bold("Период"), bold("Расход, м³/мин"), bold("Время, ч"), bold("CH4, % об."), bold("CO2, % об."), bold("Объем, тыс. м³")],
        m.periods.map(
          (row): Row => [
            row.period,
            optional(row.flow, 4),
            optional(row.hours, 2),
            figure(row.w_ch4, 4),
            figure(row.w_co2, 4),
            figure(row.volume, 4),
          ],
        ),
      );
    }
  }

  if (p.destruction.length > 0) {
    // D38: each device with its own formula and the gas it burnt.
    heading("Сжигание каптированного газа (факелы, котельные, ГПУ)");
    // Each unit at one precision across the devices: a boiler's gas as a flare's.
    const { gas, share, factor } = destructionDecimals(p);
    for (const d of p.destruction) {
      doc.moveDown(0.3).font("Bold").fontSize(9).text(`${d.facility}: «${d.source}» (проект «${d.project}»)`, left, undefined, { width });
      paragraph(`Формула: ${d.formula}`);
      if (d.period) paragraph(`Период: ${d.period}`);
      paragraph(`Периодичность измерений: ${d.frequency}. Средства измерений: ${d.instruments}`);
      doc.moveDown(0.2);
      table(
        [width - 150, 80, 70],
        [bold("Показатель"), bold("Значение"), bold("Единица")],
        [
          ["Объем газовой смеси", fixedFigure(d.volume, gas), "тыс. м³"],
          [`Содержание CH4${d.note ? ` (${d.note})` : ""}`, fixedFigure(d.w_ch4, share), "% об."],
          ["Содержание CO2", fixedFigure(d.w_co2, share), "% об."],
          ["в т. ч. CH4", fixedFigure(d.ch4_volume, gas), "тыс. м³"],
          [d.factor.label, fixedFigure(d.factor.value, factor), "доля"],
        ],
      );
    }
  }

  if (p.balance.length > 0) {
    heading("Баланс метана шахт (т CH4)");
    for (const b of p.balance) {
      table(
        [width - 110, 110],
        [bold(b.facility), bold("т CH4")],
        b.rows.map((row): Row => [row.label, emission(row.t)]),
      );
    }
  }

  if (p.changes) {
    heading(p.changes.title);
    for (const line of p.changes.lines) paragraph(`• ${line}`);
  }

  heading("Открытые проверки");
  if (p.checks.length === 0) paragraph("Замечаний нет");
  for (const check of p.checks) {
    paragraph(`• ${check}`);
    doc.moveDown(0.2);
  }

  doc.moveDown(1.5);
  const name = p.responsible[0][1];
  paragraph(`Ответственное лицо: ____________________ / ${name} /     Дата подписания: ${p.signing}`);

  doc
    .moveDown(1)
    .font(FONT)
    .fontSize(8)
    .fillColor("#555555")
    .text(`Сформировано ${p.generated}. ${p.footnote}`, left, undefined, { width });
  doc.end();
  const all = await written;
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}
