// What the «Датчики» screens of readings say in words (methodology D58, D60, D62): a gap's rule, a
// minute's flag, completeness, so that no screen relies on colour alone.
import { FLAG_REASONS, OFFER_COMPLETENESS, type FlagCode } from "@core/monitoring";
import type { SensorGaps } from "../../../api/monitoring";
import { percent } from "../texts/offerTexts";

export { monthText } from "../texts/offerTexts";

type Gap = SensorGaps["gaps"][number];

/** A value as the sensor reads it: up to 6 decimals, Russian style. */
export const reading = (value: number | null) => (value === null ? "—" : value.toLocaleString("ru-RU", { maximumFractionDigits: 6 }));
export const minutesText = (n: number) => n.toLocaleString("ru-RU");
/** «96,39 %», never across the 95 % rule (offerTexts.ts). */
export const completenessText = percent;
/** Whether a month's volume is offered without a reason (D62: at 95 % and more). */
export const complete = (share: number) => share >= OFFER_COMPLETENESS;

/** D60 (40 CFR 98.325(b)): how the platform fills a missing minute, as the gaps screen states it. */
export const SUBSTITUTION_RULE =
  "Правило замещения (методика, D60; 40 CFR 98.325(b)): пропущенная минута получает среднее достоверных значений непосредственно до и после пропуска; " +
  "если значения до нет — первое значение после, если нет значения после — последнее значение до. Пропуск длиннее 24 ч не замещается: «нет данных», месяц неполный.";

/** How one gap was treated, in words with its figures. */
export function ruleText(gap: Pick<Gap, "rule" | "before" | "after" | "value">): string {
  switch (gap.rule) {
    case "mean":
      return `среднее значений до и после: (${reading(gap.before)} + ${reading(gap.after)}) / 2 = ${reading(gap.value)}`;
    case "first_after":
      return `значения до нет: первое значение после, ${reading(gap.value)}`;
    case "last_before":
      return `значения после нет: последнее значение до, ${reading(gap.value)}`;
    case "too_long":
      return "не замещается: пропуск длиннее 24 ч";
    default:
      return "не замещается: в месяце нет достоверных значений";
  }
}

/** Why a gap's minutes are not valid (D58), by count. */
export function causesText(flags: Gap["flags"]): string {
  const parts = [
    flags.none > 0 && `нет показаний: ${minutesText(flags.none)} мин`,
    flags.range > 0 && `вне физического диапазона: ${minutesText(flags.range)} мин`,
    flags.stuck > 0 && `залипание: ${minutesText(flags.stuck)} мин`,
    flags.jump > 0 && `скачок больше допустимого: ${minutesText(flags.jump)} мин`,
  ];
  return parts.filter(Boolean).join("; ");
}

/** A minute's D58 flag in words (none for a valid one). */
export const flagText = (flag: number) => FLAG_REASONS[flag as FlagCode] ?? "";
