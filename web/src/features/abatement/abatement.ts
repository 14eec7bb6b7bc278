// «Снижение выбросов» without React: the editor's draft (numbers as typed, the Russian way) as the
// section 11 request the core evaluates in the page and the server stores; the MACC's figure; the
// tornado of NPV and LAC (the product's sensitivity machinery: one input at a time, TornadoBar); and
// what the plan would close of the company's targets.
import type { Data, Layout } from "plotly.js";
import {
  ownValue,
  weightedLac,
  type AbatementParams,
  type AbatementRequest,
  type AbatementResult,
  type OptionOverrides,
} from "@core/abatement";
import { parseNumericInput, formatResult } from "../../shared/decimals";
import { tornadoBarsFigure, type TornadoBar } from "../../shared/uncertainty/tornado";

export interface StreamDraft {
  /** the stream's code in the request (s1, s2 …): never shown */
  code: string;
  name: string;
  kind: "drainage" | "ventilation";
  /** drainage: mixture m³/min; ventilation: air m³/s; as typed */
  flow: string;
  c: string;
  hours: string;
  /** an emission point of the year's inventory: the flow comes from its measured methane */
  point: string | null;
  chosen: string | null;
}

export const PARAM_FIELDS = [
  { key: "ef_grid_t_per_mwh", label: "Коэффициент выбросов энергосистемы", unit: "т CO2/МВт·ч", decimals: 4, required: true },
  { key: "price_el_rub_per_mwh", label: "Цена электроэнергии", unit: "₽/МВт·ч", decimals: 2, required: true },
  { key: "price_heat_rub_per_mwh", label: "Цена тепла", unit: "₽/МВт·ч", decimals: 2, required: true },
  { key: "price_carbon_unit_rub", label: "Цена углеродной единицы", unit: "₽", decimals: 2, required: true },
  { key: "price_gas_rub_per_1000m3", label: "Цена газа (для продажи в сеть)", unit: "₽/тыс. м³", decimals: 2, required: false },
  { key: "discount_rate", label: "Ставка дисконтирования", unit: "доля", decimals: 4, required: true },
  { key: "lifetime_yr", label: "Срок проекта", unit: "лет", decimals: 0, required: true },
  { key: "gwp_ch4", label: "ПГП метана (пусто — набор года)", unit: "", decimals: 1, required: false },
] as const;

export type ParamKey = (typeof PARAM_FIELDS)[number]["key"];
export type ParamsDraft = Record<ParamKey, string>;

export const EMPTY_PARAMS: ParamsDraft = Object.fromEntries(PARAM_FIELDS.map((f) => [f.key, ""])) as ParamsDraft;

/** A number as the API and the core take it: typed text read the Russian way; empty or bad → undefined. */
const value = (text: string) => (text.trim() === "" ? undefined : parseNumericInput(text));

/** Options that sell heat, and those that make electricity (each asks for or states the demand). */
const HEAT_OPTIONS = ["BOILER", "GAS_ENGINE_CHP", "VAM_RTO_ENERGY"];
const POWER_OPTIONS = ["GAS_ENGINE_CHP", "VAM_RTO_ENERGY"];
const withoutUpgrade = (option: string) => option.replace(/^DRAINAGE_UPGRADE\+/, "");

/** The inputs of an option the user may give instead of the methodology's estimates (D50, D54), and
 *  those an option that sells energy asks for: the heat the mine can use, the recovery's
 *  efficiencies; `for` the options that show it (every option when absent). */
export const OVERRIDE_FIELDS: readonly {
  key: keyof OptionOverrides;
  label: string;
  unit: string;
  decimals: number;
  for?: (option: string) => boolean;
}[] = [
  {
    key: "heat_used_share",
    label: "Доля тепла, которую шахта или потребитель могут использовать",
    unit: "доля",
    decimals: 6,
    for: (o) => HEAT_OPTIONS.includes(withoutUpgrade(o)),
  },
  { key: "eta_el", label: "Электрический КПД утилизации (0 — нет)", unit: "доля", decimals: 6, for: (o) => o === "VAM_RTO_ENERGY" },
  { key: "eta_th", label: "Тепловой КПД утилизации (0 — нет)", unit: "доля", decimals: 6, for: (o) => o === "VAM_RTO_ENERGY" },
  {
    key: "el_used_share",
    label: "Доля электроэнергии, которую принимают шахта или сеть",
    unit: "доля",
    decimals: 6,
    for: (o) => POWER_OPTIONS.includes(withoutUpgrade(o)),
  },
  { key: "eta_destruction", label: "Измеренная эффективность уничтожения", unit: "доля", decimals: 6 },
  { key: "capex_rub", label: "Капитальные затраты", unit: "₽", decimals: 2 },
  { key: "opex_fixed_rub", label: "Постоянные эксплуатационные затраты", unit: "₽/год", decimals: 2 },
];
export type OverrideKey = keyof OptionOverrides;
/** The own values an option shows. */
export const overrideFieldsOf = (option: string) => OVERRIDE_FIELDS.filter((f) => !f.for || f.for(option));
/** Per stream code and option code, the texts typed. */
export type OverridesDraft = Record<string, Record<string, Partial<Record<OverrideKey, string>>>>;

/** The typed own values as the request's overrides: only those that read as numbers, only the fields
 *  the option shows. Made from entries: stream codes are data (the security review's R12). */
export function overridesOf(draft: OverridesDraft): AbatementRequest["overrides"] {
  const streams: [string, Record<string, OptionOverrides>][] = [];
  for (const [code, options] of Object.entries(draft)) {
    const named: [string, OptionOverrides][] = [];
    for (const [option, values] of Object.entries(options)) {
      const read = Object.fromEntries(
        overrideFieldsOf(option)
          .map((f) => [f.key, value(ownValue(values, f.key) ?? "")])
          .filter((entry) => entry[1] !== undefined),
      ) as OptionOverrides;
      if (Object.keys(read).length > 0) named.push([option, read]);
    }
    if (named.length > 0) streams.push([code, Object.fromEntries(named)]);
  }
  return Object.fromEntries(streams);
}

/** A measured stream of the year as the editor may take it (GET v1/abatement/streams/). */
export interface MeasuredStream {
  point: string;
  name: string;
  kind: "drainage" | "ventilation";
  to_air_t: number;
  /** the months it was measured in, their hours and the year's (a figure of fewer than
   *  twelve months is taken to a year at their flow). */
  months: string[];
  hours: number;
  year_hours: number;
}

export function requestOf(
  streams: readonly StreamDraft[],
  params: ParamsDraft,
  measured: readonly MeasuredStream[] = [],
  overrides?: AbatementRequest["overrides"],
): AbatementRequest & { streams: (AbatementRequest["streams"][number] & { name?: string; point?: string | null })[] } {
  const chosen = Object.fromEntries(streams.flatMap((s) => (s.chosen ? [[s.code, s.chosen]] : [])));
  return {
    streams: streams.map((s) => {
      const base = { code: s.code, name: s.name, c_ch4_pct: value(s.c) as number, hours_per_year: value(s.hours) };
      const figure = s.point ? measured.find((m) => m.point === s.point) : undefined;
      if (s.point) {
        return {
          ...base,
          kind: figure?.kind ?? s.kind,
          point: s.point,
          m_ch4_t: figure?.to_air_t,
          ...(figure && figure.hours > 0 ? { m_ch4_year_share: figure.hours / figure.year_hours, m_ch4_hours: figure.hours } : {}),
        };
      }
      return s.kind === "ventilation"
        ? { ...base, kind: s.kind, q_air_m3_s: value(s.flow) }
        : { ...base, kind: s.kind, q_mix_m3_min: value(s.flow) };
    }),
    chosen,
    params: Object.fromEntries(PARAM_FIELDS.map((f) => [f.key, value(params[f.key])])) as unknown as AbatementParams,
    ...(overrides ? { overrides } : {}),
  };
}

/** The request's choices that no longer exist dropped (an option the stream no longer allows). */
export function withValidChoices(request: AbatementRequest, allowed: (code: string) => readonly string[] | undefined): AbatementRequest {
  const chosen = Object.fromEntries(Object.entries(request.chosen ?? {}).filter(([code, option]) => allowed(code)?.includes(option)));
  return { ...request, chosen };
}

// ---- the MACC --------------------------------------------------------------------------------------

const COLOURS = ["#1677ff", "#52c41a", "#fa8c16", "#eb2f96", "#722ed1", "#13c2c2", "#a0d911", "#2f54eb"];

export function maccFigure(result: AbatementResult, names: Readonly<Record<string, string>>) {
  const bars = result.macc;
  const data: Data[] = [
    {
      type: "bar",
      x: bars.map((b) => b.x_start + b.width / 2),
      width: bars.map((b) => b.width),
      y: bars.map((b) => b.lac_rub_per_t),
      marker: { color: bars.map((_, i) => COLOURS[i % COLOURS.length]), line: { color: "#333333", width: 1 } },
      text: bars.map((b) => `${names[b.stream] ?? b.stream}: ${b.label}`),
      customdata: bars.map((b) => [formatResult(b.width, 1), formatResult(b.lac_rub_per_t, 2)]),
      hovertemplate: "%{text}<br>Сокращение %{customdata[0]} т CO2-экв./год<br>LAC %{customdata[1]} ₽/т CO2-экв.<extra></extra>",
      textposition: "none",
      name: "Варианты",
    } as Data,
  ];
  const layout: Partial<Layout> = {
    autosize: true,
    separators: ", ",
    showlegend: false,
    margin: { l: 72, r: 16, t: 16, b: 64 },
    xaxis: { title: { text: "Сокращение выбросов, т CO2-экв./год" }, rangemode: "tozero", tickformat: ",.0f" },
    yaxis: { title: { text: "LAC, ₽/т CO2-экв." }, zeroline: true, tickformat: ",.0f" },
    bargap: 0,
  };
  return { title: "Кривая предельных затрат на сокращение выбросов (MACC)", fileName: "MACC", data, layout };
}

// ---- the tornado of NPV and LAC ------------------------------------------------------------------------

/** The plan's NPV (Σ of the chosen options) and LAC (their ER-weighted mean). */
export function planFigures(result: AbatementResult): { npv: number; lac: number | null; er: number } {
  const chosen = result.streams.flatMap((s) => s.options.filter((o) => o.option_code === s.chosen));
  const er = chosen.reduce((t, o) => t + o.er_t_co2e, 0);
  const npv = chosen.reduce((t, o) => t + (o.npv_rub ?? 0), 0);
  return { npv, lac: weightedLac(chosen), er };
}

export const SENSITIVITY_STEP = 0.2;

/** The inputs varied one at a time by ±20 %: a parameter, or the chosen options' capex or fixed opex. */
export const SENSITIVITY_INPUTS: readonly {
  label: string;
  vary: (request: AbatementRequest, result: AbatementResult, factor: number) => AbatementRequest;
}[] = [
  { label: "Цена электроэнергии", vary: (r, _, f) => scaleParam(r, "price_el_rub_per_mwh", f) },
  { label: "Цена тепла", vary: (r, _, f) => scaleParam(r, "price_heat_rub_per_mwh", f) },
  { label: "Цена углеродной единицы", vary: (r, _, f) => scaleParam(r, "price_carbon_unit_rub", f) },
  { label: "Ставка дисконтирования", vary: (r, _, f) => scaleParam(r, "discount_rate", f) },
  { label: "Коэффициент энергосистемы", vary: (r, _, f) => scaleParam(r, "ef_grid_t_per_mwh", f) },
  { label: "Капитальные затраты", vary: (r, result, f) => scaleCost(r, result, "capex_rub", f) },
  { label: "Эксплуатационные затраты", vary: (r, result, f) => scaleCost(r, result, "opex_fixed_rub", f) },
];

function scaleParam(request: AbatementRequest, key: keyof AbatementParams, factor: number): AbatementRequest {
  const current = request.params[key];
  return typeof current === "number" ? { ...request, params: { ...request.params, [key]: current * factor } } : request;
}

function scaleCost(
  request: AbatementRequest,
  result: AbatementResult,
  key: "capex_rub" | "opex_fixed_rub",
  factor: number,
): AbatementRequest {
  // A Map of the streams' own values: stream codes are data (the security review's R12).
  const overrides = new Map(Object.entries(request.overrides ?? {}));
  for (const stream of result.streams) {
    const option = stream.options.find((o) => o.option_code === stream.chosen);
    const cost = option?.[key];
    if (!option || cost === null || cost === undefined) continue;
    const own = overrides.get(stream.code) ?? {};
    overrides.set(stream.code, { ...own, [option.option_code]: { ...(ownValue(own, option.option_code) ?? {}), [key]: cost * factor } });
  }
  return { ...request, overrides: Object.fromEntries(overrides) };
}

/** How far the plan's NPV and LAC move when each input moves by ±20 %, one at a time; widest on top
 *  (TornadoBar: low at −20 %, high at +20 %, as changes from the base). */
export function sensitivityBars(
  request: AbatementRequest,
  result: AbatementResult,
  evaluate: (request: AbatementRequest) => AbatementResult,
): { npv: TornadoBar[]; lac: TornadoBar[] } {
  const base = planFigures(result);
  const npv: TornadoBar[] = [];
  const lac: TornadoBar[] = [];
  for (const input of SENSITIVITY_INPUTS) {
    const at = (factor: number) => planFigures(evaluate(input.vary(request, result, factor)));
    const [low, high] = [at(1 - SENSITIVITY_STEP), at(1 + SENSITIVITY_STEP)];
    npv.push({ label: input.label, low: low.npv - base.npv, high: high.npv - base.npv });
    if (base.lac !== null && low.lac !== null && high.lac !== null)
      lac.push({ label: input.label, low: low.lac - base.lac, high: high.lac - base.lac });
  }
  const widest = (a: TornadoBar, b: TornadoBar) => Math.abs(a.high - a.low) - Math.abs(b.high - b.low);
  return { npv: npv.sort(widest), lac: lac.sort(widest) };
}

/** The tornado of the plan's NPV or LAC, drawn as the sensitivity screen's (tornadoBarsFigure). */
export function tornadoOf(bars: readonly TornadoBar[], title: string, unit: string, decimals: number) {
  return tornadoBarsFigure(title, bars, {
    unit,
    decimals,
    axis: `Изменение, ${unit}`,
    low: { name: "−20 %", color: "#69b1ff" },
    high: { name: "+20 %", color: "#ff7875" },
    barHeight: 40,
  });
}

export { targetClosures, type TargetClosure, type TargetProgress } from "../../shared/abatementTargets";
