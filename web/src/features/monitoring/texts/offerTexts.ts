// The figures «Данные АГК» and its dialog print alike.
import { OFFER_COMPLETENESS } from "@core/monitoring";
import type { Offer } from "../../../api/monitoring";

export const number = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** A completeness never printed across the 95 % rule: rounded to its digits, except that a
 *  share below 95 % that would round up to it shows the highest figure below it (94,62 % in the heat map
 *  «94», not «95»; 94,996 % «94,99 %», not «95,00 %»). */
export const completenessFigure = (share: number, digits: number) => {
  const scale = 10 ** digits;
  const threshold = OFFER_COMPLETENESS * 100 * scale;
  let shown = Math.round(share * 100 * scale);
  if (share < OFFER_COMPLETENESS && shown >= threshold) shown = Math.ceil(threshold) - 1;
  return number(shown / scale, digits);
};
export const percent = (share: number) => `${completenessFigure(share, 2)} %`;
export const monthText = (month: string) => `${month.slice(5)}.${month.slice(0, 4)}`;
/** The month still running on the company's clock: its minutes so far of the whole month's. */
export const runningText = (offer: Pick<Offer, "minutes" | "month_minutes">) =>
  `месяц идет: ${offer.minutes.expected.toLocaleString("ru-RU")} из ${offer.month_minutes.toLocaleString("ru-RU")} минут`;
