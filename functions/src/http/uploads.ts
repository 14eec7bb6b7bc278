// Body caps of the admin upload routes. The API caps every body (1 MB JSON, 5 MB tabular forms,
// app.ts); these few routes carry files that are allowed to be far larger, and only they get the
// larger cap. The domain checks the same limits again while it reads the file (uploads.ts).
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppConfig } from "../config";
import { formatMegabytes } from "../domain/uploads";

/** Room for the form's text fields (title, number, …) around the PDF. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

const DOCUMENT_UPLOAD = [
  { method: "POST", path: /\/v1\/admin\/documents\/?$/ },
  { method: "PUT", path: /\/v1\/admin\/documents\/[^/]+\/file\/?$/ },
];
const VIDEO_UPLOAD = [{ method: "PUT", path: /\/v1\/admin\/media\/[^/]+\/?$/ }];

const matches = (c: Context, routes: { method: string; path: RegExp }[]) =>
  routes.some((r) => r.method === c.req.method && r.path.test(c.req.path));

/** The body limit for an admin upload request, or undefined for every other request. */
export function adminUploadLimits(config: AppConfig): (c: Context) => MiddlewareHandler | undefined {
  const tooLarge = (c: Context, fileMax: number) => c.json({ detail: `Файл больше ${formatMegabytes(fileMax)}` }, 413);
  const documents = bodyLimit({
    maxSize: config.documentMaxBytes + FORM_OVERHEAD_BYTES,
    onError: (c) => tooLarge(c, config.documentMaxBytes),
  });
  // hono's bodyLimit reads a body without Content-Length into memory, whole, before anyone has
  // checked who sends it; for 500 MB that is not acceptable. A video upload must declare its length
  // (browsers always do for a File body); Node reads no more than that, and the domain counts again.
  const videos: MiddlewareHandler = async (c, next) => {
    if (!c.req.raw.body) return next();
    const length = c.req.header("content-length");
    if (length === undefined || c.req.raw.headers.has("transfer-encoding")) {
      return c.json({ detail: "Укажите размер файла (заголовок Content-Length)" }, 411);
    }
    if (!/^\d+$/.test(length)) return c.json({ detail: "Некорректный заголовок Content-Length" }, 400);
    if (Number(length) > config.videoMaxBytes) return tooLarge(c, config.videoMaxBytes);
    return next();
  };
  return (c) => (matches(c, DOCUMENT_UPLOAD) ? documents : matches(c, VIDEO_UPLOAD) ? videos : undefined);
}
