// SPEC 5, 9: the number of decimal places is an integer stored under local storage key `comma`,
// default 4, clamped to 0..4 wherever it is used.

export const COMMA_KEY = "comma";
export const DEFAULT_DECIMALS = 4;
export const MAX_DECIMALS = 4;

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
