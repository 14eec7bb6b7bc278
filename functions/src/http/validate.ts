// Validation failures as the domain's Invalid error, so the answer is {"detail": "field: message"}
// rather than a raw ZodError: the declared routes' hook (openapi-routes.ts routeApp) and the
// handlers that read their body themselves (JSON or multipart) both go through describeIssues.
import type { Context } from "hono";
import * as z from "zod/v4/core";
import { fieldMessage } from "../contract/field-errors";
import { DomainError, Invalid } from "../domain/errors";

export function describeIssues(issues: readonly z.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.map(String).join(".");
      if (!field || issue.message.startsWith(`${field}:`)) return issue.message;
      return fieldMessage(field, issue.message);
    })
    .join("; ");
}

/** For handlers that choose their body format themselves (JSON or multipart). */
export function parseWith<S extends z.$ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new Invalid(describeIssues(result.error.issues));
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
