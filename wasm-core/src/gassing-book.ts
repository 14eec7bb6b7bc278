// Issue 105: the words of the gassing book («Книга учета загазирований») the server and the web app both
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

/** Issue 114, D88: what a gassing holding a jump or a reading past the meter's span was, as closing its
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
