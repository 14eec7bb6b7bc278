// The spreadsheet worker function: project exports (txt, xls, xlsx), the .xlsx upload templates and
// the inventory's report passport (xlsx, PDF, with the fonts copied beside the bundle), invoked
// synchronously by the API (adapters/spreadsheets/lambda-worker.ts, protocol.ts), and a job's state.
// The same bundle is the job function (jobHandler): the exports and passports near their bounds,
// invoked asynchronously, with Lambda's longest timeout (adapters/spreadsheets/jobs.ts), and a
// company's forecast model trained on its history (it writes the model under models/ and its
// version, calibration and change-log items). It carries
// exceljs, SheetJS (docs/deployment.md, «The spreadsheet worker») and pdfkit, so the API's bundle does not, and only exports
// pay for their cold start. It reads the table (a project and its calculations, an inventory) and the forecasts'
// rows (forecasts/, read only) and the approved inventory snapshots (inventory/, read only), and
// writes only under exports/ (the areas its blob store knows, the prefixes the stack grants it), and
// signs a verification pack's manifest with the version key (KMS Sign R9). No secret:
// the API has authenticated the user, and only the API's role may invoke this function.
import { Buffer } from "node:buffer";
import { S3Client } from "@aws-sdk/client-s3";
import * as z from "zod/mini";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { workerRequest, type WorkerAnswer } from "../adapters/spreadsheets/protocol";
import { systemClock } from "../domain/context";
import { DomainError, toWire } from "../domain/errors";
import { EXPORT_FORMATS } from "../export/formats";
import { inProcessSpreadsheets } from "../export/in-process";
import type { ExportDeps } from "../export/project-export";
import type { SpreadsheetWorker } from "../ports";
import { BLOB_AREAS, EXPORTS_AREA } from "../adapters/blob/areas";
import { requiredEnv } from "./secrets";
import { KMSClient, kmsSigner } from "../adapters/signing/kms-signer";
import { bytesOf, jobStatus, renderFile, runJob } from "../adapters/spreadsheets/jobs";

type Log = Pick<Console, "info"> & Partial<Pick<Console, "error">>;

/** The worker's ports from the environment the CDK stack sets: TABLE_NAME, EXPORTS_BUCKET and the
 *  bucket of the forecast rows (UPLOADS_BUCKET). */
export function workerDepsFromEnv(): ExportDeps {
  const tableName = requiredEnv("TABLE_NAME");
  return {
    repos: dynamoRepositories(createDocumentClient({ tableName, region: process.env.AWS_REGION }), tableName),
    blobs: s3BlobStore(new S3Client({}), {
      [EXPORTS_AREA.area]: requiredEnv(EXPORTS_AREA.bucket),
      forecasts: requiredEnv(BLOB_AREAS.forecasts.bucket),
      inventory: requiredEnv(BLOB_AREAS.inventory.bucket),
      // D34: the evidence files a version's pack carries (uploads/, read only).
      uploads: requiredEnv(BLOB_AREAS.uploads.bucket),
      // A training job reads its history and stores the model (domain/forecast/training.ts).
      training: requiredEnv(BLOB_AREAS.training.bucket),
      models: requiredEnv(BLOB_AREAS.models.bucket),
      // a climate period's figures and kept readings (its pack reads them; a long period's
      // job writes them, domain/climate/periods.ts).
      climate: requiredEnv(BLOB_AREAS.climate.bucket),
      // a reconciliation's job reads the mine's export and keeps its record, its xlsx and the
      // missing readings under telemetry/ (domain/monitoring/ingest/reconciliation.ts).
      "telemetry-uploads": requiredEnv(BLOB_AREAS["telemetry-uploads"].bucket),
      telemetry: requiredEnv(BLOB_AREAS.telemetry.bucket),
    }),
    clock: systemClock,
    // the security review's R9: a verification pack's manifest is signed here with the version key (KMS).
    ...(process.env.VERSION_SIGNING_KEY_IDS
      ? { signer: kmsSigner(new KMSClient({}), process.env.VERSION_SIGNING_KEY_IDS.split(",")) }
      : {}),
  };
}

const base64Of = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** One invoke answered with `worker` (the in-process one over the worker's own ports). A domain
 *  refusal is an answer; anything else fails the invoke (the API answers 500; the function's
 *  Errors alarm counts it). */
export async function answer(
  worker: SpreadsheetWorker,
  event: unknown,
  log: Log = console,
  /** The ports and a worker answering bytes, for jobs (adapters/spreadsheets/jobs.ts). */
  jobs?: { deps: ExportDeps; worker: SpreadsheetWorker },
  /** The function's part: the worker answers everything but a job, the job function a job only. */
  part: "worker" | "job" | "any" = "any",
): Promise<WorkerAnswer> {
  const parsed = z.safeParse(workerRequest, event);
  if (!parsed.success)
    throw new Error(`malformed spreadsheet request: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const request = parsed.data;
  // A job on the worker would be cut by its 25 s; anything else on the job function has no caller
  // waiting for its answer. Either is a fault between the functions.
  if ((part === "worker" && request.op === "job") || (part === "job" && request.op !== "job"))
    throw new Error(`spreadsheet ${part} function: ${request.op} is not its work`);
  const started = Date.now();
  let result: WorkerAnswer;
  try {
    if (request.op === "job" || request.op === "job_status") {
      if (!jobs) throw new Error("spreadsheet worker: no job store");
      const state = request.op === "job" ? await runJob(jobs.deps, jobs.worker, request, log) : await jobStatus(jobs.deps, request);
      result = { kind: "job", ...state };
    } else if (request.op === "template") {
      const bytes = await worker.template(request.type, request.year);
      result = { kind: "body", fileName: `${request.type}.xlsx`, contentType: EXPORT_FORMATS.xlsx.contentType, base64: base64Of(bytes) };
    } else if (request.op === "abatement") {
      const bytes = await worker.abatementFile(request.assessment, request.format, request.issued);
      const type = request.format === "pdf" ? "application/pdf" : EXPORT_FORMATS.xlsx.contentType;
      result = { kind: "body", fileName: `abatement.${request.format}`, contentType: type, base64: base64Of(bytes) };
    } else if (request.op === "climate_report") {
      const bytes = await worker.climateReportFile(request.report, request.format, request.issued);
      const type = request.format === "pdf" ? "application/pdf" : EXPORT_FORMATS.xlsx.contentType;
      result = { kind: "body", fileName: `climate-report.${request.format}`, contentType: type, base64: base64Of(bytes) };
    } else if (request.op === "monitoring_file") {
      const bytes = await worker.monitoringFile(request.file);
      const pdf = request.file.format === "pdf";
      result = {
        kind: "body",
        fileName: `${request.file.kind}.${request.file.format}`,
        contentType: pdf ? "application/pdf" : EXPORT_FORMATS.xlsx.contentType,
        base64: base64Of(bytes),
      };
    } else if (request.op === "comparison") {
      const bytes = await worker.comparisonWorkbook(request.comparison);
      result = { kind: "body", fileName: "comparison.xlsx", contentType: EXPORT_FORMATS.xlsx.contentType, base64: base64Of(bytes) };
    } else if (request.op === "trend") {
      const bytes = await worker.trendWorkbook(request.trend, request.view);
      result = { kind: "body", fileName: "trend.xlsx", contentType: EXPORT_FORMATS.xlsx.contentType, base64: base64Of(bytes) };
    } else {
      const file = await renderFile(worker, request);
      if (file.kind === "job") throw new Error("spreadsheet worker: a job inside a job");
      result =
        file.kind === "redirect"
          ? { kind: "redirect", url: file.url, fileName: file.fileName }
          : { kind: "body", fileName: file.fileName, contentType: file.contentType, base64: base64Of(await bytesOf(file.body)) };
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    result = { kind: "error", error: toWire(error) };
  }
  log.info(
    JSON.stringify({
      spreadsheet: request.op,
      ...(request.op === "job"
        ? { job: request.job, company: request.request.actor.company, of: request.request.op }
        : request.op === "job_status"
          ? { job: request.job, company: request.actor.company }
          : request.op === "export"
            ? { company: request.actor.company, project: request.projectId, format: request.format, detail: request.detail === true }
            : request.op === "inventory_report"
              ? {
                  company: request.actor.company,
                  year: request.year,
                  facility: request.facility,
                  format: request.format,
                  version: request.version,
                }
              : request.op === "template"
                ? { type: request.type }
                : request.op === "abatement"
                  ? { company: request.assessment.company, assessment: request.assessment.id, format: request.format }
                  : request.op === "climate_report"
                    ? { project: request.report.project, period: request.report.period, format: request.format }
                    : request.op === "shift_report"
                      ? { company: request.actor.company, facility: request.query.facility, date: request.query.date }
                      : request.op === "gassing_book"
                        ? {
                            company: request.actor.company,
                            facility: request.query.facility,
                            from: request.query.from,
                            to: request.query.to,
                          }
                        : request.op === "monitoring_file"
                          ? { kind: request.file.kind }
                          : request.op === "climate_pack" || request.op === "climate_pack_manifest"
                            ? { company: request.actor.company, project: request.project, period: request.period }
                            : request.op === "comparison"
                              ? { year: request.comparison.year }
                              : { view: request.view }),
      answer: result.kind === "error" ? result.error.kind : result.kind === "job" ? result.state : result.kind,
      base64_chars: result.kind === "body" ? result.base64.length : undefined,
      ms: Date.now() - started,
    }),
  );
  return result;
}

let worker: SpreadsheetWorker | undefined;
let jobs: { deps: ExportDeps; worker: SpreadsheetWorker } | undefined;

function ports(): [SpreadsheetWorker, { deps: ExportDeps; worker: SpreadsheetWorker }] {
  if (!worker || !jobs) {
    const deps = workerDepsFromEnv();
    worker = inProcessSpreadsheets(() => deps);
    // A job's file is stored by the job (adapters/spreadsheets/jobs.ts): rendered inline whatever its size.
    jobs = { deps, worker: inProcessSpreadsheets(() => deps, { inlineLimitBytes: Number.POSITIVE_INFINITY }) };
  }
  return [worker, jobs];
}

/** The spreadsheet worker function (SpreadsheetFunction): invoked synchronously by the API. */
export async function handler(event: unknown): Promise<WorkerAnswer> {
  const [sync, jobPorts] = ports();
  return answer(sync, event, console, jobPorts, "worker");
}

/** The job function (ExportJobFunction): one job, invoked asynchronously by the API. */
export async function jobHandler(event: unknown): Promise<WorkerAnswer> {
  const [sync, jobPorts] = ports();
  return answer(sync, event, console, jobPorts, "job");
}
