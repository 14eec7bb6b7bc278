// What «Мониторинг»'s tiles print: Russian numbers, the states in words (never by colour alone), the
// forecasts' table and the alert rule's name.
import type { LiveTile } from "../../../api/live";
import { displayDateTime } from "../../../shared/dates";
import { chanceShown, silenceSpan, staleText } from "@core/monitoring-events";

/** A Russian number to at most `digits` decimals, and at least `least` (a column's figures to one
 *  precision: «0,60» beside «0,56–0,64», not «0,6»). */
export const number = (value: number, digits: number, least = 0) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: least, maximumFractionDigits: digits });

/** A chance shown (chanceShown) in Russian, with the limit where the horizons differ in it; «—» where none is. */
const chanceText = (chance: number | null, limit: number | null) =>
  chance === null ? "—" : `${number(chance * 100, 0)}\u00a0%${limit === null ? "" : ` (≥\u00a0${number(limit, 2)}\u00a0%)`}`;

type Meter = LiveTile["meters"][number];
type Forecast = LiveTile["forecasts"][number];

/** The antd colour of a state; its text is always beside it. */
export const STATE_COLOR: Record<Meter["state"], string> = {
  none: "default",
  normal: "green",
  pre_warning: "gold",
  warning: "orange",
  alarm: "red",
  gassing: "red",
};

/** Severity, least first: a meter with no reading in the window (never connected, silent a day) ranks
 *  above «норма» — what it reads is not known — and below the levels' states. */
const ORDER: Meter["state"][] = ["normal", "none", "pre_warning", "warning", "alarm", "gassing"];

/** A tile's head: the worst state of its meters (a meter without a reading past its
 *  two intervals counts, above «норма» — what it reads now is not known — below the levels' states;
 *  an earlier round: so does a meter with no reading in the window, named). */
export interface TileHead {
  state: Meter["state"] | "stale";
  words: string;
  colour: string;
}

const rank = (state: Meter["state"]) => ORDER.indexOf(state);

/** each silence with its own minutes, the longest first («нет данных 21 мин (V-1),
 *  2 мин (М-1, М-2)»), not the longest over every code. */
function silences(silent: { code: string; minutes: number }[]): string {
  const byMinutes = new Map<number, string[]>();
  for (const m of [...silent].sort((a, b) => b.minutes - a.minutes))
    byMinutes.set(m.minutes, [...(byMinutes.get(m.minutes) ?? []), m.code]);
  return [...byMinutes]
    .map(([minutes, codes], i) => `${i === 0 ? staleText(minutes) : silenceSpan(minutes)} (${codes.join(", ")})`)
    .join(", ");
}

export function worstState(tile: LiveTile): TileHead {
  const worst = tile.meters.reduce<Meter["state"]>(
    (w, m) => (rank(m.state) > rank(w) ? m.state : w),
    tile.meters.length ? "normal" : "none",
  );
  if (rank(worst) > rank("none")) return { state: worst, words: STATE_WORDS[worst], colour: STATE_COLOR[worst] };
  // The air and drainage flows are the tile's meters too: a silent anemometer leaves «норма» unknown.
  // D101: and so is every other channel of the working (CO, O2, the shearer's run state, …).
  const channels = tile.channels ?? [];
  const silent = [...tile.meters, tile.air_flow, tile.drainage_flow, ...channels].flatMap((m) =>
    m !== null && m.stale_minutes !== null ? [{ code: m.code, minutes: m.stale_minutes }] : [],
  );
  const unread = [
    ...tile.meters.filter((m) => m.state === "none" && m.stale_minutes === null),
    ...[tile.air_flow, tile.drainage_flow, ...channels].filter((f) => f !== null && f.value === null && f.stale_minutes === null),
  ].map((m) => m!.code);
  const words = [
    unread.length > 0 ? `${STATE_WORDS.none} (${unread.join(", ")})` : null,
    silent.length > 0 ? silences(silent) : null,
  ].filter((w) => w !== null);
  if (words.length > 0) return { state: unread.length > 0 ? "none" : "stale", words: words.join("; "), colour: "purple" };
  return { state: worst, words: STATE_WORDS[worst], colour: STATE_COLOR[worst] };
}

export const STATE_WORDS: Record<Meter["state"], string> = {
  none: "нет показаний",
  normal: "норма",
  pre_warning: "≥ 0,9·W",
  warning: "≥ W",
  alarm: "≥ A",
  gassing: "загазирование",
};

type Flow = LiveTile["air_flow"];

/** A tile's flow line after «Расход воздуха: »: the figure with its sensor and silence; a sensor silent
 *  through the day by its silence (never «нет датчика» while it is in the register). */
export function flowText(flow: Flow, digits: number): string {
  if (!flow) return "нет датчика";
  if (flow.value === null)
    return `${flow.stale_minutes === null ? "нет показаний за сутки" : staleText(flow.stale_minutes)} (${flow.code})`;
  return `${number(flow.value, digits)} м³/мин (${flow.code})${flow.stale_minutes === null ? "" : `, ${staleText(flow.stale_minutes)}`}`;
}

export const meterValue = (meter: Meter) => (meter.value === null ? "—" : `${number(meter.value, 3, 2)} % об.`);

export const levelsText = (meter: Meter) =>
  [meter.warning === null ? null : `W ${number(meter.warning, 2)} %`, meter.alarm === null ? null : `A ${number(meter.alarm, 2)} %`]
    .filter(Boolean)
    .join(", ");

/** Whether the forecast is near the limit (at or above W) where its band was not found to hold. */
export const nearLimitDoubtful = (f: Forecast) =>
  f.near_limit?.reliable === false && f.result !== null && f.warning !== undefined && f.result >= f.warning;

/** The forecasts' table (a row per horizon): what its caption and head say once where every row shares
 *  it (the meter, the interval's level, the limit P is the chance of reaching), and each row's cells,
 *  which say it themselves where the rows differ. Units kept with their numbers (no-break spaces). */
export function forecastTable(forecasts: readonly Forecast[]) {
  const same = <T>(get: (f: Forecast) => T) => forecasts.every((f) => get(f) === get(forecasts[0]));
  const sensor = same((f) => f.sensor) ? forecasts[0]?.sensor : null;
  const level = same((f) => f.level) ? forecasts[0]?.level : null;
  const limit = same((f) => f.limit) ? forecasts[0]?.limit : null;
  const chance = limit === null ? "предела A" : `${number(limit, 2)}\u00a0%`;
  return {
    // D108 (a): the chance is of any minute within the horizon, not of the figure at its end.
    caption: `Прогноз${sensor ? ` ${sensor}` : ""}; P — вероятность, что за горизонт хотя бы одна минута достигнет ${chance}`,
    head: { interval: level === null ? "Интервал" : `Интервал ${level}\u00a0%` },
    rows: forecasts.map((f) => ({
      horizon: sensor ? f.horizon_label : `${f.sensor}, ${f.horizon_label}`,
      // a horizon whose forecast warns no earlier than the meter does not promise it.
      late: f.lead_note ? "не раньше датчика" : null,
      at: f.for ? displayDateTime(f.for).slice(11) : "—",
      // a band that did not hold near the limit is not drawn there as if it did.
      interval:
        f.lo === null || f.hi === null
          ? "—"
          : nearLimitDoubtful(f)
            ? "у предела не проверен"
            : `${level === null ? `${f.level}\u00a0%: ` : ""}${number(f.lo, 2, 2)}–${number(f.hi, 2, 2)}`,
      // A chance not judged better than the base rate is no risk figure: its note says why.
      p: chanceText(chanceShown(f), limit === null ? f.limit : null),
      value: f.result === null ? "нет прогноза" : number(f.result, 2, 2),
    })),
  };
}

/** The forecasts grouped by what `key` gives them, in horizon order: one group where all share it (said
 *  once), else each group with the horizons it is said for («10 мин, 1 ч»). */
export function groupedBy(
  forecasts: readonly Forecast[],
  key: (f: Forecast) => string,
): { horizons: string; forecast: Forecast; members: Forecast[] }[] {
  const groups = new Map<string, Forecast[]>();
  for (const f of forecasts) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
  return [...groups.values()].map((members) => ({ horizons: horizonsOf(members), forecast: members[0], members }));
}

export const horizonsOf = (forecasts: readonly Forecast[]) => forecasts.map((f) => f.horizon_label).join(", ");

export const RULE_NAMES: Record<Forecast["alert"]["rule"], string> = {
  forecast: "по прогнозу (P ≥ 0,5)",
  reading: "по текущему значению (≥ 0,9·предела)",
};

export const MODE_TEXT = {
  connecting: "Подключение к обновлениям…",
  stream: "Обновляется сам: сервер присылает изменения",
  poll: "Обновляется раз в 15 с",
} as const;

type Channel = LiveTile["channels"][number];

/** D101: a channel's line on its working's tile: «CO-1, оксид углерода (CO): 4 ppm — нет данных 21 ч». */
export function channelText(c: Channel): string {
  const value = c.value === null ? "—" : `${number(c.value, 2)}\u00a0${c.unit}`;
  return `${c.code}, ${c.kind_label.charAt(0).toLowerCase()}${c.kind_label.slice(1)}: ${value} — ${c.state_label}`;
}
