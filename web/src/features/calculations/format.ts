// How the calculations screen writes numbers and sources (SPEC 9, methodology D8, D9): results in
// tonnes rounded to their registry decimals (2), Russian style — digits grouped by a no-break
// space, a decimal comma: 12 060,00. Inputs and coefficients are shown as stored, unrounded.
import dayjs from "dayjs";
import { formatResult } from "../../shared/decimals";
import type { CoefficientUse } from "./api";

const GROUP = "\u00a0";

/** "12060.00" → "12 060,00"; a minus sign and any decimals are kept. */
function russian(plain: string): string {
  const [, sign, whole, fraction] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain) ?? [];
  if (whole === undefined) return plain;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
  return `${sign}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}

/** A result: rounded half away from zero to `decimals`, trailing zeros kept; "" when missing. */
export function formatAmount(value: number | null | undefined, decimals: number): string {
  return russian(formatResult(value, decimals));
}

/** An input or coefficient exactly as stored: 1 000 000, 0,668, 1,8393. */
export function formatStored(value: unknown): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  return russian(value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 }));
}

export function withUnit(text: string, unit: string): string {
  return unit && text ? `${text} ${unit}` : text;
}

export const SOURCE_LABELS = {
  custom: "Фактическое значение",
  fixed: "Фиксированное значение",
  default: "Значение по умолчанию",
  input: "Введено пользователем",
} as const;

/** Where a coefficient came from (D9): «entry, версия N» for a dictionary value. */
export function sourceText(use: CoefficientUse | undefined): string {
  if (!use) return "";
  if (use.source !== "dictionary") return SOURCE_LABELS[use.source];
  const version = use.item_version === undefined ? "" : `, версия ${use.item_version}`;
  return `${use.item_name ?? `запись ${use.item_id ?? "?"}`}${version}`;
}

export function formatDateTime(value: string | undefined): string {
  if (!value) return "";
  const date = dayjs(value);
  return date.isValid() ? date.format("YYYY-MM-DD HH:mm") : value;
}
