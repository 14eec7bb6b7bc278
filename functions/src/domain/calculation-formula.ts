// The core run on a formula type's resolved values: the one place a calculation's figures are
// computed from its inputs, for a new or edited calculation and for the trend's comparable years
// (inventory/comparable.ts), which recompute stored inputs with the current factors.
import { calculate, evaluate, type FormulaInputs } from "@core/emissions";
import { REGISTRY, type FormulaType } from "@core/registry";
import { fromCore } from "./errors";

/** Runs the core on resolved values. Field errors of the facade become 400s naming the field. */
export function computeFormula(type: FormulaType, values: Record<string, unknown>): Record<string, unknown> {
  try {
    const def = REGISTRY[type];
    const inputs = Object.fromEntries(def.inputs.map((f) => [f.name, values[f.name]]));
    const settings = Object.fromEntries(def.settings.map((f) => [f.name, values[f.name]]));
    return calculate(type, inputs as FormulaInputs<typeof type>, settings as never) as Record<string, unknown>;
  } catch (error) {
    throw fromCore(error);
  }
}

/** A new or edited calculation's figures in one call into the core (EmissionsCore.evaluate): its
 *  values within their bounds, the bound named in the unit each was typed in (`entered`), the formula
 *  and its results within theirs. Field errors become 400s naming the field, with code and bound. */
export function evaluateFormula(
  type: FormulaType,
  values: Record<string, unknown>,
  entered?: Readonly<Record<string, { readonly unit: string }>>,
): Record<string, unknown> {
  try {
    return evaluate(type, values, entered) as Record<string, unknown>;
  } catch (error) {
    throw fromCore(error);
  }
}
