// A number as a Russian engineer types, pastes or keeps it in a spreadsheet cell: digits grouped by
// threes with a space, a no-break space or a narrow no-break space («3 100», «1 250 000»), a
// decimal comma or dot («845,5», «845.5»), a leading minus («-» or «−»). Every number the app prints
// («12 480,7504») reads back exactly. A text that mixes comma and dot («1.250,5», «1,250.5») is never
// guessed at: it is refused with a message saying how to write it. One rule for the browser's
// inputs and the server's uploaded text cells.

export type TypedNumber =
  | { readonly ok: true; readonly value: number; readonly negative: boolean; readonly whole: string; readonly fraction: string | undefined }
  | { readonly ok: false; readonly problem: "empty" | "not_a_number" | "ambiguous" | "grouping" };

const GROUP_SEPARATORS = /[ \u00a0\u202f\u2009]/;
const PLAIN = /^(\d*)(?:[.,](\d*))?$/;
// The first group of one to three digits, then groups of exactly three.
const GROUPED = /^(\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+)(?:[.,](\d*))?$/;

export const TYPED_NUMBER_PROBLEMS = {
  not_a_number: "Введите число, например 845,5",
  ambiguous: "Непонятно, что отделяет дробную часть: отделяйте разряды пробелом, а дробь запятой, например 1 250,5",
  grouping: "Разряды отделяйте пробелом по три цифры, например 3 100 или 1 250 000",
} as const;

export function readTypedNumber(text: string): TypedNumber {
  let body = text.trim();
  if (body === "") return { ok: false, problem: "empty" };
  const negative = body.startsWith("-") || body.startsWith("\u2212");
  if (negative) body = body.slice(1);
  if (!/\d/.test(body)) return { ok: false, problem: "not_a_number" };
  if (body.includes(",") && body.includes(".")) return { ok: false, problem: "ambiguous" };
  const plain = PLAIN.exec(body);
  const grouped = plain ? undefined : GROUPED.exec(body);
  const match = plain ?? grouped;
  if (!match) {
    const digitsAndSeparators = /^[\d \u00a0\u202f\u2009]+(?:[.,]\d*)?$/.test(body) && GROUP_SEPARATORS.test(body);
    return { ok: false, problem: digitsAndSeparators ? "grouping" : "not_a_number" };
  }
  const whole = (match[1] ?? "").replace(/[ \u00a0\u202f\u2009]/g, "");
  const fraction = match[2];
  const value = Number(`${negative ? "-" : ""}${whole || "0"}.${fraction || "0"}`);
  return { ok: true, value, negative, whole, fraction };
}
