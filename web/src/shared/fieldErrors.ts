// The server names the field of each problem first, several joined by «; » («inn: …; kpp: …»):
// a form shows each text under its field, without the field's name.
import { isApiError } from "../api/client";

/** Each problem of a 400 at its field, or undefined when one of them names no field of the form
 *  (the whole detail is then shown as it is). */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { name: F; errors: string[] }[] | undefined {
  if (!isApiError(error)) return undefined;
  const found: { name: F; errors: string[] }[] = [];
  for (const part of error.detail.split(/; (?=[a-z_]+: )/)) {
    const match = /^([a-z_]+): (.*)$/s.exec(part);
    if (!match || !(fields as readonly string[]).includes(match[1])) return undefined;
    found.push({ name: match[1] as F, errors: [match[2]] });
  }
  return found;
}
