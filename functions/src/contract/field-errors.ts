// The field-error protocol of a 400: the answer's `errors` list each problem as data, `{field, code,
// message, params}` (the field as the request names it, a machine code, the Russian text a form shows
// under the field, the bound or value the text quotes), beside the `detail` that says them all in one
// line, «field: text» joined by «; » («inn: ИНН — 10 цифр; kpp: КПП — 9 цифр»). The server writes
// both (http/errors.ts); the web reads `errors` alone (web/src/shared/fieldErrors.ts) and never the
// detail's text. A domain rule still names its field with fieldMessage; problemsOf reads those back on
// the server, the one place that wrote them.

/** A field as the server names it: `inn`, `entered.volume`, `dictionary_items.ef`, `data[3].x7`. */
const FIELD = String.raw`[a-z_][a-z0-9_]*(?:\[\d+\])?(?:\.[a-z0-9_]+(?:\[\d+\])?)*`;
const PROBLEM = new RegExp(String.raw`^(${FIELD}):\s*(.+)$`, "s");
const NEXT_PROBLEM = new RegExp(String.raw`; (?=${FIELD}:)`);

/** One problem of a 400, as the answer's `errors` carry it. */
export interface FieldProblem {
  /** The field as the request names it: `inn`, `entered.volume`, `data[3].x7`. */
  field: string;
  /** What is wrong, for a machine: zod's issue code (`too_big`, `invalid_type`, …) or `invalid`. */
  code: string;
  /** The text a form shows under the field, without the field's name. */
  message: string;
  /** The bound or value the message quotes (`maximum: 255`), empty when none. */
  params: Readonly<Record<string, string | number>>;
}

/** An error answer: `detail` always, a machine `code` sometimes, `errors` on a 400 whose every
 *  problem names a field. */
export interface ErrorBody {
  detail: string;
  code?: string;
  errors?: FieldProblem[];
}

/** One problem at its field. */
export const problemAt = (field: string, message: string, code = "invalid", params: FieldProblem["params"] = {}): FieldProblem => ({
  field,
  code,
  message,
  params,
});

/** The problems of a detail the server's domain wrote with fieldMessage, as the answer's `errors`;
 *  undefined when a part of it names no field. */
export function problemsOf(detail: string): FieldProblem[] | undefined {
  return parseFieldErrors(detail)?.map((p) => problemAt(p.field, p.message));
}

/** One problem's detail: «field: text». */
export function fieldMessage(field: string, text: string): string {
  return `${field}: ${text}`;
}

/** Each problem a detail names, in order; undefined when a part of it names no field (a file's
 *  «Лист …, строка …» or a conflict's text is shown as it is). */
export function parseFieldErrors(detail: string): { field: string; message: string }[] | undefined {
  const problems: { field: string; message: string }[] = [];
  for (const part of detail.split(NEXT_PROBLEM)) {
    const match = PROBLEM.exec(part);
    if (!match) return undefined;
    problems.push({ field: match[1], message: match[2].trim() });
  }
  return problems;
}
