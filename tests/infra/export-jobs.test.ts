// Exports near their bound in AWS: the API's call has 29 s, so a detailed export of a
// full forecast or a large company's report passport is not rendered inside it. The API invokes the
// job function asynchronously (InvocationType Event: the only mock here is Lambda's), answers 202
// with the job's signed id, and the client asks its state (of the spreadsheet worker) until the job
// stored the file and there is a download address. Both functions run for real on dynalite and a
// blob folder.
import { localRuntime } from "@server/local/subscribers";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { InvokeCommand, LambdaClient, type InvokeCommandInput } from "@aws-sdk/client-lambda";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { lambdaSpreadsheets } from "@server/adapters/spreadsheets/lambda-worker";
import { configFromEnv } from "@server/config";
import { systemClock, type Actor, type Deps } from "@server/domain/context";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { storeForecastRows } from "@server/domain/forecast/rows";
import { JOB_FORECAST_ROWS, JOB_PASSPORT_LINES } from "@server/domain/heavy-work";
import { newId } from "@server/domain/ids";
import { createProject } from "@server/domain/calculations/projects";
import { createCompany, createUser } from "@server/domain/company/users";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { ExportDeps } from "@server/export/project-export";
import { apiHandler } from "@server/lambda/api";
import { answer } from "@server/lambda/spreadsheets";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import type { Project } from "@server/contract/schemas/project";
import { longwallRows } from "../support/large-forecasts";
import { apiGatewayEvent } from "./api-gateway-event";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const lambda = mockClient(LambdaClient);
afterEach(() => lambda.reset());
// The infra files share their worker's modules: the next file gets the SDK's send() back.
afterAll(() => lambda.restore());

const quiet = { info: () => {}, error: () => {} };
const decode = (payload: InvokeCommandInput["Payload"]) => JSON.parse(new TextDecoder().decode(payload as Uint8Array)) as unknown;

let storage: OpenStorage;
let dir: string;
let deps: Deps;
let workerDeps: ExportDeps;
let actor: Actor;
let project: Project;
let handler: ReturnType<typeof apiHandler>;
let token: string;
let strangerToken: string;

beforeAll(async () => {
  storage = await openMemoryStorage();
  dir = mkdtempSync(join(tmpdir(), "export-jobs-"));
  const files = fsBlobStore(dir);
  // S3's presigned address, as the worker's store hands it out (the exports bucket in AWS).
  const blobs = {
    ...files,
    downloadUrl: async (key: string, name: string) => `https://exports.example/${key}?name=${encodeURIComponent(name)}`,
  };
  workerDeps = { repos: storage.repos, blobs, clock: systemClock };
  deps = {
    ...workerDeps,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: lambdaSpreadsheets(new LambdaClient({ region: "eu-central-1" }), "spreadsheet-fn", "export-job-fn"),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
  };
  await seedDictionaries(deps);
  const signIn = async (name: string) => {
    const company = await createCompany(deps, { name });
    const email = `${randomBytes(4).toString("hex")}@example.com`;
    const user = await createUser(deps, { companyId: company.id, email, password: "correct-horse" });
    return { id: user.id, company: company.id, email, role: user.role } satisfies Actor;
  };
  actor = await signIn("ООО Шахта");
  const stranger = await signIn("ООО Соседи");
  project = await createProject(deps, actor, { name: "Лава 100 тыс.", start_date: "2025-01-01", end_date: "2025-12-31" });
  // A forecast at the job size by its summary (the bound reads summaries), with a few stored rows.
  const now = new Date().toISOString();
  await storage.repos.calculations.create({
    id: newId(),
    type: "regres_methane",
    project: project.id,
    company: actor.company,
    name: "Прогноз лавы",
    is_active: true,
    is_deleted: false,
    version: 1,
    methodology_version: "2026.1",
    created_at: now,
    created_by: actor.email,
    updated_at: now,
    updated_by: actor.email,
    inputs: { method: "xgboost" },
    results: {
      rows: JOB_FORECAST_ROWS,
      max_result: 1.2,
      data_key: await storeForecastRows(workerDeps, actor.company, newId(), longwallRows(20)),
    },
    coefficients: {},
  });
  await storage.settled();
  handler = apiHandler(deps);
  const token_ = async (email: string) => {
    const res = await handler(apiGatewayEvent({ path: "/api/token/", json: { email, password: "correct-horse", guardant_code: "" } }));
    expect(res.statusCode).toBe(200);
    return (JSON.parse(res.body) as { access: string }).access;
  };
  token = await token_(actor.email);
  strangerToken = await token_(stranger.email);
}, 60_000);

afterAll(async () => {
  await storage?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Lambda: an Event invoke of the job function is queued (kept here, 202); a RequestResponse one
 *  answered by the worker. The returned function is the job function taking a queued event. */
function lambdaService(queued: unknown[]) {
  const worker = inProcessSpreadsheets(() => workerDeps);
  const jobs = { deps: workerDeps, worker: inProcessSpreadsheets(() => workerDeps, { inlineLimitBytes: Number.POSITIVE_INFINITY }) };
  lambda.on(InvokeCommand).callsFake(async (input: InvokeCommandInput) => {
    if (input.InvocationType === "Event") {
      expect(input.FunctionName).toBe("export-job-fn");
      queued.push(decode(input.Payload));
      return { StatusCode: 202 };
    }
    expect(input.FunctionName).toBe("spreadsheet-fn");
    const answered = await answer(worker, decode(input.Payload), quiet, jobs, "worker");
    return { StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(answered)) as never };
  });
  return (event: unknown) => answer(worker, event, quiet, jobs, "job");
}

const get = (path: string, query = "", bearer = token) =>
  handler(apiGatewayEvent({ path, query, headers: { authorization: `Bearer ${bearer}` } }));

describe("an export near its bound, in AWS", () => {
  it("is started as a job (202), reports queued, running to done, and hands out the stored file", async () => {
    const queued: unknown[] = [];
    const runWorker = lambdaService(queued);
    const started = await get(`/api/v1/projects/${project.id}/export_to_xlsx/`, "detail=true");
    expect(started.statusCode).toBe(202);
    const job = JSON.parse(started.body) as { job: string; state: string; progress: number; status_url: string };
    expect(job).toMatchObject({ state: "queued", progress: 0, status_url: `v1/export_jobs/${job.job}/` });
    // Not rendered inside the API's call: one asynchronous invoke, nothing synchronous.
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toMatchObject({ FunctionName: "export-job-fn", InvocationType: "Event" });
    expect(queued[0]).toMatchObject({ op: "job", request: { op: "export", projectId: project.id, format: "xlsx", detail: true } });

    const status = async (bearer = token) => {
      const res = await get(`/api/${job.status_url}`, "", bearer);
      return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
    };
    expect(await status()).toEqual({ status: 200, body: { job: job.job, state: "queued", progress: 0 } });
    // Another company's user, with the same id: not theirs, 404 like a missing job.
    expect((await status(strangerToken)).status).toBe(404);
    expect((await get("/api/v1/export_jobs/0190aa00-0000-7000-8000-000000000000.forged/")).statusCode).toBe(404);

    // The worker function takes the queued event.
    const ran = await runWorker(queued[0]);
    expect(ran).toMatchObject({ kind: "job", state: "done", progress: 100 });
    const done = await status();
    expect(done.status).toBe(200);
    // The detailed export saves as «… (подробный)», apart from the plain export (docs/api.md).
    expect(done.body).toMatchObject({ job: job.job, state: "done", progress: 100, file_name: "Лава 100 тыс (подробный).xlsx" });
    const url = new URL(String(done.body.download_url));
    expect(url.pathname).toMatch(new RegExp(`^/exports/${actor.company}/jobs/[0-9a-f-]+\\.xlsx$`));
    // The stored file is the detailed workbook.
    const stored = await workerDeps.blobs.get(url.pathname.slice(1));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(stored!.body as unknown as ArrayBuffer);
    expect(wb.worksheets.length).toBeGreaterThan(1);
  }, 60_000);

  it("reports a refusal of the worker (the detailed export's bound) as the job's failure with its message", async () => {
    const queued: unknown[] = [];
    const runWorker = lambdaService(queued);
    const started = await get(`/api/v1/projects/${project.id}/export_to_xls/`, "detail=true");
    expect(started.statusCode).toBe(202);
    const job = JSON.parse(started.body) as { status_url: string };
    await storage.repos.calculations.create({
      ...(await storage.repos.calculations.listAllByProject(actor.company, project.id, "regres_methane", "active"))[0],
      id: newId(),
    });
    await storage.settled();
    await runWorker(queued[0]);
    const res = await get(`/api/${job.status_url}`);
    expect(JSON.parse(res.body)).toMatchObject({ state: "failed", detail: expect.stringContaining("Подробная выгрузка в xls") });
  }, 60_000);

  it("leaves a small export and a small company's passport inside the call; a large company's passport goes as a job", async () => {
    const queued: unknown[] = [];
    const runJob = lambdaService(queued);
    const plain = await get(`/api/v1/projects/${project.id}/export_to_xlsx/`);
    expect(plain.statusCode).toBe(200);
    expect(lambda.commandCalls(InvokeCommand)[0].args[0].input.InvocationType).toBe("RequestResponse");
    const small = await get("/api/v1/inventory/2025/report/", "format=pdf");
    expect(small.statusCode).toBe(200);
    expect(queued).toEqual([]);

    // The company's list counts at the PDF's job size, as the stream keeps them (domain/heavy-work.ts).
    await storage.repos.statistics.apply(actor.company, {
      source: "TEST#large-company",
      sequence: "1",
      deltas: [],
      lists: [{ project: project.id, type: "underground", active: JOB_PASSPORT_LINES.pdf, archived: 0 }],
      at: new Date().toISOString(),
    });
    const pdf = await get("/api/v1/inventory/2025/report/", "format=pdf");
    expect(pdf.statusCode).toBe(202);
    expect(queued[0]).toMatchObject({ op: "job", request: { op: "inventory_report", year: 2025, format: "pdf" } });
    // Below the xlsx's size, the workbook of the same company is still made inside the call.
    expect((await get("/api/v1/inventory/2025/report/", "format=xlsx")).statusCode).toBe(200);
    expect(queued).toHaveLength(1);
    // The job function takes it and stores the PDF; the worker answers its state with the address.
    expect(await runJob(queued[0])).toMatchObject({ kind: "job", state: "done", progress: 100 });
    const { status_url } = JSON.parse(pdf.body) as { status_url: string };
    const done = JSON.parse((await get(`/api/${status_url}`)).body) as { state: string; download_url: string; file_name: string };
    expect(done).toMatchObject({ state: "done", file_name: expect.stringMatching(/\.pdf$/) });
    const stored = await workerDeps.blobs.get(new URL(done.download_url).pathname.slice(1));
    expect(new TextDecoder().decode(stored!.body.slice(0, 5))).toBe("%PDF-");
    // Each function takes its own part only: a fault between them fails the invoke.
    await expect(runJob({ op: "template", type: "regres_methane" })).rejects.toThrow(/not its work/);
    await expect(
      answer(
        inProcessSpreadsheets(() => workerDeps),
        queued[0],
        quiet,
        undefined,
        "worker",
      ),
    ).rejects.toThrow(/not its work/);
  }, 60_000);
});
