// v1/projects/{id}/export_to_{txt|xls|xlsx}/ (SPEC 7): the project as a file, served. The
// declaration (with the detail and decimals query) is in routes/exports.ts.
import { exportFormat } from "../export/formats";
import { attachmentDisposition } from "./download";
import { routeApp } from "./openapi-routes";
import { exportRoute } from "../routes/exports";

export const exportRoutes = routeApp().openapi(exportRoute, async (c) => {
  const { id, action } = c.req.valid("param");
  const format = exportFormat(action.slice("export_to_".length));
  const q = c.req.valid("query");
  // Rendered behind the SpreadsheetWorker port: in this process locally, by the worker function in AWS.
  const result = await c.get("deps").spreadsheets.exportProject(c.get("actor"), id, format, {
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
});
