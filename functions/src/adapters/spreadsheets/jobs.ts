// Exports and report passports near their bounds, rendered as jobs, and a company's model trained on
// its history (domain/forecast/training.ts, runTrainingJob; its result is the model's id): in AWS by the job function
// (lambda/spreadsheets.ts, jobHandler; invoked asynchronously by the API, lambda-worker.ts), on the
// local host by a spreadsheet thread (local/spreadsheet-threads.ts). The API's call has 29 s (API
// Gateway's 30); a job has the job function's whole timeout. A job's state is a small JSON object
// under exports/{company}/jobs/{job}.json and its file beside it (expired by the bucket's lifecycle
// rule; on the local host by deleteExpiredJobFiles, its twin); the API reads the state through the
// spreadsheet worker in AWS (op job_status), which hands the file out as a short-lived address, and
// from its own blob store locally. A job holds its heavy-work slots until it ends (domain/export-jobs.ts).
import type { ExportJobState } from "../../export/formats";
import type { WorkerRequest } from "./protocol";
import { DomainError, NotFound } from "../../domain/errors";
import { safeFileName } from "../../files/file-names";
import { exportFormat, type ExportResult } from "../../export/formats";
import type { ExportDeps } from "../../export/project-export";
import type { BlobStore, SpreadsheetWorker } from "../../ports";
import { carryHeavySlots, HEAVY_CARRY_SECONDS, releaseHeavySlots } from "../../domain/heavy-work";
import { EXPORTS_AREA } from "../blob/areas";
import { runTrainingJob } from "../../domain/forecast/training";
import { runClimatePeriodJob } from "../../domain/climate/periods";
import { FileRefused } from "../../files/errors";
import { RECONCILIATION_FAILED } from "../../domain/monitoring/ingest/reconciliation";

const TRAINING_FAILED = "Не удалось обучить модель. Повторите обучение позже";
export const CLIMATE_PERIOD_FAILED = "Не удалось рассчитать отчетный период. Повторите расчет позже";

type JobRequest = Extract<WorkerRequest, { op: "job" }>;
type StatusRequest = Extract<WorkerRequest, { op: "job_status" }>;
type Log = Partial<Pick<Console, "error">>;

/** What the state object holds: the answer without its address, the file's key once done, and
 *  when the worker took the job. */
type Stored = Omit<ExportJobState, "download_url"> & { key?: string; started_at?: number };

/** A job the worker has not started within this long after the API made its id never will. */
export const JOB_START_WINDOW_MS = 15 * 60 * 1000;
const DOWNLOAD_URL_SECONDS = 15 * 60;
/** The job function's timeout (infra/lib/stack.ts), Lambda's longest: a 10 000-line PDF passport
 *  takes under a minute (docs/performance.md). */
export const JOB_TIMEOUT_SECONDS = 15 * 60;
/** A training stops itself this long into its job, leaving a minute to store the model and end. */
export const TRAINING_BUDGET_MS = (JOB_TIMEOUT_SECONDS - 60) * 1000;
/** A job still running after this was cut by the function's timeout (or its thread died). */
export const JOB_RUN_LIMIT_MS = (JOB_TIMEOUT_SECONDS + 60) * 1000;
/** The share of the progress bar the rendering takes (10 → 90); the store's write takes the rest. */
const RENDER_FROM = 10;
const RENDER_TO = 90;
/** A running job's progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

const stateKey = (company: string, job: string) => `exports/${company}/jobs/${job}.json`;

/** A UUID v7's milliseconds (its first 48 bits). */
const createdAt = (job: string) => Number.parseInt(job.replace(/-/g, "").slice(0, 12), 16);

export async function bytesOf(body: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/** The export or the passport a request asks for, rendered by `worker`; a job hears the passport's progress. */
export function renderFile(
  worker: SpreadsheetWorker,
  request: Extract<
    WorkerRequest,
    { op: "export" | "inventory_report" | "shift_report" | "gassing_book" | "climate_pack" | "climate_pack_manifest" }
  >,
  progress?: (done: number) => void,
): Promise<ExportResult> {
  if (request.op === "shift_report") return worker.shiftReport(request.actor, request.query);
  if (request.op === "gassing_book") return worker.gassingBook(request.actor, request.query);
  if (request.op === "climate_pack_manifest")
    return worker.climatePackManifest(request.actor, { project: request.project, period: request.period });
  if (request.op === "climate_pack") {
    return worker.climatePack(request.actor, { project: request.project, period: request.period, partBytes: request.partBytes });
  }
  return request.op === "inventory_report"
    ? worker.inventoryReport(request.actor, {
        year: request.year,
        facility: request.facility,
        format: request.format,
        version: request.version,
        progress,
      })
    : worker.exportProject(request.actor, request.projectId, exportFormat(request.format), {
        detail: request.detail,
        decimals: request.decimals,
      });
}

async function write(deps: Pick<ExportDeps, "blobs">, company: string, state: Stored): Promise<void> {
  await deps.blobs.put(stateKey(company, state.job), new TextEncoder().encode(JSON.stringify(state)), "application/json");
}

/** Renders the job's file with `worker` (one that answers bytes, never an address) and records
 *  each step. A domain refusal is the job's failure with its message; any other error is logged
 *  and reported as a failure too: the invoke itself succeeds, so Lambda does not run it again. */
export async function runJob(deps: ExportDeps, worker: SpreadsheetWorker, event: JobRequest, log: Log = console): Promise<ExportJobState> {
  const { job, request } = event;
  const company = request.actor.company;
  const started_at = Date.now();
  await write(deps, company, { job, state: "running", progress: RENDER_FROM, started_at });
  // A job may run longer than the budgets' 10-minute window (a training, up to 15 minutes in AWS):
  // it carries its slots into the current window every minute, as the local queue does while it
  // waits, so they count until it ends and are the ones it gives back.
  const slots = [...(event.slots ?? [])];
  let carried = Promise.resolve();
  const carrying = setInterval(() => {
    carried = carried.then(() => carryHeavySlots(deps, slots)).catch(() => {});
  }, HEAVY_CARRY_SECONDS * 1000);
  carrying.unref?.();
  // The passport's layout reports how far it is (export/inventory-report.ts); written in order, at
  // most once a second, never after the job's end.
  let written = Promise.resolve();
  let last = Date.now();
  let ended = false;
  const progress = (done: number) => {
    if (ended || Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    const percent = Math.round(RENDER_FROM + (RENDER_TO - RENDER_FROM) * Math.min(1, Math.max(0, done)));
    written = written.then(() => (ended ? undefined : write(deps, company, { job, state: "running", progress: percent, started_at })));
  };
  let state: Stored;
  try {
    if (request.op === "train") {
      // A model trained on the company's history: the model's version is the job's result.
      const model = await runTrainingJob(deps, request, progress, TRAINING_BUDGET_MS);
      ended = true;
      await written;
      state = { job, state: "done", progress: 100, model_id: model.id, started_at };
    } else if (request.op === "telemetry_reconciliation") {
      // A dispatch export reconciled: its record and xlsx are the job's result (reconciliation.ts),
      // made by the worker in this process (export/in-process.ts), where exceljs is.
      if (!worker.reconcile) throw new Error("export job: this worker reconciles no exports");
      await worker.reconcile(request);
      ended = true;
      await written;
      state = { job, state: "done", progress: 100, started_at };
    } else if (request.op === "climate_period") {
      // A long monitoring period computed and stored: its id is the job's result.
      const period = await runClimatePeriodJob(deps, request);
      ended = true;
      await written;
      state = { job, state: "done", progress: 100, period_id: period.id, started_at };
    } else {
      const file = await renderFile(worker, request, progress);
      if (file.kind !== "body") throw new Error("export job: the worker answered with an address");
      const bytes = await bytesOf(file.body);
      ended = true;
      await written;
      await write(deps, company, { job, state: "running", progress: RENDER_TO, file_name: file.fileName, started_at });
      const extension = file.fileName.split(".").pop() ?? "bin";
      const key = `exports/${company}/jobs/${job}.${safeFileName(extension, "bin")}`;
      await deps.blobs.put(key, bytes, file.contentType);
      state = { job, state: "done", progress: 100, file_name: file.fileName, key, started_at };
    }
  } catch (error) {
    // A file the reader refused (a history's content) is a refusal with its message too.
    const refused = error instanceof DomainError || error instanceof FileRefused;
    if (!refused)
      (log.error ?? console.error)(JSON.stringify({ export_job: job, error: String(error instanceof Error ? error.stack : error) }));
    const detail = refused
      ? error.detail
      : request.op === "train"
        ? TRAINING_FAILED
        : request.op === "climate_period"
          ? CLIMATE_PERIOD_FAILED
          : request.op === "telemetry_reconciliation"
            ? RECONCILIATION_FAILED
            : "Не удалось подготовить файл. Повторите выгрузку позже";
    // The start stays on record after the end (the answer leaves it out): the queue's order can be read back.
    state = { job, state: "failed", progress: 100, detail, started_at };
  }
  ended = true;
  await written.catch(() => {});
  try {
    await write(deps, company, state);
  } finally {
    // Queued and running, the job counted against the budgets; ended, it no longer does.
    clearInterval(carrying);
    await carried;
    await releaseHeavySlots(deps, slots).catch((error: unknown) =>
      (log.error ?? console.error)(JSON.stringify({ export_job: job, error: `slots not given back: ${String(error)}` })),
    );
  }
  const { key: _key, started_at: _started, ...answer } = state;
  return answer;
}

/** The local twin of the exports bucket's lifecycle rule (infra/lib/stack.ts, EXPORTS_AREA.days):
 *  job states and files written before then are deleted; resolves to their keys. */
export async function deleteExpiredJobFiles(blobs: BlobStore, now: Date): Promise<string[]> {
  if (!blobs.keysWrittenBefore) return [];
  const before = new Date(now.getTime() - EXPORTS_AREA.days * 24 * 60 * 60 * 1000);
  const deleted: string[] = [];
  // The bucket's rule expires every object of it: the jobs' files and the histories of training
  // jobs that never ran (the area `training`).
  for (const area of [EXPORTS_AREA.area, "training"]) {
    for await (const page of blobs.keysWrittenBefore(area, before)) {
      for (const key of page) {
        await blobs.delete(key);
        deleted.push(key);
      }
    }
  }
  return deleted;
}

/** Records a job as failed when what ran it died (a local thread out of memory): runJob could not. */
export async function recordJobFailure(deps: Pick<ExportDeps, "blobs">, company: string, job: string): Promise<void> {
  const detail = "Не удалось подготовить файл. Повторите выгрузку позже";
  await deps.blobs.put(
    stateKey(company, job),
    new TextEncoder().encode(JSON.stringify({ job, state: "failed", progress: 100, detail })),
    "application/json",
  );
}

/** The file of `company`'s finished job, for a host whose store gives no download address (the
 *  local host: GET v1/export_jobs/{id}/file/); NotFound while it is not done. */
export async function jobFile(deps: Pick<ExportDeps, "blobs">, company: string, job: string): Promise<ExportResult> {
  const stored = await deps.blobs.get(stateKey(company, job));
  const state = stored && (JSON.parse(new TextDecoder().decode(stored.body)) as Stored);
  const file = state && state.state === "done" && state.key ? await deps.blobs.get(state.key) : undefined;
  if (!state || !file) throw new NotFound("Файл выгрузки не найден");
  return { kind: "body", fileName: state.file_name ?? "file", contentType: file.contentType, body: file.body };
}

/** The state of `actor`'s company's job: queued while the worker has not started it (within the
 *  start window), 404 for an id it never made (another company's job is not under this prefix). */
export async function jobStatus(deps: Pick<ExportDeps, "blobs">, request: Pick<StatusRequest, "actor" | "job">): Promise<ExportJobState> {
  const stored = await deps.blobs.get(stateKey(request.actor.company, request.job));
  if (!stored) {
    const age = Date.now() - createdAt(request.job);
    if (age >= -60_000 && age < JOB_START_WINDOW_MS) return { job: request.job, state: "queued", progress: 0 };
    throw new NotFound("Задание выгрузки не найдено");
  }
  const { key, started_at, ...state } = JSON.parse(new TextDecoder().decode(stored.body)) as Stored;
  if (state.state === "running" && started_at !== undefined && Date.now() - started_at > JOB_RUN_LIMIT_MS) {
    return {
      job: state.job,
      state: "failed",
      progress: 100,
      detail: "Файл не успел подготовиться. Выгрузите часть данных или без подробностей",
    };
  }
  if (state.state !== "done" || !key || !deps.blobs.downloadUrl) return state;
  return { ...state, download_url: await deps.blobs.downloadUrl(key, state.file_name ?? "file", DOWNLOAD_URL_SECONDS) };
}
