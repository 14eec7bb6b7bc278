// Typed domain errors. The domain throws them; one onError handler (http/errors.ts) maps them to
// statuses and the {"detail": ...} body, so no route decides a status for a domain rule.
import { FieldError } from "@core/emissions-core";
import { fieldMessage, problemAt, type FieldProblem } from "../contract/field-errors";

export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class Invalid extends DomainError {
  /** `detail` says every problem; `errors`, when given, lists them as data (a detail written with
   *  fieldMessage is read back into them where the answer is made, http/errors.ts). */
  constructor(
    detail: string,
    readonly errors?: FieldProblem[],
  ) {
    super(400, detail);
  }
}

/** The core's FieldError as the 400 naming its field («field: text», contract/field-errors.ts);
 *  any other error as it is. The one place the core's refusal becomes the API's. */
export function fromCore(error: unknown): unknown {
  return error instanceof FieldError
    ? new Invalid(fieldMessage(error.field, error.message), [problemAt(error.field, error.message, error.code, error.params)])
    : error;
}

export class Unauthorized extends DomainError {
  constructor(detail = "Учетные данные не были предоставлены или недействительны", code?: string) {
    super(401, detail, code);
  }
}

export class Forbidden extends DomainError {
  constructor(detail = "Недостаточно прав для этого действия") {
    super(403, detail);
  }
}

/** Also used for another company's object: it must be indistinguishable from a missing one. */
export class NotFound extends DomainError {
  constructor(detail = "Не найдено") {
    super(404, detail);
  }
}

export class Conflict extends DomainError {
  constructor(detail: string) {
    super(409, detail);
  }
}

/** Every 429 says when to try again (Retry-After); one that crossed a process boundary as a plain
 *  DomainError (a worker's answer) says this. */
export const RETRY_AFTER_SECONDS = 30;

export class TooManyRequests extends DomainError {
  constructor(
    detail: string,
    /** Sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super(429, detail);
  }
}
