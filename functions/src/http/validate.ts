// Validation failures as the domain's Invalid error, so the answer is {"detail": "field: message",
// "errors": [{field, code, message, params}]} rather than a raw ZodError: the declared routes' hook
// (openapi-routes.ts routeApp) and the handlers that read their body themselves (JSON or multipart)
// both go through invalidIssues.
import type { Context } from "hono";
import * as z from "zod/v4/core";
import { fieldMessage, parseFieldErrors, problemAt, type FieldProblem } from "../contract/field-errors";
import { DomainError, Invalid } from "../domain/errors";

function describeIssue(issue: z.$ZodIssue): string {
  const field = issue.path.map(String).join(".");
  if (!field || issue.message.startsWith(`${field}:`)) return issue.message;
  return fieldMessage(field, issue.message);
}

export function describeIssues(issues: readonly z.$ZodIssue[]): string {
  return issues.map(describeIssue).join("; ");
}

/** The bound or value an issue's message quotes, as its problem's params. */
function paramsOf(issue: z.$ZodIssue): FieldProblem["params"] {
  const params: Record<string, string | number> = {};
  for (const key of ["minimum", "maximum", "expected", "origin", "format", "divisor"] as const) {
    const value = (issue as unknown as Record<string, unknown>)[key];
    if (typeof value === "number" || typeof value === "string") params[key] = value;
    else if (typeof value === "bigint") params[key] = Number(value);
  }
  return params;
}

/** Each issue as a problem at its field, with zod's code and the bound it quotes; undefined when an
 *  issue names no field (the detail alone is then the answer). */
export function issueProblems(issues: readonly z.$ZodIssue[]): FieldProblem[] | undefined {
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    const named = parseFieldErrors(describeIssue(issue));
    if (named?.length !== 1) return undefined;
    problems.push(problemAt(named[0].field, named[0].message, issue.code, paramsOf(issue)));
  }
  return problems;
}

/** The 400 of failed validation: its detail and its problems. */
export const invalidIssues = (issues: readonly z.$ZodIssue[]) => new Invalid(describeIssues(issues), issueProblems(issues));

/** For handlers that choose their body format themselves (JSON or multipart). */
export function parseWith<S extends z.$ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidIssues(result.error.issues);
  return result.data;
}

export async function readJson(c: Context): Promise<unknown> {
  // A form gets the upload's larger size cap; a JSON body sent under that label would escape the JSON cap.
  if ((c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new DomainError(415, "Ожидается тело JSON (Content-Type: application/json)");
  }
  try {
    return await c.req.json();
  } catch {
    throw new Invalid("Тело запроса не является корректным JSON");
  }
}
