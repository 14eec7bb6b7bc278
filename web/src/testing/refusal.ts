// A refusal as the server answers it: the body its error handler writes (http/errors.ts), the detail
// and, on a 400 whose every part names a field, the problems as data, made by the same contract
// function the server uses (problemsOf), and read by the web's own client (errorFromBody). A test
// gives the detail a user would see and gets what the web reads.
import { problemsOf, type ErrorBody } from "@server/contract/field-errors";
import { errorFromBody, type ApiError } from "../api/client";

/** The JSON body of an error answer. */
export function errorAnswer(status: number, detail: string): ErrorBody {
  const errors = status === 400 ? problemsOf(detail) : undefined;
  return errors ? { detail, errors } : { detail };
}

/** The ApiError the web's client makes of such an answer. */
export const refused = (status: number, detail: string): ApiError => errorFromBody(status, JSON.stringify(errorAnswer(status, detail)));

/** A 400 with `detail`, as the forms read it. */
export const refusal = (detail: string): ApiError => refused(400, detail);
