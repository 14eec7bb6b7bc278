// Section 11 of the methodology (D47–D55): a mine's abatement options per stream, their emission
// reductions in the form of CDM ACM0008, cash flows, levelised abatement cost and the marginal
// abatement cost curve. Browser-safe: the server (POST v1/abatement/evaluate/, stored assessments)
// and the web's live preview run this same code through EmissionsCore.abatement, which hands it the
// core's §4.10 classifier (recycle_technology, the dictionary's thresholds, D5/D48) and its finance
// kernels (assembly/emissions.ts: NPV, IRR, paybacks, CRF); `abatementKernels(core, thresholds)`.
import { type EmissionsCore, FieldError, type FlowThresholds } from "./emissions-core";
import { REGISTRY } from "./registry";
import { DEFAULT_GWP_CH4 } from "./types/definition";

/** Methodology version of the assessment (D47). */
export const ABATEMENT_VERSION = "2026.6";

export const ABATEMENT_OPTION_CODES = [
  "DRAINAGE_UPGRADE",
  "FLARE_ENCLOSED",
  "FLARE_OPEN",
  "BOILER",
  "GAS_ENGINE_CHP",
  "PIPELINE_SALE",
  "VAM_RTO",
  "VAM_RTO_ENERGY",
] as const;
export type AbatementOptionCode = (typeof ABATEMENT_OPTION_CODES)[number];

/** What the user sees of each option (the codes stay out of the screens). */
export const ABATEMENT_OPTIONS: Readonly<Record<AbatementOptionCode, { label: string; product: string }>> = {
  DRAINAGE_UPGRADE: {
    label: "Повышение качества дегазации (каптажа)",
    product: "без сокращения: затраты входят в вариант, который оно делает возможным",
  },
  FLARE_ENCLOSED: { label: "Закрытая факельная установка", product: "уничтожение" },
  FLARE_OPEN: { label: "Открытый факел", product: "уничтожение" },
  BOILER: { label: "Котельная на шахтном метане", product: "тепло" },
  GAS_ENGINE_CHP: { label: "Когенерационная газопоршневая установка", product: "электроэнергия и тепло" },
  PIPELINE_SALE: { label: "Подготовка и продажа газа в сеть", product: "газ" },
  VAM_RTO: { label: "Окисление метана вентиляционной струи (RTO/TFRR)", product: "уничтожение" },
  VAM_RTO_ENERGY: { label: "Окисление метана вентиляционной струи с утилизацией энергии", product: "уничтожение, тепло и электроэнергия" },
};

export type StreamKind = "drainage" | "ventilation";

/** An upgrade of the capture (D48): the drained gas at a higher concentration, the same methane. */
export interface CaptureUpgrade {
  c_ch4_pct: number;
  capex_rub?: number;
  opex_fixed_rub?: number;
}

export interface AbatementStream {
  code: string;
  kind: StreamKind;
  /** drainage: mixture flow, m³/min */
  q_mix_m3_min?: number;
  /** ventilation: air flow, m³/s */
  q_air_m3_s?: number;
  c_ch4_pct: number;
  hours_per_year?: number;
  /** The year's methane of the stream, t CH4 (a measured figure, e.g. the inventory's): when given,
   *  the flows come from it (Q = M / ρ / (60·h) × 1000) instead of q_mix_m3_min or q_air_m3_s. */
  m_ch4_t?: number;
  /** The share of the year's hours `m_ch4_t` was measured over (an inventory point's months with
   *  measured data): the year's methane is m_ch4_t / share, the months' flow kept over the
   *  whole year. Default 1: m_ch4_t is the year's. */
  m_ch4_year_share?: number;
  /** the calendar hours `m_ch4_t` was measured over (an inventory point's months, a
   *  partly measured month by its measured minutes). When given, the stream's flow is m_ch4_t over
   *  those hours — the methane's mean flow in calendar time — and the option's hours a year decide
   *  how much of it the option treats (`m_ch4_year_share` is then not used). */
  m_ch4_hours?: number;
  upgrade?: CaptureUpgrade;
}

/** The assessment's common inputs, named as section 11's JSON block (`abatement_params`). */
export interface AbatementParams {
  rho_ch4?: number;
  gwp_ch4?: number;
  lhv_mj_per_kg?: number;
  hours_per_year?: number;
  ef_grid_t_per_mwh: number;
  price_el_rub_per_mwh: number;
  price_heat_rub_per_mwh: number;
  price_carbon_unit_rub: number;
  price_gas_rub_per_1000m3?: number;
  discount_rate: number;
  lifetime_yr: number;
}

/** Per-option inputs that replace a default (section 11's JSON names). */
export interface OptionOverrides {
  eta_destruction?: number;
  aux_kw?: number;
  capex_rub?: number;
  opex_fixed_rub?: number;
  eta_el?: number;
  eta_th?: number;
  heat_used_share?: number;
  aux_share?: number;
  capex_rub_per_kw?: number;
  opex_rub_per_kwh?: number;
  eta_boiler?: number;
  dp_pa?: number;
  eta_fan?: number;
  leakage_t_co2e?: number;
  /** 0: the electricity generated does not displace grid power (no credit in BE). */
  displaces_grid?: number;
  /** The share of the net electricity the mine or the grid takes (default 1, stated [A]). */
  el_used_share?: number;
}

export interface AbatementRequest {
  streams: readonly AbatementStream[];
  /** Per stream code, the options to evaluate (all allowed when absent). */
  options?: Readonly<Record<string, readonly string[]>>;
  /** Per stream code, the option the MACC takes (default: the lowest LAC). */
  chosen?: Readonly<Record<string, string>>;
  params: AbatementParams;
  overrides?: Readonly<Record<string, Readonly<Record<string, OptionOverrides>>>>;
}

/** One coefficient of a result, with its value, unit and where it comes from (D47). */
export interface AbatementCoefficient {
  name: string;
  label: string;
  value: number;
  unit: string;
  /** "введено" when the user gave it, otherwise the methodology's tag ([A], [R], [S23] …). */
  source: string;
}

export interface AbatementOptionResult {
  option_code: string;
  label: string;
  /** the capture upgrade this option needs (its costs included), when it does */
  enabled_by: "DRAINAGE_UPGRADE" | null;
  c_ch4_pct: number;
  q_ch4_m3_min: number;
  q_mix_m3_min: number | null;
  q_air_m3_s: number | null;
  hours_per_year: number;
  eta_destruction: number;
  v_ch4_thousand_m3: number;
  m_ch4_t: number;
  e_fuel_mwh: number;
  e_el_gross_mwh: number;
  e_el_net_mwh: number;
  p_el_kw: number;
  q_heat_sold_mwh: number;
  aux_kw: number;
  e_aux_mwh: number;
  be_ch4_t_co2e: number;
  be_el_t_co2e: number;
  be_t_co2e: number;
  pe_md_t_co2: number;
  pe_um_t_co2e: number;
  pe_me_t_co2: number;
  le_t_co2e: number;
  er_t_co2e: number;
  carbon_units: number;
  capex_rub: number | null;
  opex_fixed_rub: number | null;
  opex_rub: number | null;
  revenue_energy_rub: number | null;
  revenue_carbon_rub: number | null;
  cash_flow_rub: number | null;
  npv_rub: number | null;
  irr: number | null;
  payback_simple_yr: number | null;
  payback_discounted_yr: number | null;
  lac_rub_per_t: number | null;
  /** the costs are the methodology's estimates, not the user's («оценка, не котировка», D54) */
  costs_estimated: boolean;
  /** inputs without a default the user did not give: the economics are null until they are */
  missing: string[];
  coefficients: AbatementCoefficient[];
}

export interface AbatementStreamResult {
  code: string;
  kind: StreamKind;
  tech_code: string;
  c_ch4_pct: number;
  q_ch4_m3_min: number;
  /** why some or all options are not offered (explosive range, too lean, no flow), or null */
  notice: string | null;
  options: AbatementOptionResult[];
  /** options asked for in `options` that the stream's code does not allow, each with why */
  refused: { option_code: string; reason: string }[];
  /** the option the MACC takes, or null when no option has a cost per tonne */
  chosen: string | null;
}

export interface MaccBar {
  option_code: string;
  label: string;
  stream: string;
  lac_rub_per_t: number;
  x_start: number;
  width: number;
}

export interface AbatementResult {
  version: string;
  streams: AbatementStreamResult[];
  macc: MaccBar[];
  /** the chosen options': their ER, units, NPV and capex summed; LAC their ER-weighted mean (null without ER) */
  totals: { er_t_co2e: number; carbon_units: number; npv_rub: number; capex_rub: number; lac_rub_per_t: number | null };
}

/** What the core gives this module: its §4.10 classifier and its finance kernels. */
export interface AbatementKernels {
  techCode(c_ch4_pct: number, q_ch4_m3_min: number): string;
  thresholds: Readonly<{ q_boiler: number; q_gas_engine: number; q_vam_energy: number; q_pipeline: number; q_power_plant: number }>;
  npv(capex: number, flow: number, rate: number, years: number): number;
  irr(capex: number, flow: number, years: number): number;
  payback(capex: number, flow: number, rate: number, years: number): number;
  crf(rate: number, years: number): number;
}

/** The kernels of a loaded core, with the §4.10 flow thresholds of the dictionary (D5; the
 *  registry's defaults where none are given). */
export function abatementKernels(core: EmissionsCore, thresholds?: Partial<FlowThresholds>): AbatementKernels {
  const defaults = Object.fromEntries(
    (REGISTRY.recycle_technology.settings as readonly { name: string; default?: number }[]).map((s) => [s.name, s.default ?? 0]),
  ) as unknown as FlowThresholds;
  const t: FlowThresholds = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof FlowThresholds)[]) {
    const value = thresholds?.[key];
    if (typeof value === "number" && Number.isFinite(value)) t[key] = value;
  }
  const x = core.exports;
  return {
    thresholds: t,
    techCode: (c, q) => core.recycleTechnology(c, q, t).code,
    npv: (capex, flow, rate, years) => x.abatement_npv(capex, flow, rate, years),
    irr: (capex, flow, years) => x.abatement_irr(capex, flow, years),
    payback: (capex, flow, rate, years) => x.abatement_payback(capex, flow, rate, years),
    crf: (rate, years) => x.abatement_crf(rate, years),
  };
}

// ---- defaults (section 11.2, 11.3) ------------------------------------------------------------------

export const ABATEMENT_DEFAULTS = {
  rho_ch4: 0.668,
  gwp_ch4: DEFAULT_GWP_CH4,
  lhv_mj_per_kg: 50.0,
  hours_per_year: 8000,
} as const;

/** D50: destruction efficiency for a climate project (the inventory keeps 0,98, D3/D22). */
export const ETA_DESTRUCTION: Readonly<Record<Exclude<AbatementOptionCode, "DRAINAGE_UPGRADE">, { value: number; source: string }>> = {
  FLARE_ENCLOSED: { value: 0.9, source: "[R] Tool 06, закрытый факел" },
  FLARE_OPEN: { value: 0.5, source: "[S23] Tool 06, при контроле пламени" },
  BOILER: { value: 0.995, source: "[R] ACM0008" },
  GAS_ENGINE_CHP: { value: 0.995, source: "[R] ACM0008" },
  PIPELINE_SALE: { value: 1.0, source: "[A]" },
  VAM_RTO: { value: 0.95, source: "[A]" },
  VAM_RTO_ENERGY: { value: 0.95, source: "[A]" },
};

/** 11.3 cost and engineering estimates [A] («оценка, не котировка», D54). */
export const COST_ESTIMATES = {
  flare_capex_rub_per_m3_min: 1_000_000,
  flare_capex_min_rub: 10_000_000,
  flare_opex_share: 0.05,
  flare_blower_kw_per_m3_min: 1,
  boiler_capex_rub_per_mw_th: 10_000_000,
  boiler_opex_share: 0.03,
  boiler_eta: 0.9,
  engine_capex_rub_per_kw: 200_000,
  engine_opex_rub_per_kwh: 1.5,
  engine_eta_el: 0.4,
  engine_eta_th: 0.4,
  engine_aux_share: 0.03,
  vam_capex_rub_per_m3_s: 12_000_000,
  vam_opex_share: 0.02,
  vam_dp_pa: 3000,
  vam_eta_fan: 0.75,
  /** dilution of drained gas before an oxidiser, % CH4 (D48) */
  vam_dilution_pct: 1,
} as const;

export const CH4_TO_CO2 = 44 / 16;

/** The value a record holds under `key` as its own (the security review's R12): stream and option codes are data,
 *  so «__proto__», «constructor» or «toString» name nothing an object inherits. */
export function ownValue<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record && typeof record === "object" && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** What the user is asked for an option that sells heat (the heat is sold only as far as it is used). */
export const HEAT_DEMAND_LABEL = "Доля тепла, которую шахта или потребитель могут использовать";

/** Why a stream's code offers no use option (D48). */
export const STREAM_NOTICES: Readonly<Record<string, string>> = {
  NO_FLOW: "Дебит метана равен нулю — сокращать нечего.",
  NONE_TOO_LEAN: "Концентрация метана ниже 0,2 %: окисление невозможно, варианты не предлагаются.",
  DILUTE_AND_OXIDISE:
    "Концентрация 1–5 %: сжигание, транспортирование и продажа не предлагаются (близко к НКПР 5 %); возможно разбавление до ≤ 1 % и окисление.",
  UNSAFE_NO_USE:
    "Концентрация 5–25 %: взрывоопасный диапазон (5–15 %) или нет запаса безопасности — сжигание, транспортирование и продажа не предлагаются. Возможны повышение качества каптажа до ≥ 30 % или разбавление до ≤ 1 % с окислением.",
};

/** 18: a capture upgrade given for a stream it does not apply to is said, not dropped in silence. */
export const UPGRADE_NOT_APPLIED = {
  ventilation: "Повышение качества каптажа относится к дегазации: для вентиляционной струи оно не рассматривается.",
  usable: "Повышение качества каптажа не рассматривается: при этой концентрации варианты использования предлагаются и без него.",
  noGas: "Повышение качества каптажа не рассматривается: метана в потоке для него недостаточно.",
} as const;

/** A stream's notice: why use options are not offered, and why an upgrade given for it is not applied. */
function streamNotice(techCode: string, ignoredUpgrade: { kind: string } | undefined): string | null {
  const own = ownValue(STREAM_NOTICES, techCode) ?? null;
  if (!ignoredUpgrade) return own;
  const why =
    ignoredUpgrade.kind !== "drainage"
      ? UPGRADE_NOT_APPLIED.ventilation
      : techCode === "NO_FLOW" || techCode === "NONE_TOO_LEAN"
        ? UPGRADE_NOT_APPLIED.noGas
        : UPGRADE_NOT_APPLIED.usable;
  return own ? `${own} ${why}` : why;
}

const ALLOWED: Readonly<Record<string, readonly AbatementOptionCode[]>> = {
  NO_FLOW: [],
  NONE_TOO_LEAN: [],
  VAM_ENERGY: ["VAM_RTO", "VAM_RTO_ENERGY"],
  VAM_DESTRUCTION: ["VAM_RTO"],
  DILUTE_AND_OXIDISE: ["VAM_RTO"],
  UNSAFE_NO_USE: ["VAM_RTO"],
  FLARE_BOILER_LIMITED: ["FLARE_ENCLOSED", "BOILER"],
  PIPELINE_CNG_LNG: ["FLARE_ENCLOSED", "FLARE_OPEN", "BOILER", "GAS_ENGINE_CHP", "PIPELINE_SALE"],
  POWER_PLANT: ["FLARE_ENCLOSED", "FLARE_OPEN", "BOILER", "GAS_ENGINE_CHP"],
  GAS_ENGINE_CHP: ["FLARE_ENCLOSED", "FLARE_OPEN", "BOILER", "GAS_ENGINE_CHP"],
  BOILER: ["FLARE_ENCLOSED", "FLARE_OPEN", "BOILER"],
  FLARE: ["FLARE_ENCLOSED", "FLARE_OPEN"],
};

/** The options a §4.10 code allows (table 11.1), the flow windows from the dictionary's thresholds. */
export function allowedOptions(techCode: string, q_ch4_m3_min: number, thresholds: AbatementKernels["thresholds"]): AbatementOptionCode[] {
  return (ownValue(ALLOWED, techCode) ?? []).filter((code) => code !== "BOILER" || q_ch4_m3_min >= thresholds.q_boiler);
}

/** Why a named option is not offered for a stream's code. */
function refusal(code: string, techCode: string): string {
  if (!(ABATEMENT_OPTION_CODES as readonly string[]).includes(code) && !code.startsWith("DRAINAGE_UPGRADE+")) return "Неизвестный вариант";
  if (code === "DRAINAGE_UPGRADE" || code.startsWith("DRAINAGE_UPGRADE+")) {
    return "Повышение качества каптажа само не сокращает выбросы: задайте концентрацию после него, и варианты, которые оно делает возможными, будут предложены";
  }
  return ownValue(STREAM_NOTICES, techCode) ?? "Вариант не допускается при концентрации и дебите метана этого потока (таблица 11.1)";
}

// ---- validation ------------------------------------------------------------------------------------

const MESSAGE_REQUIRED_PRICE = (label: string) =>
  `Не задано: ${label}. У цен и коэффициента энергосистемы нет значения по умолчанию (D51, D54)`;

const PARAM_LABELS: Readonly<Record<string, string>> = {
  ef_grid_t_per_mwh: "коэффициент выбросов энергосистемы, т CO2/МВт·ч",
  price_el_rub_per_mwh: "цена электроэнергии, ₽/МВт·ч",
  price_heat_rub_per_mwh: "цена тепла, ₽/МВт·ч",
  price_carbon_unit_rub: "цена углеродной единицы, ₽",
  price_gas_rub_per_1000m3: "цена газа, ₽/тыс. м³",
  discount_rate: "ставка дисконтирования",
  lifetime_yr: "срок проекта, лет",
};

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

function number(field: string, value: unknown, min: number, max: number): number {
  if (isMissing(value)) throw new FieldError(field, "Поле обязательно для заполнения");
  if (typeof value !== "number" || !Number.isFinite(value)) throw new FieldError(field, "Значение должно быть числом");
  if (value < min) throw new FieldError(field, `Значение должно быть не меньше ${String(min).replace(".", ",")}`);
  if (value > max) throw new FieldError(field, `Значение должно быть не больше ${String(max).replace(".", ",")}`);
  return value;
}

function optional(field: string, value: unknown, fallback: number, min: number, max: number): number {
  return isMissing(value) ? fallback : number(field, value, min, max);
}

function required(name: keyof AbatementParams, value: unknown, min: number, max: number): number {
  if (isMissing(value)) throw new FieldError(`params.${name}`, MESSAGE_REQUIRED_PRICE(ownValue(PARAM_LABELS, name) ?? name));
  return number(`params.${name}`, value, min, max);
}

interface Common {
  rho: number;
  gwp: number;
  lhv: number;
  hours: number;
  ef: number;
  pEl: number;
  pHeat: number;
  pCu: number;
  pGas: number | null;
  rate: number;
  years: number;
}

function commonParams(p: AbatementParams): Common {
  return {
    rho: optional("params.rho_ch4", p.rho_ch4, ABATEMENT_DEFAULTS.rho_ch4, 0.1, 2),
    gwp: optional("params.gwp_ch4", p.gwp_ch4, ABATEMENT_DEFAULTS.gwp_ch4, 1, 1000),
    lhv: optional("params.lhv_mj_per_kg", p.lhv_mj_per_kg, ABATEMENT_DEFAULTS.lhv_mj_per_kg, 1, 100),
    hours: optional("params.hours_per_year", p.hours_per_year, ABATEMENT_DEFAULTS.hours_per_year, 0, 8784),
    ef: required("ef_grid_t_per_mwh", p.ef_grid_t_per_mwh, 0, 10),
    pEl: required("price_el_rub_per_mwh", p.price_el_rub_per_mwh, 0, 1e9),
    pHeat: required("price_heat_rub_per_mwh", p.price_heat_rub_per_mwh, 0, 1e9),
    pCu: required("price_carbon_unit_rub", p.price_carbon_unit_rub, 0, 1e9),
    pGas: isMissing(p.price_gas_rub_per_1000m3) ? null : number("params.price_gas_rub_per_1000m3", p.price_gas_rub_per_1000m3, 0, 1e9),
    rate: required("discount_rate", p.discount_rate, 0, 1),
    years: Math.round(required("lifetime_yr", p.lifetime_yr, 1, 50)),
  };
}

// ---- one option ------------------------------------------------------------------------------------

interface Flow {
  c: number;
  q: number;
  qMix: number | null;
  qAir: number | null;
  hours: number;
}

/** the electric capacity the capital costs are priced on, said in the coefficients —
 *  the gross generation over the hours of operation; the own use is taken off what is sold, not off the
 *  capacity (so the capacity is the net electricity over the hours divided by 1 − the own-use share). */
function grossCapacity(coefficients: AbatementCoefficient[], kw: number, aux: number): void {
  const share = (aux * 100).toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  coefficient(
    coefficients,
    "p_el_kw",
    "Электрическая мощность (брутто), на нее капитальные затраты",
    kw,
    "кВт",
    false,
    `выработка брутто / часы работы; собственные нужды ${share} % вычитаются из отпуска, не из мощности`,
  );
}

function coefficient(
  coefficients: AbatementCoefficient[],
  name: string,
  label: string,
  value: number,
  unit: string,
  given: boolean,
  source: string,
): number {
  coefficients.push({ name, label, value, unit, source: given ? "введено" : source });
  return value;
}

function evaluateOption(
  code: AbatementOptionCode,
  optionCode: string,
  flow: Flow,
  common: Common,
  over: OptionOverrides,
  upgrade: CaptureUpgrade | null,
  kernels: AbatementKernels,
  field: string,
): AbatementOptionResult {
  const coefficients: AbatementCoefficient[] = [];
  const given = (name: keyof OptionOverrides) => !isMissing(over[name]);
  const pick = (name: keyof OptionOverrides, fallback: number, min: number, max: number) =>
    optional(`${field}.${name}`, over[name], fallback, min, max);
  /** The coefficient `name` as the option gives it (within min..max) or its estimate, listed with where it comes from. */
  const stated = (name: keyof OptionOverrides, label: string, fallback: number, min: number, max: number, unit: string, source: string) =>
    coefficient(coefficients, name, label, pick(name, fallback, min, max), unit, given(name), source);
  const missing: string[] = [];
  /** An input without a default (what the mine can take of the energy sold, a recovery's efficiency):
   *  as given, else named in `missing` (the economics wait for it) and taken as 0. */
  const asked = (name: keyof OptionOverrides, label: string, min: number, max: number, unit: string) => {
    if (given(name)) return stated(name, label, 0, min, max, unit, "введено");
    missing.push(`${field}.${name}`);
    return 0;
  };
  /** The share of the net electricity taken: the mine's own consumption or the grid takes it whole
   *  unless the user says otherwise (stated [A]). */
  const electricityTaken = () =>
    stated(
      "el_used_share",
      "Доля электроэнергии, которую принимают шахта или сеть",
      1,
      0,
      1,
      "доля",
      "[A] потребление шахты или отпуск в сеть",
    );
  const eta = ETA_DESTRUCTION[code as Exclude<AbatementOptionCode, "DRAINAGE_UPGRADE">];
  const etaD = stated(
    "eta_destruction",
    "Эффективность уничтожения метана (климатический проект, не 0,98 инвентаризации)",
    eta.value,
    0,
    1,
    "доля",
    eta.source,
  );

  // Section 11.2: the gas the baseline would vent.
  const v = (flow.q * 60 * flow.hours) / 1000;
  const m = v * common.rho;
  const eFuel = (m * common.lhv) / 3.6;
  let estimated = false;
  let capex = Number.NaN;
  let opexFixed = 0;
  let opexVariable = 0;
  let auxKw = 0;
  let eElGross = 0;
  let eElNet = 0;
  let qHeatSold = 0;
  let gasRevenue = 0;

  const flareLike = code === "FLARE_ENCLOSED" || code === "FLARE_OPEN";
  if (flareLike) {
    const share = code === "FLARE_OPEN" ? 0.5 : 1;
    const qMix = flow.qMix ?? 0;
    auxKw = pick("aux_kw", code === "FLARE_OPEN" ? 0 : COST_ESTIMATES.flare_blower_kw_per_m3_min * qMix, 0, 1e6);
    coefficient(coefficients, "aux_kw", "Мощность воздуходувки", auxKw, "кВт", given("aux_kw"), "[A] 1 кВт на м³/мин смеси");
    const estimate = Math.max(COST_ESTIMATES.flare_capex_rub_per_m3_min * qMix, COST_ESTIMATES.flare_capex_min_rub) * share;
    capex = pick("capex_rub", estimate, 0, 1e13);
    opexFixed = pick("opex_fixed_rub", capex * COST_ESTIMATES.flare_opex_share, 0, 1e12);
    estimated = !given("capex_rub") || !given("opex_fixed_rub");
  } else if (code === "BOILER") {
    const etaB = stated("eta_boiler", "КПД котельной", COST_ESTIMATES.boiler_eta, 0, 1, "доля", "[A]");
    const heat = eFuel * etaB;
    // the heat is sold only as far as the mine or a buyer can take it, which the user states.
    qHeatSold = heat * asked("heat_used_share", HEAT_DEMAND_LABEL, 0, 1, "доля");
    const mwTh = flow.hours > 0 ? heat / flow.hours : 0;
    capex = pick("capex_rub", COST_ESTIMATES.boiler_capex_rub_per_mw_th * mwTh, 0, 1e13);
    opexFixed = pick("opex_fixed_rub", capex * COST_ESTIMATES.boiler_opex_share, 0, 1e12);
    auxKw = pick("aux_kw", 0, 0, 1e6);
    estimated = !given("capex_rub") || !given("opex_fixed_rub");
  } else if (code === "GAS_ENGINE_CHP") {
    const etaEl = stated("eta_el", "Электрический КПД", COST_ESTIMATES.engine_eta_el, 0, 1, "доля", "[A], [S25]");
    const etaTh = stated("eta_th", "Тепловой КПД", COST_ESTIMATES.engine_eta_th, 0, 1, "доля", "[A], [S25]");
    const used = etaTh > 0 ? asked("heat_used_share", HEAT_DEMAND_LABEL, 0, 1, "доля") : 0;
    const aux = stated("aux_share", "Собственные нужды", COST_ESTIMATES.engine_aux_share, 0, 1, "доля", "[A]");
    eElGross = eFuel * etaEl;
    eElNet = eElGross * (1 - aux) * electricityTaken();
    qHeatSold = eFuel * etaTh * used;
    const pElKw = flow.hours > 0 ? (eElGross / flow.hours) * 1000 : 0;
    grossCapacity(coefficients, pElKw, aux);
    const perKw = stated(
      "capex_rub_per_kw",
      "Удельные капитальные затраты",
      COST_ESTIMATES.engine_capex_rub_per_kw,
      0,
      1e9,
      "₽/кВт",
      "[A] оценка, не котировка",
    );
    const perKwh = stated(
      "opex_rub_per_kwh",
      "Удельные эксплуатационные затраты",
      COST_ESTIMATES.engine_opex_rub_per_kwh,
      0,
      1e6,
      "₽/кВт·ч",
      "[A] оценка, не котировка",
    );
    capex = pick("capex_rub", perKw * pElKw, 0, 1e13);
    opexFixed = pick("opex_fixed_rub", perKwh * eElGross * 1000, 0, 1e12);
    auxKw = pick("aux_kw", 0, 0, 1e6);
    estimated = (!given("capex_rub") && !given("capex_rub_per_kw")) || (!given("opex_fixed_rub") && !given("opex_rub_per_kwh"));
  } else if (code === "PIPELINE_SALE") {
    if (common.pGas === null) missing.push("params.price_gas_rub_per_1000m3");
    if (!given("capex_rub")) missing.push(`${field}.capex_rub`);
    capex = given("capex_rub") ? pick("capex_rub", 0, 0, 1e13) : Number.NaN;
    opexFixed = pick("opex_fixed_rub", 0, 0, 1e12);
    auxKw = pick("aux_kw", 0, 0, 1e6);
    gasRevenue = v * (common.pGas ?? 0);
  } else {
    // VAM_RTO, VAM_RTO_ENERGY: ventilation air, or drained gas diluted to ≤ 1 %.
    const qAir = flow.qAir ?? 0;
    const dp = stated("dp_pa", "Перепад давления вентилятора", COST_ESTIMATES.vam_dp_pa, 0, 1e5, "Па", "[A]");
    const etaFan = stated("eta_fan", "КПД вентилятора", COST_ESTIMATES.vam_eta_fan, 0.01, 1, "доля", "[A]");
    auxKw = pick("aux_kw", (qAir * dp) / etaFan / 1000, 0, 1e7);
    const oxidiser = COST_ESTIMATES.vam_capex_rub_per_m3_s * qAir;
    let recoveryCapex = 0;
    let recoveryOpex = 0;
    if (code === "VAM_RTO_ENERGY") {
      // no sourced recovery efficiency, so the user states both (0: that energy is not
      // recovered); what is recovered costs what an engine's electricity and a boiler's heat cost
      // (11.3 estimates [A]), the plant uses its own share of the electricity, and the heat is sold
      // only as far as the mine or a buyer can take it.
      const etaEl = asked("eta_el", "Электрический КПД утилизации (0 — электроэнергия не вырабатывается)", 0, 1, "доля");
      const etaTh = asked("eta_th", "Тепловой КПД утилизации (0 — тепло не утилизируется)", 0, 1, "доля");
      eElGross = eFuel * etaEl;
      const heat = eFuel * etaTh;
      if (etaEl > 0) {
        const aux = stated("aux_share", "Собственные нужды утилизации", COST_ESTIMATES.engine_aux_share, 0, 1, "доля", "[A] как у ГПУ");
        eElNet = eElGross * (1 - aux) * electricityTaken();
        const perKw = stated(
          "capex_rub_per_kw",
          "Удельные капитальные затраты на выработку электроэнергии",
          COST_ESTIMATES.engine_capex_rub_per_kw,
          0,
          1e9,
          "₽/кВт",
          "[A] как у ГПУ, оценка, не котировка",
        );
        const perKwh = stated(
          "opex_rub_per_kwh",
          "Удельные эксплуатационные затраты на выработку электроэнергии",
          COST_ESTIMATES.engine_opex_rub_per_kwh,
          0,
          1e6,
          "₽/кВт·ч",
          "[A] как у ГПУ, оценка, не котировка",
        );
        const recoveryKw = flow.hours > 0 ? (eElGross / flow.hours) * 1000 : 0;
        grossCapacity(coefficients, recoveryKw, aux);
        recoveryCapex += perKw * recoveryKw;
        recoveryOpex += perKwh * eElGross * 1000;
      }
      if (etaTh > 0) {
        qHeatSold = heat * asked("heat_used_share", HEAT_DEMAND_LABEL, 0, 1, "доля");
        const heatCapex = COST_ESTIMATES.boiler_capex_rub_per_mw_th * (flow.hours > 0 ? heat / flow.hours : 0);
        coefficient(
          coefficients,
          "heat_recovery_capex_rub",
          "Капитальные затраты на утилизацию тепла",
          heatCapex,
          "₽",
          false,
          "[A] как у котельной, 10 млн ₽/МВт",
        );
        recoveryCapex += heatCapex;
        recoveryOpex += heatCapex * COST_ESTIMATES.boiler_opex_share;
      }
    }
    capex = pick("capex_rub", oxidiser + recoveryCapex, 0, 1e13);
    const oxidiserPart = given("capex_rub") ? Math.max(0, capex - recoveryCapex) : oxidiser;
    opexFixed = pick("opex_fixed_rub", oxidiserPart * COST_ESTIMATES.vam_opex_share + recoveryOpex, 0, 1e12);
    estimated = !given("capex_rub") || !given("opex_fixed_rub");
  }
  if (upgrade) {
    if (!Number.isNaN(capex)) capex += upgrade.capex_rub ?? 0;
    opexFixed += upgrade.opex_fixed_rub ?? 0;
  }

  const eAux = (auxKw * flow.hours) / 1000;
  opexVariable = eAux * common.pEl;
  const displaces = pick("displaces_grid", 1, 0, 1) > 0;
  const beCh4 = m * common.gwp;
  const beEl = displaces ? eElNet * common.ef : 0;
  const be = beCh4 + beEl;
  const peMd = etaD * m * CH4_TO_CO2;
  const peUm = (1 - etaD) * m * common.gwp;
  const peMe = eAux * common.ef;
  const le = pick("leakage_t_co2e", 0, 0, 1e9);
  const er = be - peMd - peUm - peMe - le;
  const units = er > 0 ? Math.floor(er) : 0;
  coefficient(coefficients, "rho_ch4", "Плотность метана", common.rho, "кг/м³", false, "§1.1, 20 °C");
  coefficient(coefficients, "gwp_ch4", "ПГП метана", common.gwp, "", false, "D1, D12");
  coefficient(coefficients, "lhv_mj_per_kg", "Низшая теплота сгорания метана", common.lhv, "МДж/кг", false, "[R]");
  coefficient(coefficients, "ef_grid_t_per_mwh", "Коэффициент выбросов энергосистемы", common.ef, "т CO2/МВт·ч", true, "введено");

  const opex = opexFixed + opexVariable;
  const revenueEnergy = eElNet * common.pEl + qHeatSold * common.pHeat + gasRevenue;
  const revenueCarbon = units * common.pCu;
  const economics = missing.length === 0 && !Number.isNaN(capex);
  const cash = revenueEnergy + revenueCarbon - opex;
  const nullable = (x: number) => (economics && Number.isFinite(x) ? x : null);
  const crf = kernels.crf(common.rate, common.years);
  return {
    option_code: optionCode,
    label: upgrade
      ? `${ABATEMENT_OPTIONS.DRAINAGE_UPGRADE.label} + ${ABATEMENT_OPTIONS[code].label.toLowerCase()}`
      : ABATEMENT_OPTIONS[code].label,
    enabled_by: upgrade ? "DRAINAGE_UPGRADE" : null,
    c_ch4_pct: flow.c,
    q_ch4_m3_min: flow.q,
    q_mix_m3_min: flow.qMix,
    q_air_m3_s: flow.qAir,
    hours_per_year: flow.hours,
    eta_destruction: etaD,
    v_ch4_thousand_m3: v,
    m_ch4_t: m,
    e_fuel_mwh: eFuel,
    e_el_gross_mwh: eElGross,
    e_el_net_mwh: eElNet,
    p_el_kw: flow.hours > 0 ? (eElGross / flow.hours) * 1000 : 0,
    q_heat_sold_mwh: qHeatSold,
    aux_kw: auxKw,
    e_aux_mwh: eAux,
    be_ch4_t_co2e: beCh4,
    be_el_t_co2e: beEl,
    be_t_co2e: be,
    pe_md_t_co2: peMd,
    pe_um_t_co2e: peUm,
    pe_me_t_co2: peMe,
    le_t_co2e: le,
    er_t_co2e: er,
    carbon_units: units,
    capex_rub: Number.isNaN(capex) ? null : capex,
    opex_fixed_rub: opexFixed,
    opex_rub: opex,
    revenue_energy_rub: revenueEnergy,
    revenue_carbon_rub: revenueCarbon,
    cash_flow_rub: nullable(cash),
    npv_rub: nullable(kernels.npv(capex, cash, common.rate, common.years)),
    irr: nullable(kernels.irr(capex, cash, common.years)),
    payback_simple_yr: nullable(kernels.payback(capex, cash, 0, common.years)),
    payback_discounted_yr: nullable(kernels.payback(capex, cash, common.rate, common.years)),
    lac_rub_per_t: er > 0 ? nullable((capex * crf + opex - revenueEnergy) / er) : null,
    costs_estimated: estimated,
    missing,
    coefficients,
  };
}

// ---- streams and the MACC ----------------------------------------------------------------------------

function streamFlow(stream: AbatementStream, index: number, common: Common): Flow {
  const field = `streams[${index}]`;
  const c = number(`${field}.c_ch4_pct`, stream.c_ch4_pct, 0, 100);
  const hours = optional(`${field}.hours_per_year`, stream.hours_per_year, common.hours, 0, 8784);
  if (stream.kind !== "drainage" && stream.kind !== "ventilation")
    throw new FieldError(`${field}.kind`, "Вид потока: дегазация или вентиляция");
  if (!isMissing(stream.m_ch4_t)) {
    const m = number(`${field}.m_ch4_t`, stream.m_ch4_t, 0, 1e9);
    if (!(c > 0)) throw new FieldError(`${field}.c_ch4_pct`, "Концентрация должна быть больше нуля, чтобы найти расход смеси");
    if (!(hours > 0)) throw new FieldError(`${field}.hours_per_year`, "Часы работы должны быть больше нуля");
    let q: number;
    if (!isMissing(stream.m_ch4_hours)) {
      // the mean flow over the hours measured, in calendar time; the option runs its
      // own hours a year at that flow.
      const measured = number(`${field}.m_ch4_hours`, stream.m_ch4_hours, 0, 8784);
      if (!(measured > 0)) throw new FieldError(`${field}.m_ch4_hours`, "Часы измерений должны быть больше нуля");
      q = ((m / common.rho) * 1000) / (60 * measured);
    } else {
      // Measured over part of the year (an inventory point's months): the year's methane at
      // the flow of those months.
      const share = optional(`${field}.m_ch4_year_share`, stream.m_ch4_year_share, 1, 0, 1);
      if (!(share > 0)) throw new FieldError(`${field}.m_ch4_year_share`, "Доля года с измерениями должна быть больше нуля");
      q = ((m / share / common.rho) * 1000) / (60 * hours);
    }
    return stream.kind === "ventilation"
      ? { c, q, qMix: null, qAir: (q * 100) / c / 60, hours }
      : { c, q, qMix: (q * 100) / c, qAir: null, hours };
  }
  if (stream.kind === "ventilation") {
    const qAir = number(`${field}.q_air_m3_s`, stream.q_air_m3_s, 0, 100_000);
    return { c, q: (qAir * 60 * c) / 100, qMix: null, qAir, hours };
  }
  const qMix = number(`${field}.q_mix_m3_min`, stream.q_mix_m3_min, 0, 100_000);
  return { c, q: (qMix * c) / 100, qMix, qAir: null, hours };
}

/** Drained gas diluted to ≤ 1 % for an oxidiser (D48): the air flow it becomes, m³/s. */
function diluted(flow: Flow): Flow {
  if (flow.qAir !== null) return flow;
  const c = Math.min(flow.c, COST_ESTIMATES.vam_dilution_pct);
  return { ...flow, c, qAir: c > 0 ? flow.q / (c / 100) / 60 : 0 };
}

/** The MACC of the chosen options (D55): LAC ascending, ties by larger ER then code; width = ER. */
export function maccBars(streams: readonly AbatementStreamResult[]): MaccBar[] {
  const bars = streams.flatMap((stream) => {
    const option = stream.options.find((o) => o.option_code === stream.chosen);
    return option && option.lac_rub_per_t !== null
      ? [
          {
            option_code: option.option_code,
            label: option.label,
            stream: stream.code,
            lac_rub_per_t: option.lac_rub_per_t,
            width: option.er_t_co2e,
          },
        ]
      : [];
  });
  bars.sort(
    (a, b) =>
      a.lac_rub_per_t - b.lac_rub_per_t ||
      b.width - a.width ||
      (a.option_code < b.option_code ? -1 : a.option_code > b.option_code ? 1 : a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0),
  );
  let x = 0;
  return bars.map((bar) => {
    const placed = { ...bar, x_start: x };
    x += bar.width;
    return placed;
  });
}

/** The ER-weighted mean LAC of options, null when they reduce nothing. */
export function weightedLac(options: readonly AbatementOptionResult[]): number | null {
  const er = options.reduce((t, o) => t + o.er_t_co2e, 0);
  return er > 0 ? options.reduce((t, o) => t + (o.lac_rub_per_t ?? 0) * o.er_t_co2e, 0) / er : null;
}

/** Section 11 for a set of streams: options, reductions, economics and the MACC. */
export function evaluateAbatement(request: AbatementRequest, kernels: AbatementKernels): AbatementResult {
  if (!request || typeof request !== "object") throw new FieldError("streams", "Поле обязательно для заполнения");
  const common = commonParams(request.params ?? ({} as AbatementParams));
  const streams = request.streams ?? [];
  const seen = new Set<string>();
  const results = streams.map((stream, index): AbatementStreamResult => {
    const field = `streams[${index}]`;
    if (typeof stream.code !== "string" || stream.code.trim() === "")
      throw new FieldError(`${field}.code`, "Поле обязательно для заполнения");
    if (seen.has(stream.code)) throw new FieldError(`${field}.code`, `Поток «${stream.code}» указан дважды`);
    seen.add(stream.code);
    const flow = streamFlow(stream, index, common);
    const techCode = kernels.techCode(flow.c, flow.q);
    const overrides: Readonly<Record<string, OptionOverrides>> = ownValue(request.overrides, stream.code) ?? {};
    const candidates: { code: AbatementOptionCode; optionCode: string; flow: Flow; upgrade: CaptureUpgrade | null }[] = allowedOptions(
      techCode,
      flow.q,
      kernels.thresholds,
    ).map((code) => ({ code, optionCode: code, flow: code.startsWith("VAM_") ? diluted(flow) : flow, upgrade: null }));

    const upgradeApplies = techCode === "UNSAFE_NO_USE" || techCode === "FLARE_BOILER_LIMITED" || techCode === "DILUTE_AND_OXIDISE";
    if (stream.upgrade && upgradeApplies) {
      if (stream.kind !== "drainage") throw new FieldError(`${field}.upgrade`, "Повышение качества каптажа относится к дегазации");
      const c = number(`${field}.upgrade.c_ch4_pct`, stream.upgrade.c_ch4_pct, 30, 100);
      const upgrade = {
        c_ch4_pct: c,
        capex_rub: optional(`${field}.upgrade.capex_rub`, stream.upgrade.capex_rub, 0, 0, 1e13),
        opex_fixed_rub: optional(`${field}.upgrade.opex_fixed_rub`, stream.upgrade.opex_fixed_rub, 0, 0, 1e12),
      };
      const upgraded: Flow = { ...flow, c, qMix: (flow.q * 100) / c };
      const upgradedCode = kernels.techCode(c, flow.q);
      for (const code of allowedOptions(upgradedCode, flow.q, kernels.thresholds)) {
        if (!code.startsWith("VAM_")) candidates.push({ code, optionCode: `DRAINAGE_UPGRADE+${code}`, flow: upgraded, upgrade });
      }
    }

    const asked = ownValue(request.options, stream.code);
    const refused: { option_code: string; reason: string }[] = [];
    let chosenCandidates = candidates;
    if (asked !== undefined && asked !== null) {
      if (!Array.isArray(asked)) throw new FieldError(`options.${stream.code}`, "Ожидается список вариантов");
      const offered = new Set(candidates.map((c) => c.optionCode));
      for (const code of asked) if (!offered.has(code)) refused.push({ option_code: code, reason: refusal(code, techCode) });
      chosenCandidates = candidates.filter((c) => asked.includes(c.optionCode));
    }
    const options = chosenCandidates.map((c) =>
      evaluateOption(
        c.code,
        c.optionCode,
        c.flow,
        common,
        ownValue(overrides, c.optionCode) ?? {},
        c.upgrade,
        kernels,
        `overrides.${stream.code}.${c.optionCode}`,
      ),
    );
    const pick = ownValue(request.chosen, stream.code);
    let chosen: string | null = null;
    if (pick !== undefined && pick !== null && pick !== "") {
      if (!options.some((o) => o.option_code === pick)) {
        throw new FieldError(`chosen.${stream.code}`, "Выбранный вариант не допускается для этого потока или не рассчитан");
      }
      chosen = pick;
    } else {
      let best: AbatementOptionResult | null = null;
      for (const o of options) {
        if (o.lac_rub_per_t === null) continue;
        if (
          !best ||
          o.lac_rub_per_t < (best.lac_rub_per_t as number) ||
          (o.lac_rub_per_t === best.lac_rub_per_t &&
            (o.er_t_co2e > best.er_t_co2e || (o.er_t_co2e === best.er_t_co2e && o.option_code < best.option_code)))
        ) {
          best = o;
        }
      }
      chosen = best?.option_code ?? null;
    }
    return {
      code: stream.code,
      kind: stream.kind,
      tech_code: techCode,
      c_ch4_pct: flow.c,
      q_ch4_m3_min: flow.q,
      notice: streamNotice(techCode, stream.upgrade && !upgradeApplies ? stream : undefined),
      options,
      refused,
      chosen,
    };
  });
  const macc = maccBars(results);
  const chosenOptions = results.flatMap((s) => s.options.filter((o) => o.option_code === s.chosen));
  return {
    version: ABATEMENT_VERSION,
    streams: results,
    macc,
    totals: {
      er_t_co2e: chosenOptions.reduce((t, o) => t + o.er_t_co2e, 0),
      carbon_units: chosenOptions.reduce((t, o) => t + o.carbon_units, 0),
      npv_rub: chosenOptions.reduce((t, o) => t + (o.npv_rub ?? 0), 0),
      capex_rub: chosenOptions.reduce((t, o) => t + (o.capex_rub ?? 0), 0),
      lac_rub_per_t: weightedLac(chosenOptions),
    },
  };
}

// ---- how the figures are shown (the screen and the exports alike) --------------------------------------

/** Decimals each result is shown with on the screen, in the xlsx and the PDF (values stay unrounded). */
export const ABATEMENT_DECIMALS = {
  c_ch4_pct: 2,
  q_ch4_m3_min: 2,
  m_ch4_t: 2,
  be_t_co2e: 1,
  pe_md_t_co2: 1,
  pe_um_t_co2e: 1,
  pe_me_t_co2: 1,
  le_t_co2e: 1,
  er_t_co2e: 1,
  carbon_units: 0,
  e_el_net_mwh: 1,
  q_heat_sold_mwh: 1,
  p_el_kw: 1,
  capex_rub: 0,
  opex_rub: 0,
  revenue_energy_rub: 0,
  npv_rub: 0,
  irr_pct: 2,
  payback_yr: 2,
  lac_rub_per_t: 2,
} as const;

/** A figure of an option shown as a result column, with the decimals ABATEMENT_DECIMALS gives it. */
const resultColumn = <const K extends keyof AbatementOptionResult & keyof typeof ABATEMENT_DECIMALS>(key: K, label: string) =>
  ({ key, label, decimals: ABATEMENT_DECIMALS[key] }) as const;

/** The result columns shown per option, with their Russian headers and units. */
export const ABATEMENT_RESULT_COLUMNS = [
  resultColumn("m_ch4_t", "Метан, т/год"),
  resultColumn("be_t_co2e", "Базовые выбросы BE, т CO2-экв."),
  resultColumn("pe_md_t_co2", "PE_MD, т CO2"),
  resultColumn("pe_um_t_co2e", "PE_UM, т CO2-экв."),
  resultColumn("pe_me_t_co2", "PE_ME, т CO2"),
  resultColumn("er_t_co2e", "Сокращение ER, т CO2-экв./год"),
  resultColumn("carbon_units", "Углеродные единицы в год"),
  resultColumn("e_el_net_mwh", "Электроэнергия, МВт·ч/год"),
  resultColumn("q_heat_sold_mwh", "Тепло, МВт·ч/год"),
  resultColumn("capex_rub", "Капитальные затраты, ₽"),
  resultColumn("opex_rub", "Эксплуатационные затраты, ₽/год"),
  resultColumn("revenue_energy_rub", "Доход от энергии, ₽/год"),
  resultColumn("npv_rub", "ЧДД (NPV), ₽"),
  { key: "irr", label: "ВНД (IRR), %", decimals: ABATEMENT_DECIMALS.irr_pct, percent: true },
  { key: "payback_simple_yr", label: "Простой срок окупаемости, лет", decimals: ABATEMENT_DECIMALS.payback_yr },
  { key: "payback_discounted_yr", label: "Дисконтированный срок окупаемости, лет", decimals: ABATEMENT_DECIMALS.payback_yr },
  resultColumn("lac_rub_per_t", "Удельная стоимость сокращения (LAC), ₽/т CO2-экв."),
] as const satisfies readonly { key: keyof AbatementOptionResult; label: string; decimals: number; percent?: true }[];

/** A figure of the list above as shown: IRR as a percentage; null stays null («—»). */
export function shownValue(column: (typeof ABATEMENT_RESULT_COLUMNS)[number], option: AbatementOptionResult): number | null {
  const value = option[column.key] as number | null;
  if (value === null) return null;
  return "percent" in column ? value * 100 : value;
}

/** What the screen and the files call an option's own input (its name in `overrides`). */
export const OVERRIDE_LABELS: Readonly<Record<keyof OptionOverrides, string>> = {
  eta_destruction: "измеренная эффективность уничтожения",
  aux_kw: "мощность собственных нужд, кВт",
  capex_rub: "капитальные затраты, ₽",
  opex_fixed_rub: "постоянные эксплуатационные затраты, ₽/год",
  eta_el: "электрический КПД утилизации",
  eta_th: "тепловой КПД утилизации",
  heat_used_share: "доля тепла, которую шахта или потребитель могут использовать",
  aux_share: "собственные нужды, доля",
  capex_rub_per_kw: "удельные капитальные затраты, ₽/кВт",
  opex_rub_per_kwh: "удельные эксплуатационные затраты, ₽/кВт·ч",
  eta_boiler: "КПД котельной",
  dp_pa: "перепад давления вентилятора, Па",
  eta_fan: "КПД вентилятора",
  leakage_t_co2e: "утечки LE, т CO2-экв./год",
  displaces_grid: "замещение электроэнергии энергосистемы",
  el_used_share: "доля электроэнергии, которую принимают шахта или сеть",
};

/** A name of `missing` (params.x or overrides.<stream>.<option>.x) in words. */
export function missingInputLabel(path: string): string {
  if (path.startsWith("params.")) return ownValue(PARAM_LABELS, path.slice("params.".length)) ?? path;
  const name = path.slice(path.lastIndexOf(".") + 1);
  return ownValue(OVERRIDE_LABELS as Readonly<Record<string, string>>, name) ?? path;
}

const monthText = (month: string) => `${month.slice(5, 7)}.${month.slice(0, 4)}`;
const hoursText = (hours: number) => String(Math.round(hours)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");

/** the months an inventory point's figure was measured in, as the screen and the files say
 *  it: all twelve, or how few and which, taken to a year by their hours. */
export function measuredMonthsText(months: readonly string[], hours: number, yearHours: number): string {
  const named = months.map(monthText).join(", ");
  if (hours >= yearHours) return "измерения за все 12 месяцев";
  return (
    `измерения за ${months.length} из 12 месяцев (${named}): метан пересчитан на год по их ${hoursText(hours)} ч ` +
    `из ${hoursText(yearHours)} ч года, дебит — средний за эти месяцы`
  );
}

/** The label of estimated costs (D54). */
export const ESTIMATE_LABEL = "оценка, не котировка";
/** How the screen names the destruction efficiency it shows (D50). */
export const ETA_LABEL = "Эффективность уничтожения метана для климатического проекта (в инвентаризации — 0,98)";
