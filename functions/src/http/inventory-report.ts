// v1/inventory/{year}/report/: the year's 296-FZ report passport as xlsx or PDF
// (export/inventory-report.ts), rendered behind the SpreadsheetWorker port like project exports.
// The declaration is in routes/inventory-report.ts.
import { parseInventoryYear } from "../domain/inventory";
import { passportFormat } from "../export/formats";
import { attachmentDisposition } from "./download";
import { routeApp } from "./openapi-routes";
import { reportRoute } from "../routes/inventory-report";

export const inventoryReportRoutes = routeApp().openapi(reportRoute, async (c) => {
  const q = c.req.valid("query");
  const year = parseInventoryYear(c.req.valid("param").year);
  const format = passportFormat(q.format);
  const result = await c.get("deps").spreadsheets.inventoryReport(c.get("actor"), { year, format, facility: q.facility || undefined });
  // As project exports (http/exports.ts): a large file is a storage address the client navigates to.
  if (result.kind === "redirect") {
    return c.json({ download_url: result.url, file_name: result.fileName }, 200, { "Cache-Control": "no-store" });
  }
  return c.body(result.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
    "Content-Type": result.contentType,
    "Content-Disposition": attachmentDisposition(result.fileName),
    "Cache-Control": "no-store",
  });
});
