// Methodology section 11.4's worked examples (tests/fixtures/abatement, see its README.md) as
// requests of `evaluateAbatement` / POST v1/abatement/evaluate/, and the check of a result against
// each printed figure. The core's test, the evaluate route's test and the browser test share it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AbatementParams, AbatementRequest, AbatementStream } from "@core/abatement";

type Vector = Readonly<Record<string, number | string | null>>;

export interface AbatementVectors {
  abatement_params: Readonly<Record<string, number>>;
  abatement_options: Vector[];
  macc: { option_code: string; stream: string; lac_rub_per_t: number; x_start: number; width: number }[];
  npv_irr_closed_form: {
    cash_flows: number[];
    irr: number;
    rate: number;
    npv: number;
    payback_simple_yr?: number;
    payback_discounted_at_irr_yr?: number;
  }[];
}

export const ABATEMENT_VECTORS_FILE = fileURLToPath(new URL("../fixtures/abatement/section-11-vectors.json", import.meta.url));
export const abatementVectors: AbatementVectors = JSON.parse(readFileSync(ABATEMENT_VECTORS_FILE, "utf8"));

/** Stream codes of the constructed mine (11.4 prose): case → stream. */
export const CASE_STREAM: Readonly<Record<string, string>> = { a: "drainage_1", b: "shaft_1", c: "drainage_2" };

/** The vector's per-option inputs (section 11's JSON names), passed as overrides. */
export const OVERRIDE_KEYS = [
  "eta_destruction",
  "aux_kw",
  "capex_rub",
  "opex_fixed_rub",
  "eta_el",
  "eta_th",
  "heat_used_share",
  "aux_share",
  "capex_rub_per_kw",
  "opex_rub_per_kwh",
  "dp_pa",
  "eta_fan",
] as const;

/** Figures a vector prints and the result carries under the same name. */
export const RESULT_KEYS = [
  "m_ch4_t",
  "be_t_co2e",
  "pe_md_t_co2",
  "pe_um_t_co2e",
  "pe_me_t_co2",
  "er_t_co2e",
  "carbon_units",
  "e_el_net_mwh",
  "q_heat_sold_mwh",
  "capex_rub",
  "opex_rub",
  "revenue_energy_rub",
  "npv_rub",
  "irr",
  "payback_simple_yr",
  "payback_discounted_yr",
  "lac_rub_per_t",
] as const;

export function vectorParams(): AbatementParams {
  const p = abatementVectors.abatement_params;
  return {
    rho_ch4: p.rho_ch4,
    gwp_ch4: p.gwp_ch4,
    lhv_mj_per_kg: p.lhv_mj_per_kg,
    hours_per_year: p.hours_per_year,
    ef_grid_t_per_mwh: p.ef_grid_t_per_mwh,
    price_el_rub_per_mwh: p.price_el_rub_per_mwh,
    price_heat_rub_per_mwh: p.price_heat_rub_per_mwh,
    price_carbon_unit_rub: p.price_carbon_unit_rub,
    discount_rate: p.discount_rate,
    lifetime_yr: p.lifetime_yr,
  };
}

export function vectorStream(vector: Vector): AbatementStream {
  const code = CASE_STREAM[vector.case as string];
  return vector.q_air_m3_s !== undefined
    ? { code, kind: "ventilation", q_air_m3_s: vector.q_air_m3_s as number, c_ch4_pct: vector.c_ch4_pct as number }
    : { code, kind: "drainage", q_mix_m3_min: vector.q_mix_m3_min as number, c_ch4_pct: vector.c_ch4_pct as number };
}

/** One vector as a request of its one stream and one option, its inputs as overrides. */
export function vectorRequest(vector: Vector): AbatementRequest {
  const stream = vectorStream(vector);
  const option = vector.option_code as string;
  const overrides: Record<string, number> = {};
  for (const key of OVERRIDE_KEYS) if (typeof vector[key] === "number") overrides[key] = vector[key] as number;
  return {
    streams: [stream],
    options: { [stream.code]: [option] },
    params: vectorParams(),
    overrides: { [stream.code]: { [option]: overrides } },
  };
}

/** The constructed mine of 11.4 (c): three streams, one option each, every cost by default; the
 *  inputs without a default its cases give (the engine's heat used, 0.5 in case (a)) as overrides. */
export function constructedMineRequest(): AbatementRequest {
  const first = (c: string) => abatementVectors.abatement_options.find((v) => v.case === c) as Vector;
  const byCase = (c: string) => vectorStream(first(c));
  return {
    streams: [byCase("a"), byCase("b"), byCase("c")],
    options: { drainage_1: ["GAS_ENGINE_CHP"], shaft_1: ["VAM_RTO"], drainage_2: ["FLARE_ENCLOSED"] },
    params: vectorParams(),
    overrides: { drainage_1: { GAS_ENGINE_CHP: { heat_used_share: first("a").heat_used_share as number } } },
  };
}

/** Digits after the point a figure is printed with in the methodology's prose or JSON. */
function agreesAsPrinted(actual: number, expected: number): boolean {
  const { rel_tol: rel, abs_tol: abs } = abatementVectors.abatement_params;
  if (Math.abs(actual - expected) <= Math.max(rel * Math.abs(expected), abs)) return true;
  // A figure printed with 6 significant digits (111 475, 0.364549) holds to half its last digit.
  const digits = 6;
  const scale = 10 ** (Math.floor(Math.log10(Math.abs(expected))) - digits + 1);
  return Math.abs(actual - expected) <= scale / 2 + 1e-12 * Math.abs(expected);
}

/** Each figure the vector prints against the result: the list of disagreements (empty when all hold). */
export function vectorMismatches(vector: Vector, result: Readonly<Record<string, unknown>>): string[] {
  const wrong: string[] = [];
  for (const key of RESULT_KEYS) {
    if (!(key in vector)) continue;
    const expected = vector[key];
    const actual = result[key];
    if (expected === null) {
      if (actual !== null) wrong.push(`${key}: ${String(actual)}, expected null`);
    } else if (key === "carbon_units") {
      if (actual !== expected) wrong.push(`${key}: ${String(actual)}, expected ${expected}`);
    } else if (typeof actual !== "number" || !agreesAsPrinted(actual, expected as number)) {
      wrong.push(`${key}: ${String(actual)}, expected ${expected}`);
    }
  }
  return wrong;
}

export function maccMismatches(
  macc: readonly { option_code: string; stream: string; lac_rub_per_t: number; x_start: number; width: number }[],
): string[] {
  const wrong: string[] = [];
  const expected = abatementVectors.macc;
  if (macc.length !== expected.length) wrong.push(`${macc.length} bars, expected ${expected.length}`);
  expected.forEach((bar, i) => {
    const got = macc[i];
    if (!got) return;
    if (got.option_code !== bar.option_code || got.stream !== bar.stream)
      wrong.push(`bar ${i}: ${got.option_code}/${got.stream}, expected ${bar.option_code}/${bar.stream}`);
    for (const key of ["lac_rub_per_t", "x_start", "width"] as const) {
      if (!agreesAsPrinted(got[key], bar[key])) wrong.push(`bar ${i} ${key}: ${got[key]}, expected ${bar[key]}`);
    }
  });
  return wrong;
}

/** The largest abatement request the API takes (the security review's R4): 50 streams at every bound — codes, names
 *  and option lists at their longest, every number with 17 significant digits and an exponent, every
 *  option any stream may carry with every input of its own — so the body's cap is shown to hold it. */
export function largestAbatementBody(limits: {
  streams: number;
  optionsPerStream: number;
  streamCode: number;
  optionCode: number;
  name: number;
  id: number;
  offered: readonly string[];
  overrideKeys: readonly string[];
}): Record<string, unknown> {
  const n = -1.2345678901234567e-123;
  const code = (i: number) => `${String(i).padStart(2, "0")}${"к".repeat(limits.streamCode - 2)}`;
  const codes = Array.from({ length: limits.streams }, (_, i) => code(i));
  const fields = Object.fromEntries(limits.overrideKeys.map((k) => [k, n]));
  return {
    name: "О".repeat(limits.name),
    year: 2026,
    streams: codes.map((c) => ({
      code: c,
      name: "П".repeat(limits.name),
      point: "x".repeat(limits.id),
      kind: "ventilation",
      q_mix_m3_min: n,
      q_air_m3_s: n,
      c_ch4_pct: n,
      m_ch4_t: n,
      m_ch4_year_share: n,
      hours_per_year: n,
      upgrade: { c_ch4_pct: n, capex_rub: n, opex_fixed_rub: n },
    })),
    options: Object.fromEntries(
      codes.map((c) => [c, Array.from({ length: limits.optionsPerStream }, () => "О".repeat(limits.optionCode))]),
    ),
    chosen: Object.fromEntries(codes.map((c) => [c, "О".repeat(limits.optionCode)])),
    params: Object.fromEntries(
      [
        "rho_ch4",
        "gwp_ch4",
        "lhv_mj_per_kg",
        "hours_per_year",
        "ef_grid_t_per_mwh",
        "price_el_rub_per_mwh",
        "price_heat_rub_per_mwh",
        "price_carbon_unit_rub",
        "price_gas_rub_per_1000m3",
        "discount_rate",
        "lifetime_yr",
      ].map((k) => [k, n]),
    ),
    overrides: Object.fromEntries(codes.map((c) => [c, Object.fromEntries(limits.offered.map((o) => [o, fields]))])),
  };
}
