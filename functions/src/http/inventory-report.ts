// v1/inventory/{year}/report/: the year's 296-FZ report passport as xlsx or PDF
// (export/inventory-report.ts), rendered behind the SpreadsheetWorker port like project exports.
// The declaration is in routes/inventory-report.ts.
import { parseInventoryYear } from "../domain/inventory";
import { passportFormat } from "../export/formats";
import { heavyFileAnswer } from "./heavy-file";
import { routeApp } from "./openapi-routes";
import { reportRoute } from "../contract/routes/inventory-report";

export const inventoryReportRoutes = routeApp().openapi(reportRoute, async (c) => {
  const q = c.req.valid("query");
  const year = parseInventoryYear(c.req.valid("param").year);
  const format = passportFormat(q.format);
  // As project exports (http/exports.ts): a large file is a storage address the client navigates to.
  // In AWS the PDF (the slow format: 5 200 lines took 24 s) is rendered as a job (heavy-work.ts).
  const job = format === "pdf" && c.get("deps").spreadsheets.jobStatus !== undefined;
  return heavyFileAnswer(c, () =>
    c
      .get("deps")
      .spreadsheets.inventoryReport(c.get("actor"), { year, format, facility: q.facility || undefined, ...(job ? { job } : {}) }),
  );
});
