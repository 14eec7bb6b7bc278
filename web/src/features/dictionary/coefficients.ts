// One table row per coefficient (item × field), so every value is shown with its unit and its
// source; the item's name, version and effective date span its rows.
import { coefficientFields, type DictionaryEntry } from "./api";
import { coefficientLabel, type EmissionCategory } from "./categories";

export interface CoefficientRow {
  key: string;
  itemId: number;
  itemName: string;
  field: string;
  label: string;
  symbol: string | undefined;
  value: string;
  unit: string;
  source: string;
  version: number;
  effectiveFrom: string;
  /** Rows the item's merged cells span: its field count on its first row, 0 on the others. */
  itemSpan: number;
}

export function coefficientRows(category: EmissionCategory, entries: readonly DictionaryEntry[]): CoefficientRow[] {
  return entries.flatMap((entry) => {
    const fields = coefficientFields(entry);
    return fields.map((field, position) => ({
      key: `${entry.id}:${field}`,
      itemId: entry.id,
      itemName: entry.name,
      field,
      label: coefficientLabel(category, field),
      symbol: category.symbols[field],
      // Reference values are shown as stored: their precision is part of the source.
      value: String(entry[field]),
      unit: entry.units[field] ?? "",
      source: entry.sources?.[field] ?? "",
      version: entry.version,
      effectiveFrom: entry.effective_from,
      itemSpan: position === 0 ? fields.length : 0,
    }));
  });
}
