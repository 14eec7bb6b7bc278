// How the calculations screen writes numbers and sources (docs/user-guide.md, methodology D8, D9): results in
// tonnes rounded to their registry decimals (2), Russian style — digits grouped by a no-break
// space, a decimal comma: 12 060,00 (shared/decimals.ts). Inputs and coefficients are shown as stored,
// unrounded.
import { COEFFICIENT_SOURCE_LABELS } from "@core/coefficient-sources";
import { formatResult, formatStored } from "./decimals";
import type { CoefficientUse } from "../api/calculations";

/** A result: rounded half away from zero to `decimals`, trailing zeros kept; "" when missing. */
export const formatAmount = formatResult;

/** An input or coefficient exactly as stored: 1 000 000, 0,668, 1,8393. */
export { formatStored };

export function withUnit(text: string, unit: string): string {
  return unit && text ? `${text} ${unit}` : text;
}

const SOURCE_LABELS = COEFFICIENT_SOURCE_LABELS;

/** Where a coefficient came from (D9): «entry, версия N» for a dictionary value. */
export function sourceText(use: CoefficientUse | undefined): string {
  if (!use) return "";
  if (use.source !== "dictionary") return SOURCE_LABELS[use.source];
  const version = use.item_version === undefined ? "" : `, версия ${use.item_version}`;
  return `${use.item_name ?? `запись ${use.item_id ?? "?"}`}${version}`;
}
