import { enteredValues, type EnteredValue } from "@core/entry-units";
import type { CalculationDefinition } from "@core/registry";
import type { CoefficientRequest } from "../reference/coefficients";
import { fromCore } from "../errors";
import type { StoredCalculation } from "../../ports";

/** D13: the request with the values typed in another unit in their canonical one, and what was
 *  typed (one call into the core, entry-units.ts `enteredValues`). */
export function enteredRequest(
  def: CalculationDefinition,
  request: CoefficientRequest,
  previous?: StoredCalculation,
): { request: CoefficientRequest; entered?: Record<string, EnteredValue> } {
  try {
    const { values, entered } = enteredValues(def, request.values, previous);
    return { request: { ...request, values }, ...(entered ? { entered } : {}) };
  } catch (error) {
    throw fromCore(error);
  }
}
