// The server names the field of each problem first, several joined by «; » («inn: …; kpp: …»):
// the contract's protocol (fieldMessage / parseFieldErrors). A form shows each text under its
// field, without the field's name; every form reads a refusal through here.
// The protocol module alone, not the contract's index: a page that reads a refusal need not load every schema.
import { parseFieldErrors, type FieldProblem } from "@server/contract/field-errors";
import { isApiError } from "../api/client";

/** Each problem of a 400 at its field, or undefined when one of them names no field of the form
 *  (the whole detail is then shown as it is). */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { name: F; errors: string[] }[] | undefined {
  if (!isApiError(error)) return undefined;
  const problems = parseFieldErrors(error.detail);
  if (!problems?.every((problem) => (fields as readonly string[]).includes(problem.field))) return undefined;
  return problems.map((problem) => ({ name: problem.field as F, errors: [problem.message] }));
}

/** The one problem a detail names at its field, or undefined (several, or none with a field). */
export function fieldProblem(detail: string): FieldProblem | undefined {
  const problems = parseFieldErrors(detail);
  return problems?.length === 1 ? problems[0] : undefined;
}

/** A refusal as a user reads it where no field of a form takes it (an upload's preview): each
 *  problem's text without the field's name («file_data: файл пуст» → «Файл пуст»). */
export function withoutFieldNames(detail: string): string {
  const problems = parseFieldErrors(detail);
  if (!problems) return detail;
  return problems.map((p) => p.message.charAt(0).toUpperCase() + p.message.slice(1)).join("; ");
}
