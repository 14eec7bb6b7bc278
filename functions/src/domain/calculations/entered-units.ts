import { checkEntered, toCanonical, unitFields, type EnteredValue } from "@core/entry-units";
import type { CalculationDefinition } from "@core/registry";
import type { CoefficientRequest } from "../reference/coefficients";
import { fromCore, Invalid } from "../errors";
import type { StoredCalculation } from "../../ports";
import { fieldMessage } from "../../contract/field-errors";

/** Relative difference below which a canonical value sent beside `entered` is the same number. */
const SAME = 1e-12;

export function enteredRequest(
  def: CalculationDefinition,
  request: CoefficientRequest,
  previous?: StoredCalculation,
): { request: CoefficientRequest; entered?: Record<string, EnteredValue> } {
  const { entered: raw, ...values } = request.values;
  let sent: Record<string, EnteredValue>;
  try {
    sent = checkEntered(def, raw);
  } catch (error) {
    throw fromCore(error);
  }
  const entered: Record<string, EnteredValue> = {};
  for (const [name, field] of unitFields(def)) {
    const typed = sent[name];
    if (typed) {
      const canonical = toCanonical(field, typed);
      // On an edit the stored canonical value is merged in: only a value sent now must agree.
      const given = values[name] === previous?.inputs[name] ? undefined : values[name];
      if (typeof given === "number" && Math.abs(given - canonical) > SAME * Math.max(1, Math.abs(canonical))) {
        throw new Invalid(fieldMessage(name, `значение ${given} ${field.unit} не совпадает с введённым (${typed.value} ${typed.unit})`));
      }
      values[name] = canonical;
      entered[name] = typed;
    } else if (previous?.entered?.[name] && values[name] === previous.inputs[name]) {
      entered[name] = previous.entered[name];
    }
  }
  return { request: { ...request, values }, ...(Object.keys(entered).length ? { entered } : {}) };
}
