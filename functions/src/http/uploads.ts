// Every request body's cap, applied before anyone reads it. A JSON body is held to the JSON cap
// (config, 1 MB); a route that takes a file declares its cap in the contract (routes/declare.ts
// BodyCap: a tabular form, a PDF, an evidence file, a video), and only its file bodies get the larger
// one. The domain checks the same limits again while it reads the file (files/uploads.ts).
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppConfig } from "../config";
import type { BodyCap } from "../contract/routes/declare";
import { EVIDENCE_MAX_BYTES } from "../contract/schemas/evidence";
import { fileSize, MAX_TABULAR_UPLOAD_BYTES } from "../contract/schemas/uploads";
import type { Operation } from "./openapi-routes";

/** Room for the form's text fields (title, number, …) around the PDF or the evidence file. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
/** Room for a calculation's or a model's form fields around its tabular file. */
const TABULAR_FORM_OVERHEAD_BYTES = 256 * 1024;

/** The matcher of an operation's path as Hono registers it (`:id`, `:action{export_to_[^\x2f]*}`),
 *  the trailing slash optional as everywhere (strict: false). */
function pathPattern(path: string): RegExp {
  const parts = path
    .split("/")
    .map((part) => (part.startsWith(":") ? `(?:${/\{(.*)\}$/.exec(part)?.[1] ?? "[^/]+"})` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("/")}/?$`);
}

/** The route of a request, found as the router finds it: the first operation, in mount order,
 *  whose method and path match. */
export function routeOf(operations: Operation[]): (method: string, path: string) => Operation | undefined {
  const routes = operations.map((op) => ({ op, pattern: pathPattern(op.path) }));
  return (method, path) => routes.find((route) => route.op.method === method && route.pattern.test(path))?.op;
}

/** The middleware holding each request's body to its cap. */
export function bodyLimits(config: AppConfig, operations: Operation[]): MiddlewareHandler {
  const tooLarge = (c: Context, fileMax: number) => c.json({ detail: `Файл больше ${fileSize(fileMax)}` }, 413);
  const json = bodyLimit({
    maxSize: config.jsonBodyLimitBytes,
    onError: (c) => c.json({ detail: "Слишком большой запрос" }, 413),
  });
  const form = (fileMax: number, overhead: number) => bodyLimit({ maxSize: fileMax + overhead, onError: (c) => tooLarge(c, fileMax) });
  // hono's bodyLimit reads a body without Content-Length into memory, whole, before anyone has
  // checked who sends it; for 500 MB that is not acceptable. A video upload must declare its length
  // (browsers always do for a File body); Node reads no more than that, and the domain counts again.
  const streamed =
    (max: number): MiddlewareHandler =>
    async (c, next) => {
      if (!c.req.raw.body) return next();
      const length = c.req.header("content-length");
      if (length === undefined || c.req.raw.headers.has("transfer-encoding")) {
        return c.json({ detail: "Укажите размер файла (заголовок Content-Length)" }, 411);
      }
      if (!/^\d+$/.test(length)) return c.json({ detail: "Некорректный заголовок Content-Length" }, 400);
      if (Number(length) > max) return tooLarge(c, max);
      return next();
    };
  const caps: Record<BodyCap, MiddlewareHandler> = {
    form: form(MAX_TABULAR_UPLOAD_BYTES, TABULAR_FORM_OVERHEAD_BYTES),
    document: form(config.documentMaxBytes, FORM_OVERHEAD_BYTES),
    evidence: form(EVIDENCE_MAX_BYTES, FORM_OVERHEAD_BYTES),
    video: streamed(config.videoMaxBytes),
    // The largest cap here; the route applies the one its token grants (a PDF's or a video's).
    direct: streamed(Math.max(config.videoMaxBytes, config.documentMaxBytes)),
    // A CSV of readings (methodology D57) is held to the JSON cap, 1 MB, as its JSON twin.
    readings: bodyLimit({
      maxSize: config.jsonBodyLimitBytes,
      onError: (c) => c.json({ detail: `Пакет показаний больше ${fileSize(config.jsonBodyLimitBytes)}` }, 413),
    }),
  };
  // A route's own JSON cap below the server's (routes/declare.ts jsonCap), one middleware per size.
  const jsonCaps = new Map(
    operations
      .filter((op) => op.jsonCap !== undefined && op.jsonCap < config.jsonBodyLimitBytes)
      .map((op) => [
        op.jsonCap as number,
        bodyLimit({
          maxSize: op.jsonCap as number,
          onError: (c) => c.json({ detail: `Запрос больше ${fileSize(op.jsonCap as number)}` }, 413),
        }),
      ]),
  );
  const find = routeOf(operations);
  return (c, next) => {
    const route = find(c.req.method, c.req.path);
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (route?.bodyCap && !type.startsWith("application/json")) return caps[route.bodyCap](c, next);
    // A form where the route takes JSON only: refused unread, so no label gets a body past the JSON cap.
    if (route && type.startsWith("multipart/form-data")) {
      return Promise.resolve(c.json({ detail: "Ожидается тело JSON (Content-Type: application/json)" }, 415));
    }
    const own = route?.jsonCap !== undefined ? jsonCaps.get(route.jsonCap) : undefined;
    return (own ?? json)(c, next);
  };
}
