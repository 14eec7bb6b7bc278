// One spreadsheet thread of the local host (spreadsheet-threads.ts): the same in-process worker the
// spreadsheet worker function runs in AWS (lambda/spreadsheets.ts), over ports of its own (a client
// of the server's dynalite engine, through a message port to the engine's thread when the server
// runs it in one, else over its endpoint; the blob folder read directly), so that rendering an xlsx
// or a PDF never holds the server's event loop. A file is sent back a chunk per "pull" of the
// server's response stream: the thread renders at the pace the download is read.
import { parentPort, workerData } from "node:worker_threads";
import * as z from "zod/mini";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { portRequestHandler } from "./dynalite-port";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { workerRequest } from "../adapters/spreadsheets/protocol";
import { systemClock, type Deps } from "../domain/context";
import { wholeYearAnswer } from "../domain/inventory/whole-year";
import { minutesReadAnswer } from "../domain/monitoring/live/minute-reads";
import { climateReadAnswer } from "../domain/climate/day-minutes";
import { opensslGostCms } from "../adapters/signing/gost-cms";
import { DomainError, toWire } from "../domain/errors";
import { FileRefused } from "../files/errors";
import { previewUpload } from "../domain/calculations/upload-preview";
import { exportFormat, type ExportResult } from "../export/formats";
import { inProcessSpreadsheets } from "../export/in-process";
import type { ExportDeps } from "../export/project-export";
import { threadSigner, type ThreadData, type ThreadMessage, type ToThread } from "./spreadsheet-threads";
import { forecastFromColumns, forecastFromFile, type ForecastRun } from "../domain/forecast/forecast";
import { columnBuffers } from "../domain/forecast/file";
import type { ForecastColumns } from "../ports";
import { runJob } from "../adapters/spreadsheets/jobs";
import type { UploadedFile } from "../files/tabular";
import { hostRuntime } from "../events/runtime";
import { revived } from "./thread-calls";

const { endpoint, tableName, blobsDir, port: engine, signing } = workerData as ThreadData;
const deps: ExportDeps = {
  repos: dynamoRepositories(
    createDocumentClient({ tableName, endpoint, ...(engine ? { requestHandler: portRequestHandler(engine) } : {}) }),
    tableName,
  ),
  blobs: fsBlobStore(blobsDir),
  clock: systemClock,
  // A verification pack's manifest is signed by the server (the security review's R9).
  ...(signing ? { signer: threadSigner(signing) } : {}),
};

/** This thread's runtime (events/runtime.ts): nothing published here is heard by anyone. */
const runtime = hostRuntime({ subscribers: [], deps: () => deps });

/** The ports with the server's clock, running on from `now` (its reading when it sent the request):
 *  an export's «Дата выгрузки» and a job's stamps are the server's time, a test's held day too. */
function depsAt(now: number): ExportDeps {
  const offset = now - Date.now();
  return { ...deps, clock: { now: () => new Date(Date.now() + offset) } };
}
const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);

/** Bytes gathered into one message: fewer round trips than the zip's small chunks. */
const CHUNK_BYTES = 256 * 1024;

interface Job {
  pull(): Promise<void>;
  cancel(): void;
}
const jobs = new Map<number, Job>();

function streamJob(id: number, body: ReadableStream<Uint8Array> | Uint8Array): Job {
  const reader = body instanceof Uint8Array ? undefined : body.getReader();
  let whole = body instanceof Uint8Array ? body : undefined;
  return {
    async pull() {
      try {
        if (!reader) {
          if (whole) post({ id, type: "chunk", bytes: whole });
          else finish(id, { id, type: "end" });
          whole = undefined;
          return;
        }
        const parts: Uint8Array[] = [];
        let size = 0;
        while (size < CHUNK_BYTES) {
          const { done, value } = await reader.read();
          if (done) break;
          parts.push(value);
          size += value.byteLength;
        }
        if (size > 0) post({ id, type: "chunk", bytes: Buffer.concat(parts) });
        else finish(id, { id, type: "end" });
      } catch (error) {
        finish(id, failure(id, error));
      }
    },
    cancel() {
      jobs.delete(id);
      reader?.cancel().catch(() => {});
    },
  };
}

function finish(id: number, message: ThreadMessage): void {
  jobs.delete(id);
  post(message);
}

function failure(id: number, error: unknown): ThreadMessage {
  if (error instanceof DomainError) return { id, type: "error", error: toWire(error) };
  // A file the reader refused is answered as on the request thread (http/errors.ts).
  if (error instanceof FileRefused)
    return {
      id,
      type: "error",
      error: { kind: error.kind, detail: error.detail, ...(error.problems ? { problems: [...error.problems] } : {}) },
    };
  return { id, type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** A file the request thread names and types itself (the port answers these with their bytes alone). */
const bytesOnly = (body: Uint8Array): ExportResult => ({ kind: "body", fileName: "", contentType: "", body });

async function run(id: number, raw: unknown, now: number): Promise<void> {
  try {
    const request = z.parse(workerRequest, raw);
    const at = depsAt(now);
    const worker = inProcessSpreadsheets(() => at);
    let result: ExportResult;
    if (request.op === "template") {
      result = bytesOnly(await worker.template(request.type, request.year));
    } else if (request.op === "abatement") {
      result = bytesOnly(await worker.abatementFile(request.assessment, request.format, request.issued));
    } else if (request.op === "climate_report") {
      result = bytesOnly(await worker.climateReportFile(request.report, request.format, request.issued));
    } else if (request.op === "monitoring_file") {
      result = bytesOnly(await worker.monitoringFile(request.file));
    } else if (request.op === "comparison") {
      result = bytesOnly(await worker.comparisonWorkbook(request.comparison));
    } else if (request.op === "trend") {
      result = bytesOnly(await worker.trendWorkbook(request.trend, request.view));
    } else if (request.op === "shift_report") {
      result = await worker.shiftReport(request.actor, request.query);
    } else if (request.op === "gassing_book") {
      result = await worker.gassingBook(request.actor, request.query);
    } else if (request.op === "climate_pack_manifest") {
      result = await worker.climatePackManifest(request.actor, { project: request.project, period: request.period });
    } else if (request.op === "climate_pack") {
      result = await worker.climatePack(request.actor, { project: request.project, period: request.period, partBytes: request.partBytes });
    } else if (request.op === "inventory_report") {
      result = await worker.inventoryReport(request.actor, {
        year: request.year,
        facility: request.facility,
        format: request.format,
        version: request.version,
      });
    } else if (request.op === "export") {
      result = await worker.exportProject(request.actor, request.projectId, exportFormat(request.format), {
        detail: request.detail,
        decimals: request.decimals,
      });
    } else if (request.op === "job") {
      // Its state and file go to the blob folder; the failure of the work is the job's own.
      // A job's file is stored by the job (adapters/spreadsheets/jobs.ts), whatever its size.
      await runJob(
        at,
        inProcessSpreadsheets(() => at, { inlineLimitBytes: Number.POSITIVE_INFINITY }),
        request,
      );
      return finish(id, { id, type: "end" });
    } else throw new Error(`spreadsheet thread: ${request.op} is answered by the server`);
    if (result.kind === "redirect") return finish(id, { id, type: "redirect", url: result.url, fileName: result.fileName });
    if (result.kind === "job") throw new Error("spreadsheet thread: the local host runs no jobs");
    jobs.set(id, streamJob(id, result.body));
    post({ id, type: "head", fileName: result.fileName, contentType: result.contentType });
  } catch (error) {
    finish(id, failure(id, error));
  }
}

/** A forecast upload read and predicted (domain/forecast/forecast.ts). */
function forecast(id: number, file: UploadedFile, run: ForecastRun): Promise<void> {
  return predicted(id, () => forecastFromFile(deps, file, run));
}

/** A history's columns kept by its preview (domain/forecast/preview-columns.ts), predicted. */
function forecastColumns(id: number, columns: ForecastColumns, run: ForecastRun): Promise<void> {
  return predicted(id, () => forecastFromColumns(deps, columns, run));
}

/** A forecast `predict` makes; the rows' JSON is transferred back. */
async function predicted(id: number, predict: () => ReturnType<typeof forecastFromFile>): Promise<void> {
  post({ id, type: "started" });
  try {
    const { summary, json } = await predict();
    port.postMessage({ id, type: "forecast", summary, json } satisfies ThreadMessage, [json.buffer as ArrayBuffer]);
  } catch (error) {
    post(failure(id, error));
  }
}

/** An upload's preview (domain/calculations/upload-preview.ts): read and checked, nothing stored; a forecast
 *  history's columns handed back with it when asked (the save that follows may use them). */
async function preview(message: Extract<ToThread, { type: "preview" }>): Promise<void> {
  post({ id: message.id, type: "started" });
  try {
    let columns: ForecastColumns | undefined;
    const answer = await previewUpload(
      message.upload,
      message.file,
      message.values,
      message.bounds,
      message.keepColumns ? (read) => (columns = read) : undefined,
    );
    const reply: ThreadMessage = { id: message.id, type: "preview", preview: answer, ...(columns ? { columns } : {}) };
    port.postMessage(reply, columns ? columnBuffers(columns) : []);
  } catch (error) {
    post(failure(message.id, error));
  }
}

/** A whole-year answer (domain/inventory/whole-year.ts) or a read over stored minutes
 *  (domain/monitoring/live/minute-reads.ts, a climate project's: domain/climate/day-minutes.ts) at the server's clock: the domain's functions read the
 *  repositories and the clock only (as a passport's printedState does). */
async function read(message: Extract<ToThread, { type: "whole_year" | "minutes_read" }>): Promise<void> {
  try {
    const at = { ...depsAt(message.now), runtime } as Deps;
    post(
      message.type === "whole_year"
        ? { id: message.id, type: "whole_year", value: await wholeYearAnswer(at, message.actor, message.read) }
        : {
            id: message.id,
            type: "minutes_read",
            // As bytes: the server's front hands them on to an app thread without making them a string.
            bytes: new TextEncoder().encode(
              message.read.read === "climate_day" || message.read.read === "climate_period"
                ? await climateReadAnswer(at, message.actor, message.read)
                : await minutesReadAnswer(at, message.actor, message.read),
            ),
          },
    );
  } catch (error) {
    post(failure(message.id, error));
  }
}

/** The КЭП checks of the server (local/server.ts): openssl started from this thread, not the server's. */
const gostCms = opensslGostCms();

async function verify(message: Extract<ToThread, { type: "gost_verify" }>): Promise<void> {
  try {
    const check = await gostCms.verify({ ...message.input, at: new Date(message.input.at) });
    post({ id: message.id, type: "gost_verify", check });
  } catch (error) {
    post(failure(message.id, error));
  }
}

port.on("message", (message: ToThread) => {
  // A document an app thread sent crosses the server's front as bytes (thread-calls.ts).
  if (message.type === "job") void run(message.id, revived(message.request), message.now);
  else if (message.type === "whole_year" || message.type === "minutes_read") void read(message);
  else if (message.type === "forecast") void forecast(message.id, message.file, message.run);
  else if (message.type === "forecast_columns") void forecastColumns(message.id, message.columns, message.run);
  else if (message.type === "preview") void preview(message);
  else if (message.type === "gost_verify") void verify(message);
  else if (message.type === "pull") void jobs.get(message.id)?.pull();
  else jobs.get(message.id)?.cancel();
});
