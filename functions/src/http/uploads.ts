// Body caps of the admin upload routes and of a custom coefficient's evidence file (10 MB). The
// API caps every body (1 MB JSON, 5 MB tabular forms, app.ts); these few routes carry files that
// are allowed to be larger, and only they get the larger cap. The domain checks the same limits again while it reads the file (uploads.ts).
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppConfig } from "../config";
import { fileSize } from "../contract/schemas/uploads";
import { EVIDENCE_MAX_BYTES } from "../contract/schemas/evidence";

/** Room for the form's text fields (title, number, …) around the PDF. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

const DOCUMENT_UPLOAD = [
  { method: "POST", path: /\/v1\/admin\/documents\/?$/ },
  { method: "PUT", path: /\/v1\/admin\/documents\/[^/]+\/file\/?$/ },
];
const VIDEO_UPLOAD = [{ method: "PUT", path: /\/v1\/admin\/media\/[^/]+\/?$/ }];
/** The local stand-in for a presigned PUT (http/direct-uploads.ts): a PDF or a video, streamed. */
const DIRECT_UPLOAD = [{ method: "PUT", path: /\/v1\/uploads\/?$/ }];
const EVIDENCE_UPLOAD = [{ method: "PUT", path: /\/v1\/[^/]+\/[^/]+\/evidence\/[^/]+\/?$/ }];

const matches = (c: Context, routes: { method: string; path: RegExp }[]) =>
  routes.some((r) => r.method === c.req.method && r.path.test(c.req.path));

/** The body limit for an admin upload request, or undefined for every other request. */
export function adminUploadLimits(config: AppConfig): (c: Context) => MiddlewareHandler | undefined {
  const tooLarge = (c: Context, fileMax: number) => c.json({ detail: `Файл больше ${fileSize(fileMax)}` }, 413);
  const documents = bodyLimit({
    maxSize: config.documentMaxBytes + FORM_OVERHEAD_BYTES,
    onError: (c) => tooLarge(c, config.documentMaxBytes),
  });
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
  const evidence = bodyLimit({
    maxSize: EVIDENCE_MAX_BYTES + FORM_OVERHEAD_BYTES,
    onError: (c) => tooLarge(c, EVIDENCE_MAX_BYTES),
  });
  const videos = streamed(config.videoMaxBytes);
  // The largest cap here; the route applies the one its token grants (a PDF's or a video's).
  const direct = streamed(Math.max(config.videoMaxBytes, config.documentMaxBytes));
  return (c) =>
    matches(c, DOCUMENT_UPLOAD)
      ? documents
      : matches(c, VIDEO_UPLOAD)
        ? videos
        : matches(c, DIRECT_UPLOAD)
          ? direct
          : matches(c, EVIDENCE_UPLOAD)
            ? evidence
            : undefined;
}
