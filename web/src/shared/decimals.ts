// Decimal places and numbers as a Russian user types and reads them (docs/user-guide.md). One
// setting, stored as an integer under local storage key `comma`, governs how many decimals numeric
// inputs accept and how results are rounded.
//
// API for screens (keep it this small):
//   inputDecimals(mode)               decimals for an input: the stored setting clamped to 0..4;
//                                     missing or not a number → 4 when creating, 2 when editing.
//                                     In React use `useInputDecimals(mode)` (features/settings), which
//                                     also re-renders when the setting is saved.
//   numericInputProblem(text, rules)  why a typed text is not an acceptable number (a Russian message
//                                     for under the field), or undefined. The text is never rewritten:
//                                     what is typed stays in the field until the user corrects it.
//   parseNumericInput(text)           a typed number: digits grouped by spaces («3 100»), decimal
//                                     comma or dot («845,5» = «845.5»), an optional leading minus
//                                     (the core's readTypedNumber); "" and anything else → undefined.
//   numberText(value)                 a stored number as an input starts with it: «845,5».
//   groupedNumberText(value)          the same, grouped from five digits on: «1 250 000».
//   decimalPlaces(text)               its decimals: a value the form put in a field (stored, or a
//                                     dictionary entry's) keeps its precision when edited.
//   formatResult(value, d)            a result for display, rounded half away from zero to `d`
//                                     decimals, trailing zeros kept, Russian style: «2 662,48», «0,6680».
//   formatStored(value)               a stored input or coefficient, unrounded, Russian style: «0,668».
// The settings screen itself uses clampDecimals / readStoredDecimals / storeDecimals.

import { readTypedNumber, TYPED_NUMBER_PROBLEMS } from "@core/typed-numbers";

export const COMMA_KEY = "comma";
export const DEFAULT_DECIMALS = 4;
export const MAX_DECIMALS = 4;
/** docs/user-guide.md: with no usable setting, an edit dialog shows 2 decimals (a create dialog 4). */
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

/** What a number field allows besides its decimals: a minus sign only where negatives make sense. */
export interface NumericRules {
  decimals: number;
  negative?: boolean;
}

export const NOT_A_NUMBER = TYPED_NUMBER_PROBLEMS.not_a_number;
export const NOT_AN_INTEGER = "Введите целое число, например 3";
export const NOT_NEGATIVE = "Значение не может быть отрицательным";

function tooManyDecimals(places: number): string {
  return `Не больше ${places} ${places === 1 ? "знака" : "знаков"} после запятой`;
}

export function numericInputProblem(text: string, { decimals, negative = false }: NumericRules): string | undefined {
  const typed = text.trim();
  if (typed === "") return undefined;
  // Not clamped to the setting's 0..4: a field may carry its own precision (k_tr 0,003149).
  const places = Number.isFinite(decimals) ? Math.min(20, Math.max(0, Math.trunc(decimals))) : MAX_DECIMALS;
  if (!negative && /^[-\u2212]/.test(typed)) return NOT_NEGATIVE;
  const read = readTypedNumber(typed);
  if (!read.ok) {
    if (read.problem === "ambiguous" || read.problem === "grouping") return TYPED_NUMBER_PROBLEMS[read.problem];
    return places === 0 ? NOT_AN_INTEGER : NOT_A_NUMBER;
  }
  const fraction = read.fraction;
  if (places === 0 && fraction !== undefined) return NOT_AN_INTEGER;
  if (fraction !== undefined && fraction.length > places) return tooManyDecimals(places);
  return undefined;
}

export function parseNumericInput(text: string): number | undefined {
  const read = readTypedNumber(text);
  return read.ok ? read.value : undefined;
}

/** Digits after the decimal separator of a typed or preset text: «0,03308» → 5. */
export function decimalPlaces(text: string): number {
  const read = readTypedNumber(text);
  return read.ok ? (read.fraction?.length ?? 0) : 0;
}

// What value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 }) writes, with its
// formatter made once: toLocaleString makes one per call, and a calculation form writes hundreds of
// numbers at each render.
const plainDigits = new Intl.NumberFormat("en-US", { useGrouping: false, maximumFractionDigits: 20 });

/** A number as an input starts with it: digits and a decimal comma, never an exponent or grouping. */
export function numberText(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  return plainDigits.format(value).replace(".", ",");
}

/** A stored number as an edit field reopens with it, grouped as people type it from five digits
 *  on: «1 250 000», «12 480,7504», «845,5»; a four-digit number (a year, «3100») stays whole. */
export function groupedNumberText(value: number | null | undefined): string {
  const text = numberText(value);
  return text.replace(/^(-?)(\d{5,})/, (_, sign: string, whole: string) => `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ")}`);
}

const GROUP = "\u00a0";

/** "12060.00" → "12 060,00" (no-break space): a minus sign and any decimals are kept. */
function russian(plain: string): string {
  const [, sign, whole, fraction] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain) ?? [];
  if (whole === undefined) return plain;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
  return `${sign}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
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
  return russian((Object.is(rounded, -0) ? 0 : rounded).toFixed(places));
}

/** The unit of a value that is a year (a GWP set's years of force): shown as a year, never grouped. */
export const YEAR_UNIT = "год";
/** A year in force as people read it: «1990», «не назначен» for 0, «без ограничения» from 9999. */
export function yearText(year: number): string {
  if (year === 0) return "не назначен";
  if (year >= 9999) return "без ограничения";
  return String(year);
}

/** A stored value with its unit: a year as a year («1990», never «1 990»), any other number as
 *  formatStored writes it. */
export function formatStoredIn(value: unknown, unit: string | undefined): string {
  if (unit === YEAR_UNIT && typeof value === "number" && Number.isInteger(value)) return yearText(value);
  return formatStored(value);
}

/** As stored, but to at most `places` decimals: a figure the server worked out (a flow-weighted
 *  content of 0,7979142750187174 % об.) reads «0,7979», one typed as 1,8393 stays «1,8393». */
export function formatStoredAtMost(value: unknown, places: number): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  return formatStored(Number(value.toFixed(places)));
}

/** An input or coefficient exactly as stored: «1 000 000», «0,668», «1,8393»; "" for a non-number. */
export function formatStored(value: unknown): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  return russian(plainDigits.format(value));
}
