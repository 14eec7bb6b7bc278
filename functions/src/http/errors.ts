// Every error leaves the API as JSON {"detail": ...} with its status: domain errors by their kind
// (STATUS_OF, the one place a kind becomes a status), a refused file by its, Hono's own (malformed
// JSON, body too large) by theirs, anything else as a 500 without internals, whose message and stack
// the request's log line carries (http/request-log.ts).
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "../contract/field-errors";
import { DomainError, type ErrorKind, fromCore, RETRY_AFTER_SECONDS, TooManyRequests } from "../domain/errors";
import { FileRefused } from "../files/errors";

/** The status each kind of refusal is answered with. */
export const STATUS_OF = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  too_large: 413,
  unsupported_media: 415,
  busy: 429,
  unavailable: 503,
} as const satisfies Record<ErrorKind, ContentfulStatusCode>;

/** Hono's validator's refusal of a JSON body it cannot parse (hono/validator): its one marker. */
const HONO_MALFORMED_JSON = "Malformed JSON in request body";

/** A domain error's answer: its detail and code, and the problems at their fields when it has them
 *  (contract/field-errors.ts). */
export function errorBody(error: Pick<DomainError, "kind" | "detail" | "code" | "problems">): ErrorBody {
  const body: ErrorBody = error.code ? { detail: error.detail, code: error.code } : { detail: error.detail };
  return error.problems && error.problems.length > 0 ? { ...body, errors: [...error.problems] } : body;
}

export function errorResponse(thrown: Error, c: Context): Response {
  // A core refusal no domain step named: a 400 at its field all the same.
  const error = fromCore(thrown) as Error;
  if (error instanceof DomainError) {
    if (error.kind === "busy")
      c.header("Retry-After", String(error instanceof TooManyRequests ? error.retryAfterSeconds : RETRY_AFTER_SECONDS));
    return c.json(errorBody(error), STATUS_OF[error.kind]);
  }
  if (error instanceof FileRefused) return c.json(errorBody(error), STATUS_OF[error.kind]);
  if (error instanceof HTTPException) {
    const detail =
      error.status === 413
        ? "Слишком большой запрос"
        : // A declared JSON body sent as something else (@hono/zod-openapi checks the media type).
          error.status === 415
          ? "Ожидается тело JSON (Content-Type: application/json)"
          : error.message === HONO_MALFORMED_JSON
            ? "Тело запроса не является корректным JSON"
            : error.message || "Некорректный запрос";
    return c.json({ detail }, error.status);
  }
  // The storage refused the connection (the local engine's thread closed as the server stops): the request
  // is not wrong and nothing failed in it; 503 to retry, not a 500 logged with its stack.
  if ((error as { code?: unknown }).code === "ECONNREFUSED") {
    c.header("Retry-After", String(RETRY_AFTER_SECONDS));
    return c.json({ detail: STORAGE_GONE }, 503);
  }
  return c.json({ detail: "Внутренняя ошибка сервера" }, 500);
}

export const STORAGE_GONE = "Хранилище недоступно: сервер останавливается или перезапускается. Повторите запрос позже";

/** A mounted app's notFound is ignored by Hono: every outermost app (the API, the local host)
 *  registers this one. */
export function notFoundResponse(c: Context): Response {
  return c.json({ detail: "Не найдено" }, 404);
}
