// What «Мониторинг»'s tiles print: Russian numbers, the states in words (never by colour alone), the
// forecast's line and the alert rule's name.
import type { LiveTile } from "../../api/live";

export const number = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: 0, maximumFractionDigits: digits });

type Meter = LiveTile["meters"][number];
type Forecast = LiveTile["forecasts"][number];

/** The antd colour of a state; its text is always beside it. */
export const STATE_COLOR: Record<Meter["state"], string> = {
  none: "default",
  normal: "green",
  pre_warning: "gold",
  warning: "orange",
  alarm: "red",
};

const ORDER: Meter["state"][] = ["none", "normal", "pre_warning", "warning", "alarm"];

/** The worst state of a tile's meters, and its words for the tile's head. */
export function worstState(tile: LiveTile): Meter["state"] {
  return tile.meters.reduce<Meter["state"]>((worst, m) => (ORDER.indexOf(m.state) > ORDER.indexOf(worst) ? m.state : worst), "none");
}

export const STATE_WORDS: Record<Meter["state"], string> = {
  none: "нет показаний",
  normal: "норма",
  pre_warning: "≥ 0,9·W",
  warning: "≥ W",
  alarm: "≥ A",
};

export const staleText = (minutes: number) => `нет данных ${minutes.toLocaleString("ru-RU")} мин`;

export const meterValue = (meter: Meter) => (meter.value === null ? "—" : `${number(meter.value, 3)} % об.`);

export const levelsText = (meter: Meter) =>
  [meter.warning === null ? null : `W ${number(meter.warning, 2)} %`, meter.alarm === null ? null : `A ${number(meter.alarm, 2)} %`]
    .filter(Boolean)
    .join(", ");

/** «0,95 % об., интервал 90 %: 0,82–1,10, P(≥ 1,5 %) = 12 %». */
export function forecastText(f: Forecast): string {
  if (f.result === null) return "нет прогноза";
  const interval = f.lo !== null && f.hi !== null ? `, интервал ${f.level} %: ${number(f.lo, 3)}–${number(f.hi, 3)}` : "";
  const p = f.p_exceed === null ? "" : `, вероятность достичь ${number(f.limit, 2)} %: ${number(f.p_exceed * 100, 0)} %`;
  return `${number(f.result, 3)} % об.${interval}${p}`;
}

export const RULE_NAMES: Record<Forecast["alert"]["rule"], string> = {
  forecast: "по прогнозу (P ≥ 0,5)",
  reading: "по текущему значению (≥ 0,9·предела)",
};

export const MODE_TEXT = {
  connecting: "Подключение к обновлениям…",
  stream: "Обновляется сам: сервер присылает изменения",
  poll: "Обновляется раз в 15 с",
} as const;
