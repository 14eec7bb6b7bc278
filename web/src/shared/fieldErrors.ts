// A 400 lists its problems as data, each at its field (`errors`: {field, code, message, params}, the
// contract's protocol, contract/field-errors.ts). A form shows each message under its field; every
// form reads a refusal through here, and none reads the detail's text for a field.
// The protocol module alone, not the contract's index: a page that reads a refusal need not load every schema.
import type { FieldProblem } from "@server/contract/field-errors";
import { isApiError } from "../api/client";

/** What a refusal carries for its fields: the server's ApiError, or its detail and problems. */
export interface Refusal {
  readonly detail: string;
  readonly errors?: readonly FieldProblem[];
}

/** Each problem of a 400 at its field, or undefined when one of them names no field of the form
 *  (the whole detail is then shown as it is). */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { name: F; errors: string[] }[] | undefined {
  if (!isApiError(error)) return undefined;
  const problems = error.errors;
  if (!problems?.length || !problems.every((problem) => (fields as readonly string[]).includes(problem.field))) return undefined;
  return problems.map((problem) => ({ name: problem.field as F, errors: [problem.message] }));
}

/** The one problem a refusal names at its field, or undefined (several, or none with a field). */
export function fieldProblem(refusal: Refusal): FieldProblem | undefined {
  return refusal.errors?.length === 1 ? refusal.errors[0] : undefined;
}

/** A refusal as a user reads it where no field of a form takes it (an upload's preview): each
 *  problem's text without the field's name («file_data: файл пуст» → «Файл пуст»). */
export function withoutFieldNames(refusal: Refusal): string {
  if (!refusal.errors?.length) return refusal.detail;
  return refusal.errors.map((p) => p.message.charAt(0).toUpperCase() + p.message.slice(1)).join("; ");
}
