// The abatement assessment's shapes (methodology section 11, D47–D55): the stateless evaluation's
// body and answer (POST v1/abatement/evaluate/) and the stored assessment (v1/abatement/assessments/).
// The names of the inputs and results are those of section 11's JSON block; the core
// (wasm-core/src/abatement.ts) checks the numbers and names a missing price in Russian.
import * as z from "zod";
import { ABATEMENT_OPTION_CODES } from "@core/abatement";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { ABATEMENT_MAX_OPTIONS, ABATEMENT_MAX_STREAMS, ABATEMENT_NAME_MAX, ABATEMENT_STREAM_CODE_MAX, LIMITS } from "./limits";

const num = (description: string) => z.number().nullable().optional().meta({ description });
const code = z.string().max(ABATEMENT_STREAM_CODE_MAX, `не длиннее ${ABATEMENT_STREAM_CODE_MAX} символов`);

export const abatementStreamSchema = z.object({
  code: code.meta({ description: "The stream's code, unique in the request (drainage_1, shaft_1 …)" }),
  kind: z.enum(["drainage", "ventilation"]),
  q_mix_m3_min: num("drainage: the mixture's flow, m³/min"),
  q_air_m3_s: num("ventilation: the air's flow, m³/s"),
  c_ch4_pct: num("CH4 in the stream, % vol"),
  m_ch4_t: num("the year's methane of the stream, t CH4: when given, the flows come from it"),
  m_ch4_year_share: num(
    "the share of the year's hours m_ch4_t was measured over (an inventory point's months with measured data): the year's methane is m_ch4_t / share; default 1. A stream naming a point takes it from the inventory",
  ),
  m_ch4_hours: num(
    "the calendar hours m_ch4_t was measured over: the stream's flow is m_ch4_t over them, the option's hours decide what it treats; a stream naming a point takes them from the inventory",
  ),
  hours_per_year: num("hours of operation a year (default params.hours_per_year, 8 000)"),
  upgrade: z
    .object({
      c_ch4_pct: num("CH4 after the upgrade, % (≥ 30)"),
      capex_rub: num("its capex, ₽"),
      opex_fixed_rub: num("its fixed opex, ₽/yr"),
    })
    .nullable()
    .optional()
    .meta({
      description:
        "A capture improvement (D48): offers the options of the raised concentration as DRAINAGE_UPGRADE+<option>, its costs added",
    }),
});

export const abatementParamsSchema = z.object({
  rho_ch4: num("CH4 density, kg/m³ (default 0.668, 20 °C)"),
  gwp_ch4: num("GWP of CH4 (default 25)"),
  lhv_mj_per_kg: num("LHV of CH4, MJ/kg (default 50.0)"),
  hours_per_year: num("hours a year (default 8 000)"),
  ef_grid_t_per_mwh: num("grid emission factor, t CO2/MWh: required, no default (D51)"),
  price_el_rub_per_mwh: num("electricity price, ₽/MWh: required, no default (D54)"),
  price_heat_rub_per_mwh: num("heat price, ₽/MWh: required, no default (D54)"),
  price_carbon_unit_rub: num("carbon unit price, ₽: required, no default (D54)"),
  price_gas_rub_per_1000m3: num("gas price, ₽ per thousand m³ of CH4: required for PIPELINE_SALE"),
  discount_rate: num("real discount rate, share: required"),
  lifetime_yr: num("project lifetime, years: required"),
});

const overrideSchema = z.strictObject({
  eta_destruction: num("destruction efficiency (climate project, D50)"),
  aux_kw: num("auxiliary power bought, kW"),
  capex_rub: num("capex, ₽"),
  opex_fixed_rub: num("fixed opex, ₽/yr"),
  eta_el: num("electrical efficiency"),
  eta_th: num("thermal efficiency"),
  heat_used_share: num(
    "the share of the heat the mine or a buyer can use: required (no default) by every option that makes heat — boiler, engine, oxidiser with heat recovery",
  ),
  aux_share: num("engine's own use, share"),
  capex_rub_per_kw: num("engine capex, ₽/kWe"),
  opex_rub_per_kwh: num("engine opex, ₽/kWh"),
  eta_boiler: num("boiler efficiency"),
  dp_pa: num("oxidiser fan pressure, Pa"),
  eta_fan: num("oxidiser fan efficiency"),
  leakage_t_co2e: num("leakage LE, t CO2-eq/yr"),
  // documented as an override yet refused true/false; either is taken.
  displaces_grid: z
    .union([z.boolean(), z.number()])
    .nullable()
    .optional()
    .transform((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v))
    .meta({ description: "true or 1: the electricity displaces grid power (credit in BE); false or 0: no credit" }),
  el_used_share: num("the share of the net electricity the mine or the grid takes (default 1, stated [A])"),
});

const optionList = z.array(z.string().max(LIMITS.abatement.optionCode)).max(ABATEMENT_MAX_OPTIONS);

/** Every option code an option may carry: the options of 11.1 and the capture upgrade's (D48). */
const USE_OPTIONS = ABATEMENT_OPTION_CODES.filter((code) => code !== "DRAINAGE_UPGRADE");
export const ABATEMENT_OFFERED_CODES = [
  ...USE_OPTIONS,
  ...USE_OPTIONS.filter((code) => !code.startsWith("VAM_")).map((code) => `DRAINAGE_UPGRADE+${code}`),
] as [string, ...string[]];

/** A record keyed by codes, every own key kept as data (the security review's R12): zod's record drops a
 *  «__proto__» key, and a stream may be coded so. At most `max` keys, each a code's length. */
function codeRecord<V extends z.ZodType>(value: V, max: number, description: string) {
  const valueSchema = z.toJSONSchema(value, { io: "input", unrepresentable: "any" });
  delete valueSchema.$schema;
  return z
    .custom<Record<string, z.input<V>>>((raw) => raw !== null && typeof raw === "object" && !Array.isArray(raw), "ожидается объект")
    .transform((raw, ctx) => {
      const keys = Object.keys(raw);
      if (keys.length > max) {
        ctx.issues.push({ code: "too_big", origin: "object", maximum: max, input: raw, message: `не больше ${max} ключей` });
        return z.NEVER;
      }
      const entries: [string, z.output<V>][] = [];
      for (const key of keys) {
        if (key.length > ABATEMENT_STREAM_CODE_MAX) {
          ctx.issues.push({ code: "custom", input: key, path: [key], message: `код не длиннее ${ABATEMENT_STREAM_CODE_MAX} символов` });
          continue;
        }
        const parsed = value.safeParse(raw[key]);
        if (parsed.success) entries.push([key, parsed.data]);
        else for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: raw[key], path: [key, ...issue.path] } as never);
      }
      return Object.fromEntries(entries) as Record<string, z.output<V>>;
    })
    .meta({ description, type: "object", additionalProperties: valueSchema, maxProperties: max });
}

/** Per option code of those an option may carry, the inputs replacing its defaults: an unknown code or field is refused. */
const optionOverrides = z.partialRecord(z.enum(ABATEMENT_OFFERED_CODES), overrideSchema);

export const abatementInputSchema = z.object({
  streams: z.array(abatementStreamSchema).max(ABATEMENT_MAX_STREAMS, `не больше ${ABATEMENT_MAX_STREAMS} потоков`),
  options: codeRecord(
    optionList,
    ABATEMENT_MAX_STREAMS,
    "Per stream code, the option codes to evaluate (all those allowed when absent); a key naming no stream is refused",
  ).optional(),
  chosen: codeRecord(
    z.string().max(LIMITS.abatement.optionCode),
    ABATEMENT_MAX_STREAMS,
    "Per stream code, the option the MACC takes (default: the lowest LAC, D55); a key naming no stream is refused",
  ).optional(),
  params: abatementParamsSchema,
  overrides: codeRecord(
    optionOverrides,
    ABATEMENT_MAX_STREAMS,
    "Per stream code and option code, inputs replacing the defaults; a key naming no stream, an unknown option code or field is refused",
  ).optional(),
});

const coefficientSchema = z.object({ name: z.string(), label: z.string(), value: z.number(), unit: z.string(), source: z.string() });
const n = z.number();
const nn = z.number().nullable();

export const abatementOptionResultSchema = z.object({
  option_code: z.string(),
  label: z.string(),
  enabled_by: z.literal("DRAINAGE_UPGRADE").nullable(),
  c_ch4_pct: n,
  q_ch4_m3_min: n,
  q_mix_m3_min: nn,
  q_air_m3_s: nn,
  hours_per_year: n,
  eta_destruction: n,
  v_ch4_thousand_m3: n,
  m_ch4_t: n,
  e_fuel_mwh: n,
  e_el_gross_mwh: n,
  e_el_net_mwh: n,
  p_el_kw: n,
  q_heat_sold_mwh: n,
  aux_kw: n,
  e_aux_mwh: n,
  be_ch4_t_co2e: n,
  be_el_t_co2e: n,
  be_t_co2e: n,
  pe_md_t_co2: n,
  pe_um_t_co2e: n,
  pe_me_t_co2: n,
  le_t_co2e: n,
  er_t_co2e: n,
  carbon_units: z.int(),
  capex_rub: nn,
  opex_fixed_rub: nn,
  opex_rub: nn,
  revenue_energy_rub: nn,
  revenue_carbon_rub: nn,
  cash_flow_rub: nn,
  npv_rub: nn,
  irr: nn,
  payback_simple_yr: nn,
  payback_discounted_yr: nn,
  lac_rub_per_t: nn,
  costs_estimated: z.boolean().meta({ description: "costs from the methodology's estimates: «оценка, не котировка» (D54)" }),
  missing: z.array(z.string()).meta({ description: "inputs without a default not given; the economics are null until they are" }),
  coefficients: z.array(coefficientSchema),
});

export const abatementResultSchema = z.object({
  version: z.string().meta({ description: "methodology version, 2026.6" }),
  streams: z.array(
    z.object({
      code: z.string(),
      kind: z.enum(["drainage", "ventilation"]),
      tech_code: z.string().meta({ description: "the stream's §4.10 code" }),
      c_ch4_pct: n,
      q_ch4_m3_min: n,
      notice: z.string().nullable().meta({ description: "why use options are not offered (explosive range …), or null" }),
      options: z.array(abatementOptionResultSchema),
      refused: z.array(z.object({ option_code: z.string(), reason: z.string() })),
      chosen: z.string().nullable(),
    }),
  ),
  macc: z.array(z.object({ option_code: z.string(), label: z.string(), stream: z.string(), lac_rub_per_t: n, x_start: n, width: n })),
  totals: z.object({ er_t_co2e: n, carbon_units: z.int(), npv_rub: n, capex_rub: n, lac_rub_per_t: nn }),
});

export { ABATEMENT_NAME_MAX };

/** Where a stream's figures come from: typed by hand, or an emission point's measured figure of a year's inventory. */
export const streamOriginSchema = z.object({
  source: z.enum(["manual", "inventory"]),
  point: z.string().nullable().meta({ description: "the emission point (drainage station, ventilation shaft) of an inventory stream" }),
  point_name: z.string().nullable(),
  facility: z.string().nullable(),
  year: z.int().nullable(),
  figure_t_ch4: z
    .number()
    .nullable()
    .meta({ description: "the inventory's figure taken, t CH4: what of the point's methane reached the air that year (D35)" }),
  months: z
    .array(z.string())
    .nullable()
    .optional()
    .meta({ description: "the months (yyyy-MM) the figure was measured in; fewer than 12: taken to a year at their flow" }),
  hours: z.number().nullable().optional().meta({ description: "the hours of those months" }),
  year_hours: z.number().nullable().optional().meta({ description: "the hours of the year (8 760 or 8 784)" }),
});

export const assessmentStreamBodySchema = abatementStreamSchema.extend({
  name: z.string().max(ABATEMENT_NAME_MAX).nullable().optional().meta({ description: "what the screen calls the stream" }),
  point: z
    .string()
    .max(LIMITS.id)
    .nullable()
    .optional()
    .meta({ description: "an emission point of the company: the stream's methane is its measured figure in the assessment's year" }),
});

export const assessmentBodySchema = abatementInputSchema.extend({
  name: z.string().min(1, "укажите название").max(ABATEMENT_NAME_MAX),
  year: z
    .int()
    .gte(REPORTING_YEAR_MIN, `ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`)
    .lte(REPORTING_YEAR_MAX, `ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`)
    .nullable()
    .optional()
    .meta({ description: "the inventory year the streams' figures and the GWP come from" }),
  streams: z.array(assessmentStreamBodySchema).max(ABATEMENT_MAX_STREAMS, `не больше ${ABATEMENT_MAX_STREAMS} потоков`),
});

export const assessmentPatchSchema = assessmentBodySchema.partial().extend({
  version: z.int().meta({ description: "the version read: a stale one is 409" }),
  archived: z.boolean().optional().meta({ description: "true: archived (listed apart, still readable); false: back" }),
});

export const abatementAssessmentSchema = z.object({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  year: z.int().nullable(),
  methodology_version: z.string(),
  input: abatementInputSchema.extend({ streams: z.array(assessmentStreamBodySchema) }),
  origins: z.record(z.string(), streamOriginSchema).meta({ description: "per stream code, where its figures come from" }),
  thresholds: z.object({
    q_boiler: z.number(),
    q_gas_engine: z.number(),
    q_vam_energy: z.number(),
    q_pipeline: z.number(),
    q_power_plant: z.number(),
    item_id: z.int().nullable(),
    item_version: z.int().nullable(),
  }),
  result: abatementResultSchema,
  archived: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  version: z.int(),
});

export const assessmentSummarySchema = abatementAssessmentSchema
  .pick({ id: true, name: true, year: true, archived: true, updated_at: true, version: true, methodology_version: true })
  .extend({ streams: z.int(), er_t_co2e: z.number(), npv_rub: z.number() });
