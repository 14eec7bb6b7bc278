// Decimal places (SPEC 5, 9): one setting, stored as an integer under local storage key `comma`,
// governs how many decimals numeric inputs accept and how results are rounded.
//
// API for screens (keep it this small):
//   inputDecimals(mode)               decimals for an input: the stored setting clamped to 0..4;
//                                     missing or not a number → 4 when creating, 2 when editing.
//                                     In React use `useInputDecimals(mode)` (features/settings), which
//                                     also re-renders when the setting is saved.
//   acceptsNumericInput(text, d)      the keystroke filter: true when the whole field text would be
//                                     digits with an optional dot and at most `d` decimals ("" too).
//                                     Ignore the change when it is false.
//   parseNumericInput(text)           the accepted text as a number; "" and "." → undefined.
//   formatResult(value, d)            a result for display: rounded half away from zero to `d`
//                                     decimals, trailing zeros kept (0.668, 4 → "0.6680"); "" for
//                                     a missing or non-finite value.
// The settings screen itself uses clampDecimals / readStoredDecimals / storeDecimals.

export const COMMA_KEY = "comma";
export const DEFAULT_DECIMALS = 4;
export const MAX_DECIMALS = 4;
/** SPEC 5: with no usable setting, an edit dialog shows 2 decimals (a create dialog 4). */
export const EDIT_FALLBACK_DECIMALS = 2;

export type EntryMode = "create" | "edit";

/** Any stored or typed value → a usable decimals count; missing or not a number → `fallback`. */
export function clampDecimals(value: unknown, fallback = DEFAULT_DECIMALS): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) return fallback;
  return Math.min(MAX_DECIMALS, Math.max(0, Math.trunc(number)));
}

export function readStoredDecimals(): number {
  return clampDecimals(localStorage.getItem(COMMA_KEY));
}

export function storeDecimals(value: number): number {
  const decimals = clampDecimals(value);
  localStorage.setItem(COMMA_KEY, String(decimals));
  return decimals;
}

/** Decimals a numeric input accepts; `stored` (the raw setting) is read from local storage when not given. */
export function inputDecimals(mode: EntryMode, stored: unknown = localStorage.getItem(COMMA_KEY)): number {
  return clampDecimals(stored, mode === "edit" ? EDIT_FALLBACK_DECIMALS : DEFAULT_DECIMALS);
}

/** SPEC 5: only digits with an optional dot; the part after the dot is at most `decimals` long. */
export function acceptsNumericInput(text: string, decimals: number): boolean {
  const places = clampDecimals(decimals);
  const pattern = places === 0 ? /^\d*$/ : new RegExp(`^\\d*(\\.\\d{0,${places}})?$`);
  return pattern.test(text);
}

export function parseNumericInput(text: string): number | undefined {
  if (!/\d/.test(text) || !/^\d*\.?\d*$/.test(text)) return undefined;
  return Number(text);
}

/** Multiplies by 10^by through the decimal exponent, so 1.005 → 100.5 exactly (not 100.49999…). */
function shiftDecimal(value: number, by: number): number {
  const [mantissa, exponent = "0"] = String(value).split("e");
  return Number(`${mantissa}e${Number(exponent) + by}`);
}

export function formatResult(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  const places = Math.min(20, Math.max(0, Math.trunc(decimals)));
  const rounded = Math.sign(value) * shiftDecimal(Math.round(shiftDecimal(Math.abs(value), places)), -places);
  return (Object.is(rounded, -0) ? 0 : rounded).toFixed(places);
}
