// The SpreadsheetWorker port run in this process (the report's request renders the passport, or an
// approved version's verification pack): the local and test hosts use it directly (an
// export streams to the browser as it is written), and the worker function in AWS wraps it
// (lambda/spreadsheets.ts). `depsOf` is read at each call, so a host may build its Deps with this
// worker inside.
import { dateText } from "@core/company-clock";
import { NotFound } from "../domain/errors";
import { templateFor } from "../contract/templates";
import { templateXlsx } from "../files/templates";
import type { SpreadsheetWorker } from "../ports";
import { PACK_FORMAT, YEAR_CALCULATIONS_FORMAT } from "./formats";
import { inventoryReport, yearCalculations } from "./inventory-report";
import { verificationPack } from "./verification-pack";
import { climatePack, climatePackManifest } from "./climate-pack";
import { exportProject, type ExportDeps } from "./project-export";
import { trendXlsx } from "./trend-xlsx";
import { comparisonXlsx } from "./comparison-xlsx";
import { abatementPdf, abatementXlsx } from "./abatement-export";
import { climateReportFile } from "./climate-report";
import { shiftReport } from "../domain/monitoring/derive/shift-report";
import { shiftReportPdf, shiftReportXlsx } from "./shift-report";
import { monitoringFileBytes } from "./instruments";
import { BOOK_TITLE, gassingBookPdf, gassingBookXlsx } from "./gassing-book";
import { listGassings } from "../domain/monitoring/derive/journal";
import { EXPORT_FORMATS } from "./formats";
import { runReconciliationJob } from "./reconciliation-job";

export interface InProcessOptions {
  /** Above this an export goes to the blob store and a download URL (project-export.ts). */
  inlineLimitBytes?: number;
}

export function inProcessSpreadsheets(depsOf: () => ExportDeps, options: InProcessOptions = {}): SpreadsheetWorker {
  return {
    exportProject: (actor, projectId, format, request) =>
      exportProject(depsOf(), actor, projectId, format, { ...request, inlineLimitBytes: options.inlineLimitBytes }),
    async template(type, year) {
      const template = templateFor(type, year);
      if (!template) throw new NotFound("Для этого типа расчета шаблона нет");
      return templateXlsx(template);
    },
    trendWorkbook: trendXlsx,
    comparisonWorkbook: comparisonXlsx,
    abatementFile: (assessment, format, issued) =>
      format === "pdf" ? abatementPdf(assessment, new Date(issued)) : abatementXlsx(assessment),
    climateReportFile: (report, format, issued) => climateReportFile(report, format, new Date(issued)),
    monitoringFile: monitoringFileBytes,
    async gassingBook(actor, query) {
      const list = await listGassings(depsOf(), actor, query);
      return {
        kind: "body",
        fileName: `${BOOK_TITLE} ${list.facility_name} ${dateText(list.from, "UTC")} ${dateText(list.to, "UTC")}.${query.format}`,
        contentType: query.format === "pdf" ? "application/pdf" : EXPORT_FORMATS.xlsx.contentType,
        body: query.format === "pdf" ? await gassingBookPdf(list) : await gassingBookXlsx(list),
      };
    },
    async shiftReport(actor, query) {
      const report = await shiftReport(depsOf(), actor, query);
      const format = query.format ?? "xlsx";
      return {
        kind: "body",
        fileName: `Отчет смены ${report.facility} ${dateText(report.date, "UTC")} смена ${report.shift}.${format}`,
        contentType: format === "pdf" ? "application/pdf" : EXPORT_FORMATS.xlsx.contentType,
        body: format === "pdf" ? await shiftReportPdf(report) : await shiftReportXlsx(report),
      };
    },
    async climatePackManifest(actor, request) {
      const manifest = await climatePackManifest(depsOf(), actor, request);
      return { kind: "body", fileName: manifest.file_name, contentType: "application/json", body: manifest.bytes };
    },
    // Within the call: the tests' host runs no jobs (the domain holds a heavy-work slot around it).
    async reconcile(request) {
      const record = await runReconciliationJob(depsOf(), request);
      return { kind: "job", job: { job: record.id, state: record.state === "done" ? "done" : "failed", progress: 100 } };
    },
    climatePack: (actor, { job: _job, ...request }) =>
      climatePack(depsOf(), actor, { ...request, inlineLimitBytes: options.inlineLimitBytes }),
    inventoryReport: (actor, { format, ...request }) =>
      format === PACK_FORMAT.format
        ? verificationPack(depsOf(), actor, { ...request, inlineLimitBytes: options.inlineLimitBytes })
        : format === YEAR_CALCULATIONS_FORMAT.format
          ? yearCalculations(depsOf(), actor, { ...request, inlineLimitBytes: options.inlineLimitBytes })
          : inventoryReport(depsOf(), actor, { ...request, format, inlineLimitBytes: options.inlineLimitBytes }),
  };
}
