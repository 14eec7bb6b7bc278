// The coefficients a bench's stored calculations carry, as the API records them (docs/methodology.md, D9).
import type { CoefficientUse } from "@server/ports";

/** A value taken from a dictionary row. */
export const fromDictionary = (dictionary: string, value: number, unit: string, item = 1): CoefficientUse => ({
  value,
  unit,
  source: "dictionary",
  dictionary,
  item_id: item,
  item_name: `Запись ${item}`,
  item_version: 1,
  reference: "[T] Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2",
});

/** A value the user typed. */
export const typed = (value: number, unit: string): CoefficientUse => ({ value, unit, source: "input" });
