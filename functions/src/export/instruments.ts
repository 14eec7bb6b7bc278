// the instruments' documents. The «Метан» maintenance journal of a period in the columns
// of the form «Журнал эксплуатации и обслуживания» (the 2006 methodological recommendations on АГК): route,
// date, shift and time, the sensor and its place, its reading against the reference instrument, the
// «Контроль» button, the alarm and cut-off by a control mixture, the fault and measures, planned works and
// the three signatures; the shift handovers of a period (their lists, the protections bypassed, the
// remarks, who handed over and who took over, when); the sensor register with each sensor's metrology.
// xlsx and PDF (the register xlsx only); numbers as numbers, dates on the company's clock, signature lines.
import { dateText, dateTimeText, wallTimeIn } from "@core/company-clock";
import { CHECK_DUTIES, CHECK_DUTY_LABELS, CHECK_KIND_LABELS } from "@core/sensor-checks";
import type {
  ChecksDocument,
  HandoversDocument,
  HandoverView,
  SensorCheckView,
  SensorRegisterDocument,
} from "../contract/schemas/sensor-checks";
import type { MonitoringFile } from "../ports/spreadsheet-worker";
import type { Cell, Column, Sheet } from "./content";
import { journalPdf, journalXlsx } from "./journal";
import { CHECKS_TITLE, REGISTER_TITLE } from "../domain/monitoring/instruments/documents";
import { HANDOVERS_TITLE } from "../domain/monitoring/handover/handovers-document";
import { textPdf } from "./pdf-writer";
import { cutoffsPdf, cutoffsXlsx, handPdf, handXlsx } from "./readings-audit";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";

const number = (header: string, decimals: number, width = 12): Column => ({ header, kind: "number", decimals, width });
const text = (header: string, width: number): Column => ({ header, kind: "text", width });
const padTo = (width: number) => (cells: Cell[]) => [...cells, ...Array.from({ length: Math.max(0, width - cells.length) }, () => null)];

/** The journal's signers in the form's order, capitalised for a signature line. */
export const CHECK_SIGNERS = CHECK_DUTIES.map((d) => CHECK_DUTY_LABELS[d].replace(/^./, (c) => c.toUpperCase()));
export const HANDOVER_SIGNERS = ["Смену сдал", "Смену принял"] as const;
/** A check's percent figures to hundredths, as the АГК reads them. */
const PCT = 2;

/** «сработало», «не сработало», «не проверялось»; of a feminine noun (кнопка, сигнализация) «сработала», …. */
export const testText = (ok: boolean | null, feminine = false) =>
  ok === null ? (feminine ? "не проверялась" : "не проверялось") : `${ok ? "" : "не "}сработал${feminine ? "а" : "о"}`;
const signedText = (s: { by: string; at: string } | null, zone: string) => (s ? `${s.by}, ${dateTimeText(s.at, zone)}` : "не подписано");
const cylinderText = (c: SensorCheckView["test_gas_cylinder"]) => (c ? `№ ${c.number}, годен до ${dateText(c.valid_to, "UTC")}` : null);
const correctionText = (c: Pick<SensorCheckView, "follows" | "followed_by">) =>
  [c.follows ? "исправляет более раннюю запись" : "", c.followed_by ? "исправлена более поздней записью" : ""].filter(Boolean).join("; ") ||
  null;
/** ЧЧ:ММ on the company's clock. */
const timeOf = (iso: string, zone: string) => wallTimeIn(iso, zone).slice(11);
const period = (d: { from: string; to: string }) => `${dateText(d.from, "UTC")}–${dateText(d.to, "UTC")}`;

const CHECK_COLUMNS: Column[] = [
  text("Маршрут (выработка)", 22),
  text("Дата", 11),
  text("Смена", 22),
  text("Время", 7),
  text("Датчик", 12),
  text("Место установки", 24),
  text("Вид проверки", 20),
  number("Показание датчика, % об.", PCT),
  number("Показание контрольного прибора, % об.", PCT),
  number("Расхождение, % об.", PCT),
  text("Контрольный прибор", 18),
  text("Кнопка «Контроль»", 14),
  number("Контрольная смесь, % об.", PCT),
  text("Баллон смеси", 22),
  text("Срабатывание сигнализации", 14),
  text("Отключение электроэнергии", 14),
  text("Результат", 24),
  text("Обнаруженная неисправность", 30),
  text("Принятые меры", 30),
  text("Планируемые работы", 30),
  ...CHECK_SIGNERS.map((who) => text(`Подпись: ${who}`, 26)),
  text("Исправления", 26),
];

function checkRow(c: SensorCheckView, d: ChecksDocument): Cell[] {
  const where = d.sensors[c.sensor];
  return [
    where?.working || null,
    dateText(c.at, d.zone),
    c.shift_name,
    timeOf(c.at, d.zone),
    c.sensor_code,
    where?.place || null,
    CHECK_KIND_LABELS[c.kind],
    c.reading_pct,
    c.reference_pct,
    c.deviation_pct,
    c.reference_instrument || null,
    testText(c.button_test_ok, true),
    c.test_gas_pct,
    cylinderText(c.test_gas_cylinder),
    testText(c.alarm_ok),
    testText(c.cutoff_ok),
    c.result_text,
    c.fault || null,
    c.measures || null,
    c.planned_work || null,
    ...CHECK_DUTIES.map((duty) => signedText(c.signatures[duty], d.zone)),
    correctionText(c),
  ];
}

export function checksSheet(d: ChecksDocument): Sheet {
  const pad = padTo(CHECK_COLUMNS.length);
  const rows: Cell[][] = d.results.map((c) => checkRow(c, d));
  if (rows.length === 0) rows.push(pad(["Проверок за период нет"]));
  rows.push(pad([]));
  for (const who of CHECK_SIGNERS) rows.push(pad([who, "подпись ____________", "ФИО ____________________"]));
  return {
    name: "Журнал «Метан»",
    text: { layout: "none" },
    title: `${CHECKS_TITLE}: ${d.facility_name}, ${period(d)}. Выгружено ${dateTimeText(d.issued_at, d.zone)}`,
    columns: CHECK_COLUMNS,
    rows,
  };
}

export const checksXlsx = (d: ChecksDocument) => xlsxBytes([checksSheet(d)], new Date(d.issued_at));

const pct = (v: number | null) => (v === null ? "—" : `${formatNumber(v, PCT)} % об.`);

/** The journal as PDF: a block per check in the form's columns, then the three signature lines. */
export async function checksPdf(d: ChecksDocument): Promise<Uint8Array> {
  const title = `${CHECKS_TITLE}: ${d.facility_name}, ${period(d)}`;
  const { heading, line, signatures, bytes } = textPdf(title, new Date(d.issued_at), { margin: 36, layout: "landscape" });
  heading(title, 13);
  line(
    `Форма «Журнал эксплуатации и обслуживания» методических рекомендаций по АГК (2006). Выгружено ${dateTimeText(d.issued_at, d.zone)}.`,
  );
  if (d.results.length === 0) line("Проверок за период нет.");
  for (const c of d.results) {
    const where = d.sensors[c.sensor];
    heading(
      `${dateText(c.at, d.zone)} ${timeOf(c.at, d.zone)}, ${c.shift_name}: датчик ${c.sensor_code}` +
        `${where?.place ? `, ${where.place}` : ""}; маршрут: ${where?.working || "—"}`,
      10,
    );
    line(
      `${CHECK_KIND_LABELS[c.kind]}. Показание датчика ${pct(c.reading_pct)}, контрольного прибора ${pct(c.reference_pct)}` +
        `${c.reference_instrument ? ` (${c.reference_instrument})` : ""}, расхождение ${pct(c.deviation_pct)}.`,
    );
    line(
      `Кнопка «Контроль»: ${testText(c.button_test_ok, true)}. Контрольная смесь ${pct(c.test_gas_pct)}` +
        `${c.test_gas_cylinder ? ` (баллон ${cylinderText(c.test_gas_cylinder)})` : ""}: сигнализация — ${testText(c.alarm_ok, true)}, ` +
        `отключение электроэнергии — ${testText(c.cutoff_ok)}.`,
    );
    line(`Результат: ${c.result_text}.${c.fault ? ` Неисправность: ${c.fault}.` : ""}${c.measures ? ` Меры: ${c.measures}.` : ""}`);
    if (c.planned_work) line(`Планируемые работы: ${c.planned_work}.`);
    line(CHECK_DUTIES.map((duty, i) => `${CHECK_SIGNERS[i]}: ${signedText(c.signatures[duty], d.zone)}`).join("; ") + ".");
    const correction = correctionText(c);
    if (correction) line(`Исправления: ${correction}.`);
  }
  signatures(CHECK_SIGNERS);
  return bytes();
}

// ---- the shift handovers -----------------------------------------------------------------------------

const OPEN_LISTS: ReadonlyArray<[keyof HandoverView["open"], string]> = [
  ["gassings", "Загазирования открытые"],
  ["silent", "Датчики без показаний"],
  ["levels", "Датчики у предела (≥ 0,9·W)"],
  ["checks", "Проверки не пройдены или просрочены"],
  ["verification", "Датчики вне поверки"],
  ["forecasts", "Прогнозы с вероятностью превышения ≥ 0,5"],
  // D102–D105, item 7: the day's readings questioned and not answered (absent in a handover written before).
  ["questioned", "Показания под сомнением без ответа"],
  ["cutoffs", "Отключение не подтверждено (D104)"],
];
/** D106: the scheme at handover, printed after the lists (not an open item). */
const SCHEME_HEADER = "Схема участков по ходу воздуха";

const itemsText = (items: HandoverView["open"]["gassings"] | undefined) =>
  (items ?? []).map((i) => `${i.code}${i.working ? ` (${i.working})` : ""}: ${i.text}`).join("; ") || "нет";
const schemeText = (h: HandoverView) => (h.open.scheme ?? []).map((s) => `${s.code}: ${s.text}`).join("; ") || "нет";
const bypassedText = (h: HandoverView) => h.bypassed.map((b) => `${b.code}: ${b.note || "без пояснения"}`).join("; ") || "нет";
const takenText = (h: HandoverView, zone: string) => (h.taken_by ? `${h.taken_by}, ${dateTimeText(h.taken_at, zone)}` : "не принята");

const HANDOVER_COLUMNS: Column[] = [
  text("Смену сдает", 24),
  text("Смену принимает", 24),
  text("Время передачи", 16),
  ...OPEN_LISTS.map(([, header]) => text(header, 30)),
  number("Открытых пунктов", 0, 10),
  text(SCHEME_HEADER, 60),
  text("Обойденные защиты (датчик)", 30),
  text("Замечания", 30),
  text("Смену сдал (ФИО, время)", 26),
  text("Смену принял (ФИО, время)", 26),
  text("Исправления", 24),
];

const openCount = (h: HandoverView) => OPEN_LISTS.reduce((sum, [key]) => sum + (h.open[key]?.length ?? 0), 0);
const handoverCorrection = (h: HandoverView) =>
  [h.corrects ? "исправляет более раннюю передачу" : "", h.corrected_by ? "исправлена более поздней передачей" : ""]
    .filter(Boolean)
    .join("; ") || null;

export function handoversSheet(d: HandoversDocument): Sheet {
  const pad = padTo(HANDOVER_COLUMNS.length);
  const rows: Cell[][] = d.results.map((h) => [
    h.shift_from_name,
    h.shift_to_name,
    dateTimeText(h.at, d.zone),
    ...OPEN_LISTS.map(([key]) => itemsText(h.open[key])),
    openCount(h),
    schemeText(h),
    bypassedText(h),
    h.remarks || null,
    `${h.handed_by}, ${dateTimeText(h.handed_at, d.zone)}`,
    takenText(h, d.zone),
    handoverCorrection(h),
  ]);
  if (rows.length === 0) rows.push(pad(["Передач смены за период нет"]));
  rows.push(pad([]));
  for (const who of HANDOVER_SIGNERS) rows.push(pad([who, "подпись ____________", "ФИО ____________________"]));
  return {
    name: "Передача смены",
    text: { layout: "none" },
    title: `${HANDOVERS_TITLE}: ${d.facility_name}, ${period(d)}. Выгружено ${dateTimeText(d.issued_at, d.zone)}`,
    columns: HANDOVER_COLUMNS,
    rows,
  };
}

export const handoversXlsx = (d: HandoversDocument) => xlsxBytes([handoversSheet(d)], new Date(d.issued_at));

/** The handovers as PDF: a page each, its lists, what people added and both signatures with names and times. */
export async function handoversPdf(d: HandoversDocument): Promise<Uint8Array> {
  const title = `${HANDOVERS_TITLE}: ${d.facility_name}, ${period(d)}`;
  const { doc, heading, line, signatures, bytes } = textPdf(title, new Date(d.issued_at), { margin: 40 });
  heading(title, 13);
  line(`Выгружено ${dateTimeText(d.issued_at, d.zone)}.`);
  if (d.results.length === 0) line("Передач смены за период нет.");
  d.results.forEach((h, index) => {
    if (index > 0) doc.addPage();
    heading(`${h.shift_from_name} → ${h.shift_to_name}, ${dateTimeText(h.at, d.zone)}`, 11);
    for (const [key, header] of OPEN_LISTS) line(`${header}: ${itemsText(h.open[key])}.`);
    if ((h.open.scheme ?? []).length > 0) line(`${SCHEME_HEADER}: ${schemeText(h)}.`);
    line(`Обойденные защиты: ${bypassedText(h)}.`);
    line(`Замечания: ${h.remarks || "нет"}.`);
    const correction = handoverCorrection(h);
    if (correction) line(`Исправления: ${correction}.`);
    line(`Смену сдал: ${h.handed_by}, ${dateTimeText(h.handed_at, d.zone)}.`);
    line(`Смену принял: ${takenText(h, d.zone)}.`);
    signatures(HANDOVER_SIGNERS);
  });
  return bytes();
}

// ---- the sensor register with metrology --------------------------------------------------------------

const REGISTER_COLUMNS: Column[] = [
  text("Датчик", 12),
  text("Вид", 26),
  text("Выработка", 22),
  text("Место установки", 24),
  text("Тип средства измерений", 18),
  text("Номер в Госреестре СИ", 16),
  text("Заводской номер", 16),
  text("Поверен", 11),
  text("Поверка действительна до", 12),
  text("Свидетельство о поверке", 20),
  text("Состояние поверки", 24),
  text("Интервал проверок", 16),
  text("Последняя проверка", 16),
  text("Ее результат", 12),
  text("Следующая проверка", 16),
  number("Просрочено, дн.", 0, 10),
];

export function registerSheet(d: SensorRegisterDocument): Sheet {
  const pad = padTo(REGISTER_COLUMNS.length);
  const day = (iso: string | null) => (iso ? dateText(iso, "UTC") : null);
  const rows: Cell[][] = d.rows.map((r) => [
    r.code,
    r.kind,
    r.working || null,
    r.place || null,
    r.instrument_type,
    r.register_number,
    r.serial,
    day(r.verified_on),
    day(r.valid_to),
    r.certificate,
    r.verification,
    r.rule ?? "интервал не задан",
    r.last_check ? dateTimeText(r.last_check, d.zone) : "проверок нет",
    r.last_result,
    r.next_due ? dateTimeText(r.next_due, d.zone) : null,
    r.overdue_days,
  ]);
  if (rows.length === 0) rows.push(pad(["Датчиков в работе нет"]));
  rows.push(pad([]), pad([`Интервалы проверок: ${d.rules_source}`]));
  rows.push(pad([]), pad(["Заместитель начальника участка ВТБ по АГК", "подпись ____________", "ФИО ____________________"]));
  return {
    name: "Реестр датчиков",
    text: { layout: "none" },
    title: `${REGISTER_TITLE}: ${d.facility_name} на ${dateTimeText(d.issued_at, d.zone)}`,
    columns: REGISTER_COLUMNS,
    rows,
  };
}

export const registerXlsx = (d: SensorRegisterDocument) => xlsxBytes([registerSheet(d)], new Date(d.issued_at));

/** A monitoring file rendered: the operator's journal or one of the instruments' documents. */
export function monitoringFileBytes(file: MonitoringFile): Promise<Uint8Array> {
  switch (file.kind) {
    case "journal":
      return file.format === "pdf" ? journalPdf(file.journal) : journalXlsx(file.journal);
    case "sensor_checks":
      return file.format === "pdf" ? checksPdf(file.document) : checksXlsx(file.document);
    case "handovers":
      return file.format === "pdf" ? handoversPdf(file.document) : handoversXlsx(file.document);
    case "sensor_register":
      return registerXlsx(file.document);
    case "cutoffs":
      return file.format === "pdf" ? cutoffsPdf(file.document) : cutoffsXlsx(file.document);
    case "hand_measurements":
      return file.format === "pdf" ? handPdf(file.document) : handXlsx(file.document);
  }
}
