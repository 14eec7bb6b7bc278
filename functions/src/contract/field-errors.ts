// The field-error protocol of a 400: the answer's `errors` list each problem as data, `{field, code,
// message, params}` (the field as the request names it, a machine code, the Russian text a form shows
// under the field, the bound or value the text quotes), beside the `detail` that says them all in one
// line, «field: text» joined by «; » («Дата: …; Датчик: …»). The server makes the
// problems once, as data, where a rule refuses (domain/errors.ts invalidAt, http/validate.ts for a
// schema's issues) and writes the detail from them (detailOf); nothing reads a detail's text back, and
// the web reads `errors` alone (web/src/shared/fieldErrors.ts). The detail names a field in Russian where
// field-names.ts has its name.
import { fieldName } from "./field-names";

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

/** One problem's line of a detail: «field: text», the field in words (field-names.ts: «Дата: …»). */
export const lineOf = (problem: Pick<FieldProblem, "field" | "message">): string => `${fieldName(problem.field)}: ${problem.message}`;

/** The detail that says every problem: their lines joined by «; ». */
export const detailOf = (problems: readonly Pick<FieldProblem, "field" | "message">[]): string => problems.map(lineOf).join("; ");
