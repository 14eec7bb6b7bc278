// v1/projects/{id}/export_to_{txt|xls|xlsx}/ (SPEC 7): the project as a file. detail=true asks for
// the detailed workbook, decimals (0..4, the client's `comma` setting) for the number formats.
import { Hono } from "hono";
import * as z from "zod/mini";
import { exportFormat } from "../export/formats";
import { booleanParam } from "../schemas/common";
import { attachmentDisposition } from "./download";
import type { AppEnv } from "./env";
import { validate } from "./validate";

export const exportQuery = z.object({
  detail: booleanParam,
  decimals: z.optional(
    z.coerce
      .number("decimals: ожидается целое число от 0 до 4")
      .check(
        z.int("decimals: ожидается целое число от 0 до 4"),
        z.minimum(0, "decimals: ожидается целое число от 0 до 4"),
        z.maximum(4, "decimals: ожидается целое число от 0 до 4"),
      ),
  ),
});

export const exportRoutes = new Hono<AppEnv>({ strict: false }).get(
  "/:id/:action{export_to_[^/]*}",
  validate("query", exportQuery),
  async (c) => {
    const format = exportFormat(c.req.param("action").slice("export_to_".length));
    const q = c.req.valid("query");
    // Rendered behind the SpreadsheetWorker port: in this process locally, by the worker function in AWS.
    const result = await c.get("deps").spreadsheets.exportProject(c.get("actor"), c.req.param("id"), format, {
      detail: q.detail === "true",
      decimals: q.decimals,
    });
    // A file too large for a Lambda answer is handed out as a short-lived storage address. Not as a
    // 302: the browser fetches exports with the bearer token, and a followed cross-origin redirect
    // would be blocked by the CSP's connect-src; the client navigates to the address instead.
    if (result.kind === "redirect") {
      return c.json({ download_url: result.url, file_name: result.fileName }, 200, { "Cache-Control": "no-store" });
    }
    return c.body(result.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
      "Content-Type": result.contentType,
      "Content-Disposition": attachmentDisposition(result.fileName),
      "Cache-Control": "no-store",
    });
  },
);
