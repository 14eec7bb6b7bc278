// Every error leaves the API as JSON {"detail": ...} with its status: domain errors by their
// type, Hono's own (malformed JSON, body too large) by theirs, anything else as a 500 without
// internals, whose message and stack the request's log line carries (http/request-log.ts).
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { DomainError, fromCore, RETRY_AFTER_SECONDS, TooManyRequests } from "../domain/errors";
import { FileRefused } from "../files/errors";
import { problemsOf, type ErrorBody } from "../contract/field-errors";

/** A domain error's answer: its detail and code, and on a 400 whose every problem names a field the
 *  problems as data (contract/field-errors.ts). */
export function errorBody(error: DomainError): ErrorBody {
  const body: ErrorBody = error.code ? { detail: error.detail, code: error.code } : { detail: error.detail };
  const errors =
    error.status === 400 ? ((error as DomainError & { errors?: ErrorBody["errors"] }).errors ?? problemsOf(error.detail)) : undefined;
  return errors && errors.length > 0 ? { ...body, errors } : body;
}

export function errorResponse(thrown: Error, c: Context): Response {
  // A core refusal no domain step named: a 400 at its field all the same.
  const error = fromCore(thrown) as Error;
  if (error instanceof DomainError) {
    if (error.status === 429)
      c.header("Retry-After", String(error instanceof TooManyRequests ? error.retryAfterSeconds : RETRY_AFTER_SECONDS));
    return c.json(errorBody(error), error.status);
  }
  if (error instanceof FileRefused) return c.json({ detail: error.detail }, error.status);
  if (error instanceof HTTPException) {
    const detail =
      error.status === 413
        ? "Слишком большой запрос"
        : // A declared JSON body sent as something else (@hono/zod-openapi checks the media type).
          error.status === 415
          ? "Ожидается тело JSON (Content-Type: application/json)"
          : /json/i.test(error.message)
            ? "Тело запроса не является корректным JSON"
            : error.message || "Некорректный запрос";
    return c.json({ detail }, error.status);
  }
  return c.json({ detail: "Внутренняя ошибка сервера" }, 500);
}

/** A mounted app's notFound is ignored by Hono: every outermost app (the API, the local host)
 *  registers this one. */
export function notFoundResponse(c: Context): Response {
  return c.json({ detail: "Не найдено" }, 404);
}
