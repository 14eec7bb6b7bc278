// The field-error protocol of a 400: the detail names the field of each problem first, «field: text»,
// several joined by «; » («inn: ИНН — 10 цифр; kpp: КПП — 9 цифр»). The server writes it with
// fieldMessage (http/validate.ts, domain/errors.ts); the web reads it with parseFieldErrors
// (web/src/shared/fieldErrors.ts) and shows each text under its field.

/** A field as the server names it: `inn`, `entered.volume`, `dictionary_items.ef`, `data[3].x7`. */
const FIELD = String.raw`[a-z_][a-z0-9_]*(?:\[\d+\])?(?:\.[a-z0-9_]+(?:\[\d+\])?)*`;
const PROBLEM = new RegExp(String.raw`^(${FIELD}):\s*(.+)$`, "s");
const NEXT_PROBLEM = new RegExp(String.raw`; (?=${FIELD}:)`);

export interface FieldProblem {
  field: string;
  message: string;
}

/** One problem's detail: «field: text». */
export function fieldMessage(field: string, text: string): string {
  return `${field}: ${text}`;
}

/** Each problem a detail names, in order; undefined when a part of it names no field (a file's
 *  «Лист …, строка …» or a conflict's text is shown as it is). */
export function parseFieldErrors(detail: string): FieldProblem[] | undefined {
  const problems: FieldProblem[] = [];
  for (const part of detail.split(NEXT_PROBLEM)) {
    const match = PROBLEM.exec(part);
    if (!match) return undefined;
    problems.push({ field: match[1], message: match[2].trim() });
  }
  return problems;
}
