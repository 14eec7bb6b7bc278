// One table row per coefficient (item × field), so every value is shown with its unit and its
// source; the item's name, version and effective date span its rows. Sources are long and mostly
// shared by a whole table, so a row carries the number of its source in the table's source list.
import { formatStoredIn, YEAR_UNIT } from "../../shared/decimals";
import { uncertaintyText } from "../../shared/uncertainty/texts";
import { coefficientFields, type DictionaryEntry } from "../../api/dictionary";
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
  /** 1-based position of `source` in CoefficientTableData.sources. */
  sourceNumber: number;
  /** The value's 95 % interval and distribution in words, "—" when it is taken as exact. */
  uncertainty: string;
  uncertaintySource: string;
  version: number;
  effectiveFrom: string;
  /** Rows the item's merged cells span: its field count on its first row, 0 on the others. */
  itemSpan: number;
}

export interface CoefficientTableData {
  rows: CoefficientRow[];
  /** The distinct sources, in order of first use. */
  sources: string[];
}

export function coefficientTable(category: EmissionCategory, entries: readonly DictionaryEntry[]): CoefficientTableData {
  const sources: string[] = [];
  const numberOf = (source: string) => {
    if (!sources.includes(source)) sources.push(source);
    return sources.indexOf(source) + 1;
  };
  const rows = entries.flatMap((entry) => {
    const fields = coefficientFields(entry);
    return fields.map((field, position) => {
      const source = entry.sources?.[field] ?? "";
      return {
        key: `${entry.id}:${field}`,
        itemId: entry.id,
        itemName: entry.name,
        field,
        label: coefficientLabel(category, field),
        symbol: category.symbols[field],
        // Reference values are shown as stored (their precision is part of the source), Russian style.
        value: typeof entry[field] === "number" ? formatStoredIn(entry[field], entry.units[field]) : String(entry[field] ?? ""),
        // A year needs no unit beside it.
        unit: entry.units[field] === YEAR_UNIT ? "" : (entry.units[field] ?? ""),
        source,
        sourceNumber: numberOf(source),
        uncertainty: entry.uncertainty?.[field] ? uncertaintyText(entry.uncertainty[field]) : "—",
        uncertaintySource: entry.uncertainty?.[field]?.source ?? "",
        version: entry.version,
        effectiveFrom: entry.effective_from,
        itemSpan: position === 0 ? fields.length : 0,
      };
    });
  });
  return { rows, sources };
}
