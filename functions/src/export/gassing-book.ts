// the gassing book («Книга учета загазирований») of a period as xlsx and PDF (GET
// v1/telemetry/gassings/?format=xlsx|pdf), and the day's gassings sheet of the operator's journal in the
// same columns: each entry's start, end and duration, the working and sensors, the kind and the type, the
// maximum, the cause, the losses, whom they informed and when, who cleared the gas and who investigated, the
// measures, who registered and closed it and the three confirmations, people by surname and initials;
// then the signature lines. Dates on the company's clock, figures the Russian way.
import { dateText, dateTimeText, isoDateIn } from "@core/company-clock";
import { ADVISORY_NOTE } from "@core/monitoring";
import {
  DUTIES,
  DUTY_LABELS,
  ONSET_LABELS,
  SUDDEN_MARK,
  correctionText,
  gassingMaxText,
  noticeText,
  splitEntryText,
} from "@core/gassing-book";
import { GASSING_TYPE_LABELS, NOTIFICATIONS, NOTIFICATION_LABELS, gassingDurationText } from "../contract/schemas/journal";
import type { GassingList, GassingView } from "../domain/monitoring/derive/journal";
import { type Cell, type Column, type Sheet, spreadsheetSerial } from "./content";
import { wrapText } from "./hyphenation";
import { textPdf } from "./pdf-writer";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";

export const BOOK_TITLE = "Книга учета загазирований";
/** Who signs the book's pages: the АБ section keeps it, the chief engineer checks it. */
export const BOOK_SIGNATURES = ["Начальник участка АБ", "Главный инженер"] as const;
const NO_WORKING = "без выработки";
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** whom they informed, each with when and by whom: «главный инженер 16:05 (Иванов И. И.)», the
 *  date too where it is not the gassing's first day; «—» where nobody was. */
const notifiedText = (g: GassingView, zone: string) =>
  NOTIFICATIONS.flatMap((n) => {
    const notice = g.notified[n];
    if (!notice) return [];
    const when = (at: string) =>
      isoDateIn(at, zone) === isoDateIn(g.start, zone) ? dateTimeText(at, zone).slice(11) : dateTimeText(at, zone);
    return [noticeText(NOTIFICATION_LABELS[n], notice, when)];
  }).join(",\n") || "—";
/** «М-7 (В 10–20 м от забоя), М-8 (Исходящая струя очистной выработки)»: each sensor with its place. */
const placesText = (g: GassingView) => g.sensors.map((code, i) => (g.places[i] ? `${code} (${g.places[i]})` : code)).join(", ");
/** A loss as the book prints it: «2,5 м», «—» where never entered. */
const lossText = (value: number | null, unit: string) => (value === null ? "—" : `${formatNumber(value, 1)} ${unit}`);
const signed = (who: string | null, at: string | null, zone: string) => (who && at ? `${who}, ${dateTimeText(at, zone)}` : "—");
/** D87: the norms its meters were read against, by where they hang («1,00», «0,75; 1,00»). */
const normText = (g: GassingView) => [...new Set(g.limits)].map((l) => formatNumber(l, 2)).join("; ");
/** D88: the mark of an entry holding a jump or a reading past the span, with what closing said it was. */
const suddenText = (g: GassingView) => (g.sudden ? `${SUDDEN_MARK} ${g.onset ? ONSET_LABELS[g.onset] : "не указано"}` : "");
/** D89: each correction of the readings after it was found, and the reason given at closing. */
const correctionsText = (g: GassingView, zone: string) =>
  [
    ...g.corrections.map((c) => correctionText(c, (at) => dateTimeText(at, zone), formatNumber)),
    g.correction_reason ? `Причина исправления: ${g.correction_reason}` : "",
    ...g.split_entries.map((e) => splitEntryText(e, (at) => dateTimeText(at, zone), formatNumber)),
  ]
    .filter(Boolean)
    .join("\n");

/** The book's columns, each with its cell of an entry (`n` its number in the book). */
function bookColumns(zone: string): { column: Column; cell: (g: GassingView, n: number) => Cell }[] {
  const text = (header: string, width: number, cell: (g: GassingView, n: number) => Cell) => ({
    column: { header, kind: "text" as const, width },
    cell,
  });
  const number = (header: string, decimals: number, width: number, cell: (g: GassingView, n: number) => Cell) => ({
    column: { header, kind: "number" as const, decimals, width },
    cell,
  });
  // A date and time the spreadsheet reads as one (the company's clock); «продолжается», «—» as text.
  const when = (header: string, width: number, instant: (g: GassingView) => string | null, none: string) => ({
    column: { header, kind: "number" as const, datetime: true as const, width },
    cell: (g: GassingView): Cell => {
      const at = instant(g);
      return at ? (spreadsheetSerial(dateTimeText(at, zone)) ?? dateTimeText(at, zone)) : none;
    },
  });
  return [
    number("№", 0, 5, (_, n) => n),
    when("Начало", 17, (g) => g.start, "—"),
    when("Окончание", 17, (g) => g.end, "продолжается"),
    text("Продолжительность", 14, (g) => gassingDurationText(g.duration_min)),
    // the section and the place of each gassing.
    text("Участок", 20, (g) => g.section || "—"),
    text("Выработка", 20, (g) => g.working || NO_WORKING),
    text("Место установки датчиков", 24, placesText),
    text("Датчики", 12, (g) => g.sensors.join(", ")),
    text("Вид", 9, (g) => g.kind),
    text("Тип", 15, (g) => (g.type ? GASSING_TYPE_LABELS[g.type] : "—")),
    // D88: past the meter's span the maximum is no figure: «более 4 % (за пределом шкалы)».
    number("Макс. CH4, % об.", 2, 10, (g) => (g.over_span === null ? g.max : gassingMaxText(g.max, g.over_span, formatNumber))),
    // One norm a number; the norms of meters at places of other rows «0,75; 1,00».
    number("Норма CH4, % об.", 2, 10, (g) => (new Set(g.limits).size === 1 ? g.limits[0] : normText(g))),
    text("Причина", 30, (g) => [g.cause || "—", suddenText(g), correctionsText(g, zone)].filter(Boolean).join("\n")),
    // losses never entered are «—», never «0,0».
    number("Потери проходки, м", 1, 11, (g) => g.losses.development_m ?? "—"),
    number("Потери добычи, т", 1, 11, (g) => g.losses.coal_t ?? "—"),
    text("Оповещены", 30, (g) => notifiedText(g, zone)),
    text("Разгазирование провел", 22, (g) => g.cleared_by || "—"),
    // when the gas was cleared and work resumed, as a real book keeps them.
    when("Разгазировано", 17, (g) => g.cleared_at, "—"),
    when("Работы возобновлены", 17, (g) => g.resumed_at, "—"),
    text("Расследовал", 22, (g) => g.investigated_by || "—"),
    text("Принятые меры", 34, (g) => g.measures || "—"),
    text("Зарегистрировал", 24, (g) => (g.registered_by ? signed(g.registered_by, g.registered_at, zone) : "не зарегистрировано")),
    text("Закрыл", 24, (g) => (g.closed ? signed(g.closed_by, g.closed_at, zone) : "не закрыто")),
    ...DUTIES.map((duty) =>
      text(capital(DUTY_LABELS[duty]), 24, (g) => {
        const given = g.confirmations[duty];
        return given ? signed(given.by, given.at, zone) : "не подтверждено";
      }),
    ),
    text("Комментарий", 30, (g) => g.comment),
  ];
}

/** The entries in the book's columns, numbered, then the signature lines. */
export function gassingBookSheet(name: string, title: string, list: readonly GassingView[], zone: string): Sheet {
  const columns = bookColumns(zone);
  const pad = (cells: Cell[]) => [...cells, ...Array.from({ length: columns.length - cells.length }, () => null)];
  const rows: Cell[][] = list.map((g, i) => columns.map((c) => c.cell(g, i + 1)));
  if (list.length === 0) rows.push(pad([null, "Загазирований нет"]));
  rows.push(pad([]));
  for (const who of BOOK_SIGNATURES) rows.push(pad([null, who, "подпись ____________", "ФИО ____________________"]));
  return { name, text: { layout: "none" }, title, columns: columns.map((c) => c.column), rows };
}

const bookTitle = (list: GassingList) =>
  `${BOOK_TITLE}: ${list.facility_name}, ${dateText(list.from, "UTC")} — ${dateText(list.to, "UTC")}`;

export const gassingBookXlsx = (list: GassingList) =>
  xlsxBytes(
    [gassingBookSheet("Книга загазирований", `${bookTitle(list)}. ${ADVISORY_NOTE}`, list.results, list.zone)],
    new Date(list.issued_at),
  );

/** The book as PDF: landscape pages of the book's columns (the header repeated on each), the entry's
 *  fields grouped so that a line of A4 holds them, then the signature lines. */
export async function gassingBookPdf(list: GassingList): Promise<Uint8Array> {
  const title = bookTitle(list);
  const { doc, font, left, width, heading, line, signatures, bytes } = textPdf(title, new Date(list.issued_at), {
    margin: 28,
    layout: "landscape",
  });
  const zone = list.zone;
  const at = (iso: string | null) => (iso ? dateTimeText(iso, zone) : "продолжается");
  heading(title, 13);
  line(`Выгружено ${dateTimeText(list.issued_at, zone)}. Время — по часам компании. Концентрации CH4 — % об.`);
  doc.moveDown(0.2).font("Bold").fontSize(8).text(ADVISORY_NOTE, left, undefined, { width }).font(font);
  doc.moveDown(0.5);
  const header = [
    "№",
    "Начало, окончание, длительность",
    "Место: участок, выработка, датчики и места; вид, тип",
    "Макс. CH4; норма",
    "Причина",
    "Потери",
    "Оповещены",
    "Разгазирование провел; расследовал",
    "Принятые меры",
    "Зарегистрировал; закрыл",
    "Подтверждения",
  ];
  const widths = [18, 84, 90, 38, 74, 72, 84, 80, 90, 86, 110];
  const scale = width / widths.reduce((a, b) => a + b, 0);
  const cellWidth = (i: number) => widths[i] * scale - 4;
  const SIZE = 7;
  // a cell's words break only where Russian hyphenation allows, with «-» (hyphenation.ts);
  // PDFKit itself cut a word longer than its column at any letter.
  // A row wrapped and measured once: its cells' lines and its height.
  const laidOut = (cells: string[], bold = false) => {
    doc.font(bold ? "Bold" : font).fontSize(SIZE);
    // A line is measured with the break that ends it: PDFKit counts the line break's glyph in its width.
    const wrapped = cells.map((cell, i) => wrapText(cell, cellWidth(i) - 0.5, (t) => doc.widthOfString(`${t}\n`)));
    return { bold, wrapped, height: Math.max(...wrapped.map((cell, i) => doc.heightOfString(cell, { width: cellWidth(i) }))) + 6 };
  };
  const row = ({ bold, wrapped, height }: ReturnType<typeof laidOut>) => {
    doc.font(bold ? "Bold" : font).fontSize(SIZE);
    const y = doc.y;
    let x = left;
    wrapped.forEach((cell, i) => {
      doc
        .rect(x, y, widths[i] * scale, height)
        .lineWidth(0.5)
        .strokeColor("#999999")
        .stroke();
      doc.fillColor("black").text(cell, x + 2, y + 3, { width: cellWidth(i) });
      x += widths[i] * scale;
    });
    doc.x = left;
    doc.y = y + height;
  };
  const lines = list.results.map((g, i) => [
    String(i + 1),
    `${at(g.start)}\n${at(g.end)}\n${gassingDurationText(g.duration_min)}`,
    `${g.section && g.section !== g.working ? `${g.section}; ` : ""}${g.working || NO_WORKING}; ${placesText(g)}\n${g.kind}, ${
      g.type ? GASSING_TYPE_LABELS[g.type] : "тип не указан"
    }`,
    `${gassingMaxText(g.max, g.over_span, formatNumber)}\nнорма ${normText(g)} %`,
    [g.cause || "—", suddenText(g), correctionsText(g, zone)].filter(Boolean).join("\n"),
    `проходка ${lossText(g.losses.development_m, "м")}\nдобыча ${lossText(g.losses.coal_t, "т")}`,
    notifiedText(g, zone),
    `${g.cleared_by || "—"}${g.cleared_at ? `, разгазировано ${dateTimeText(g.cleared_at, zone)}` : ""}${
      g.resumed_at ? `, работы возобновлены ${dateTimeText(g.resumed_at, zone)}` : ""
    };\n${g.investigated_by || "—"}`,
    [g.measures || "—", g.comment ? `Комментарий: ${g.comment}` : ""].filter(Boolean).join("\n"),
    `${g.registered_by ? signed(g.registered_by, g.registered_at, zone) : "не зарегистрировано"};\n${
      g.closed ? `закрыл ${signed(g.closed_by, g.closed_at, zone)}` : "не закрыто"
    }`,
    DUTIES.map((duty) => {
      const given = g.confirmations[duty];
      return `${capital(DUTY_LABELS[duty])}: ${given ? signed(given.by, given.at, zone) : "—"}`;
    }).join("\n"),
  ]);
  const headerRow = laidOut(header, true);
  row(headerRow);
  for (const cells of lines) {
    const laid = laidOut(cells);
    if (doc.y + laid.height > doc.page.maxY()) {
      doc.addPage();
      row(headerRow);
    }
    row(laid);
  }
  if (lines.length === 0) line("Загазирований за период нет.");
  if (doc.y + 90 > doc.page.maxY()) doc.addPage();
  signatures(BOOK_SIGNATURES);
  return bytes();
}
