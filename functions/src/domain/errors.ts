// Typed domain errors. The domain throws them with their kind (what went wrong, as data) and, for a
// request that breaks a rule at its fields, the problems at each field (contract/field-errors.ts); the
// edge (http/errors.ts) chooses the status from the kind and writes the {"detail": ...} body. No domain
// module names an HTTP status, and nothing reads an error's text back.
import { FieldError } from "@core/emissions-core";
import { detailOf, problemAt, type FieldProblem } from "../contract/field-errors";
import { type CellAt, cellText } from "../files/errors";

/** What kind of refusal an error is, for the edge to answer with its status (http/errors.ts STATUS_OF). */
export const ERROR_KINDS = [
  "invalid",
  "unauthenticated",
  "forbidden",
  "not_found",
  "conflict",
  "unprocessable",
  "too_large",
  "unsupported_media",
  "busy",
  "unavailable",
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly detail: string,
    readonly code?: string,
    /** Each problem at its field, for an invalid request whose every problem names one. */
    readonly problems?: readonly FieldProblem[],
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class Invalid extends DomainError {
  /** A detail alone (a file's «Лист …, строка …», a rule of the whole request), or the problems at
   *  their fields, the detail then saying each as «field: text» (detailOf). */
  constructor(said: string | readonly FieldProblem[]) {
    if (typeof said === "string") super("invalid", said);
    else super("invalid", detailOf(said), undefined, said);
  }
}

/** The invalid request of one problem at its field. */
export const invalidAt = (field: string, message: string, code?: string, params?: FieldProblem["params"]): Invalid =>
  new Invalid([problemAt(field, message, code, params)]);

/** A cell of an uploaded table refused: where it is and why, as data (a preview lists it at its row),
 *  the detail saying both («Лист «CSV», строка 3, столбец «x7»: не число»). */
export class CellInvalid extends Invalid {
  constructor(
    readonly cell: CellAt,
    readonly reason: string,
  ) {
    super(cellText(cell, reason));
  }
}

/** The core's FieldError as the invalid request at its field; any other error as it is. The one
 *  place the core's refusal becomes the API's. */
export function fromCore(error: unknown): unknown {
  return error instanceof FieldError ? invalidAt(error.field, error.message, error.code, error.params) : error;
}

export class Unauthorized extends DomainError {
  constructor(detail = "Учетные данные не были предоставлены или недействительны", code?: string) {
    super("unauthenticated", detail, code);
  }
}

export class Forbidden extends DomainError {
  constructor(detail = "Недостаточно прав для этого действия") {
    super("forbidden", detail);
  }
}

/** Also used for another company's object: it must be indistinguishable from a missing one. */
export class NotFound extends DomainError {
  constructor(detail = "Не найдено") {
    super("not_found", detail);
  }
}

export class Conflict extends DomainError {
  constructor(detail: string) {
    super("conflict", detail);
  }
}

/** A request well formed that cannot be done as it stands: the same Idempotency-Key sent with another
 *  body, which neither answers the first batch nor makes a second. */
export class Unprocessable extends DomainError {
  constructor(detail: string) {
    super("unprocessable", detail);
  }
}

/** A file or a body over its bound. */
export class TooLarge extends DomainError {
  constructor(detail: string) {
    super("too_large", detail);
  }
}

/** A body or a file of a type the route does not take. */
export class UnsupportedMedia extends DomainError {
  constructor(detail: string) {
    super("unsupported_media", detail);
  }
}

/** A tool the request needs is not on this host (the detail names it). */
export class Unavailable extends DomainError {
  constructor(detail: string) {
    super("unavailable", detail);
  }
}

/** Every busy refusal says when to try again (Retry-After); one that crossed a process boundary as
 *  a plain DomainError (a worker's answer) says this. */
export const RETRY_AFTER_SECONDS = 30;

export class TooManyRequests extends DomainError {
  constructor(
    detail: string,
    /** Sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super("busy", detail);
  }
}

/** A domain error as it crosses a process boundary (a worker thread's or Lambda's answer): plain data. */
export interface WireError {
  kind: ErrorKind;
  detail: string;
  code?: string;
  problems?: FieldProblem[];
}

export const toWire = (error: DomainError): WireError => ({
  kind: error.kind,
  detail: error.detail,
  ...(error.code ? { code: error.code } : {}),
  ...(error.problems ? { problems: [...error.problems] } : {}),
});

export const fromWire = (wire: WireError): DomainError => new DomainError(wire.kind, wire.detail, wire.code, wire.problems);

/** Whether a value read from another process is a WireError. */
export function isWireError(value: unknown): value is WireError {
  if (typeof value !== "object" || value === null) return false;
  const a = value as Record<string, unknown>;
  return (
    typeof a.detail === "string" &&
    (ERROR_KINDS as readonly unknown[]).includes(a.kind) &&
    (a.code === undefined || typeof a.code === "string") &&
    (a.problems === undefined ||
      (Array.isArray(a.problems) &&
        a.problems.every(
          (p) =>
            typeof p?.field === "string" && typeof p.code === "string" && typeof p.message === "string" && typeof p.params === "object",
        )))
  );
}
