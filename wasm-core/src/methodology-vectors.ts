// The methodology's worked examples, gathered from the types' modules (each type's in its own module;
// section 5's as a whole is held to the methodology's copy in tests/fixtures/methodology; the formulas:
// docs/methodology.md), and a runner that puts every one of them through a facade. The Node tests check the numbers;
// the browser test runs the same runner in Chromium and demands identical numbers.
import type { EmissionsCore, SensitivityParams, SensitivityResultRow } from "./emissions-core";
import { CALCULATION_TYPES, EMISSION_TYPES, REGISTRY, TYPE_MODULES, type EmissionType } from "./registry";
import type { VectorRow, VectorsSection } from "./types/definition";

type Row = VectorRow;

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

const CONVERT_FUEL: MethodologyVectors["convert_fuel_litres_to_t"] = [
  { quantity: 1000, p: 0.84, result_t: 0.84 },
  { quantity: 1000, p: 0.735, result_t: 0.735 },
];
const CONVERT_GAS: MethodologyVectors["convert_gas_m3_to_t"] = [
  { quantity: 1000, density: 0.668, result_t: 0.668 },
  { quantity: 1000, density: 1.8393, result_t: 1.8393 },
];

/** Section 5's GWP of CH4, at which its results are given. */
const VECTORS_GWP_CH4 = 25;

/** Section 5's converter examples: no calculation type's, so they are kept here. */
const CONVERTER_VECTORS: Pick<MethodologyVectors, "convert_fuel_litres_to_t" | "convert_gas_m3_to_t"> = {
  convert_fuel_litres_to_t: CONVERT_FUEL,
  convert_gas_m3_to_t: CONVERT_GAS,
};

/** The worked examples of every type whose module gives them from `section`, by type. */
function examplesFrom(section: VectorsSection): Record<string, unknown> {
  return Object.fromEntries(
    CALCULATION_TYPES.flatMap((type) => {
      const own = TYPE_MODULES[type].vectors;
      return own?.section === section ? [[type, own.examples]] : [];
    }),
  );
}

/** Section 5 as the modules give it (each type's examples in its own module), with the GWP and the
 *  converters: emissions.test.ts holds it to the methodology's copy (tests/fixtures/methodology). */
export const vectors = { gwp_ch4: VECTORS_GWP_CH4, ...examplesFrom("section 5"), ...CONVERTER_VECTORS } as MethodologyVectors;

/** The worked examples of section 7 (second wave), one per type it adds, from the types' modules. */
export const SECTION_7_VECTORS = examplesFrom("section 7") as { torch_composition: Row[] };

/** The vector rows of every emission type, from its module. */
export const TYPE_VECTORS: Readonly<Record<EmissionType, Row[]>> = Object.fromEntries(
  EMISSION_TYPES.map((type) => {
    const rows = TYPE_MODULES[type].vectors?.examples;
    if (!Array.isArray(rows)) throw new Error(`${type}: its module gives no worked examples`);
    return [type, rows as Row[]];
  }),
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
