// A shift's monitoring report as a file (GET v1/telemetry/shift-report/): xlsx through the one xlsx
// writer (a sheet per part: per working and sensor, the gassings in force during the shift in the book's
// columns, the events with their acknowledgements, the forecast events) and PDF (pdfkit, DejaVu Sans as the passport), dates ДД.ММ.ГГГГ ЧЧ:ММ on the
// company's clock, figures the Russian way. Both say first that the figures are advisory: protective
// cut-off stays with the mine's own АГК.
import { dateText, dateTimeText } from "@core/company-clock";
import { ADVISORY_NOTE, DEMO_READINGS_LABEL } from "@core/monitoring";
import { EVENT_KIND_LABELS, EVENT_LEVEL_LABELS, faultText, type EventLevel } from "@core/monitoring-events";
import type { ShiftReport } from "../domain/monitoring/derive/shift-report";
import type { EventView } from "../domain/monitoring/derive/events";
import type { Cell, Column, Sheet } from "./content";
import { textPdf } from "./pdf-writer";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";
import { gassingBookSheet } from "./gassing-book";
import { CORRECTED_MARK, SUDDEN_MARK, gassingMaxText } from "@core/gassing-book";

export type ShiftReportFormat = "xlsx" | "pdf";

const NO_WORKING = "без выработки";
const number = (header: string, decimals: number, width = 14): Column => ({ header, kind: "number", decimals, width });
const text = (header: string, width: number): Column => ({ header, kind: "text", width });

/** the demo mine's shift report says its readings are simulated. */
const demoMark = (r: Pick<ShiftReport, "demo">) => (r.demo ? ` (${DEMO_READINGS_LABEL})` : "");
const DEMO_NOTE = `Показания смоделированы для демонстрации, не шахты: ${DEMO_READINGS_LABEL}.`;

/** «Смена 2 (08:00–16:00) 02.03.2026». */
export function shiftTitle(r: Pick<ShiftReport, "date" | "shift_name">): string {
  return `${r.shift_name} ${dateText(r.date, "UTC")}`;
}

const levelText = (level: EventLevel | null) => (level ? EVENT_LEVEL_LABELS[level] : "—");
/** The «Уровень» cell: a level's name, a fault's reasons. */
const levelCell = (e: EventView) => (e.fault ? faultText(e.fault) : levelText(e.level));
/** What an event's minutes are, in the report's line. */
const minutesText = (e: EventView) =>
  e.kind === "stale"
    ? `без показаний ${e.minutes_above} мин`
    : e.fault
      ? `показания отбракованы: ${faultText(e.fault)}`
      : `выше уровня ${e.minutes_above} мин`;
const came = (e: EventView) => (e.forecast?.came_true === true ? "да" : e.forecast?.came_true === false ? "нет" : "еще неизвестно");

export function shiftReportSheets(r: ShiftReport): Sheet[] {
  const at = (iso: string | null) => (iso ? dateTimeText(iso, r.zone) : "продолжается");
  const heading = `${r.facility}: ${shiftTitle(r)}${r.running ? " (идет, данные на момент выгрузки)" : ""}${demoMark(r)}. ${ADVISORY_NOTE}`;
  const workings: Sheet = {
    name: "Выработки",
    text: { layout: "none" },
    title: heading,
    columns: [
      text("Выработка", 28),
      text("Датчик", 14),
      number("W, % об.", 2, 10),
      number("A, % об.", 2, 10),
      number("Полнота, %", 1, 12),
      number("Макс. CH4, % об.", 2, 12),
      number("Минут ≥ 0,9·W", 0, 12),
      number("Минут ≥ W", 0, 12),
      number("Минут ≥ A", 0, 12),
      number("Минут под сомнением", 0, 12),
      text("Показания под сомнением", 40),
    ],
    rows: r.rows.map((row): Cell[] => [
      row.working || NO_WORKING,
      row.sensor_code,
      row.warning,
      row.alarm,
      row.completeness * 100,
      row.max,
      row.above.pre_warning,
      row.above.warning,
      row.above.alarm,
      row.doubt_minutes,
      row.doubt,
    ]),
  };
  const events: Sheet = {
    name: "События",
    text: { layout: "none" },
    title: `${r.facility}: события смены (${shiftTitle(r)})${demoMark(r)}`,
    columns: [
      text("Выработка", 24),
      text("Датчик", 12),
      text("Событие", 16),
      text("Уровень", 26),
      text("Начало", 18),
      text("Конец", 18),
      number("Пик, % об.", 2, 10),
      number("Минут", 0, 10),
      text("Квитировал", 26),
      text("Когда", 18),
      text("Комментарий", 40),
    ],
    rows: r.events.map((e): Cell[] => [
      e.working || NO_WORKING,
      e.sensor_code,
      EVENT_KIND_LABELS[e.kind],
      levelCell(e),
      at(e.start),
      at(e.end),
      e.peak,
      e.minutes_above,
      e.acknowledged_by ?? "не квитировано",
      e.acknowledged_at ? dateTimeText(e.acknowledged_at, r.zone) : "",
      e.comment,
    ]),
  };
  const forecasts: Sheet = {
    name: "Прогнозные события",
    text: { layout: "none" },
    title: `${r.facility}: прогнозные события смены (${shiftTitle(r)})${demoMark(r)}: P(C(t+h) ≥ уровня) ≥ 0,5`,
    columns: [
      text("Выработка", 24),
      text("Датчик", 12),
      text("Уровень", 26),
      number("Горизонт, мин", 0, 12),
      number("Вероятность", 2, 12),
      text("Начало", 18),
      text("Сбылся", 16),
    ],
    rows: r.forecasts.map((e): Cell[] => [
      e.working || NO_WORKING,
      e.sensor_code,
      levelText(e.level),
      e.forecast?.horizon_min ?? null,
      e.forecast?.probability ?? null,
      at(e.start),
      came(e),
    ]),
  };
  // The gassings in force during the shift, in the gassing book's columns (as the journal's day sheet).
  const gassings = gassingBookSheet(
    "Загазирования",
    `${r.facility}: загазирования смены (${shiftTitle(r)})${demoMark(r)} в графах книги учета загазирований`,
    r.gassings,
    r.zone,
  );
  return [workings, gassings, events, forecasts];
}

export async function shiftReportXlsx(r: ShiftReport): Promise<Uint8Array> {
  return xlsxBytes(shiftReportSheets(r), new Date(r.issued_at));
}

const shown = (value: number | null, decimals: number) => (value === null ? "—" : formatNumber(value, decimals));

export async function shiftReportPdf(r: ShiftReport): Promise<Uint8Array> {
  const { doc, font, left, width, heading, line, bytes } = textPdf(`${r.facility}: ${shiftTitle(r)}${demoMark(r)}`, new Date(r.issued_at), {
    margin: 36,
    layout: "landscape",
  });
  const at = (iso: string | null) => (iso ? dateTimeText(iso, r.zone) : "продолжается");

  heading(`Отчет смены: ${r.facility}`, 14);
  line(`${shiftTitle(r)}, по часам компании: с ${dateTimeText(r.from, r.zone)} до ${dateTimeText(r.to, r.zone)}.`);
  if (r.demo) doc.moveDown(0.3).font("Bold").fontSize(11).text(DEMO_NOTE, left, undefined, { width }).font(font);
  if (r.running) line("Смена идет: данные на момент выгрузки.");
  line(`Выгружено ${dateTimeText(r.issued_at, r.zone)}.`);
  doc.moveDown(0.3).font("Bold").fontSize(9).text(ADVISORY_NOTE, left, undefined, { width }).font(font);

  heading("Выработки и датчики метана");
  if (r.rows.length === 0) line("Датчиков метана нет.");
  for (const row of r.rows) {
    line(
      `${row.working || NO_WORKING}, ${row.sensor_code}: полнота ${formatNumber(row.completeness * 100, 1)} %, ` +
        `макс. CH4 ${shown(row.max, 2)} % об.; минут ≥ 0,9·W: ${row.above.pre_warning}, ≥ W: ${row.above.warning}, ≥ A: ${row.above.alarm} ` +
        `(W ${shown(row.warning, 2)}, A ${shown(row.alarm, 2)} % об.)${row.doubt ? `; ${row.doubt}` : ""}`,
    );
  }
  heading("Загазирования смены");
  if (r.gassings.length === 0) line("Загазирований нет.");
  for (const g of r.gassings) {
    const carried = Date.parse(g.start) < Date.parse(r.from) ? ", перешло с предыдущей смены" : "";
    const max = g.over_span === null ? `${shown(g.max, 2)} % об.` : gassingMaxText(g.max, g.over_span, formatNumber);
    const marks = [g.sudden ? SUDDEN_MARK : "", g.corrections.length > 0 ? CORRECTED_MARK : ""].filter(Boolean).join("; ");
    line(
      `${g.sensors.join(", ")} (${g.working || NO_WORKING}${carried}): ${g.kind}, с ${at(g.start)} до ${at(g.end)}, ` +
        `максимум ${max} при норме ${g.limits.map((l) => `${shown(l, 2)} %`).join(", ")}${marks ? ` (${marks})` : ""}.`,
    );
  }
  heading("События смены");
  if (r.events.length === 0) line("Событий нет.");
  for (const e of r.events) {
    const ack = e.acknowledged_by
      ? `квитировал ${e.acknowledged_by} ${e.acknowledged_at ? dateTimeText(e.acknowledged_at, r.zone) : ""}${e.comment ? `: «${e.comment}»` : ""}`
      : "не квитировано";
    line(
      `${at(e.start)} — ${at(e.end)}. ${e.working || NO_WORKING}, ${e.sensor_code}: ${EVENT_KIND_LABELS[e.kind]}` +
        `${e.level ? `, ${levelText(e.level)}` : ""}; ${minutesText(e)}` +
        `${e.peak === null ? "" : `, пик ${formatNumber(e.peak, 2)} % об.`}; ${ack}.`,
    );
  }
  heading("Прогнозные события");
  if (r.forecasts.length === 0)
    line("Прогнозных событий нет: прогноз по выработкам этой смены не выдавал P ≥ 0,5, или модель не привязана.");
  for (const e of r.forecasts) {
    line(
      `${at(e.start)}. ${e.working || NO_WORKING}, ${e.sensor_code}: ${levelText(e.level)}, горизонт ${e.forecast?.horizon_min ?? "—"} мин, ` +
        `P = ${shown(e.forecast?.probability ?? null, 2)}; сбылся: ${came(e)}.`,
    );
  }
  return bytes();
}
