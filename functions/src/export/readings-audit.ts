// D104–D105's documents: the cut-offs not confirmed of a period (the meter, its setpoint, the minutes, the
// run channel, the cause and the confirmation) and the hand measurements' journal (the instrument, the
// place, the fixed meter beside it and what it read, who). xlsx and PDF; numbers as numbers, dates on the
// company's clock, signature lines.
import { dateText, dateTimeText } from "@core/company-clock";
import type { CutoffsDocument, HandMeasurementsDocument } from "../contract/schemas/readings-audit";
import type { Cell, Column, Sheet } from "./content";
import { CUTOFFS_TITLE } from "../domain/monitoring/derive/cutoff-audit";
import { HAND_TITLE } from "../domain/monitoring/derive/hand-measurements";
import { textPdf } from "./pdf-writer";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";

const CUTOFF_SIGNERS = ["Начальник участка АБ", "Главный инженер"] as const;
const HAND_SIGNERS = ["Начальник участка ВТБ"] as const;

const number = (header: string, decimals: number, width = 12): Column => ({ header, kind: "number", decimals, width });
const text = (header: string, width: number): Column => ({ header, kind: "text", width });
const padTo = (width: number) => (cells: Cell[]) => [...cells, ...Array.from({ length: Math.max(0, width - cells.length) }, () => null)];
const period = (d: { from: string; to: string }) => `${dateText(d.from, "UTC")}–${dateText(d.to, "UTC")}`;
const pct = (v: number) => `${formatNumber(v, 2)} % об.`;

const CUTOFF_COLUMNS: Column[] = [
  text("Датчик", 12),
  text("Место установки", 24),
  text("Выработка", 18),
  number("Уставка отключения, % об.", 2),
  number("Максимум, % об.", 2),
  text("Начало", 17),
  text("Конец", 17),
  number("Минут не ниже уставки", 0),
  text("Канал работы оборудования", 14),
  number("Минут в работе после уставки", 0),
  text("Причина", 30),
  text("Пояснение", 30),
  text("Причину указал", 26),
  text("Подтвердил", 30),
];

export function cutoffsSheet(d: CutoffsDocument): Sheet {
  const pad = padTo(CUTOFF_COLUMNS.length);
  const rows: Cell[][] = d.results.map((r) => [
    r.sensor_code,
    r.place || null,
    r.working || null,
    r.setpoint,
    r.peak,
    dateTimeText(r.start, d.zone),
    r.end ? dateTimeText(r.end, d.zone) : "продолжается",
    r.minutes,
    r.run_code,
    r.run_minutes,
    r.answer ? r.answer.cause_text : "не разобрано",
    r.answer?.comment || null,
    r.answer ? `${r.answer.by}, ${dateTimeText(r.answer.at, d.zone)}` : null,
    r.confirmation ? `${r.confirmation.duty_text} ${r.confirmation.by}, ${dateTimeText(r.confirmation.at, d.zone)}` : "не подтверждено",
  ]);
  if (rows.length === 0) rows.push(pad(["Отключений, не подтвержденных каналом работы, за период нет"]));
  rows.push(pad([]));
  for (const who of CUTOFF_SIGNERS) rows.push(pad([who, "подпись ____________", "ФИО ____________________"]));
  return {
    name: "Отключения",
    text: { layout: "none" },
    title: `${CUTOFFS_TITLE}: ${d.facility_name}, ${period(d)}. Выгружено ${dateTimeText(d.issued_at, d.zone)}`,
    columns: CUTOFF_COLUMNS,
    rows,
  };
}

export const cutoffsXlsx = (d: CutoffsDocument) => xlsxBytes([cutoffsSheet(d)], new Date(d.issued_at));

export async function cutoffsPdf(d: CutoffsDocument): Promise<Uint8Array> {
  const title = `${CUTOFFS_TITLE}: ${d.facility_name}, ${period(d)}`;
  const { heading, line, signatures, bytes } = textPdf(title, new Date(d.issued_at), { margin: 36, layout: "landscape" });
  heading(title, 13);
  line(
    `Аудит платформы (D104): метан не ниже уставки отключения, а канал работы оборудования той же выработки показывает работу 2 мин и более. ` +
      `Отключение выполняет АГК шахты; платформа проверяет, что оно было. Выгружено ${dateTimeText(d.issued_at, d.zone)}.`,
  );
  if (d.results.length === 0) line("Отключений, не подтвержденных каналом работы, за период нет.");
  for (const r of d.results) {
    heading(
      `${dateTimeText(r.start, d.zone)}: датчик ${r.sensor_code}${r.place ? `, ${r.place}` : ""}; ${r.working || "выработка не указана"}`,
      10,
    );
    line(
      `Максимум ${pct(r.peak)} при уставке отключения ${pct(r.setpoint)}, ${r.minutes} мин не ниже уставки ` +
        `(до ${r.end ? dateTimeText(r.end, d.zone) : "сих пор"}); ${r.run_code} в работе ${r.run_minutes} мин после уставки.`,
    );
    line(
      r.answer
        ? `Причина: ${r.answer.cause_text}${r.answer.comment ? ` (${r.answer.comment})` : ""}; указал ${r.answer.by}, ${dateTimeText(r.answer.at, d.zone)}.`
        : "Причина не указана.",
    );
    line(
      r.confirmation
        ? `Подтвердил ${r.confirmation.duty_text} ${r.confirmation.by}, ${dateTimeText(r.confirmation.at, d.zone)}.`
        : "Не подтверждено.",
    );
  }
  signatures(CUTOFF_SIGNERS);
  return bytes();
}

const HAND_COLUMNS: Column[] = [
  text("Дата и время замера", 17),
  text("Прибор", 10),
  text("Заводской номер", 12),
  text("Место замера", 28),
  text("Выработка", 18),
  text("Стационарный датчик", 12),
  number("Ручной замер, % об.", 2),
  number("Показание датчика, % об.", 2),
  number("Расхождение, % об.", 2),
  number("Допуск, ± % об.", 2),
  text("Сравнение", 40),
  text("Замер записал", 26),
  text("Исправления", 26),
  text("Примечание", 26),
];

const handCorrection = (m: HandMeasurementsDocument["results"][number]) =>
  [m.corrects ? "исправляет более раннюю запись" : "", m.corrected_by ? "исправлена более поздней записью" : ""]
    .filter(Boolean)
    .join("; ") || null;

export function handSheet(d: HandMeasurementsDocument): Sheet {
  const pad = padTo(HAND_COLUMNS.length);
  const rows: Cell[][] = d.results.map((m) => [
    dateTimeText(m.measured_at, d.zone),
    m.instrument,
    m.instrument_number,
    m.place,
    m.working || null,
    m.sensor_code,
    m.value_pct,
    m.compared?.meter_pct ?? null,
    m.compared?.difference_pct ?? null,
    m.compared?.permitted_pct ?? null,
    m.text,
    `${m.recorded_by}, ${dateTimeText(m.recorded_at, d.zone)}`,
    handCorrection(m),
    m.comment || null,
  ]);
  if (rows.length === 0) rows.push(pad(["Ручных замеров за период нет"]));
  rows.push(pad([]));
  for (const who of HAND_SIGNERS) rows.push(pad([who, "подпись ____________", "ФИО ____________________"]));
  return {
    name: "Ручные замеры",
    text: { layout: "none" },
    title: `${HAND_TITLE}: ${d.facility_name}, ${period(d)}. Выгружено ${dateTimeText(d.issued_at, d.zone)}`,
    columns: HAND_COLUMNS,
    rows,
  };
}

export const handXlsx = (d: HandMeasurementsDocument) => xlsxBytes([handSheet(d)], new Date(d.issued_at));

export async function handPdf(d: HandMeasurementsDocument): Promise<Uint8Array> {
  const title = `${HAND_TITLE}: ${d.facility_name}, ${period(d)}`;
  const { heading, line, signatures, bytes } = textPdf(title, new Date(d.issued_at), { margin: 36, layout: "landscape" });
  heading(title, 13);
  line(`Замеры участка ВТБ рядом со стационарными датчиками (D105). Выгружено ${dateTimeText(d.issued_at, d.zone)}.`);
  if (d.results.length === 0) line("Ручных замеров за период нет.");
  for (const m of d.results) {
    heading(`${dateTimeText(m.measured_at, d.zone)}: ${m.place}; ${m.working || "выработка не указана"}`, 10);
    line(
      `${m.instrument} № ${m.instrument_number}: ${pct(m.value_pct)}; датчик ${m.sensor_code}: ${m.text}. ` +
        `Записал ${m.recorded_by}, ${dateTimeText(m.recorded_at, d.zone)}.`,
    );
    const correction = handCorrection(m);
    if (correction || m.comment) line([correction, m.comment].filter(Boolean).join("; ") + ".");
  }
  signatures(HAND_SIGNERS);
  return bytes();
}
