// /dictionary: the emission categories of the reference page (the earlier product's 8, then an earlier round's
// flaring by composition), each declared by its calculation type's module (wasm-core/src/types/<type>.ts):
// its index (the coefficient-table index of docs/user-guide.md), the formula of docs/methodology.md
// (Calculation types) in the symbols of its coefficient tables, the normative document it comes from,
// and the dictionaries whose coefficients it shows. The type's title is read from the registry.
import { CALCULATION_TYPES, REGISTRY, TYPE_MODULES, type CalculationType, type ReferenceCategory } from "@core/registry";

export interface EmissionCategory extends ReferenceCategory {
  readonly type: CalculationType;
}

/** The categories, as the types' modules declare them (wasm-core/src/types/<type>.ts), in index order. */
export const CATEGORIES: readonly EmissionCategory[] = CALCULATION_TYPES.flatMap((type) => {
  const reference = TYPE_MODULES[type].reference;
  return reference ? [{ ...reference, type }] : [];
}).sort((a, b) => a.index - b.index);

/** «Тип расчета»: the registry's title of the category's calculation type. */
export function typeTitle(category: EmissionCategory): string {
  return REGISTRY[category.type].title;
}

// The fuel density of the converter's brands is the one dictionary field no calculation input has.
const EXTRA_LABELS: Readonly<Record<string, string>> = {
  p: "Плотность топлива",
};

/** The coefficient's label as the calculation dialog shows it (registry input label). */
export function coefficientLabel(category: EmissionCategory, field: string): string {
  const input = REGISTRY[category.type].inputs.find((candidate) => candidate.name === field);
  return input?.label ?? EXTRA_LABELS[field] ?? field;
}
