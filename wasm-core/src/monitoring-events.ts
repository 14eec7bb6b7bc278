// Threshold and stale-channel events from a sensor's minutes (methodology D65, with D62–D64): an event
// at a level opens at the first minute whose mean is at or above it and closes after 2 consecutive
// minutes below it [A]; it keeps its start, end, peak and the minutes above, by level (0,9·W «близко к
// предупредительному», W «предупредительный», A «аварийный»: LEVEL_WORDS). A channel is stale («нет данных») after 2
// expected intervals without a reading. Pure and browser-safe: the server's detector (a consumer of
// each changed sensor-day) and the web's screens compute the same events from the same minutes.
// Advisory: protective cut-off stays with the mine's own АГК (monitoring.ts, ADVISORY_NOTE).
import { Flag, PRE_WARNING_SHARE, type Levels, type MinuteSeries } from "./monitoring";
import { MINUTE_MS } from "./dates";

/** D65: minutes below a level that close its event [A]. */
export const CLOSE_AFTER_MINUTES = 2;
/** D65: expected intervals without a reading after which a channel is stale [A]. */
export const STALE_INTERVALS = 2;

export type EventLevel = "pre_warning" | "warning" | "alarm";
export const EVENT_LEVELS: readonly EventLevel[] = ["pre_warning", "warning", "alarm"];
/** one word per level on every page and file, the register's («Предупредительный
 *  уровень W», «Аварийный уровень A»); 0,9·W is only near the warning level («Предупредительный» was
 *  0,9·W on «События» and W in the register). */
export const LEVEL_WORDS: Readonly<Record<EventLevel, string>> = {
  pre_warning: "близко к предупредительному",
  warning: "предупредительный",
  alarm: "аварийный",
};
const LEVEL_SIGNS: Readonly<Record<EventLevel, string>> = { pre_warning: "0,9·W", warning: "W", alarm: "A" };
export const EVENT_LEVEL_LABELS: Readonly<Record<EventLevel, string>> = Object.fromEntries(
  EVENT_LEVELS.map((level) => [level, `${LEVEL_WORDS[level][0].toUpperCase()}${LEVEL_WORDS[level].slice(1)} (${LEVEL_SIGNS[level]})`]),
) as Record<EventLevel, string>;
export type EventKind = "threshold" | "stale" | "forecast" | "fault" | "suspect";
export const EVENT_KIND_LABELS: Readonly<Record<EventKind, string>> = {
  threshold: "Превышение",
  stale: "Нет данных",
  forecast: "Прогноз превышения",
  fault: "Неисправность датчика",
  // D102–D105: a reading questioned (monitoring-suspect.ts): stuck, less gas downstream, a hand measurement apart.
  suspect: "Показания под сомнением",
};

/** A sensor's levels as values, % vol: 0,9·W, W and A, those it has. */
export function levelValues(levels: Levels): { level: EventLevel; value: number }[] {
  const out: { level: EventLevel; value: number }[] = [];
  if (levels.warning != null && levels.warning > 0) {
    out.push({ level: "pre_warning", value: PRE_WARNING_SHARE * levels.warning });
    out.push({ level: "warning", value: levels.warning });
  }
  if (levels.alarm != null && levels.alarm > 0) out.push({ level: "alarm", value: levels.alarm });
  return out;
}

export interface ThresholdEvent {
  readonly kind: "threshold";
  readonly level: EventLevel;
  /** The level's value, % vol. */
  readonly threshold: number;
  /** The first minute at or above the level (UTC ms). */
  readonly start: number;
  /** The start of the first of the 2 minutes below that closed it; null while it is open. */
  readonly end: number | null;
  readonly peak: number;
  readonly peak_at: number;
  /** Minutes with a valid mean at or above the level, from start to end. */
  readonly minutes_above: number;
}

export interface StaleEvent {
  readonly kind: "stale";
  /** The first minute without a reading (UTC ms). */
  readonly start: number;
  /** The minute the readings came back; null while they have not. */
  readonly end: number | null;
  /** Minutes without a reading from start to end (or the series' end). */
  readonly minutes: number;
}

/** Whether minute m has a valid mean (D58's flagged minutes and minutes without readings have none). */
const validAt = (series: Pick<MinuteSeries, "values" | "flags">, m: number) =>
  series.flags[m] === Flag.OK && !Number.isNaN(series.values[m]);

/** D65's threshold events of one level over the series: a minute without a valid mean neither opens,
 *  extends nor closes an event (nor counts as below); an event still open at the series' end has end
 *  null. `closeAfter` consecutive valid minutes below close it, ending at the first of them. */
export function levelEvents(
  series: Pick<MinuteSeries, "start" | "values" | "flags">,
  level: EventLevel,
  threshold: number,
  closeAfter = CLOSE_AFTER_MINUTES,
): ThresholdEvent[] {
  const out: ThresholdEvent[] = [];
  let open: { start: number; peak: number; peakAt: number; above: number } | undefined;
  let below = 0;
  let firstBelow = -1;
  const at = (m: number) => series.start + m * MINUTE_MS;
  for (let m = 0; m < series.values.length; m++) {
    if (!validAt(series, m)) continue;
    const value = series.values[m];
    if (value >= threshold) {
      below = 0;
      if (!open) open = { start: m, peak: value, peakAt: m, above: 0 };
      open.above++;
      if (value > open.peak) {
        open.peak = value;
        open.peakAt = m;
      }
    } else if (open) {
      if (below === 0) firstBelow = m;
      below++;
      if (below >= closeAfter) {
        out.push(made(open, at(firstBelow)));
        open = undefined;
        below = 0;
      }
    }
  }
  if (open) out.push(made(open, null));
  return out;

  function made(e: { start: number; peak: number; peakAt: number; above: number }, end: number | null): ThresholdEvent {
    return { kind: "threshold", level, threshold, start: at(e.start), end, peak: e.peak, peak_at: at(e.peakAt), minutes_above: e.above };
  }
}

/** D65 at every level the sensor has, ordered by start, then level. */
export function thresholdEvents(
  series: Pick<MinuteSeries, "start" | "values" | "flags">,
  levels: Levels,
  closeAfter = CLOSE_AFTER_MINUTES,
): ThresholdEvent[] {
  const out = levelValues(levels).flatMap(({ level, value }) => levelEvents(series, level, value, closeAfter));
  return out.sort((a, b) => a.start - b.start || EVENT_LEVELS.indexOf(a.level) - EVENT_LEVELS.indexOf(b.level));
}

/** D65's stale channel: a run of at least `intervals` expected intervals (of `intervalMinutes`) of
 *  minutes without a reading (D58's NONE; a flagged reading is still a reading). A run reaching the
 *  series' end is open (end null); one at the series' start is left out unless `fromStart` (the
 *  caller knows nothing was due before). */
export function staleEvents(
  series: Pick<MinuteSeries, "start" | "values" | "flags">,
  intervalMinutes = 1,
  intervals = STALE_INTERVALS,
  fromStart = false,
): StaleEvent[] {
  const least = Math.max(1, Math.round(intervalMinutes * intervals));
  const out: StaleEvent[] = [];
  const n = series.flags.length;
  let m = 0;
  while (m < n) {
    if (series.flags[m] !== Flag.NONE) {
      m++;
      continue;
    }
    let end = m;
    while (end < n && series.flags[end] === Flag.NONE) end++;
    if (end - m >= least && (m > 0 || fromStart)) {
      out.push({
        kind: "stale",
        start: series.start + m * MINUTE_MS,
        end: end < n ? series.start + end * MINUTE_MS : null,
        minutes: end - m,
      });
    }
    m = end;
  }
  return out;
}

export interface FaultEvent {
  readonly kind: "fault";
  /** The first minute set aside (UTC ms). */
  readonly start: number;
  /** The first of the minutes with a valid mean that closed it; null while it is open. */
  readonly end: number | null;
  /** Minutes set aside from start to end: out of the meter's range, and jumps. */
  readonly range_minutes: number;
  readonly jump_minutes: number;
}

/** A silence's length as an engineer reads it: minutes within the hour, hours and minutes within the day,
 *  days and hours past it («нет данных 271 сут 9 ч», not «390 826 мин»). */
export function silenceSpan(minutes: number): string {
  const whole = (n: number) => n.toLocaleString("ru-RU");
  if (minutes < 60) return `${whole(minutes)} мин`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days === 0) return [`${hours} ч`, minutes % 60 > 0 ? `${minutes % 60} мин` : null].filter(Boolean).join(" ");
  return [`${whole(days)} сут`, hours > 0 ? `${hours} ч` : null].filter(Boolean).join(" ");
}

/** D96: the chance of the limit a forecast shows — only one judged reliable (better than
 *  the base rate on rows it did not train on); one judged not, or stored before reliability was judged,
 *  shows none (null). The one rule the tile (web liveTexts) and the handover's list of forecasts read. */
export function chanceShown(f: { p_exceed: number | null; probability?: { reliable?: boolean | null } | null }): number | null {
  return f.p_exceed !== null && f.probability?.reliable === true ? f.p_exceed : null;
}

/** D65: a channel's silence as a tile's state and head say it. */
export const staleText = (minutes: number): string => `нет данных ${silenceSpan(minutes)}`;

/** What a fault's minutes were set aside for, in words («вне диапазона датчика 3 мин, скачки 2 мин»). */
export function faultText(fault: Pick<FaultEvent, "range_minutes" | "jump_minutes">): string {
  const parts: string[] = [];
  if (fault.range_minutes > 0) parts.push(`вне диапазона датчика ${fault.range_minutes.toLocaleString("ru-RU")} мин`);
  if (fault.jump_minutes > 0) parts.push(`скачки больше допустимого ${fault.jump_minutes.toLocaleString("ru-RU")} мин`);
  return parts.join(", ");
}

/** a sensor's fault («неисправность датчика»), apart from any level crossing: D58 sets aside
 *  a minute whose readings are all out of the kind's physical range (4,5 % on a 0–4 % meter) or whose
 *  mean jumped by more than the kind's step from the minute before; the fault opens at the first such
 *  minute and closes after `closeAfter` consecutive minutes with a valid mean (ending at the first of
 *  them), as a level's event does. A minute without a reading neither extends nor closes it. */
export function faultEvents(series: Pick<MinuteSeries, "start" | "values" | "flags">, closeAfter = CLOSE_AFTER_MINUTES): FaultEvent[] {
  const out: FaultEvent[] = [];
  let open: { start: number; range: number; jump: number } | undefined;
  let good = 0;
  let firstGood = -1;
  const at = (m: number) => series.start + m * MINUTE_MS;
  for (let m = 0; m < series.flags.length; m++) {
    const flag = series.flags[m];
    if (flag === Flag.RANGE || flag === Flag.JUMP) {
      good = 0;
      if (!open) open = { start: m, range: 0, jump: 0 };
      if (flag === Flag.RANGE) open.range++;
      else open.jump++;
    } else if (open && validAt(series, m)) {
      if (good === 0) firstGood = m;
      good++;
      if (good >= closeAfter) {
        out.push({ kind: "fault", start: at(open.start), end: at(firstGood), range_minutes: open.range, jump_minutes: open.jump });
        open = undefined;
        good = 0;
      }
    }
  }
  if (open) out.push({ kind: "fault", start: at(open.start), end: null, range_minutes: open.range, jump_minutes: open.jump });
  return out;
}

/** An event's stable id from what identifies it: the same sensor, kind, level and start give the
 *  same id however often and in whatever order its minutes are read again («m-12.t.warning.mbqq3c0»). */
export function eventId(sensor: string, kind: EventKind, level: EventLevel | null, start: number, horizon?: number): string {
  if (kind === "suspect") throw new Error("a suspect event's id names its reason: suspectEventId");
  const k = kind === "threshold" ? "t" : kind === "stale" ? "s" : kind === "fault" ? "q" : "f";
  // A forecast event is one per horizon too: two horizons may open at the same minute.
  const h = horizon === undefined ? "" : `.h${Math.round(horizon)}`;
  return `${sensor}.${k}.${level ?? "none"}.${Math.round(start / MINUTE_MS).toString(36)}${h}`;
}

/** D102–D105: a `suspect` event's id, one per (sensor, reason, start): `<sensor>.u.<reason>.<start>`. */
export const suspectEventId = (sensor: string, reason: "stuck" | "airway" | "hand", start: number): string =>
  `${sensor}.u.${reason}.${Math.round(start / MINUTE_MS).toString(36)}`;

/** The parts of an id made by eventId or suspectEventId (level null for a suspect one), or undefined for anything else. */
export function parseEventId(id: string): { sensor: string; kind: EventKind; level: EventLevel | null; start: number } | undefined {
  const suspect = /^([A-Za-z0-9_-]+)\.u\.(stuck|airway|hand)\.([0-9a-z]{1,12})$/.exec(id);
  if (suspect) return { sensor: suspect[1], kind: "suspect", level: null, start: Number.parseInt(suspect[3], 36) * MINUTE_MS };
  const match = /^([A-Za-z0-9_-]+)\.([tsfq])\.(pre_warning|warning|alarm|none)\.([0-9a-z]{1,12})(?:\.h\d{1,5})?$/.exec(id);
  if (!match) return undefined;
  const kind: EventKind = match[2] === "t" ? "threshold" : match[2] === "s" ? "stale" : match[2] === "q" ? "fault" : "forecast";
  const level = match[3] === "none" ? null : (match[3] as EventLevel);
  return { sensor: match[1], kind, level, start: Number.parseInt(match[4], 36) * MINUTE_MS };
}

/** One sensor's exceedance of its permissible limit: D65's rule at that level. */
export interface SensorGassing {
  readonly sensor: string;
  readonly code: string;
  /** The sensor's working, as the journal prints it; empty when none. */
  readonly working: string;
  /** the extraction section or development working whose sensors make one general gassing;
   *  empty when none (the working stands for it then; without either a gassing is always local). */
  readonly section: string;
  /** where the sensor hangs, in words (the register's place); empty when not given. */
  readonly place?: string;
  readonly start: number;
  /** The first of the 2 valid minutes below; null while it lasts. */
  readonly end: number | null;
  readonly max: number;
  readonly max_at: number;
  /** The limit it was read against, % vol. */
  readonly limit: number;
  /** D88: a minute of it jumped over the kind's step or read past the meter's span (D58 sets
   *  such a minute aside for the volumes; the book reads it): «внезапный выброс или отказ датчика?». */
  readonly sudden: boolean;
  /** The meter's span, % vol, where its maximum is past it («более 4 % (за пределом шкалы)»); else null. */
  readonly over_span: number | null;
}

export type GassingKind = "общее" | "местное";

/** Whom the safety rules (pp. 622–624) make the dispatcher inform of a gassing. */
export const NOTIFICATIONS = ["chief_engineer", "head_ab", "head_section", "rostekhnadzor"] as const;
export const NOTIFICATION_LABELS: Readonly<Record<(typeof NOTIFICATIONS)[number], string>> = {
  chief_engineer: "главный инженер",
  head_ab: "начальник участка АБ",
  head_section: "начальник участка, где загазирование",
  rostekhnadzor: "территориальный орган Ростехнадзора",
};

/** A gassing as the safety rules classify it (docs/methodology.md): one АГК sensor's
 *  exceedance of the norm is a local one («местное»); the overlapping exceedances of two or more sensors
 *  of one development working or of the workings of one extraction section are one general gassing
 *  («общее загазирование»). */
export interface Gassing {
  /** The opening sensor's id and the start: the same minutes give the same id. */
  readonly id: string;
  readonly start: number;
  readonly end: number | null;
  readonly max: number;
  readonly max_at: number;
  readonly working: string;
  /** The section the sensors are grouped by (their working where they have none). */
  readonly section: string;
  /** The sensors' ids and codes, by code. */
  readonly sensors: readonly { sensor: string; code: string; limit: number; place?: string }[];
  readonly kind: GassingKind;
  /** D88: one of its sensors' minutes jumped or read past the span. */
  readonly sudden: boolean;
  /** D88: the span its maximum is past, % vol; null within it. */
  readonly over_span: number | null;
}

/** A sensor's gassings: each run of its minute means at or above `limit` by D65's rule (opens at the first
 *  minute ≥ the limit, closes after 2 minutes below, `end` the first of them). an earlier round, D88: the book
 *  reads every reading — `series` is everyMinuteMeans' (@core/monitoring): a minute D58 flags (a jump, a
 *  reading past the span) opens, extends and closes as any other, and marks the gassing `sudden`; its
 *  maximum is the largest minute mean, `over_span` where it is past `span` (the meter's, % vol). A minute
 *  without a reading neither opens, extends nor closes (as before). */
export function sensorGassings(
  series: Pick<MinuteSeries, "start" | "values" | "flags">,
  sensor: { id: string; code: string; working: string; section: string; place?: string },
  limit: number,
  span: number = Number.POSITIVE_INFINITY,
): SensorGassing[] {
  const n = series.values.length;
  const read = { start: series.start, values: series.values, flags: new Uint8Array(n) };
  for (let m = 0; m < n; m++) read.flags[m] = Number.isNaN(series.values[m]) ? Flag.NONE : Flag.OK;
  const index = (t: number) => Math.round((t - series.start) / MINUTE_MS);
  return levelEvents(read, "alarm", limit).map((e) => {
    let sudden = false;
    for (let m = index(e.start); m < (e.end === null ? n : index(e.end)) && !sudden; m++)
      sudden = series.flags[m] === Flag.JUMP || series.flags[m] === Flag.RANGE;
    return {
      sensor: sensor.id,
      code: sensor.code,
      working: sensor.working,
      section: sensor.section,
      ...(sensor.place ? { place: sensor.place } : {}),
      start: e.start,
      end: e.end,
      max: e.peak,
      max_at: e.peak_at,
      limit,
      sudden,
      over_span: e.peak > span ? span : null,
    };
  });
}

/** The rules' gassings from the sensors' exceedances: within one section (a development working, or
 *  the workings of one extraction section; a sensor's working where it has no section), exceedances whose
 *  spans [start, end) overlap (directly or through another) are one gassing, «общее» when two or more
 *  sensors take part, else «местное»; an exceedance of a sensor of neither is local. By start, then place. */
export function gassings(found: readonly SensorGassing[]): Gassing[] {
  const endOf = (g: SensorGassing) => (g.end === null ? Number.POSITIVE_INFINITY : g.end);
  const byWorking = new Map<string, SensorGassing[]>();
  const out: Gassing[] = [];
  for (const g of found) {
    const key = g.section || g.working;
    if (!key) out.push(gassingOf([g]));
    else byWorking.set(key, [...(byWorking.get(key) ?? []), g]);
  }
  for (const list of byWorking.values()) {
    const sorted = [...list].sort((a, b) => a.start - b.start || a.code.localeCompare(b.code));
    let group: SensorGassing[] = [];
    let groupEnd = Number.NEGATIVE_INFINITY;
    for (const g of sorted) {
      if (group.length > 0 && g.start >= groupEnd) {
        out.push(gassingOf(group));
        group = [];
        groupEnd = Number.NEGATIVE_INFINITY;
      }
      group.push(g);
      groupEnd = Math.max(groupEnd, endOf(g));
    }
    if (group.length > 0) out.push(gassingOf(group));
  }
  return out.sort((a, b) => a.start - b.start || a.working.localeCompare(b.working));
}

function gassingOf(group: readonly SensorGassing[]): Gassing {
  const first = group[0];
  let top = first;
  for (const g of group) if (g.max > top.max) top = g;
  const ends = group.map((g) => g.end);
  const sensors = new Map<string, { sensor: string; code: string; limit: number; place?: string }>();
  for (const g of group)
    if (!sensors.has(g.sensor))
      sensors.set(g.sensor, { sensor: g.sensor, code: g.code, limit: g.limit, ...(g.place ? { place: g.place } : {}) });
  const listed = [...sensors.values()].sort((a, b) => a.code.localeCompare(b.code, "ru"));
  return {
    id: `${first.sensor}.g.${Math.round(first.start / MINUTE_MS).toString(36)}`,
    start: first.start,
    end: ends.includes(null) ? null : Math.max(...(ends as number[])),
    max: top.max,
    max_at: top.max_at,
    working: [...new Set(group.map((g) => g.working).filter(Boolean))].sort((a, b) => a.localeCompare(b, "ru")).join(", "),
    section: first.section || first.working,
    sensors: listed,
    kind: listed.length >= 2 ? "общее" : "местное",
    sudden: group.some((g) => g.sudden),
    over_span: top.over_span,
  };
}
