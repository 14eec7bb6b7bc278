// the names a certificate carries (a signer's CN, O, T, ИНН…; a CA's subject and
// issuer) are shown and stored under the rules the rest of the product applies to text
// (http/text-hygiene.ts): a certificate is not refused for its names, so what text refuses is
// stripped here — control characters, bidi overrides, isolates and marks, zero-width characters, the
// replacement character — the name is made NFC and one longer than LIMITS.climate.certificateName is
// cut with «…». node:crypto prints a control byte of a name as «\\1B»: decoded before it is stripped
// (it once read «A01071B[31m…»).
import { LIMITS } from "./schemas/limits";

const UNSHOWN =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A value of a name as node:crypto prints it (RFC 2253 escapes: «\\XX» a byte, «\\,» a character), unescaped. */
export const unescapedName = (value: string) =>
  value.replace(/\\([0-9A-Fa-f]{2}|.)/g, (_, escaped: string) =>
    escaped.length === 2 ? String.fromCharCode(Number.parseInt(escaped, 16)) : escaped,
  );

/** Characters that show as nothing: a code carrying one looks like another (`a\u200Bb` reads as `ab`). */
export const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u2060-\u2064\uFEFF]/;

/** A certificate's name as shown and stored (shownText). */
export const certificateText = (value: string, max: number = LIMITS.climate.certificateName) => shownText(value, max);

/** Text of a certificate or a file as shown and stored: nothing text refuses, NFC, at most `max`
 *  characters (cut with «…»). A file's text shown back (a reconciliation's unknown codes and
 *  refusals: its bidi and NUL characters were echoed raw) alike. */
export function shownText(value: string, max: number): string {
  const clean = value.replace(UNSHOWN, "").normalize("NFC").trim();
  const chars = Array.from(clean);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : clean;
}
