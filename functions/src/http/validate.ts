// Validation failures as the domain's Invalid error, its problems as data at their fields, so the answer
// is {"detail": "field: message", "errors": [{field, code, message, params}]} rather than a raw ZodError: the declared routes' hook
// (openapi-routes.ts routeApp) and the handlers that read their body themselves (JSON or multipart)
// both go through invalidIssues.
import type { Context } from "hono";
import * as z from "zod/v4/core";
import { detailOf, problemAt, type FieldProblem } from "../contract/field-errors";
import { Invalid, UnsupportedMedia } from "../domain/errors";

/** The field an issue is at, as the request names it (`entered.volume`, `data.3.x7`); an unknown key
 *  of the body is at the key (`metan`, or `a, b` for several). Empty at the body itself. */
function fieldOf(issue: z.$ZodIssue): string {
  if (issue.code === "unrecognized_keys" && issue.path.length === 0) return issue.keys.join(", ");
  return issue.path.map(String).join(".");
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
 *  issue names no field (the body's own: the detail alone is then the answer). */
function issueProblems(issues: readonly z.$ZodIssue[]): FieldProblem[] | undefined {
  const problems = issues.map((issue) => problemAt(fieldOf(issue), issue.message, issue.code, paramsOf(issue)));
  return problems.every((problem) => problem.field !== "") ? problems : undefined;
}

/** The detail of failed validation: each issue as «field: text», the body's own as its text. */
const describeIssues = (issues: readonly z.$ZodIssue[]): string =>
  issues.map((issue) => (fieldOf(issue) ? detailOf([{ field: fieldOf(issue), message: issue.message }]) : issue.message)).join("; ");

/** The 400 of failed validation: its problems, or its detail where one names no field. */
export function invalidIssues(issues: readonly z.$ZodIssue[]): Invalid {
  const problems = issueProblems(issues);
  return new Invalid(problems ?? describeIssues(issues));
}

/** For handlers that choose their body format themselves (JSON or multipart). */
export function parseWith<S extends z.$ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidIssues(result.error.issues);
  return result.data;
}

export async function readJson(c: Context): Promise<unknown> {
  // A form gets the upload's larger size cap; a JSON body sent under that label would escape the JSON cap.
  if ((c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new UnsupportedMedia("Ожидается тело JSON (Content-Type: application/json)");
  }
  try {
    return await c.req.json();
  } catch {
    throw new Invalid("Тело запроса не является корректным JSON");
  }
}
