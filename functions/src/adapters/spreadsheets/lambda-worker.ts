// The SpreadsheetWorker port in AWS: a synchronous invoke of the spreadsheet worker function
// (lambda/spreadsheets.ts), which carries exceljs and SheetJS so the API's bundle does not
// (cold starts grow with the bundle, and every sign-in would pay for libraries only exports use).
// Its domain refusals come back as the same DomainError (404 for another company's project); a
// failed or unreadable invoke is an Error, which the API answers as a logged 500.
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { Buffer } from "node:buffer";
import { fromWire, isWireError } from "../../domain/errors";
import type { Actor } from "../../domain/context";
import type { ExportResult, JobTicket } from "../../export/formats";
import type { SpreadsheetWorker } from "../../ports";
import type { ExportJobState } from "../../export/formats";
import type { WorkerAnswer, WorkerRequest } from "./protocol";
import { LIMITS } from "../../contract/schemas/limits";

/** The worker's own timeout is 25 s (infra/lib/stack.ts) and the API's 29 s, under API Gateway's
 *  30 s: a worker that runs out of time answers with a FunctionError the API can still report.
 *  One attempt: a retry would not fit in what is left of those 30 s. */
export function spreadsheetWorkerClient(): LambdaClient {
  return new LambdaClient({
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 27_000, throwOnRequestTimeout: true },
  });
}

export class SpreadsheetWorkerFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpreadsheetWorkerFailed";
  }
}

/** errorType and errorMessage of a FunctionError payload (never its stack), or the text cut short. */
function failureSummary(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errorType?: unknown; errorMessage?: unknown };
    if (typeof parsed.errorMessage === "string")
      return `${String(parsed.errorType ?? "Error")}: ${parsed.errorMessage.slice(0, LIMITS.text.logExcerpt)}`;
  } catch {
    // Not JSON: shown as it is.
  }
  return text.slice(0, LIMITS.text.logExcerpt);
}

function isAnswer(value: unknown): value is WorkerAnswer {
  if (typeof value !== "object" || value === null) return false;
  const a = value as Record<string, unknown>;
  const text = (name: string) => typeof a[name] === "string";
  if (a.kind === "body") return text("fileName") && text("contentType") && text("base64");
  if (a.kind === "redirect") return text("url") && text("fileName");
  if (a.kind === "job") return text("job") && text("state") && typeof a.progress === "number";
  if (a.kind === "error") {
    return isWireError(a.error);
  }
  return false;
}

const bytesOf = (base64: string): Uint8Array => {
  const buffer = Buffer.from(base64, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

/** `functionName` the spreadsheet worker (synchronous), `jobFunctionName` the job function (the
 *  same bundle with Lambda's longest timeout, infra/lib/stack.ts), which no API call waits on. */
export function lambdaSpreadsheets(client: LambdaClient, functionName: string, jobFunctionName: string): SpreadsheetWorker {
  async function invoke(request: WorkerRequest): Promise<Exclude<WorkerAnswer, { kind: "error" }>> {
    const out = await client.send(
      new InvokeCommand({
        FunctionName: functionName,
        InvocationType: "RequestResponse",
        Payload: new TextEncoder().encode(JSON.stringify(request)),
      }),
    );
    const text = out.Payload ? new TextDecoder().decode(out.Payload) : "";
    if (out.FunctionError) {
      throw new SpreadsheetWorkerFailed(`spreadsheet worker failed on ${request.op} (${out.FunctionError}): ${failureSummary(text)}`);
    }
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (!isAnswer(answer))
      throw new SpreadsheetWorkerFailed(
        `spreadsheet worker gave an unreadable answer to ${request.op}: ${text.slice(0, LIMITS.text.logExcerpt)}`,
      );
    if (answer.kind === "error") throw fromWire(answer.error);
    return answer;
  }

  // The four fields of the signed-in user, nothing else of the request.
  const actorOf = (actor: Actor) => ({ id: actor.id, company: actor.company, email: actor.email, role: actor.role });
  const fileOf = (answer: Exclude<WorkerAnswer, { kind: "error" }>): ExportResult => {
    if (answer.kind === "job") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a file with a job`);
    return answer.kind === "redirect"
      ? { kind: "redirect", url: answer.url, fileName: answer.fileName }
      : { kind: "body", fileName: answer.fileName, contentType: answer.contentType, body: bytesOf(answer.base64) };
  };
  const jobOf = (answer: Exclude<WorkerAnswer, { kind: "error" }>): ExportJobState => {
    if (answer.kind !== "job") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a job's state with ${answer.kind}`);
    const { kind: _kind, ...job } = answer;
    return job;
  };

  /** An export or passport near its bound (http/heavy-file.ts): the job function renders it on its
   *  own time (InvocationType Event: Lambda queues the request and answers at once), the client
   *  asks its state (jobStatus, of the worker) until there is a download address. */
  async function startJob(request: Extract<WorkerRequest, { op: "job" }>["request"], ticket: JobTicket): Promise<ExportResult> {
    const job = ticket.id;
    const out = await client.send(
      new InvokeCommand({
        FunctionName: jobFunctionName,
        InvocationType: "Event",
        Payload: new TextEncoder().encode(JSON.stringify({ op: "job", job, request, slots: ticket.slots } satisfies WorkerRequest)),
      }),
    );
    if (out.StatusCode !== 202) throw new SpreadsheetWorkerFailed(`job function did not take job ${job}: status ${out.StatusCode}`);
    return { kind: "job", job: { job, state: "queued", progress: 0 } };
  }

  return {
    jobsOf: ["export", "inventory_report", "train", "climate_pack", "climate_period", "telemetry_reconciliation"],
    // A company's model trained on its history (domain/forecast/training.ts): always a job.
    trainModel: (request, ticket) => startJob(request, ticket),
    // A long climate period computed and stored by the job function (domain/climate/periods.ts).
    climatePeriod: (request, ticket) => startJob(request, ticket),
    // A dispatch export reconciled with the stored readings by the job function.
    reconcile: async (request, ticket) => {
      if (!ticket) throw new Error("spreadsheet worker: a reconciliation is a job");
      return startJob(request, ticket);
    },
    // The same request runs as a job or at once.
    async exportProject(actor, projectId, format, request) {
      const work = { op: "export" as const, actor: actorOf(actor), projectId, format, detail: request.detail, decimals: request.decimals };
      return request.job ? startJob(work, request.job) : fileOf(await invoke(work));
    },
    shiftReport: async (actor, query) => fileOf(await invoke({ op: "shift_report", actor: actorOf(actor), query })),
    gassingBook: async (actor, query) => fileOf(await invoke({ op: "gassing_book", actor: actorOf(actor), query })),
    climatePackManifest: async (actor, request) => fileOf(await invoke({ op: "climate_pack_manifest", actor: actorOf(actor), ...request })),
    async climatePack(actor, { job, ...request }) {
      const work = { op: "climate_pack" as const, actor: actorOf(actor), ...request };
      return job ? startJob(work, job) : fileOf(await invoke(work));
    },
    async inventoryReport(actor, request) {
      const work = {
        op: "inventory_report" as const,
        actor: actorOf(actor),
        year: request.year,
        facility: request.facility,
        format: request.format,
        version: request.version,
      };
      return request.job ? startJob(work, request.job) : fileOf(await invoke(work));
    },
    async jobStatus(actor, job) {
      return jobOf(await invoke({ op: "job_status", actor: actorOf(actor), job }));
    },
    async template(type, year) {
      const answer = await invoke({ op: "template", type, ...(year === undefined ? {} : { year }) });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a template with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
    async abatementFile(assessment, format, issued) {
      const answer = await invoke({ op: "abatement", assessment, format, issued });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered an assessment with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
    async climateReportFile(report, format, issued) {
      const answer = await invoke({ op: "climate_report", report, format, issued });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a climate report with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
    async monitoringFile(file) {
      const answer = await invoke({ op: "monitoring_file", file });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a monitoring file with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
    async comparisonWorkbook(comparison) {
      const answer = await invoke({ op: "comparison", comparison });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a comparison with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
    async trendWorkbook(trend, view) {
      const answer = await invoke({ op: "trend", trend, view });
      if (answer.kind !== "body") throw new SpreadsheetWorkerFailed(`spreadsheet worker answered a trend with ${answer.kind}`);
      return bytesOf(answer.base64);
    },
  };
}
