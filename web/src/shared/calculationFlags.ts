// What a reader of a calculation should check (methodology D10), as the API lists it in `flags`:
// a custom coefficient («Фактическое значение») without a justification, or outside its plausible band.
import { REGISTRY, type CalculationType, type NumberField } from "@core/registry";

const KINDS: Record<string, string> = {
  custom_without_justification: "фактическое значение без обоснования",
  custom_out_of_range: "фактическое значение вне правдоподобного диапазона",
  // D23: the dictionary field's band was applied instead.
  custom_without_uncertainty: "неопределенность не указана",
};

function fieldLabel(type: CalculationType, name: string): string {
  const def = REGISTRY[type];
  const field = [...def.inputs, ...def.settings].find((f) => f.name === name) as NumberField | undefined;
  return field?.label ?? name;
}

/** «Коэффициент выбросов CH4 при подземной добыче: фактическое значение без обоснования». */
export function flagText(type: CalculationType, flag: string): string {
  const [kind, field = ""] = flag.split(":");
  return `${fieldLabel(type, field)}: ${KINDS[kind] ?? kind}`;
}

export const flagTexts = (type: CalculationType, flags: readonly string[] | undefined): string[] =>
  (flags ?? []).map((f) => flagText(type, f));
