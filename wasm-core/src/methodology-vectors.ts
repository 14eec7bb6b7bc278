// The methodology's test vectors, its section 5 (methodology-vectors.json is that JSON block verbatim; the formulas: docs/methodology.md),
// the worked examples of section 7, and a runner that puts every one of them through a facade. The Node tests check the numbers;
// the browser test runs the same runner in Chromium and demands identical numbers.
import vectorsJson from "./methodology-vectors.json";
import type { EmissionsCore, SensitivityParams, SensitivityResultRow } from "./emissions-core";
import { EMISSION_TYPES, REGISTRY, TYPE_MODULES, type EmissionType } from "./registry";

type Row = Readonly<Record<string, number | string>>;

export interface MethodologyVectors {
  gwp_ch4: number;
  underground_emission_ch4: Row[];
  handling_underground_ch4: Row[];
  open_mining_ch4: Row[];
  open_mining_co2: Row[];
  underground: Row[];
  disposal_co2_torch: Row[];
  torch_ch4: Row[];
  disposal_co2_stat_sources: Row[];
  convert_fuel_litres_to_t: { quantity: number; p: number; result_t: number }[];
  convert_gas_m3_to_t: { quantity: number; density: number; result_t: number }[];
  recycle_technology: { metan: number; a_metan: number; code: string }[];
  sensitivity: {
    params: Pick<SensitivityParams, "rho" | "gwp_ch4" | "k_tr" | "delta">;
    // The worked example gives the point coefficients of every year, not the arc elasticities.
    rows: (Omit<SensitivityResultRow, "sn_volume" | "sn_methan" | "el_volume" | "el_methan"> & { sn_volume: number; sn_methan: number })[];
    tolerance_abs_sn: number;
  };
  filling_blanks: { years: number[]; values: (number | null)[]; filled: number[]; tolerance_abs?: number }[];
}

export const vectors: MethodologyVectors = vectorsJson;

/** Worked examples of section 7 (second wave), one per type it adds: 7.1 torch_composition at GWP 25,
 *  20 °C densities, smokeless flare CF 0.0006; W_C4H10 and W_C5H12 left out (= 0). */
export const SECTION_7_VECTORS: { torch_composition: Row[] } = {
  torch_composition: [
    {
      volume: 2500,
      w_ch4: 60,
      w_co2: 5,
      w_c2h6: 1,
      w_c3h8: 0.5,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1.2592197267,
      ef_ch4: 0.00024048,
      res_co2: 3148.04931675,
      res_ch4: 0.6012,
      res_ch4_to_co2: 15.03,
      sum_co2: 3163.07931675,
    },
  ],
};

/** The vector rows of an emission type, where its module says they are. */
function rowsOf(type: EmissionType): Row[] {
  const where = TYPE_MODULES[type].vectors;
  const section = where === "section 5" ? vectors : where === "section 7" ? SECTION_7_VECTORS : {};
  const rows = (section as Readonly<Record<string, unknown>>)[type];
  if (!Array.isArray(rows)) throw new Error(`${type}: no methodology vectors where its module points (${String(where)})`);
  return rows as Row[];
}

/** The vector rows of every emission type: section 5, then section 7. */
export const TYPE_VECTORS: Readonly<Record<EmissionType, Row[]>> = Object.fromEntries(
  EMISSION_TYPES.map((type) => [type, rowsOf(type)]),
) as Record<EmissionType, Row[]>;

/** Input values of a vector row, by the registry's input names. */
export function inputsOf(type: EmissionType, row: Row): Record<string, number> {
  const inputs: Record<string, number> = {};
  for (const field of REGISTRY[type].inputs) {
    if (field.name in row) inputs[field.name] = row[field.name] as number;
  }
  return inputs;
}

/** The recycle_technology rows of 4.10 that must be rejected (C %, Q m³/min). */
export const RECYCLE_INVALID: readonly { metan: number; a_metan: number; field: string }[] = [
  { metan: -1, a_metan: 5, field: "metan" },
  { metan: 101, a_metan: 5, field: "metan" },
  { metan: 40, a_metan: -2, field: "a_metan" },
];

/**
 * Every section-5 vector through `core`: single calculations at GWP 25 and 28, one batch per type
 * (copied in, and written in place),
 * converters, technologies (and the rejected rows), sensitivity and gap filling. Plain JSON out.
 */
export function computeVectors(core: EmissionsCore): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of EMISSION_TYPES) {
    const rows = TYPE_VECTORS[type];
    out[type] = rows.map((row) => ({
      gwp25: core.calculate(type, inputsOf(type, row), { gwp_ch4: 25 }),
      gwp28: core.calculate(type, inputsOf(type, row), { gwp_ch4: 28 }),
    }));
    const columns: Record<string, number[]> = {};
    for (const row of rows) {
      for (const [name, value] of Object.entries(inputsOf(type, row))) (columns[name] ??= []).push(value);
    }
    const batch = core.calculateBatch(type, columns) as Record<string, Float64Array>;
    out[`${type}:batch`] = Object.fromEntries(Object.entries(batch).map(([name, column]) => [name, Array.from(column)]));
    // The same rows written straight into the core's memory.
    const inPlace = core.openBatch(type, rows.length);
    for (const [name, values] of Object.entries(columns)) (inPlace.inputs as Record<string, Float64Array>)[name].set(values);
    const results = inPlace.run() as Record<string, Float64Array>;
    out[`${type}:in place`] = Object.fromEntries(Object.entries(results).map(([name, column]) => [name, Array.from(column)]));
  }
  out.convert_fuel_litres_to_t = vectors.convert_fuel_litres_to_t.map((v) => core.fuelLitresToTonnes(v.quantity, v.p));
  out.convert_gas_m3_to_t = vectors.convert_gas_m3_to_t.map((v) => core.gasM3ToTonnes(v.quantity, v.density));
  out.recycle_technology = vectors.recycle_technology.map((v) => core.recycleTechnology(v.metan, v.a_metan));
  out.recycle_technology_invalid = RECYCLE_INVALID.map((v) => {
    try {
      return core.recycleTechnology(v.metan, v.a_metan);
    } catch (error) {
      const { name, message, field } = error as Error & { field?: string };
      return { error: name, field, message };
    }
  });
  out.sensitivity = core.sensitivity(vectors.sensitivity.rows, vectors.sensitivity.params);
  out.filling_blanks = vectors.filling_blanks.map((v) => core.fillBlanks(v.years, v.values));
  return out;
}
