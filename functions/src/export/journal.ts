// The АГК operator's journal of a company day (GET v1/telemetry/journal/?format=xlsx|pdf)
// (the gassing book of a period is gassing-book.ts, whose columns the day's gassings sheet takes): the layout of
// the methodological recommendations' journal, a shift a sheet (xlsx) or a page (PDF): per sensor its
// code, place and set-point, the mean of each hour of the shift, the shift's and the day's mean; the
// shift's gassings (sensor, start, end, maximum); the signature lines of the АГК operator, the head of
// the ВТБ section and the shift head. Dates on the company's clock, figures the Russian way (the
// shift report's writers).
import { dateText, dateTimeText } from "@core/company-clock";
import { ADVISORY_NOTE, DEMO_READINGS_LABEL } from "@core/monitoring";
import { actsNotRead, limitSourceText, limitSources } from "@core/methane-limits";
import { CORRECTED_MARK, SUDDEN_MARK, gassingMaxText } from "@core/gassing-book";
import type { GassingView, Journal } from "../domain/monitoring/derive/journal";
import { gassingBookSheet } from "./gassing-book";
import type { Cell, Column, Sheet } from "./content";
import { textPdf } from "./pdf-writer";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";

const NO_WORKING = "без выработки";
const number = (header: string, decimals: number, width = 10): Column => ({ header, kind: "number", decimals, width });
const text = (header: string, width: number): Column => ({ header, kind: "text", width });
const two = (n: number) => String(n).padStart(2, "0");

export const JOURNAL_SIGNATURES = ["Оператор АГК", "Начальник участка ВТБ", "Начальник смены"] as const;
/** The journal's CH4 figures are shown to hundredths of a percent, as the АГК reads them. */
export const JOURNAL_DECIMALS = 2;

const hourHeader = (h: number) => `${two(h)}–${two(h + 1)}`;
const demoMark = (j: Pick<Journal, "demo">) => (j.demo ? ` (${DEMO_READINGS_LABEL})` : "");

/** The gassings of shift `index`: every one in force during its hours on the company's
 *  clock — begun in it, or before it (carried over) and still open or ending in it. */
export function shiftGassings(j: Journal, index: number): (GassingView & { carried: boolean })[] {
  // D90: the shift by the facility's calendar in force on the day.
  const shift = j.shift_list[index];
  const span = { from: Date.parse(shift.from), to: Date.parse(shift.to) };
  return j.gassings
    .filter((g) => Date.parse(g.start) < span.to && (g.end === null || Date.parse(g.end) > span.from))
    .map((g) => ({ ...g, carried: Date.parse(g.start) < span.from }));
}

/** «М-1, М-2 (Лава 12-3)», and «перешло с предыдущей смены» for one begun before the shift. */
const gassingWhere = (g: GassingView & { carried?: boolean }) =>
  `${g.sensors.join(", ")} (${g.working || NO_WORKING})${g.carried ? ", перешло с предыдущей смены" : ""}`;
const registrationText = (g: GassingView, zone: string) =>
  g.registered_by
    ? `зарегистрировал ${g.registered_by} ${dateTimeText(g.registered_at, zone)}${g.closed ? `, закрыто ${dateTimeText(g.closed_at, zone)}` : ""}`
    : "не зарегистрировано";

export function journalSheets(j: Journal): Sheet[] {
  const at = (iso: string | null) => (iso ? dateTimeText(iso, j.zone) : "продолжается");
  const sheets: Sheet[] = j.shift_list.map((shift, index) => {
    const hours = shift.hours;
    const width = 9 + hours.length;
    const pad = (cells: Cell[]) => [...cells, ...Array.from({ length: Math.max(0, width - cells.length) }, () => null)];
    const rows: Cell[][] = j.sensors.map((s) => [
      s.code,
      s.place,
      s.working || NO_WORKING,
      s.limit,
      ...hours.map((h) => s.hourly[h]),
      s.shifts[index],
      s.day,
      s.unit,
      s.limit_source ? limitSourceText(s.limit_source, false) : "нет уставки A",
      [...s.checks, ...(s.doubt ? [s.doubt] : [])].join("; ") || null,
    ]);
    // An act whose text was not read, once a sheet beside the act, not on each sensor's line.
    for (const act of actsNotRead(j.sensors.map((s) => (s.limit_source?.by === "place" ? s.limit_source : null)))) rows.push(pad([act]));
    rows.push(pad([]), pad(["Загазирования смены"]));
    const gassings = shiftGassings(j, index);
    if (gassings.length === 0) rows.push(pad(["нет"]));
    for (const g of gassings)
      rows.push(
        pad([
          gassingWhere(g),
          `${g.kind}`,
          at(g.start),
          at(g.end),
          g.over_span === null ? g.max : gassingMaxText(g.max, g.over_span, formatNumber),
          [g.sudden ? SUDDEN_MARK : "", g.corrections.length > 0 ? CORRECTED_MARK : ""].filter(Boolean).join("; ") || null,
        ]),
      );
    // Item 7 (D102–D105): the day's readings questioned and their answers.
    rows.push(pad([]), pad(["Показания под сомнением за сутки"]));
    if ((j.questions ?? []).length === 0) rows.push(pad(["нет"]));
    for (const q of j.questions ?? [])
      rows.push(pad([q.code, q.working || NO_WORKING, q.text, at(q.start), at(q.end), questionAnswer(q, j.zone)]));
    rows.push(pad([]));
    for (const who of JOURNAL_SIGNATURES) rows.push(pad([who, "подпись ____________", "ФИО ____________________"]));
    return {
      name: `Смена ${index + 1}`,
      text: { layout: "none" },
      title: `Журнал оператора АГК: ${j.facility_name}, ${dateText(j.date, "UTC")}, ${shift.name}${demoMark(j)}. Средние значения газов АГК в единицах датчика. ${ADVISORY_NOTE}`,
      columns: [
        text("Датчик", 16),
        text("Место установки", 24),
        text("Выработка", 22),
        number("Предел", JOURNAL_DECIMALS, 10),
        ...hours.map((h) => number(hourHeader(h), JOURNAL_DECIMALS, 8)),
        number("За смену", JOURNAL_DECIMALS, 10),
        number("За сутки", JOURNAL_DECIMALS, 10),
        text("Ед. изм.", 8),
        text("Основание предела (акт, пункт, редакция)", 60),
        text("Проверка датчика", 40),
      ],
      rows,
    };
  });
  sheets.push(
    gassingBookSheet(
      "Загазирования",
      `Журнал оператора АГК: ${j.facility_name}, загазирования ${dateText(j.date, "UTC")}${demoMark(j)} в графах книги учета загазирований`,
      j.gassings,
      j.zone,
    ),
  );
  return sheets;
}

export const journalXlsx = (j: Journal) => xlsxBytes(journalSheets(j), new Date(j.issued_at));

const shown = (value: number | null) => (value === null ? "—" : formatNumber(value, JOURNAL_DECIMALS));

/** A question's answer: «ответ: проверен ШИ-11: 0,62 %, датчик исправен (Иванов И. И., 01.03.2026 10:20)» or «ответа нет». */
const questionAnswer = (q: NonNullable<Journal["questions"]>[number], zone: string) =>
  q.answer ? `ответ: ${q.answer.text} (${q.answer.by}, ${dateTimeText(q.answer.at, zone)})` : "ответа нет";

/** The journal as PDF: a landscape page a shift, its table, its gassings and the signature lines. */
export async function journalPdf(j: Journal): Promise<Uint8Array> {
  const title = `Журнал оператора АГК: ${j.facility_name}, ${dateText(j.date, "UTC")}${demoMark(j)}`;
  const { doc, font, left, width, heading, line, signatures, bytes } = textPdf(title, new Date(j.issued_at), {
    margin: 30,
    layout: "landscape",
  });
  const at = (iso: string | null) => (iso ? dateTimeText(iso, j.zone) : "продолжается");
  j.shift_list.forEach((shift, index) => {
    if (index > 0) doc.addPage();
    const hours = shift.hours;
    heading(`${title}. ${shift.name}`, 13);
    line(
      `Средние значения валидных минутных средних по часам компании, в единицах датчика (CH4, O2, CO2 — % об., CO — ppm). Выгружено ${dateTimeText(j.issued_at, j.zone)}.`,
    );
    if (j.running) line("Сутки идут: данные на момент выгрузки.");
    doc.moveDown(0.2).font("Bold").fontSize(8).text(ADVISORY_NOTE, left, undefined, { width }).font(font);
    doc.moveDown(0.5);
    const widths = [70, 130, 90, 50, ...hours.map(() => 40), 50, 50];
    const scale = width / widths.reduce((a, b) => a + b, 0);
    const row = (cells: string[], bold = false) => {
      const y = doc.y;
      let x = left;
      let bottom = y;
      doc.font(bold ? "Bold" : font).fontSize(8);
      cells.forEach((cell, i) => {
        const w = widths[i] * scale;
        doc.text(cell, x + 2, y, { width: w - 4, align: i >= 3 ? "right" : "left" });
        bottom = Math.max(bottom, doc.y);
        x += w;
      });
      doc.x = left;
      doc.y = bottom + 3;
    };
    row(["Датчик", "Место установки", "Выработка", "Предел", ...hours.map(hourHeader), "Смена", "Сутки"], true);
    if (j.sensors.length === 0) line("Датчиков газа нет.");
    for (const s of j.sensors) {
      row([
        s.code,
        s.place || "—",
        s.working || NO_WORKING,
        s.limit === null ? "—" : `${shown(s.limit)} ${s.unit}`,
        ...hours.map((h) => shown(s.hourly[h])),
        shown(s.shifts[index]),
        shown(s.day),
      ]);
    }
    for (const source of limitSources(j.sensors)) line(`Предел ${source}`);
    // a failed or overdue check printed beside the sensor's means.
    for (const s of j.sensors)
      if (s.checks.length > 0 || s.doubt)
        line(`${s.code}: ${[...s.checks, ...(s.doubt ? [s.doubt] : [])].join("; ")}`.replace(/\.?$/, "."));
    // Item 7 (D102–D105): the day's readings questioned and their answers.
    if ((j.questions ?? []).length > 0) {
      heading("Показания под сомнением за сутки", 11);
      for (const q of j.questions ?? [])
        line(`${q.code}${q.working ? ` (${q.working})` : ""}: ${q.text}, с ${at(q.start)} до ${at(q.end)}; ${questionAnswer(q, j.zone)}.`);
    }
    heading("Загазирования смены", 11);
    const gassings = shiftGassings(j, index);
    if (gassings.length === 0) line("Загазирований нет.");
    for (const g of gassings) {
      line(
        `${gassingWhere(g)}: ${g.kind}, с ${at(g.start)} до ${at(g.end)}, максимум ${g.over_span === null ? `${shown(g.max)} % об.` : gassingMaxText(g.max, g.over_span, formatNumber)}${g.sudden ? ` (${SUDDEN_MARK})` : ""}${g.corrections.length > 0 ? ` (${CORRECTED_MARK})` : ""}; ${registrationText(g, j.zone)}.`,
      );
    }
    signatures(JOURNAL_SIGNATURES);
  });
  return bytes();
}
