// text a user sends is text. A JSON body's strings may not carry control characters
// (tab, line feed and carriage return aside), bidi overrides and isolates (U+202A–U+202E,
// U+2066–U+2069: «U+202E» turns «exe.txt» into what reads as «txt.exe»), the replacement
// character U+FFFD (what invalid UTF-8 decodes to) or lone surrogates: 400 naming the field. Names
// (`name`, `*_name`) are kept in Unicode's composed form (NFC), so «й» typed as «и» + U+0306 is
// the same name as «й». Passwords and tokens are left as sent.
import { createMiddleware } from "hono/factory";
import { invalidAt } from "../domain/errors";
import type { AppEnv } from "./env";

const REFUSED =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LEFT_AS_SENT = /password|token|refresh|guardant_code/;
const isName = (key: string) => key === "name" || key.endsWith("_name");
export const REFUSED_TEXT = "недопустимые символы (управляющие, смена направления текста или неверная кодировка UTF-8)";

/** The path of the first string that carries a refused character; names made NFC on the way.
 *  Walked with a stack of its own, not recursion: a body may nest thousands of levels deep. */
export function refusedText(value: unknown, changed: { names: number } = { names: 0 }): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  while (pending.length > 0) {
    const { value: item, path } = pending.pop()!;
    if (!item || typeof item !== "object") continue;
    const entries: Array<[string, unknown]> = Array.isArray(item) ? item.map((v, i) => [`[${i}]`, v]) : Object.entries(item);
    // In reverse, so the stack gives back the first field first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      // A path past 200 characters is named by its start (a message names a field, not a tree).
      const at = path.length > 200 ? path : key.startsWith("[") ? `${path}${key}` : path ? `${path}.${key}` : key;
      if (typeof child !== "string") {
        pending.push({ value: child, path: at });
        continue;
      }
      if (LEFT_AS_SENT.test(key)) continue;
      if (REFUSED.test(child)) return at;
      if (isName(key) && child.normalize("NFC") !== child) {
        (item as Record<string, unknown>)[key] = child.normalize("NFC");
        changed.names += 1;
      }
    }
  }
  return undefined;
}

/** Checks a JSON body's strings before the route reads it, and has the route read its names NFC. */
export const textHygiene = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && type.startsWith("application/json")) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      // Not JSON: the route's own check answers it.
      return next();
    }
    const changed = { names: 0 };
    const at = refusedText(body, changed);
    if (at !== undefined) {
      throw invalidAt(at, REFUSED_TEXT);
    }
    // Hono parses the body's text again for each reader: the route reads the text of the names made NFC.
    if (changed.names > 0) {
      (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache.text = Promise.resolve(JSON.stringify(body));
    }
  }
  await next();
});
