// The mine's own monitoring as the source of measured figures (methodology section 12, D56–D65):
// readings → minute means (D59), quality flags (D58), substitution of missing minutes as
// 40 CFR 98.325(b) does (D60), a point's volume and flow-weighted CH4 content from its minutes (D61),
// completeness (D62) and roll-ups by hour, shift, day and month on the company's clock (D64).
// Pure and browser-safe: the server's consumer and offers and the web's screens compute with these.
// Everything shown from a mine's readings is advisory: protective cut-off stays with the mine's АГК.
import { instantOfWallTime, zoneOffsetMs } from "./company-clock";
import { CH4_DENSITY_20C } from "./gas-densities";
import { MINUTE_MS } from "./dates";

export const MINUTES_PER_DAY = 1_440;

/** D60: a gap longer than this (24 h [A]) is not substituted; its minutes stay «нет данных». */
export const MAX_SUBSTITUTED_GAP_MIN = 1_440;
/** D58: this many identical minute values while the paired flow changes is «залипание». */
export const STUCK_MINUTES = 60;
/** D62: a month's volume is offered at this completeness or more [A]; below it the offer needs a reason. */
export const OFFER_COMPLETENESS = 0.95;
/** D63: an accepted month that moves by more than this share is flagged [A]. */
export const ACCEPTED_CHANGE_SHARE = 0.001;
/** D61: standard conditions of a drainage line's flow. */
export const STANDARD_PRESSURE_KPA = 101.325;
export const STANDARD_TEMPERATURE_K = 293.15;
const ZERO_CELSIUS_K = 273.15;
/** D64: the warning level's fraction that counts as «предупредительный». */
export const PRE_WARNING_SHARE = 0.9;
/** D64: default shift calendar, three 8-hour shifts from 00:00 local [A] (minutes of the day). */
export const DEFAULT_SHIFT_STARTS: readonly number[] = [0, 480, 960];

/** The advisory note every screen, message and document showing a mine's readings carries (§12). */
export const ADVISORY_NOTE =
  "Справочно: данные АГК шахты показаны для учета выбросов; защитное отключение электроэнергии остается за системой АГК шахты.";

/** The label of readings the demo's simulator made (functions/src/demo-readings.ts), wherever they show. */
export const DEMO_READINGS_LABEL = "демонстрационные данные";

/** Everything the product knows of a sensor kind, in one place: a kind is its spec in SENSOR_KINDS, and
 *  the kinds' sets (METHANE_KINDS, GAS_KINDS, LEVEL_KINDS), the dispatch template's example, the sensor
 *  list's words, verify.py's table (`npm run verify-tables`) and the docs' lists (`npm run docs:generate`)
 *  are read from it. */
export interface SensorKindSpec {
  readonly label: string;
  readonly unit: string;
  /** D58's physical range: a value outside it (or at the bound the rule excludes) is flagged. */
  readonly min: number;
  readonly max: number;
  /** Whether `min` itself is outside (pressure 0 kPa, 0 K). */
  readonly minExclusive: boolean;
  /** D58's plausible step per minute; null where the methodology sets none. */
  readonly step: number | null;
  /** What a meter of the kind can send at all, faulty or not: a reading outside is refused at the push,
   *  by its line (`possibleValue`), since it is no measurement and may be past what storage holds
   *  (1e308). D58's range lies well inside, so a meter's drift or fault past its span is still stored
   *  and flagged, never refused. */
  readonly possible: { readonly min: number; readonly max: number };
  /** A gas channel of the АГК the operator's journal shows: `methane` reads gassings, `other` is
   *  journalled in its unit against its own register levels; null: no gas. */
  readonly gas: "methane" | "other" | null;
  /** Whether its register takes levels W and A, in the kind's unit, reached from below (D64). */
  readonly levels: boolean;
  /** An example reading, within what the kind can send: the dispatch system's template shows it. */
  readonly example: number;
  /** The words a sensor list may name the kind by besides its code and label (compared by headerKey),
   *  as engineers write them. */
  readonly words: readonly string[];
}
/** The name SensorKindSpec had while it held the ranges alone. */
export type SensorKindRule = SensorKindSpec;

/** A kind's spec from D58's usual range, which most kinds keep: from 0, itself a reading, with no upper
 *  bound and no plausible step, no gas and no levels; `spec` says where the kind's own differs. */
const sensorKind = (
  spec: Pick<SensorKindSpec, "label" | "unit" | "possible" | "example" | "words"> &
    Partial<Pick<SensorKindSpec, "min" | "max" | "minExclusive" | "step" | "gas" | "levels">>,
): SensorKindSpec => ({ min: 0, max: Number.POSITIVE_INFINITY, minExclusive: false, step: null, gas: null, levels: false, ...spec });

// A share of a gas is 0–100 %: a whole scale past either end is no reading of a meter.
const GAS_SHARE_POSSIBLE = { min: -100, max: 200 };
// The largest mine fans move about 40 000 m³/min: a flow 25 times that either way is no reading.
const FLOW_POSSIBLE = { min: -1e6, max: 1e6 };
// Absolute zero to past any flare or engine, °C.
const TEMPERATURE_POSSIBLE = { min: -1000, max: 10_000 };
// A signal of 1 or 0, or a fraction.
const SIGNAL_POSSIBLE = { min: -10, max: 10 };

const SPECS = {
  methane: sensorKind({
    label: "Метан (0–4 % об.)",
    unit: "% об.",
    possible: GAS_SHARE_POSSIBLE,
    max: 4,
    step: 1,
    gas: "methane",
    levels: true,
    example: 0.45,
    words: ["метан", "метанометр"],
  }),
  methane_high: sensorKind({
    label: "Метан высоких концентраций (0–100 %)",
    unit: "% об.",
    possible: GAS_SHARE_POSSIBLE,
    max: 100,
    gas: "methane",
    levels: true,
    example: 42.5,
    words: ["метан высоких концентраций", "метан 0–100 %", "метанометр высоких концентраций"],
  }),
  // Air in an airway moves slower than sound (343 m/s at 20 °C); a sign may give the direction.
  air_velocity: sensorKind({
    label: "Скорость воздуха",
    unit: "м/с",
    possible: { min: -343, max: 343 },
    example: 2.1,
    words: ["анемометр", "скорость воздуха"],
  }),
  flow: sensorKind({
    label: "Расход газовой смеси",
    unit: "м³/мин",
    possible: FLOW_POSSIBLE,
    example: 12_345.6,
    words: ["расход", "расходомер", "расход газовой смеси", "расход смеси"],
  }),
  // A drainage line holds about 100 kPa; 100 MPa either way is past any pipe (a gauge's vacuum is negative).
  pressure: sensorKind({
    label: "Давление",
    unit: "кПа",
    possible: { min: -1e5, max: 1e5 },
    minExclusive: true,
    example: 101.3,
    words: ["давление", "датчик давления"],
  }),
  // Absolute zero is −273,15 °C (D58 flags below it); a flare's exhaust is about 1 200 °C.
  temperature: sensorKind({
    label: "Температура",
    unit: "°C",
    possible: TEMPERATURE_POSSIBLE,
    min: -ZERO_CELSIUS_K,
    minExclusive: true,
    example: 18.5,
    words: ["температура", "датчик температуры"],
  }),
  methane_flow: sensorKind({
    label: "Расход метана (расчетный)",
    unit: "м³/мин CH4",
    possible: FLOW_POSSIBLE,
    example: 5.25,
    words: ["расход метана", "расход метана (расчетный)"],
  }),
  // The АГК's other gas channels: carbon monoxide in ppm, oxygen and carbon dioxide in % vol. Oxygen's
  // danger is a fall, which W/A as the product reads them (≥ W, ≥ A) cannot say: it takes none.
  // 1 % vol is 10 000 ppm: a whole scale past either end is no reading.
  carbon_monoxide: sensorKind({
    label: "Оксид углерода (CO)",
    unit: "ppm",
    possible: { min: -1e6, max: 2e6 },
    max: 1e6,
    gas: "other",
    levels: true,
    example: 3,
    words: ["оксид углерода", "окись углерода", "угарный газ", "co", "со", "датчик co", "датчик со"],
  }),
  oxygen: sensorKind({
    label: "Кислород (O2)",
    unit: "% об.",
    possible: GAS_SHARE_POSSIBLE,
    max: 100,
    gas: "other",
    example: 20.7,
    words: ["кислород", "o2", "о2", "датчик кислорода"],
  }),
  carbon_dioxide: sensorKind({
    label: "Диоксид углерода (CO2)",
    unit: "% об.",
    possible: GAS_SHARE_POSSIBLE,
    max: 100,
    gas: "other",
    levels: true,
    example: 0.3,
    words: ["диоксид углерода", "углекислый газ", "двуокись углерода", "co2", "со2", "датчик co2"],
  }),
  // A climate project's meters (methodology 13.1, D70): proof channels send 1 or 0 each minute, the
  // exhaust temperature its reading, the analyser its hourly efficiency, the meters their hour's energy.
  // A flame detector reports 1 (flame) or 0 (none); anything else is no proof (D70).
  flame: sensorKind({
    label: "Датчик пламени",
    unit: "1/0",
    possible: SIGNAL_POSSIBLE,
    max: 1,
    example: 1,
    words: ["пламя", "датчик пламени", "контроль пламени"],
  }),
  // An enclosed flare's exhaust: above absolute zero and below 2 000 °C (a flare burns at about 1 200 °C).
  exhaust_temperature: sensorKind({
    label: "Температура отходящих газов",
    unit: "°C",
    possible: TEMPERATURE_POSSIBLE,
    min: -ZERO_CELSIUS_K,
    max: 2000,
    minExclusive: true,
    example: 850,
    words: ["температура отходящих газов", "температура дымовых газов"],
  }),
  run_status: sensorKind({
    label: "Работа агрегата",
    unit: "1/0",
    possible: SIGNAL_POSSIBLE,
    max: 1,
    example: 1,
    words: ["работа агрегата", "работа", "статус работы", "работа комбайна", "комбайн в работе"],
  }),
  // A longwall's shearer: its position along the face, beside its run state (run_status), channels a
  // forecast model may be trained on and bound to. A longwall is at most a few hundred metres (the
  // longest about 450 m), so 0–1 000 m is the kind's range; ±10 km is no reading of an encoder at all.
  shearer_position: sensorKind({
    label: "Положение комбайна в лаве",
    unit: "м",
    possible: { min: -1e4, max: 1e4 },
    max: 1000,
    example: 120,
    words: ["положение комбайна", "координата комбайна", "положение комбайна в лаве, м"],
  }),
  // The analyser's hourly destruction efficiency (TOOL06 option B, D72): a fraction 0–1.
  destruction_efficiency: sensorKind({
    label: "КПД уничтожения (анализатор)",
    unit: "доля",
    possible: SIGNAL_POSSIBLE,
    max: 1,
    example: 0.98,
    words: ["кпд уничтожения", "кпд факела", "кпд (анализатор)"],
  }),
  // A meter's energy of its hour (D75): a 10 MW engine makes 10 MWh an hour; 10 000 is past any unit of a mine.
  electricity: sensorKind({
    label: "Выработка электроэнергии",
    unit: "МВт·ч",
    possible: { min: -1e6, max: 1e6 },
    max: 10_000,
    example: 1.2,
    words: ["выработка электроэнергии", "электроэнергия", "счетчик электроэнергии"],
  }),
  heat: sensorKind({
    label: "Отпуск тепла",
    unit: "ГДж",
    possible: { min: -1e6, max: 1e6 },
    max: 100_000,
    example: 3.5,
    words: ["отпуск тепла", "тепло", "теплосчетчик"],
  }),
};

/** A sensor's kind: a key of its spec. */
export type SensorKind = keyof typeof SPECS;

/** Every kind's spec: the one table of kinds. */
export const SENSOR_KINDS: Readonly<Record<SensorKind, SensorKindSpec>> = SPECS;

/** Whether a meter of `kind` can send `value` at all (SensorKindSpec.possible): finite and within it. */
export function possibleValue(kind: SensorKind, value: number): boolean {
  const { min, max } = SENSOR_KINDS[kind].possible;
  return Number.isFinite(value) && value >= min && value <= max;
}

export const SENSOR_KIND_NAMES = Object.keys(SENSOR_KINDS) as [SensorKind, ...SensorKind[]];

/** The kinds whose spec says `test`. */
const kindsWhere = (test: (spec: SensorKindSpec) => boolean): ReadonlySet<SensorKind> =>
  new Set(SENSOR_KIND_NAMES.filter((kind) => test(SENSOR_KINDS[kind])));

/** The gas channels of the АГК the operator's journal shows: methane reads gassings; the others are
 *  journalled in their units against their own register levels. */
export const METHANE_KINDS = kindsWhere((spec) => spec.gas === "methane");
/** METHANE_KINDS as a list, for a schema's enum (the live tile's meters). */
export const METHANE_KIND_NAMES = [...METHANE_KINDS] as [SensorKind, ...SensorKind[]];
export const GAS_KINDS = kindsWhere((spec) => spec.gas !== null);
/** The kinds whose register takes levels W and A, in the kind's unit, reached from below (D64). */
export const LEVEL_KINDS = kindsWhere((spec) => spec.levels);

/** What is wrong with a level W or A of a meter of `kind`, in Russian; undefined when nothing is. */
export function levelProblem(kind: SensorKind, value: number): string | undefined {
  const rule = SENSOR_KINDS[kind];
  if (!LEVEL_KINDS.has(kind)) return `у датчика вида «${rule.label}» уровней W и A нет`;
  if (value > rule.max) return `не больше ${rule.max.toLocaleString("ru-RU")} ${rule.unit}`;
  return undefined;
}

/** D58's flags of a minute; OK is a valid value, NONE a minute without a reading. */
export const Flag = { OK: 0, RANGE: 1, STUCK: 2, JUMP: 3, NONE: 4 } as const;
export type FlagCode = (typeof Flag)[keyof typeof Flag];

export const FLAG_REASONS: Readonly<Record<FlagCode, string>> = {
  [Flag.OK]: "",
  [Flag.RANGE]: "значение вне физического диапазона датчика",
  [Flag.STUCK]: "залипание: одно значение 60 минут и более при изменении парного расхода",
  [Flag.JUMP]: "скачок больше допустимого за минуту",
  [Flag.NONE]: "нет показаний",
};

/** Whether a value is inside the kind's physical range (D58). */
export function inRange(kind: SensorKind, value: number): boolean {
  const rule = SENSOR_KINDS[kind];
  if (!Number.isFinite(value) || value > rule.max) return false;
  return rule.minExclusive ? value > rule.min : value >= rule.min;
}

/** A sensor's minutes from `start` (UTC ms, on a minute): each minute's mean (NaN without a valid one)
 *  and its flag. */
export interface MinuteSeries {
  readonly start: number;
  readonly values: Float64Array;
  readonly flags: Uint8Array;
}

/** D59: readings (instants in UTC ms and values) reduced to minute means of their valid readings over
 *  `minutes` minutes from `start`; a minute whose every reading is out of range is flagged RANGE. The
 *  readings may come in any order; those outside the window are left out. */
export function minuteMeans(
  kind: SensorKind,
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  start: number,
  minutes: number,
): MinuteSeries {
  const sums = new Float64Array(minutes);
  const counts = new Uint32Array(minutes);
  const refused = new Uint8Array(minutes);
  // Summed in time order whatever order they came in, so that the means are the same bits (D57).
  for (const i of timeOrder(times, values)) {
    const minute = Math.floor((times[i] - start) / MINUTE_MS);
    if (minute < 0 || minute >= minutes) continue;
    const value = values[i];
    if (!inRange(kind, value)) {
      refused[minute] = 1;
      continue;
    }
    sums[minute] += value;
    counts[minute]++;
  }
  const means = new Float64Array(minutes);
  const flags = new Uint8Array(minutes);
  for (let m = 0; m < minutes; m++) {
    if (counts[m] > 0) means[m] = sums[m] / counts[m];
    else {
      means[m] = Number.NaN;
      flags[m] = refused[m] ? Flag.RANGE : Flag.NONE;
    }
  }
  return { start, values: means, flags };
}

/** D88: the gassing book's minutes — every reading counts, whatever D58 says of it. Each
 *  minute's mean of all its readings (NaN without one); a minute holding a reading past the kind's range
 *  is flagged RANGE, and flagQuality then flags a jump over the kind's step (JUMP), so that the book can
 *  mark what it read past D58. Volumes keep D58's minutes (minuteMeans). */
export function everyMinuteMeans(
  kind: SensorKind,
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  start: number,
  minutes: number,
): MinuteSeries {
  const sums = new Float64Array(minutes);
  const counts = new Uint32Array(minutes);
  const flags = new Uint8Array(minutes);
  for (const i of timeOrder(times, values)) {
    const minute = Math.floor((times[i] - start) / MINUTE_MS);
    const value = values[i];
    if (minute < 0 || minute >= minutes || !Number.isFinite(value)) continue;
    if (!inRange(kind, value)) flags[minute] = Flag.RANGE;
    sums[minute] += value;
    counts[minute]++;
  }
  const means = new Float64Array(minutes);
  for (let m = 0; m < minutes; m++) {
    if (counts[m] > 0) means[m] = sums[m] / counts[m];
    else {
      means[m] = Number.NaN;
      flags[m] = Flag.NONE;
    }
  }
  return flagQuality(kind, { start, values: means, flags });
}

/** The readings' indices in time order (ties by value); the identity when they already are. */
function timeOrder(times: ArrayLike<number>, values: ArrayLike<number>): ArrayLike<number> & Iterable<number> {
  const n = times.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = times[i - 1] < times[i];
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  if (!sorted) order.sort((a, b) => times[a] - times[b] || values[a] - values[b]);
  return order;
}

export interface QualityOptions {
  /** The plausible step per minute; the kind's when not given, none when null. */
  readonly step?: number | null;
  /** The paired flow's minute values over the same minutes (D58's «залипание» needs it to change). */
  readonly paired?: Float64Array;
  readonly stuckMinutes?: number;
}

/** D58 on minute means: a jump larger than the step from the minute before, and a run of at least
 *  60 identical values while the paired flow changes, are flagged (the values are kept; a flagged
 *  minute is treated as missing). Changes `series.flags` in place and returns the series. */
export function flagQuality(kind: SensorKind, series: MinuteSeries, options: QualityOptions = {}): MinuteSeries {
  const { values, flags } = series;
  const step = options.step === undefined ? SENSOR_KINDS[kind].step : options.step;
  if (step !== null) {
    for (let m = 1; m < values.length; m++) {
      const before = values[m - 1];
      if (flags[m] === Flag.OK && !Number.isNaN(before) && Math.abs(values[m] - before) > step) flags[m] = Flag.JUMP;
    }
  }
  const paired = options.paired;
  if (paired) {
    const least = options.stuckMinutes ?? STUCK_MINUTES;
    let m = 0;
    while (m < values.length) {
      if (Number.isNaN(values[m])) {
        m++;
        continue;
      }
      let end = m + 1;
      while (end < values.length && values[end] === values[m]) end++;
      if (end - m >= least && changes(paired, m, end)) for (let k = m; k < end; k++) flags[k] = Flag.STUCK;
      m = end;
    }
  }
  return series;
}

function changes(series: Float64Array, from: number, to: number): boolean {
  let first = Number.NaN;
  for (let k = from; k < to; k++) {
    const value = series[k];
    if (Number.isNaN(value)) continue;
    if (Number.isNaN(first)) first = value;
    else if (value !== first) return true;
  }
  return false;
}

/** A minute's state after substitution. */
export const MinuteState = { VALID: 0, SUBSTITUTED: 1, MISSING: 2 } as const;
export type MinuteStateCode = (typeof MinuteState)[keyof typeof MinuteState];

export interface Substituted {
  readonly start: number;
  /** The valid values and the substitutes; NaN where missing. */
  readonly values: Float64Array;
  readonly state: Uint8Array;
  readonly valid: number;
  readonly substituted: number;
  readonly missing: number;
  /** The longest run of minutes without a valid value (substituted or not), minutes. */
  readonly longestGap: number;
}

/** D101: the АГК's channels that feed no volume (D60 fills a volume's inputs): a silent one's minutes are
 *  missing, never substituted — a CO meter silent for 21 h is 21 h missing in its completeness. */
export const NEVER_SUBSTITUTED_KINDS: ReadonlySet<SensorKind> = new Set<SensorKind>([
  "carbon_monoxide",
  "oxygen",
  "carbon_dioxide",
  "run_status",
  "shearer_position",
]);

/** D60 (40 CFR 98.325(b)): each run of minutes without a valid value takes the mean of the valid
 *  values immediately before and after it; with none before, the first after; with none after, the
 *  last before. A run longer than `maxGap` minutes (24 h) is not substituted. */
export function substitute(series: MinuteSeries, maxGap = MAX_SUBSTITUTED_GAP_MIN): Substituted {
  const n = series.values.length;
  const values = new Float64Array(n);
  const state = new Uint8Array(n);
  let valid = 0;
  let substituted = 0;
  let longestGap = 0;
  let m = 0;
  while (m < n) {
    if (series.flags[m] === Flag.OK && !Number.isNaN(series.values[m])) {
      values[m] = series.values[m];
      valid++;
      m++;
      continue;
    }
    let end = m;
    while (end < n && !(series.flags[end] === Flag.OK && !Number.isNaN(series.values[end]))) end++;
    const length = end - m;
    if (length > longestGap) longestGap = length;
    const before = m > 0 ? values[m - 1] : Number.NaN;
    const after = end < n ? series.values[end] : Number.NaN;
    const fill =
      length > maxGap
        ? Number.NaN
        : !Number.isNaN(before) && !Number.isNaN(after)
          ? (before + after) / 2
          : Number.isNaN(before)
            ? after
            : before;
    for (let k = m; k < end; k++) {
      values[k] = fill;
      state[k] = Number.isNaN(fill) ? MinuteState.MISSING : MinuteState.SUBSTITUTED;
    }
    if (!Number.isNaN(fill)) substituted += length;
    m = end;
  }
  return { start: series.start, values, state, valid, substituted, missing: n - valid - substituted, longestGap };
}

/** From readings to substituted minutes in one call: D59, D58, D60. */
export function sensorMinutes(
  kind: SensorKind,
  times: ArrayLike<number>,
  readings: ArrayLike<number>,
  start: number,
  minutes: number,
  options: QualityOptions = {},
): Substituted {
  return substitute(flagQuality(kind, minuteMeans(kind, times, readings, start, minutes), options));
}

export interface PointSeries {
  /** Minutes the point's sensors were in service in the window (D62's expected); the window's length
   *  when not given. */
  readonly expected?: number;
  /** CH4 content, % vol (methane or methane_high meter). */
  readonly ch4?: Substituted;
  /** Computed methane flow, m³/min CH4: the content is 100 × it / the mixture flow where no meter gives it. */
  readonly methane_flow?: Substituted;
  /** Mixture flow, m³/min (flow meter) … */
  readonly flow?: Substituted;
  /** … or the air velocity, m/s, over the cross-section. */
  readonly velocity?: Substituted;
  readonly area_m2?: number;
  /** The flow's conditions: actual flows are brought to 20 °C and 101,325 kPa with P and T. */
  readonly conditions?: "standard" | "actual";
  readonly pressure?: Substituted;
  readonly temperature?: Substituted;
}

export interface PointVolume {
  /** Σ Q_i · 1 min over the minutes with every parameter, m³ (standard conditions). */
  readonly volume_m3: number;
  readonly volume_thousand_m3: number;
  /** Σ Q_i · C_i / 100 · 1 min, m³ CH4. */
  readonly ch4_m3: number;
  /** The flow-weighted mean content 100 · V_CH4 / V, % vol (0 without volume). */
  readonly ef_ch4: number;
  /** ρ_CH4 (20 °C) · V_CH4, t. */
  readonly ch4_t: number;
  readonly minutes: { readonly expected: number; readonly valid: number; readonly substituted: number; readonly missing: number };
  /** (valid + substituted) / expected, 0–1. */
  readonly completeness: number;
  readonly longest_gap_min: number;
}

export class PointSeriesError extends Error {}

/** D61: a point's mixture and CH4 volumes from its minutes. A minute counts only when every parameter
 *  of the formula has a valid or substituted value in it (D59); it is valid when every one is valid,
 *  substituted when one was substituted. */
export function pointVolume(point: PointSeries): PointVolume {
  const flowSeries = point.flow ?? point.velocity;
  if (!flowSeries) throw new PointSeriesError("Нет датчика расхода или скорости воздуха");
  const content = point.ch4 ?? point.methane_flow;
  if (!content) throw new PointSeriesError("Нет датчика метана");
  const velocity = !point.flow;
  const area = point.area_m2 ?? Number.NaN;
  if (velocity && !(area > 0)) throw new PointSeriesError("Для анемометра нужна площадь сечения выработки");
  const actual = point.conditions === "actual";
  if (actual && (!point.pressure || !point.temperature))
    throw new PointSeriesError("Для расхода в рабочих условиях нужны датчики давления и температуры");
  const parts = [flowSeries, content, ...(actual ? [point.pressure as Substituted, point.temperature as Substituted] : [])];
  const n = flowSeries.values.length;
  for (const part of parts) if (part.values.length !== n) throw new PointSeriesError("Ряды точки разной длины");

  let volume = 0;
  let ch4 = 0;
  let valid = 0;
  let substituted = 0;
  let gap = 0;
  let longestGap = 0;
  for (let m = 0; m < n; m++) {
    let worst: number = MinuteState.VALID;
    for (const part of parts) if (part.state[m] > worst) worst = part.state[m];
    if (worst !== MinuteState.VALID) {
      gap++;
      if (gap > longestGap) longestGap = gap;
    } else gap = 0;
    if (worst === MinuteState.MISSING) continue;
    if (worst === MinuteState.VALID) valid++;
    else substituted++;
    let q = velocity ? flowSeries.values[m] * area * 60 : flowSeries.values[m];
    if (actual) {
      q =
        q *
        ((point.pressure as Substituted).values[m] / STANDARD_PRESSURE_KPA) *
        (STANDARD_TEMPERATURE_K / ((point.temperature as Substituted).values[m] + ZERO_CELSIUS_K));
    }
    volume += q;
    ch4 += point.ch4 ? (q * point.ch4.values[m]) / 100 : content.values[m];
  }
  const expected = point.expected ?? n;
  return {
    volume_m3: volume,
    volume_thousand_m3: volume / 1000,
    ch4_m3: ch4,
    ef_ch4: volume > 0 ? (100 * ch4) / volume : 0,
    ch4_t: (CH4_DENSITY_20C * ch4) / 1000,
    minutes: { expected, valid, substituted, missing: expected - valid - substituted },
    completeness: expected > 0 ? (valid + substituted) / expected : 0,
    longest_gap_min: longestGap,
  };
}

/** D62: a sensor's completeness over a window of `expected` minutes in service. */
export function completeness(series: Pick<Substituted, "valid" | "substituted">, expected: number): number {
  return expected > 0 ? (series.valid + series.substituted) / expected : 0;
}

export interface Levels {
  /** W, the warning level (methane meters), % vol. */
  readonly warning?: number | null;
  /** A, the alarm (cut-off) level, % vol. */
  readonly alarm?: number | null;
}

export interface Bucket {
  /** Local (company clock) key: "2026-03-01T05" an hour, "2026-03-01#2" a shift, "2026-03-01" a day, "2026-03" a month. */
  readonly key: string;
  /** Minutes with a value (valid or substituted). */
  count: number;
  substituted: number;
  mean: number;
  min: number;
  max: number;
  /** Minutes ≥ 0,9·W, ≥ W and ≥ A (D64). */
  above_pre_warning: number;
  above_warning: number;
  above_alarm: number;
  sum: number;
}

export interface RollUps {
  readonly hours: Bucket[];
  readonly shifts: Bucket[];
  readonly days: Bucket[];
  readonly months: Bucket[];
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

function newBucket(key: string): Bucket {
  return {
    key,
    count: 0,
    substituted: 0,
    mean: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    above_pre_warning: 0,
    above_warning: 0,
    above_alarm: 0,
    sum: 0,
  };
}

/** The shift key («2026-03-01#2») of a local wall time (`local`, ms as if UTC) on day `day` at
 *  `minuteOfDay`, shifts starting at `starts` (sorted): before the first start, the day before's last. */
function localShiftKey(local: number, day: string, minuteOfDay: number, starts: readonly number[]): string {
  let shift = starts.length - 1;
  while (shift >= 0 && starts[shift] > minuteOfDay) shift--;
  if (shift >= 0) return `${day}#${shift + 1}`;
  const previous = new Date(local - 86_400_000);
  return `${previous.getUTCFullYear()}-${two(previous.getUTCMonth() + 1)}-${two(previous.getUTCDate())}#${starts.length}`;
}

/** a shift as every page and file names it, «Смена 3 (16:00–24:00)»: its number on
 *  its local day and its hours, the last shift ending at 24:00 of that day (where the first starts at
 *  midnight; after it, at the next day's hour). */
export function shiftName(number: number, shiftStarts: readonly number[] = DEFAULT_SHIFT_STARTS): string {
  const starts = [...shiftStarts].sort((a, b) => a - b);
  const from = starts[number - 1] ?? 0;
  const to = starts[number] ?? 1440 + starts[0];
  const hhmm = (minute: number) => `${two(Math.floor((minute > 1440 ? minute - 1440 : minute) / 60))}:${two(minute % 60)}`;
  return `Смена ${number} (${hhmm(from)}–${hhmm(to)})`;
}

/** D64: the shift an instant (UTC ms) falls in on the company's clock, keyed as rollUp keys its
 *  shifts («2026-03-01#1»: the local day's first shift). */
export function shiftOf(instant: number, zone: string, shiftStarts: readonly number[] = DEFAULT_SHIFT_STARTS): string {
  const starts = [...shiftStarts].sort((a, b) => a - b);
  const local = instant + zoneOffsetMs(instant, zone);
  const at = new Date(local);
  const day = `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}`;
  return localShiftKey(local, day, at.getUTCHours() * 60 + at.getUTCMinutes(), starts);
}

/** The instants (UTC ms) a shift key («2026-03-01#2») runs from and to on the company's clock. */
export function shiftSpan(
  key: string,
  zone: string,
  shiftStarts: readonly number[] = DEFAULT_SHIFT_STARTS,
): { from: number; to: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})#(\d+)$/.exec(key);
  if (!match) return undefined;
  const starts = [...shiftStarts].sort((a, b) => a - b);
  const index = Number(match[4]) - 1;
  if (index < 0 || index >= starts.length) return undefined;
  const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = (dayOffset: number, minute: number) => {
    const wall = new Date(Date.UTC(y, mo - 1, d + dayOffset, 0, minute));
    return instantOfWallTime(
      wall.getUTCFullYear(),
      wall.getUTCMonth() + 1,
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
      zone,
    );
  };
  return { from: at(0, starts[index]), to: index + 1 < starts.length ? at(0, starts[index + 1]) : at(1, starts[0]) };
}

/** D64: a sensor's minutes rolled up by hour, shift, day and month on the company's clock (`zone`),
 *  shifts starting at `shiftStarts` minutes of the local day (three 8-hour shifts from 00:00 unless the
 *  facility's calendar says otherwise; minutes before the first start belong to the day before's last
 *  shift). Each bucket holds count, mean, min, max and the minutes at or above 0,9·W, W and A. */
export function rollUp(
  series: Pick<Substituted, "start" | "values" | "state">,
  zone: string,
  levels: Levels = {},
  shiftStarts: readonly number[] = DEFAULT_SHIFT_STARTS,
): RollUps {
  const starts = [...shiftStarts].sort((a, b) => a - b);
  const warning = levels.warning ?? Number.POSITIVE_INFINITY;
  const alarm = levels.alarm ?? Number.POSITIVE_INFINITY;
  const pre = PRE_WARNING_SHARE * warning;
  const out: RollUps = { hours: [], shifts: [], days: [], months: [] };
  const last: Record<keyof RollUps, Bucket | undefined> = { hours: undefined, shifts: undefined, days: undefined, months: undefined };
  const bucketIn = (level: keyof RollUps, key: string): Bucket => {
    const current = last[level];
    if (current?.key === key) return current;
    // Minutes arrive in time order, so a key seen before is the bucket last opened or an earlier one.
    const found = out[level].find((b) => b.key === key);
    if (found) return (last[level] = found);
    const made = newBucket(key);
    out[level].push(made);
    last[level] = made;
    return made;
  };
  let offsetHour = Number.NaN;
  let offset = 0;
  for (let m = 0; m < series.values.length; m++) {
    if (series.state[m] === MinuteState.MISSING) continue;
    const value = series.values[m];
    const instant = series.start + m * MINUTE_MS;
    const hour = Math.floor(instant / 3_600_000);
    if (hour !== offsetHour) {
      offset = zoneOffsetMs(instant, zone);
      offsetHour = hour;
    }
    const local = new Date(instant + offset);
    const y = local.getUTCFullYear();
    const mo = local.getUTCMonth() + 1;
    const d = local.getUTCDate();
    const h = local.getUTCHours();
    const minuteOfDay = h * 60 + local.getUTCMinutes();
    const day = `${y}-${two(mo)}-${two(d)}`;
    const shiftKey = localShiftKey(instant + offset, day, minuteOfDay, starts);
    const keys: [keyof RollUps, string][] = [
      ["hours", `${day}T${two(h)}`],
      ["shifts", shiftKey],
      ["days", day],
      ["months", `${y}-${two(mo)}`],
    ];
    const substituted = series.state[m] === MinuteState.SUBSTITUTED ? 1 : 0;
    for (const [level, key] of keys) {
      const b = bucketIn(level, key);
      b.count++;
      b.substituted += substituted;
      b.sum += value;
      if (value < b.min) b.min = value;
      if (value > b.max) b.max = value;
      if (value >= pre) b.above_pre_warning++;
      if (value >= warning) b.above_warning++;
      if (value >= alarm) b.above_alarm++;
    }
  }
  for (const level of ["hours", "shifts", "days", "months"] as const) {
    out[level].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const b of out[level]) b.mean = b.sum / b.count;
  }
  return out;
}

/** D63: whether an accepted month's CH4 moved by more than 0,1 % since it was accepted. */
export function acceptedMonthChanged(acceptedCh4T: number, nowCh4T: number, share = ACCEPTED_CHANGE_SHARE): boolean {
  if (acceptedCh4T === 0) return nowCh4T !== 0;
  return Math.abs(nowCh4T - acceptedCh4T) / Math.abs(acceptedCh4T) > share;
}

/** A span's mean of valid minute means and how many minutes it had (the АГК operator's journal). */
export interface ValidMean {
  /** The mean of the span's valid minute means, % vol; null without one. */
  readonly mean: number | null;
  readonly valid: number;
}

/** The АГК operator's journal: for each span [edges[i], edges[i+1]) (UTC ms on minutes) the
 *  arithmetic mean of the series' valid minute means (D59 after D58's flags), as the methodological
 *  recommendations' journal takes it: a substituted minute (D60) is not a measurement and counts in
 *  none. Minutes outside the series count in none either. */
export function validMeans(series: Pick<MinuteSeries, "start" | "values" | "flags">, edges: readonly number[]): ValidMean[] {
  const out: ValidMean[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = Math.max(0, Math.round((edges[i] - series.start) / MINUTE_MS));
    const to = Math.min(series.values.length, Math.round((edges[i + 1] - series.start) / MINUTE_MS));
    let sum = 0;
    let valid = 0;
    for (let m = from; m < to; m++) {
      const value = series.values[m];
      if (series.flags[m] !== Flag.OK || Number.isNaN(value)) continue;
      sum += value;
      valid++;
    }
    out.push({ mean: valid > 0 ? sum / valid : null, valid });
  }
  return out;
}
