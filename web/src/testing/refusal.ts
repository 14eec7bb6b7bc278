// A refusal as the server answers it: the body its error handler writes (http/errors.ts), the detail
// and, for problems at their fields, the problems as data, made by the same contract functions the
// server uses (problemAt, detailOf), and read by the web's own client (errorFromBody). A test gives
// either the detail a user would see (no field named) or the problems at their fields, as
// [field, text] pairs, and gets what the web reads.
import { detailOf, problemAt, type ErrorBody } from "@server/contract/field-errors";
import { errorFromBody, type ApiError } from "../api/client";

/** What a refusal says: a detail alone, or each problem at its field. */
export type Said = string | readonly (readonly [field: string, message: string])[];

/** The JSON body of an error answer. */
export function errorAnswer(said: Said): ErrorBody {
  if (typeof said === "string") return { detail: said };
  const errors = said.map(([field, message]) => problemAt(field, message));
  return { detail: detailOf(errors), errors };
}

/** The ApiError the web's client makes of such an answer. */
export const refused = (status: number, said: Said): ApiError => errorFromBody(status, JSON.stringify(errorAnswer(said)));

/** A 400 saying `said`, as the forms read it. */
export const refusal = (said: Said): ApiError => refused(400, said);
