// Node entry of the emission core: the same emissions.wasm the browser loads (emissions-browser.ts),
// read from wasm-core/build and instantiated synchronously on first use.
import { readWasmFile } from "./wasm-file";
import {
  EmissionsCore,
  type BatchColumns,
  type BatchResults,
  type Coefficients,
  type FieldWarning,
  type FilledValue,
  type FlowThresholds,
  type FormulaInputs,
  type FormulaResults,
  type InPlaceBatch,
  type RecycleTechnology,
  type SensitivityParams,
  type SensitivityResultRow,
  type SensitivityRow,
} from "./emissions-core";
import type { EmissionType, FormulaType } from "./registry";

export * from "./emissions-core";

let instance: EmissionsCore | undefined;

/** The process-wide core instance (loaded once; the facade is not re-entrant, JS is single-threaded). */
export function emissionsCore(): EmissionsCore {
  return (instance ??= EmissionsCore.fromBytes(readWasmFile("emissions")));
}

export function calculate<T extends FormulaType>(type: T, inputs: FormulaInputs<T>, coefficients?: Coefficients<T>): FormulaResults<T> {
  return emissionsCore().calculate(type, inputs, coefficients);
}

/** One formula calculation as a create or an edit stores it: bounds, sums, formula, results' bounds (EmissionsCore.evaluate). */
export function evaluate<T extends FormulaType>(
  type: T,
  values: Readonly<Record<string, unknown>>,
  entered?: Readonly<Record<string, { readonly unit: string }>>,
): FormulaResults<T> {
  return emissionsCore().evaluate(type, values, entered);
}

export function calculateBatch<T extends EmissionType>(
  type: T,
  columns: BatchColumns<T>,
  coefficients?: Coefficients<T>,
  out?: Partial<BatchResults<T>>,
): BatchResults<T> {
  return emissionsCore().calculateBatch(type, columns, coefficients, out);
}

/** A batch whose columns the caller fills in the core's memory (no copy; EmissionsCore.openBatch). */
export function openBatch<T extends EmissionType>(type: T, rows: number): InPlaceBatch<T> {
  return emissionsCore().openBatch(type, rows);
}

export function warnings<T extends FormulaType>(type: T, inputs: FormulaInputs<T>): FieldWarning[] {
  return emissionsCore().warnings(type, inputs);
}

export function fuelLitresToTonnes(quantity: unknown, p: unknown): number {
  return emissionsCore().fuelLitresToTonnes(quantity, p);
}

export function gasM3ToTonnes(quantity: unknown, density: unknown): number {
  return emissionsCore().gasM3ToTonnes(quantity, density);
}

export function recycleTechnology(metan: unknown, a_metan: unknown, thresholds?: Partial<FlowThresholds>): RecycleTechnology {
  return emissionsCore().recycleTechnology(metan, a_metan, thresholds);
}

export function sensitivity(rows: readonly SensitivityRow[], params?: Partial<SensitivityParams>): SensitivityResultRow[] {
  return emissionsCore().sensitivity(rows, params);
}

export function fillBlanks(years: readonly number[], values: readonly (number | null | undefined)[]): FilledValue[] {
  return emissionsCore().fillBlanks(years, values);
}
