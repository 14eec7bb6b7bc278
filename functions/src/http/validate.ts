// The one validator wrapper. @hono/zod-validator's default 400 body is the raw ZodError; here a
// failure becomes the domain's Invalid error, so the answer is {"detail": "field: message"}.
import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import * as z from "zod/v4/core";
import { DomainError, Invalid } from "../domain/errors";

export function describeIssues(issues: readonly z.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.map(String).join(".");
      if (!field || issue.message.startsWith(`${field}:`)) return issue.message;
      return `${field}: ${issue.message}`;
    })
    .join("; ");
}

export function validate<Target extends keyof ValidationTargets, Schema extends z.$ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw new Invalid(describeIssues(result.error.issues));
  });
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
