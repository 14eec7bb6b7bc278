// How a stored coefficient's source reads, on the screen and in every export alike (methodology
// D9, D10): a dictionary entry is named with its version where shown; the others by these labels.
export type CoefficientSourceKind = "dictionary" | "custom" | "fixed" | "input" | "default" | "order_default" | "periods";

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
