// A mine's methane destruction as a climate project (methodology section 13, D67–D80): a monitoring
// period's reductions per device-hour from the minutes of its meters — flow brought to 20 °C (D70),
// gaps of a gas channel up to 15 minutes filled with the neighbour that gives less methane and hours
// with fewer than 45 measured minutes not counted (D71), the efficiency of each hour by the device's
// kind's rule (D72 flares, D73 engines and boilers; each kind one module of climate-devices/), project emissions (D74), baseline with electricity and
// heat (D75), leakage (D76), the carry of a deficit and the carbon units (D78), and the deviations
// the report lists (D79). The same code serves the API, the stored periods and the browser preview.
// Browser-safe: no Node imports.
import {
  creditsElectricity,
  DEVICE_KIND_EXPECTED,
  type DeviceKind,
  type DeviceKindSpec,
  deviceKindOf,
  EFFICIENCY_DEFAULTS,
  type KindBasis,
  type Proof,
} from "./climate-devices";
import { FieldError } from "./field-error";

export { DEVICE_KINDS, type DeviceKind } from "./climate-devices";

export const CLIMATE_RULES_VERSION = "2026.7";

/** Section 13.6's defaults; a case (or a project) overrides any of them. */
export const CLIMATE_DEFAULTS = {
  rho_ch4_kg_m3: 0.668,
  gwp_ch4: 25,
  cef_ch4_t_co2_per_t: 2.75,
  t_std_k: 293.15,
  t_normal_k: 273.15,
  t_zero_c_k: 273.15,
  p_std_kpa: 101.325,
  // Each kind's default efficiency, from its module (climate-devices/).
  ...EFFICIENCY_DEFAULTS,
  t_eg_min_c: 500.0,
  max_substituted_run_min: 15,
  min_measured_min_per_hour: 45,
  ef_grid_t_per_mwh: 0.5,
  tdl_project: 0.2,
  eta_bl_heat: 1.0,
  ef_bl_heat_t_per_tj: 94.6,
  lpg_ef_t_co2_per_t: 2.903,
} as const;

export type ClimateParams = { -readonly [K in keyof typeof CLIMATE_DEFAULTS]: number };

export const FLOW_BASES = ["standard_20C", "normal_0C", "actual"] as const;
export type FlowBasis = (typeof FLOW_BASES)[number];
export const ETA_OPTIONS = ["default", "measured"] as const;
export type EtaOption = (typeof ETA_OPTIONS)[number];

/** The gas channels (substituted by D71) and the proof channels (never substituted). */
const GAS_CHANNELS = ["q", "c", "p", "t"] as const;
type GasChannel = (typeof GAS_CHANNELS)[number];
const MINUTES_PER_HOUR = 60;
/** The longest period one evaluation covers: a leap year's hours, per device. */
export const MAX_PERIOD_HOURS = 8_784;

/** The minutes `[from, to)` of one clock hour with the values in force; null or absent: no valid value. */
export interface ClimateSegment {
  readonly from: number;
  readonly to: number;
  readonly q?: number | null;
  readonly c?: number | null;
  readonly p?: number | null;
  readonly t?: number | null;
  readonly t_eg?: number | null;
  readonly flame?: number | null;
  readonly run?: number | null;
}

/** One clock hour as minute segments, repeated `repeat` times in a row. */
export interface ClimateHourBlock {
  readonly label: string;
  readonly repeat: number;
  readonly segments: readonly ClimateSegment[];
  readonly e_gen_mwh?: number | null;
  readonly heat_gj?: number | null;
  readonly eta_meas?: number | null;
}

export interface ClimateDeviceInput {
  readonly id: string;
  readonly kind: DeviceKind;
  readonly flow_basis: FlowBasis;
  readonly eta_option?: EtaOption | null;
  readonly hours: readonly ClimateHourBlock[];
}

export interface ClimateFuel {
  readonly name: string;
  readonly t: number;
  readonly ef_t_co2_per_t: number;
}

export interface ClimatePeriodInput {
  readonly e_own_mwh?: number;
  readonly e_grid_aux_mwh?: number;
  readonly fuels?: readonly ClimateFuel[];
  readonly leakage_t_co2e?: number;
  readonly deficit_prev_t_co2e?: number;
  /** D74: the non-methane hydrocarbons the executor declares from a gas analysis, % vol. */
  readonly nmhc_pct_vol?: number | null;
}

export interface ClimateInputs {
  readonly params?: Partial<ClimateParams>;
  readonly period: ClimatePeriodInput;
  readonly devices: readonly ClimateDeviceInput[];
}

export type EtaBasis =
  | KindBasis
  | "not_proven_flame"
  | "not_proven_t_eg"
  | "not_proven_run"
  | "not_proven_run_no_data"
  | "measured"
  | "measured_fallback"
  | "no_data";

export type ChannelCounts = Partial<Record<GasChannel, number>>;

/** The figures of one hour of a block. */
export interface ClimateHour {
  readonly label: string;
  readonly repeat: number;
  readonly valid: boolean;
  readonly missing_min: ChannelCounts;
  readonly substituted_min: ChannelCounts;
  readonly v_ch4_m3: number;
  readonly m_ch4_t: number;
  readonly eta: number | null;
  readonly eta_basis: EtaBasis;
  readonly be_ch4_t_co2e: number;
  readonly pe_um_t_co2e: number;
  readonly pe_md_t_co2: number;
  readonly er_ch4_t_co2e: number;
  readonly e_gen_mwh?: number;
  readonly e_cred_mwh?: number;
  readonly heat_gj?: number;
  readonly heat_cred_gj?: number;
}

export interface ClimateDeviceSummary {
  hours: number;
  hours_valid: number;
  hours_no_data: number;
  hours_default_eta: number;
  hours_device_eta: number;
  hours_not_proven: number;
  hours_substituted: number;
  substituted_min: number;
  hours_el_not_credited: number;
  e_gen_not_credited_mwh: number;
  be_ch4: number;
  pe_um: number;
  pe_md: number;
  v_ch4_m3: number;
  m_ch4_t: number;
  e_cred_mwh: number;
  heat_cred_gj: number;
  e_gen_mwh: number;
  m_ch4_destroyed_t: number;
  er_ch4: number;
}

export type DeviationKind = "no_data" | "not_proven" | "measured_fallback" | "substituted" | "el_not_credited" | "default_used";

export interface ClimateDeviation {
  readonly device: string;
  /** The block's label, a part of it («…T10..…T11»), or null for a count over the period (defaults). */
  readonly label: string | null;
  readonly hours: number;
  readonly kind: DeviationKind;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface ClimateTotals {
  v_ch4_m3: number;
  m_ch4_t: number;
  be_ch4_t_co2e: number;
  e_gen_mwh: number;
  e_cred_mwh: number;
  e_own_mwh: number;
  e_net_mwh: number;
  be_el_t_co2: number;
  heat_cred_gj: number;
  be_heat_t_co2: number;
  be_t_co2e: number;
  pe_um_t_co2e: number;
  pe_md_t_co2: number;
  e_grid_aux_mwh: number;
  e_deficit_mwh: number;
  pe_me_t_co2: number;
  pe_fc_t_co2: number;
  pe_t_co2e: number;
  le_t_co2e: number;
  er_raw_t_co2e: number;
  deficit_prev_t_co2e: number;
  er_t_co2e: number;
  deficit_carried_t_co2e: number;
  carbon_units: number;
}

export interface ClimateDeviceResult {
  readonly id: string;
  readonly kind: DeviceKind;
  readonly summary: ClimateDeviceSummary;
  readonly blocks: ClimateHour[];
}

export interface ClimateEvaluation {
  readonly rules_version: string;
  readonly params: ClimateParams;
  readonly totals: ClimateTotals;
  readonly devices: ClimateDeviceResult[];
  readonly deviations: ClimateDeviation[];
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const minuteValue = (v: number | null | undefined) => (isNumber(v) ? v : Number.NaN);

/** D78: whole carbon units of a reduction, after rounding to 6 decimals so floating-point noise never costs a unit. */
export function carbonUnits(er: number): number {
  return Math.floor(Math.round(er * 1e6) / 1e6);
}

/** D70: a minute's flow at 20 °C and 101.325 kPa. */
function standardFlow(basis: FlowBasis, q: number, p: number, t: number, params: ClimateParams): number {
  if (basis === "standard_20C") return q;
  if (basis === "normal_0C") return (q * params.t_std_k) / params.t_normal_k;
  return q * (p / params.p_std_kpa) * (params.t_std_k / (t + params.t_zero_c_k));
}

const gasChannelsOf = (basis: FlowBasis): readonly GasChannel[] => (basis === "actual" ? GAS_CHANNELS : ["q", "c"]);

/** A device's minutes over the period, channel by channel (NaN: no valid value). */
interface DeviceMinutes {
  readonly hours: number;
  readonly gas: Record<GasChannel, Float64Array>;
  readonly flame: Float64Array;
  readonly run: Float64Array;
  readonly tEg: Float64Array;
  /** The block of each hour and its place in the block. */
  readonly blockOf: Int32Array;
  readonly offsetOf: Int32Array;
}

function checkInputs(inputs: ClimateInputs, params: ClimateParams): void {
  for (const [name, value] of Object.entries(params)) {
    if (!isNumber(value) || value < 0) throw new FieldError(`params.${name}`, "ожидается неотрицательное число");
  }
  if (params.t_normal_k <= 0 || params.t_std_k <= 0 || params.p_std_kpa <= 0) {
    throw new FieldError("params", "температуры и давление стандартных условий должны быть больше нуля");
  }
  for (const name of [...(Object.keys(EFFICIENCY_DEFAULTS) as (keyof typeof EFFICIENCY_DEFAULTS)[]), "eta_bl_heat"] as const) {
    if (params[name] > 1) throw new FieldError(`params.${name}`, "КПД — доля от 0 до 1");
  }
  if (params.eta_bl_heat <= 0) throw new FieldError("params.eta_bl_heat", "КПД замещаемой котельной должен быть больше нуля");
  const period = inputs.period;
  for (const name of ["e_own_mwh", "e_grid_aux_mwh", "leakage_t_co2e", "deficit_prev_t_co2e"] as const) {
    const value = period[name];
    if (value !== undefined && (!isNumber(value) || value < 0)) throw new FieldError(`period.${name}`, "ожидается неотрицательное число");
  }
  if (period.nmhc_pct_vol !== undefined && period.nmhc_pct_vol !== null) {
    if (!isNumber(period.nmhc_pct_vol) || period.nmhc_pct_vol < 0 || period.nmhc_pct_vol > 100) {
      throw new FieldError("period.nmhc_pct_vol", "ожидается доля НМУВ от 0 до 100 % об.");
    }
    if (period.nmhc_pct_vol > 1) throw new FieldError("period.nmhc_pct_vol", "НМУВ > 1 % — методология не поддерживается");
  }
  (period.fuels ?? []).forEach((fuel, i) => {
    if (!isNumber(fuel.t) || fuel.t < 0) throw new FieldError(`period.fuels.${i}.t`, "ожидается неотрицательное число, т");
    if (!isNumber(fuel.ef_t_co2_per_t) || fuel.ef_t_co2_per_t < 0) {
      throw new FieldError(`period.fuels.${i}.ef_t_co2_per_t`, "ожидается неотрицательный коэффициент, т CO2/т");
    }
  });
  if (inputs.devices.length === 0) throw new FieldError("devices", "укажите хотя бы одно устройство");
  const ids = new Set<string>();
  inputs.devices.forEach((device, d) => {
    const at = `devices.${d}`;
    if (ids.has(device.id)) throw new FieldError(`${at}.id`, `устройство «${device.id}» названо дважды`);
    ids.add(device.id);
    const kind = deviceKindOf(device.kind);
    if (!kind) throw new FieldError(`${at}.kind`, DEVICE_KIND_EXPECTED);
    if (!FLOW_BASES.includes(device.flow_basis)) throw new FieldError(`${at}.flow_basis`, "ожидается standard_20C, normal_0C или actual");
    if (kind.efficiency.measured === "option" && !ETA_OPTIONS.includes(device.eta_option as EtaOption)) {
      throw new FieldError(`${at}.eta_option`, `у ${kind.label_of} укажите вариант КПД: default или measured`);
    }
    let hours = 0;
    device.hours.forEach((block, b) => {
      const where = `${at}.hours.${b}`;
      if (!Number.isInteger(block.repeat) || block.repeat < 1) throw new FieldError(`${where}.repeat`, "ожидается целое число часов от 1");
      hours += block.repeat;
      let minute = 0;
      block.segments.forEach((segment, s) => {
        if (!Number.isInteger(segment.from) || !Number.isInteger(segment.to) || segment.from !== minute || segment.to <= segment.from) {
          throw new FieldError(`${where}.segments.${s}`, `отрезки часа идут подряд с минуты 0: ожидается отрезок с минуты ${minute}`);
        }
        minute = segment.to;
        for (const name of ["q", "c", "p", "t", "t_eg", "flame", "run"] as const) {
          const value = segment[name];
          if (value !== undefined && value !== null && !isNumber(value))
            throw new FieldError(`${where}.segments.${s}.${name}`, "ожидается число");
        }
        if (isNumber(segment.q) && segment.q < 0) throw new FieldError(`${where}.segments.${s}.q`, "расход не может быть отрицательным");
        if (isNumber(segment.c) && (segment.c < 0 || segment.c > 100))
          throw new FieldError(`${where}.segments.${s}.c`, "содержание метана от 0 до 100 % об.");
        if (isNumber(segment.p) && segment.p <= 0) throw new FieldError(`${where}.segments.${s}.p`, "абсолютное давление больше нуля, кПа");
        if (isNumber(segment.t) && segment.t <= -params.t_zero_c_k)
          throw new FieldError(`${where}.segments.${s}.t`, "температура выше абсолютного нуля");
      });
      if (minute !== MINUTES_PER_HOUR) throw new FieldError(`${where}.segments`, "отрезки часа покрывают минуты с 0 до 60");
      for (const name of ["e_gen_mwh", "heat_gj"] as const) {
        const value = block[name];
        if (value !== undefined && value !== null && (!isNumber(value) || value < 0))
          throw new FieldError(`${where}.${name}`, "ожидается неотрицательное число");
      }
      const eta = block.eta_meas;
      if (eta !== undefined && eta !== null && (!isNumber(eta) || eta < 0 || eta > 1)) {
        throw new FieldError(`${where}.eta_meas`, "измеренный КПД — доля от 0 до 1");
      }
    });
    if (hours === 0) throw new FieldError(`${at}.hours`, "у устройства нет ни одного часа");
    if (hours > MAX_PERIOD_HOURS)
      throw new FieldError(`${at}.hours`, `не более ${MAX_PERIOD_HOURS} часов за период`, undefined, "too_big", {
        maximum: MAX_PERIOD_HOURS,
      });
  });
}

function expand(device: ClimateDeviceInput): DeviceMinutes {
  const hours = device.hours.reduce((sum, block) => sum + block.repeat, 0);
  const n = hours * MINUTES_PER_HOUR;
  const make = () => new Float64Array(n).fill(Number.NaN);
  const gas = { q: make(), c: make(), p: make(), t: make() };
  const flame = make();
  const run = make();
  const tEg = make();
  const blockOf = new Int32Array(hours);
  const offsetOf = new Int32Array(hours);
  let hour = 0;
  device.hours.forEach((block, b) => {
    for (let r = 0; r < block.repeat; r++, hour++) {
      blockOf[hour] = b;
      offsetOf[hour] = r;
      const base = hour * MINUTES_PER_HOUR;
      for (const segment of block.segments) {
        const values = [minuteValue(segment.q), minuteValue(segment.c), minuteValue(segment.p), minuteValue(segment.t)];
        const f = minuteValue(segment.flame);
        const u = minuteValue(segment.run);
        const e = minuteValue(segment.t_eg);
        for (let i = base + segment.from; i < base + segment.to; i++) {
          gas.q[i] = values[0];
          gas.c[i] = values[1];
          gas.p[i] = values[2];
          gas.t[i] = values[3];
          flame[i] = f;
          run[i] = u;
          tEg[i] = e;
        }
      }
    }
  });
  return { hours, gas, flame, run, tEg, blockOf, offsetOf };
}

/** D71: each run of at most `maxRun` missing minutes takes the neighbouring valid value that gives less
 *  methane (the lower for Q, C, P; the higher for T; the only one at the period's edge). */
function substitute(measured: Float64Array, channel: GasChannel, maxRun: number): { values: Float64Array; substituted: Uint8Array } {
  const values = measured.slice();
  const substituted = new Uint8Array(measured.length);
  let i = 0;
  while (i < measured.length) {
    if (!Number.isNaN(measured[i])) {
      i++;
      continue;
    }
    let end = i;
    while (end < measured.length && Number.isNaN(measured[end])) end++;
    if (end - i <= maxRun) {
      const before = i > 0 ? measured[i - 1] : Number.NaN;
      const after = end < measured.length ? measured[end] : Number.NaN;
      const fill = Number.isNaN(before)
        ? after
        : Number.isNaN(after)
          ? before
          : channel === "t"
            ? Math.max(before, after)
            : Math.min(before, after);
      if (!Number.isNaN(fill)) {
        values.fill(fill, i, end);
        substituted.fill(1, i, end);
      }
    }
    i = end;
  }
  return { values, substituted };
}

/** A proof channel (flame, run) proves every minute of the hour: a valid value of 1 in each. */
function everyMinute(values: Float64Array, from: number, proves: (v: number) => boolean): boolean {
  for (let i = from; i < from + MINUTES_PER_HOUR; i++) if (Number.isNaN(values[i]) || !proves(values[i])) return false;
  return true;
}

/** D72, D73: why an hour of a kind whose destruction rests on `proof` is not proven; null when it is. */
function notProven(
  proof: Proof,
  minutes: DeviceMinutes,
  from: number,
  fed: { readonly ran: boolean; readonly stopped: boolean },
  params: ClimateParams,
): EtaBasis | null {
  switch (proof) {
    case "flame":
      return everyMinute(minutes.flame, from, (f) => f === 1) ? null : "not_proven_flame";
    case "exhaust_hot":
      return everyMinute(minutes.tEg, from, (te) => te > params.t_eg_min_c) ? null : "not_proven_t_eg";
    case "run_when_fed":
      // Never proven running: stopped while fed, or no run status in fed minutes (η 0 either way).
      return fed.ran ? null : fed.stopped ? "not_proven_run" : "not_proven_run_no_data";
    default:
      throw new Error(`нет правила подтверждения уничтожения «${String(proof satisfies never)}» (efficiency.proof)`);
  }
}

/** The label of the hour `offset` hours after the start of a block labelled «YYYY-MM-DDTHH[..…]». */
function hourLabel(blockLabel: string, offset: number): string {
  const start = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})/.exec(blockLabel);
  if (!start) return `${blockLabel} +${offset} ч`;
  const at = new Date(Date.UTC(+start[1], +start[2] - 1, +start[3], +start[4] + offset));
  return at.toISOString().slice(0, 13);
}

function spanLabel(block: ClimateHourBlock, first: number, last: number): string {
  if (first === 0 && last === block.repeat - 1) return block.label;
  const from = hourLabel(block.label, first);
  return first === last ? from : `${from}..${hourLabel(block.label, last)}`;
}

interface HourFigures extends ClimateHour {
  readonly deviations: readonly { readonly kind: DeviationKind; readonly detail: Readonly<Record<string, unknown>> }[];
}

function evaluateDevice(
  device: ClimateDeviceInput,
  params: ClimateParams,
): { result: ClimateDeviceResult; deviations: ClimateDeviation[] } {
  const minutes = expand(device);
  const channels = gasChannelsOf(device.flow_basis);
  const filled = Object.fromEntries(channels.map((ch) => [ch, substitute(minutes.gas[ch], ch, params.max_substituted_run_min)])) as Partial<
    Record<GasChannel, { values: Float64Array; substituted: Uint8Array }>
  >;
  const kind = deviceKindOf(device.kind) as DeviceKindSpec;
  const rule = kind.efficiency;
  const byKind = params[rule.parameter.name as keyof ClimateParams];
  // D75: a kind with a generation meter credits electricity; heat is a boiler's output, any kind's where metered.
  const isEngine = creditsElectricity(kind.id);
  const givesHeat = kind.heat === "always" || device.hours.some((b) => isNumber(b.heat_gj));
  // D72: the measured option's fallback is the lowest hourly efficiency the analyser gave in the period.
  const measuredEtas = device.hours.filter((b) => isNumber(b.eta_meas)).map((b) => b.eta_meas as number);
  const fallbackEta = measuredEtas.length > 0 ? Math.min(byKind, ...measuredEtas) : 0;

  const summary: ClimateDeviceSummary = {
    hours: 0,
    hours_valid: 0,
    hours_no_data: 0,
    hours_default_eta: 0,
    hours_device_eta: 0,
    hours_not_proven: 0,
    hours_substituted: 0,
    substituted_min: 0,
    hours_el_not_credited: 0,
    e_gen_not_credited_mwh: 0,
    be_ch4: 0,
    pe_um: 0,
    pe_md: 0,
    v_ch4_m3: 0,
    m_ch4_t: 0,
    e_cred_mwh: 0,
    heat_cred_gj: 0,
    e_gen_mwh: 0,
    m_ch4_destroyed_t: 0,
    er_ch4: 0,
  };
  const hourFigures: HourFigures[] = [];
  let defaultHours = 0;

  for (let h = 0; h < minutes.hours; h++) {
    const block = device.hours[minutes.blockOf[h]];
    const from = h * MINUTES_PER_HOUR;
    const missing: ChannelCounts = {};
    const substitutedMin: ChannelCounts = {};
    let valid = true;
    for (const ch of channels) {
      let measured = 0;
      let left = 0;
      let filledIn = 0;
      const { values, substituted } = filled[ch]!;
      for (let i = from; i < from + MINUTES_PER_HOUR; i++) {
        if (!Number.isNaN(minutes.gas[ch][i])) measured++;
        if (Number.isNaN(values[i])) left++;
        if (substituted[i]) filledIn++;
      }
      if (measured < params.min_measured_min_per_hour || left > 0) valid = false;
      if (measured < MINUTES_PER_HOUR) missing[ch] = MINUTES_PER_HOUR - measured;
      if (filledIn > 0) substitutedMin[ch] = filledIn;
    }
    const deviations: { kind: DeviationKind; detail: Readonly<Record<string, unknown>> }[] = [];
    summary.hours++;
    const eGen = isNumber(block.e_gen_mwh) ? block.e_gen_mwh : null;
    const heat = isNumber(block.heat_gj) ? block.heat_gj : null;
    if (eGen !== null) summary.e_gen_mwh += eGen;

    if (!valid) {
      summary.hours_no_data++;
      deviations.push({ kind: "no_data", detail: { missing_min: missing } });
      if (isEngine && eGen !== null && eGen > 0) {
        summary.hours_el_not_credited++;
        summary.e_gen_not_credited_mwh += eGen;
        deviations.push({ kind: "el_not_credited", detail: { e_gen_mwh: eGen, reason: "no_data" } });
      }
      hourFigures.push({
        label: block.label,
        repeat: block.repeat,
        valid: false,
        missing_min: missing,
        substituted_min: {},
        v_ch4_m3: 0,
        m_ch4_t: 0,
        eta: null,
        eta_basis: "no_data",
        be_ch4_t_co2e: 0,
        pe_um_t_co2e: 0,
        pe_md_t_co2: 0,
        er_ch4_t_co2e: 0,
        ...(isEngine ? { e_gen_mwh: eGen ?? 0, e_cred_mwh: 0 } : {}),
        ...(givesHeat ? { heat_gj: heat ?? 0, heat_cred_gj: 0 } : {}),
        deviations,
      });
      continue;
    }

    // D70: the hour's methane from its minutes at 20 °C.
    const q = filled.q!.values;
    const c = filled.c!.values;
    const p = filled.p?.values;
    const t = filled.t?.values;
    let v = 0;
    let ranWhenFed = true;
    // fed minutes whose run status is missing, and whether any fed minute shows it stopped.
    let runMissing = 0;
    let stoppedWhenFed = false;
    for (let i = from; i < from + MINUTES_PER_HOUR; i++) {
      const qStd = standardFlow(device.flow_basis, q[i], p ? p[i] : Number.NaN, t ? t[i] : Number.NaN, params);
      v += (qStd * c[i]) / 100;
      if (qStd > 0 && (Number.isNaN(minutes.run[i]) || minutes.run[i] !== 1)) {
        ranWhenFed = false;
        if (Number.isNaN(minutes.run[i])) runMissing++;
        else stoppedWhenFed = true;
      }
    }
    const m = (v * params.rho_ch4_kg_m3) / 1000;

    // D72, D73: the hour's efficiency by the kind's rule, and what it rests on.
    let eta: number;
    let basis: EtaBasis;
    const unproven = notProven(rule.proof, minutes, from, { ran: ranWhenFed, stopped: stoppedWhenFed }, params);
    if (unproven) {
      eta = 0;
      basis = unproven;
    } else if (rule.measured === "option" && device.eta_option === "measured") {
      eta = isNumber(block.eta_meas) ? block.eta_meas : fallbackEta;
      basis = isNumber(block.eta_meas) ? "measured" : "measured_fallback";
    } else if (rule.measured === "if_lower" && isNumber(block.eta_meas) && block.eta_meas < byKind) {
      eta = block.eta_meas;
      basis = "measured";
    } else {
      eta = byKind;
      basis = rule.basis as KindBasis;
    }

    const be = m * params.gwp_ch4;
    const peUm = m * (1 - eta) * params.gwp_ch4;
    const peMd = m * eta * params.cef_ch4_t_co2_per_t;
    const er = be - peUm - peMd;
    summary.hours_valid++;
    summary.v_ch4_m3 += v;
    summary.m_ch4_t += m;
    summary.be_ch4 += be;
    summary.pe_um += peUm;
    summary.pe_md += peMd;
    summary.er_ch4 += er;
    summary.m_ch4_destroyed_t += m * eta;
    if (basis === rule.basis) {
      defaultHours++;
      if (rule.counted_as === "device") summary.hours_device_eta++;
      else summary.hours_default_eta++;
    }
    if (eta === 0) {
      summary.hours_not_proven++;
      deviations.push({
        kind: "not_proven",
        detail:
          basis === "not_proven_run_no_data"
            ? { eta_basis: basis, m_ch4_t_per_hour: m, run_missing_min: runMissing }
            : { eta_basis: basis, m_ch4_t_per_hour: m },
      });
    }
    if (basis === "measured_fallback") deviations.push({ kind: "measured_fallback", detail: { eta } });
    const substitutedHere = Object.values(substitutedMin).reduce((sum, n) => sum + (n ?? 0), 0);
    if (substitutedHere > 0) {
      summary.hours_substituted++;
      summary.substituted_min += substitutedHere;
      deviations.push({ kind: "substituted", detail: { substituted_min: substitutedMin } });
    }
    // D75: output counts only in an hour whose methane is measured and destroyed.
    const credited = m > 0 && eta > 0;
    const eCred = isEngine && credited && eGen !== null ? eGen : 0;
    const heatCred = givesHeat && credited && heat !== null ? heat : 0;
    summary.e_cred_mwh += eCred;
    summary.heat_cred_gj += heatCred;
    if (isEngine && eGen !== null && eGen > 0 && !credited) {
      summary.hours_el_not_credited++;
      summary.e_gen_not_credited_mwh += eGen;
      deviations.push({ kind: "el_not_credited", detail: { e_gen_mwh: eGen, reason: m > 0 ? "not_proven" : "no_methane" } });
    }
    hourFigures.push({
      label: block.label,
      repeat: block.repeat,
      valid: true,
      missing_min: {},
      substituted_min: substitutedMin,
      v_ch4_m3: v,
      m_ch4_t: m,
      eta,
      eta_basis: basis,
      be_ch4_t_co2e: be,
      pe_um_t_co2e: peUm,
      pe_md_t_co2: peMd,
      er_ch4_t_co2e: er,
      ...(isEngine ? { e_gen_mwh: eGen ?? 0, e_cred_mwh: eCred } : {}),
      ...(givesHeat ? { heat_gj: heat ?? 0, heat_cred_gj: heatCred } : {}),
      deviations,
    });
  }

  // D79: a block's deviations grouped over its consecutive hours of one kind and one detail.
  const deviations: ClimateDeviation[] = [];
  const blocks: ClimateHour[] = [];
  let h = 0;
  device.hours.forEach((block) => {
    const hours = hourFigures.slice(h, h + block.repeat);
    const { deviations: _first, ...first } = hours[0];
    blocks.push(first);
    const open = new Map<string, { kind: DeviationKind; detail: Readonly<Record<string, unknown>>; first: number; last: number }>();
    const flush = (key: string) => {
      const group = open.get(key)!;
      deviations.push({
        device: device.id,
        label: spanLabel(block, group.first, group.last),
        hours: group.last - group.first + 1,
        kind: group.kind,
        detail: group.detail,
      });
      open.delete(key);
    };
    hours.forEach((hour, offset) => {
      const here = new Set<string>();
      for (const deviation of hour.deviations) {
        const key = `${deviation.kind}|${JSON.stringify(deviation.detail)}`;
        here.add(key);
        const group = open.get(key);
        if (group && group.last === offset - 1) group.last = offset;
        else {
          if (group) flush(key);
          open.set(key, { ...deviation, first: offset, last: offset });
        }
      }
      for (const key of [...open.keys()]) if (!here.has(key)) flush(key);
    });
    for (const key of [...open.keys()]) flush(key);
    h += block.repeat;
  });
  if (defaultHours > 0) {
    const parameter = rule.parameter.name;
    deviations.push({ device: device.id, label: null, hours: defaultHours, kind: "default_used", detail: { parameter, value: byKind } });
  }
  return { result: { id: device.id, kind: device.kind, summary, blocks }, deviations };
}

/** Section 13: a monitoring period's figures from its devices' minutes. Throws FieldError on input it cannot compute. */
export function evaluateClimatePeriod(inputs: ClimateInputs): ClimateEvaluation {
  const params: ClimateParams = { ...CLIMATE_DEFAULTS, ...(inputs.params ?? {}) };
  checkInputs(inputs, params);
  const devices: ClimateDeviceResult[] = [];
  const deviations: ClimateDeviation[] = [];
  for (const device of inputs.devices) {
    const evaluated = evaluateDevice(device, params);
    devices.push(evaluated.result);
    deviations.push(...evaluated.deviations);
  }
  const sum = (pick: (s: ClimateDeviceSummary) => number) => devices.reduce((total, d) => total + pick(d.summary), 0);
  const period = inputs.period;
  const eOwn = period.e_own_mwh ?? 0;
  const eGridAux = period.e_grid_aux_mwh ?? 0;
  const leakage = period.leakage_t_co2e ?? 0;
  const deficitPrev = period.deficit_prev_t_co2e ?? 0;
  const beCh4 = sum((s) => s.be_ch4);
  const eCred = sum((s) => s.e_cred_mwh);
  const eNet = eCred - eOwn;
  const beEl = Math.max(0, eNet) * params.ef_grid_t_per_mwh;
  const heatCred = sum((s) => s.heat_cred_gj);
  const beHeat = (heatCred * params.ef_bl_heat_t_per_tj) / (1000 * params.eta_bl_heat);
  const be = beCh4 + beEl + beHeat;
  const peUm = sum((s) => s.pe_um);
  const peMd = sum((s) => s.pe_md);
  const eDeficit = Math.max(0, -eNet);
  const peMe = (eGridAux + eDeficit) * params.ef_grid_t_per_mwh * (1 + params.tdl_project);
  const peFc = (period.fuels ?? []).reduce((total, fuel) => total + fuel.t * fuel.ef_t_co2_per_t, 0);
  const pe = peUm + peMd + peMe + peFc;
  const erRaw = be - pe - leakage;
  const x = erRaw - deficitPrev;
  const er = Math.max(0, x);
  const totals: ClimateTotals = {
    v_ch4_m3: sum((s) => s.v_ch4_m3),
    m_ch4_t: sum((s) => s.m_ch4_t),
    be_ch4_t_co2e: beCh4,
    e_gen_mwh: sum((s) => s.e_gen_mwh),
    e_cred_mwh: eCred,
    e_own_mwh: eOwn,
    e_net_mwh: eNet,
    be_el_t_co2: beEl,
    heat_cred_gj: heatCred,
    be_heat_t_co2: beHeat,
    be_t_co2e: be,
    pe_um_t_co2e: peUm,
    pe_md_t_co2: peMd,
    e_grid_aux_mwh: eGridAux,
    e_deficit_mwh: eDeficit,
    pe_me_t_co2: peMe,
    pe_fc_t_co2: peFc,
    pe_t_co2e: pe,
    le_t_co2e: leakage,
    er_raw_t_co2e: erRaw,
    deficit_prev_t_co2e: deficitPrev,
    er_t_co2e: er,
    deficit_carried_t_co2e: Math.max(0, -x),
    carbon_units: carbonUnits(er),
  };
  return { rules_version: CLIMATE_RULES_VERSION, params, totals, devices, deviations };
}
