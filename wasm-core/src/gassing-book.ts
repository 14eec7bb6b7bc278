// the words of the gassing book («Книга учета загазирований») the server and the web app both
// write: a gassing's type, the duties whose holders confirm an entry, and a duration as the book writes
// it. Pure and browser-safe (the web's monitoring pages load no schema for them).

/** A gassing's type as the book records it. */
export const GASSING_TYPES = ["technological", "accident"] as const;
export type GassingType = (typeof GASSING_TYPES)[number];
export const GASSING_TYPE_LABELS: Readonly<Record<GassingType, string>> = {
  technological: "технологическое",
  accident: "аварийное",
};

/** A user's duty at the mine, set by an administrator: who confirms an entry of the book as the
 *  section's head, the head of the АБ section or the chief engineer. */
export const DUTIES = ["head_section", "head_ab", "chief_engineer"] as const;
export type Duty = (typeof DUTIES)[number];
export const DUTY_LABELS: Readonly<Record<Duty, string>> = {
  head_section: "начальник участка",
  head_ab: "начальник участка АБ",
  chief_engineer: "главный инженер",
};

/** A gassing's duration as the book writes it: «1 ч 05 мин», «20 мин»; «продолжается» while it lasts. */
export function gassingDurationText(minutes: number | null): string {
  if (minutes === null) return "продолжается";
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} ч ${String(minutes % 60).padStart(2, "0")} мин` : `${minutes} мин`;
}

/** D88: what a gassing holding a jump or a reading past the meter's span was, as closing its
 *  entry records it. */
export const ONSETS = ["outburst", "sensor_fault", "other"] as const;
export type Onset = (typeof ONSETS)[number];
export const ONSET_LABELS: Readonly<Record<Onset, string>> = {
  outburst: "внезапный выброс",
  sensor_fault: "отказ датчика",
  other: "другое",
};
/** D88: the mark of such an entry on every screen and file. */
export const SUDDEN_MARK = "резкий рост / за пределом шкалы: внезапный выброс или отказ датчика?";

/** A gassing's maximum as the book writes it: «1,30 %», or past the meter's span «более 4 % (за пределом
 *  шкалы)» (D88); `number` writes a figure the Russian way. */
export function gassingMaxText(max: number, overSpan: number | null, number: (value: number, decimals: number) => string): string {
  return overSpan === null ? `${number(max, 2)} %` : `более ${number(overSpan, 0)} % (за пределом шкалы)`;
}

/** D89: the mark of an entry whose readings were corrected after the gassing was found. */
export const CORRECTED_MARK = "показания исправлены после обнаружения";

/** D97: the mark of a correction written after the entry was closed (the entry keeps its closed figures). */
export const AFTER_CLOSING_MARK = "после закрытия";

/** «показания исправлены после обнаружения: 05.03.2026 10:00, Кузнецова О. И.; было с 08:00 до 08:10, макс.
 *  1,20 %, стало: загазирования нет» — a correction in words (D97: «после закрытия» where written after the
 *  entry was closed; «(как обнаружено)» where the readings were restored); `when` writes an instant,
 *  `number` a figure. */
export function correctionText(
  c: {
    at: string;
    sent_by: string | null;
    before: { start?: string; end: string | null; max: number };
    after: { start?: string; end: string | null; max: number } | null;
    after_closing?: boolean;
  },
  when: (iso: string) => string,
  number: (value: number, decimals: number) => string,
): string {
  const state = (g: { start?: string; end: string | null; max: number }) =>
    `${g.start ? `с ${when(g.start)} ` : ""}${g.end ? `до ${when(g.end)}` : "продолжалось"}, макс. ${number(g.max, 2)} %`;
  const restored =
    c.after !== null && c.after.start === c.before.start && c.after.end === c.before.end && Math.abs(c.after.max - c.before.max) < 1e-9;
  const after = c.after ? `${state(c.after)}${restored ? " (как обнаружено)" : ""}` : "загазирования нет";
  const closing = c.after_closing ? `${AFTER_CLOSING_MARK}, ` : "";
  return `${CORRECTED_MARK}: ${closing}${when(c.at)}, ${c.sent_by ?? "отправитель не записан"}; было ${state(c.before)}, стало: ${after}`;
}

/** D97: «запись от 02.03.2026 10:01 создана исправлением показаний: с 10:01 до 10:15, макс. 0,80 %;
 *  зарегистрировал Иванов И. И.» — an entry opened before D97 for the rest of a gassing a correction
 *  moved, shown in the gassing's one row with its registration kept. */
export function splitEntryText(
  e: { start: string; end: string | null; max: number; registered_by: string | null; closed_by: string | null },
  when: (iso: string) => string,
  number: (value: number, decimals: number) => string,
): string {
  const who = [e.registered_by ? `зарегистрировал ${e.registered_by}` : "", e.closed_by ? `закрыл ${e.closed_by}` : ""].filter(Boolean);
  return `запись от ${when(e.start)} создана исправлением показаний: с ${when(e.start)} ${e.end ? `до ${when(e.end)}` : "продолжалось"}, макс. ${number(e.max, 2)} %${who.length > 0 ? `; ${who.join(", ")}` : ""}`;
}

/** when an addressee of the book was notified (ISO) and, where given, by whom (surname and
 *  initials, free text); null: not notified. */
export type Notice = { at: string; by: string | null };

/** «главный инженер 16:05 (Иванов И. И.)»: an addressee notified, `when` writing the instant. */
export function noticeText(label: string, notice: Notice, when: (iso: string) => string): string {
  return `${label} ${when(notice.at)}${notice.by ? ` (${notice.by})` : ""}`;
}
