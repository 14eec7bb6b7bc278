// How a stored coefficient's source reads, on the screen and in every export alike (methodology
// D9, D10): a dictionary entry is named with its version where shown; the others by these labels.
import { type CalculationDefinition, isCalculationType, REGISTRY } from "./registry";

export const COEFFICIENT_SOURCE_KINDS = ["dictionary", "custom", "fixed", "input", "default", "order_default", "periods"] as const;
export type CoefficientSourceKind = (typeof COEFFICIENT_SOURCE_KINDS)[number];

export const COEFFICIENT_SOURCE_LABELS: Record<Exclude<CoefficientSourceKind, "dictionary">, string> = {
  custom: "Фактическое значение",
  fixed: "Фиксированное значение",
  // A setting left at the methodology's value (sensitivity's ρ, k_tr, δ): fixed by the method too.
  default: "Фиксированное значение (по умолчанию)",
  // D28: an input left out takes the value Order 371 gives it (the oxidation factor 1.0).
  order_default: "По умолчанию (Приказ № 371)",
  input: "Введено пользователем",
  // D14: a mixture's content derived from the measurement periods (their volume-weighted mean).
  periods: "Рассчитано по периодам",
};

/** D29: tiers as a verifier reads them, on the screen, in exports and in the passport alike. */
export type Tier = 1 | 2 | 3;
export const TIER_LABELS: Record<Tier, string> = {
  1: "Уровень 1 (значение по умолчанию)",
  2: "Уровень 2 (коэффициент организации)",
  3: "Уровень 3 (измерения организации)",
};

/** D29: a value computed from the facility's own measurements (flow, contents, periods) is tier 3;
 *  the facility's own factor (or another value it gave) tier 2; a dictionary or fixed default tier 1. */
export function tierOf(type: string, field: string, source: CoefficientSourceKind): Tier {
  if (source === "periods") return 3;
  if (source !== "custom" && source !== "input") return 1;
  // The fields its module names as measured (formula 3.1, flaring by composition, combustion of drained gas).
  const def: CalculationDefinition | undefined = isCalculationType(type) ? REGISTRY[type] : undefined;
  const measured = def?.measured ?? [];
  return measured.includes(field) ? 3 : 2;
}
