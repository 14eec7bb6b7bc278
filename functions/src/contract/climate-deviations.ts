// D79's deviations of a climate project's period (methodology 13.1): their codes and the Russian words
// the period's answer, the report on implementation, the verifier's pack and the screen name them by.
// No import: the web's climate screen reads it without the contract's schemas.

/** A deviation's name, by its code, as the report and the screen print it. */
export const DEVIATION_NAMES = {
  no_data: "нет данных",
  not_proven: "уничтожение не подтверждено",
  substituted: "замещено",
  measured_fallback: "КПД не измерен",
  el_not_credited: "выработка не зачтена",
  default_used: "значение по умолчанию",
} as const;

export type DeviationCode = keyof typeof DEVIATION_NAMES;

/** The codes, in the order the answer's schema lists them. */
export const DEVIATION_CODES = [
  "no_data",
  "not_proven",
  "measured_fallback",
  "substituted",
  "el_not_credited",
  "default_used",
] as const satisfies readonly DeviationCode[];
