// v1/inventory/{year}/report/: the year's 296-FZ report passport as xlsx or PDF, and
// v1/inventory/{year}/versions/{n}/pack/: an approved version's verification pack (export/verification-pack.ts)
// (export/inventory-report.ts), rendered behind the SpreadsheetWorker port like project exports.
// The declaration is in routes/inventory-report.ts.
import { parseInventoryYear } from "../domain/inventory/year";
import { reportNeedsJob } from "../domain/heavy-work";
import { PACK_FORMAT, YEAR_CALCULATIONS_FORMAT, passportFormat } from "../export/formats";
import { exportJob } from "../domain/export-jobs";
import { heavyFileAnswer, jobAnswer } from "./heavy-file";
import { routeApp } from "./openapi-routes";
import { invalidAt } from "../domain/errors";
import { requireApprovedVersion } from "../domain/inventory/versions";
import { packRoute, reportRoute } from "../contract/routes/inventory-report";

export const inventoryReportRoutes = routeApp()
  .openapi(reportRoute, async (c) => {
    const q = c.req.valid("query");
    const year = parseInventoryYear(c.req.valid("param").year);
    // ?format=calculations: the year's calculations as one workbook, through the passport's worker.
    const format = q.format === YEAR_CALCULATIONS_FORMAT.format ? YEAR_CALCULATIONS_FORMAT.format : passportFormat(q.format);
    // As project exports (http/exports.ts): a large file is a storage address the client navigates to.
    // Where the host runs jobs (AWS, the local host), a large company's passport is rendered as a
    // job (domain/heavy-work.ts): the answer is 202 and its state, and no call waits on the layout.
    const deps = c.get("deps");
    const actor = c.get("actor");
    const facility = q.facility || undefined;
    const version = versionOf(q.version);
    // A version the year never approved is a 404 before any job is queued for it.
    if (version !== undefined) await requireApprovedVersion(deps, actor, year, version);
    if (
      deps.spreadsheets.jobsOf?.includes("inventory_report") === true &&
      (await reportNeedsJob(deps, actor, format === YEAR_CALCULATIONS_FORMAT.format ? "xlsx" : format))
    ) {
      const request = { op: "inventory_report" as const, year, format, facility, version };
      return jobAnswer(
        c,
        await exportJob(deps, actor, request, (job) => deps.spreadsheets.inventoryReport(actor, { year, format, facility, version, job })),
      );
    }
    return heavyFileAnswer(c, () => deps.spreadsheets.inventoryReport(actor, { year, format, facility, version }));
  })
  // D34: the pack holds the version's passport as PDF, so it is a job where the PDF would be one.
  .openapi(packRoute, async (c) => {
    const params = c.req.valid("param");
    const year = parseInventoryYear(params.year);
    const version = versionOf(params.version)!;
    const deps = c.get("deps");
    const actor = c.get("actor");
    const format = PACK_FORMAT.format;
    await requireApprovedVersion(deps, actor, year, version);
    if (deps.spreadsheets.jobsOf?.includes("inventory_report") === true && (await reportNeedsJob(deps, actor, "pdf"))) {
      const request = { op: "inventory_report" as const, year, format, version };
      return jobAnswer(
        c,
        await exportJob(deps, actor, request, (job) => deps.spreadsheets.inventoryReport(actor, { year, format, version, job })),
      );
    }
    return heavyFileAnswer(c, () => deps.spreadsheets.inventoryReport(actor, { year, format, version }));
  });

/** ?version=n: a positive whole number (400 otherwise); none: the latest. */
function versionOf(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^[1-9]\d{0,5}$/.test(value)) throw invalidAt("version", "ожидается номер утвержденной версии");
  return Number(value);
}
