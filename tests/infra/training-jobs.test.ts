// A company's model trained on its history in AWS: the API's call has 29 s, so the training runs in
// the job function as the heavy exports do. The API stores the history under training/, invokes the
// job function asynchronously (InvocationType Event: the only mock here is Lambda's) and answers 202
// with the job's signed id; the client asks its state (v1/export_jobs/{id}/, of the spreadsheet
// worker) until it names the stored model. Both functions run for real on dynalite and a blob folder.
import { localRuntime } from "@server/local/subscribers";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { InvokeCommand, LambdaClient, type InvokeCommandInput } from "@aws-sdk/client-lambda";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { lambdaSpreadsheets } from "@server/adapters/spreadsheets/lambda-worker";
import { configFromEnv } from "@server/config";
import { systemClock, type Actor, type Deps } from "@server/domain/context";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { HEAVY_PER_USER, reserveHeavyWork } from "@server/domain/heavy-work";
import { createCompany, createUser } from "@server/domain/company/users";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { ExportDeps } from "@server/export/project-export";
import { apiHandler } from "@server/lambda/api";
import { answer } from "@server/lambda/spreadsheets";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { apiGatewayEvent } from "./api-gateway-event";
import { HORIZONS } from "@core/gbdt/horizon";
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
let handler: ReturnType<typeof apiHandler>;
let token: string;
let strangerToken: string;

const HEADER =
  "Время;Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин;Концентрация метана в каптируемой смеси, %;Концентрация CH4 в исходящей струе лавы, факт, %";

/** A longwall's history, 10-minute steps from 01.01.2025: more air, less methane; `constant` a y that never moves. */
function history(rows: number, constant = false): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const minutes = i * 10;
    const day = 1 + Math.floor(minutes / 1440);
    const time = `${String(day).padStart(2, "0")}.01.2025 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const air = 1200 + ((i * 37) % 400);
    const drained = 20 + ((i * 13) % 30);
    const y = constant ? 0.5 : (0.5 * 1400) / air + 0.002 * ((i * 7) % 5);
    lines.push(`${time};${air};${drained};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

beforeAll(async () => {
  storage = await openMemoryStorage();
  dir = mkdtempSync(join(tmpdir(), "training-jobs-"));
  const files = fsBlobStore(dir);
  const blobs = { ...files, downloadUrl: async (key: string) => `https://exports.example/${key}` };
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
    const user = await createUser(deps, { companyId: company.id, email, password: "correct-horse", role: "staff" });
    return { id: user.id, company: company.id, email, role: user.role } satisfies Actor;
  };
  actor = await signIn("ООО Шахта");
  const stranger = await signIn("ООО Соседи");
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

const get = (path: string, bearer = token) => handler(apiGatewayEvent({ path, headers: { authorization: `Bearer ${bearer}` } }));

/** POST v1/forecast_models/xgboost/train/ as the browser sends it: multipart, base64 through API Gateway. */
async function train(text: string, fields: Record<string, string> = {}, bearer = token) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new File([text], "история.csv", { type: "text/csv" }));
  const body = new Response(form);
  const event = apiGatewayEvent({
    method: "POST",
    path: "/api/v1/forecast_models/xgboost/train/",
    headers: { authorization: `Bearer ${bearer}`, "content-type": body.headers.get("content-type")! },
  });
  event.body = Buffer.from(await body.arrayBuffer()).toString("base64");
  event.isBase64Encoded = true;
  return handler(event);
}

interface Job {
  job: string;
  state: string;
  progress: number;
  status_url: string;
  model_id?: string;
  detail?: string;
}

interface TrainEvent {
  op: "job";
  job: string;
  request: { op: string; key: string; actor: { company: string }; params: Record<string, number>; horizon?: number };
}

async function companyVersions(bearer = token) {
  const res = await get("/api/v1/forecast_models/", bearer);
  const body = JSON.parse(res.body) as {
    results: Array<{
      method: string;
      versions: Array<{ id: string; company?: string; is_active: boolean; horizon?: number; training?: { horizon?: number } }>;
    }>;
  };
  return body.results.find((r) => r.method === "xgboost")!.versions.filter((v) => v.company !== undefined);
}

describe("a model trained on a company's history, in AWS", () => {
  it("is a job of the job function: 202 at once, queued, then done naming the stored model; slots given back", async () => {
    const queued: TrainEvent[] = [];
    const runJob = lambdaService(queued);
    const text = history(800);
    const started = await train(text, { params: JSON.stringify({ n_estimators: 40, max_depth: 3 }), activate: "true" });
    expect(started.statusCode, started.body).toBe(202);
    const job = JSON.parse(started.body) as Job;
    expect(job).toMatchObject({ state: "queued", progress: 0, status_url: `v1/export_jobs/${job.job}/` });
    // Not trained inside the API's call: one asynchronous invoke of the job function, nothing else.
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toMatchObject({ FunctionName: "export-job-fn", InvocationType: "Event" });
    const event = queued[0];
    expect(event.request).toMatchObject({ op: "train", actor: { company: actor.company }, params: { n_estimators: 40, max_depth: 3 } });
    // The history waits for the job under training/ of the company, as sent.
    expect(event.request.key).toBe(`training/${actor.company}/${event.job}`);
    const waiting = await workerDeps.blobs.get(event.request.key);
    expect(new TextDecoder().decode(waiting!.body as Uint8Array)).toBe(text);
    expect(await companyVersions()).toEqual([]);

    const status = async (bearer = token) => {
      const res = await get(`/api/${job.status_url}`, bearer);
      return { status: res.statusCode, body: JSON.parse(res.body) as Job };
    };
    expect(await status()).toEqual({ status: 200, body: { job: job.job, state: "queued", progress: 0 } });
    // Another company's user, with the same id: not theirs, 404 like a missing job.
    expect((await status(strangerToken)).status).toBe(404);

    // The job function takes the queued event and trains.
    expect(await runJob(event)).toMatchObject({ kind: "job", state: "done", progress: 100 });
    const done = await status();
    expect(done.body).toMatchObject({ job: job.job, state: "done", progress: 100, model_id: expect.any(String) });
    const versions = await companyVersions();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ id: done.body.model_id, company: actor.company, is_active: true });
    // The history is deleted once trained; the other company sees no model of this one.
    expect(await workerDeps.blobs.get(event.request.key)).toBeUndefined();
    expect(await companyVersions(strangerToken)).toEqual([]);
    // The job held a heavy-work slot until it ended: the user has all of theirs again.
    const slots = [];
    for (let i = 0; i < HEAVY_PER_USER; i++) slots.push(await reserveHeavyWork(deps, actor));
    await Promise.all(slots.map((release) => release()));
  }, 120_000);

  // the job function's schema dropped the horizon, so a model trained for 1 h was stored as a nowcast.
  it.each(HORIZONS.filter((h) => h > 0))(
    "trains for %i minutes ahead in the job function and stores that horizon",
    async (horizon) => {
      const queued: TrainEvent[] = [];
      const runJob = lambdaService(queued);
      const started = await train(history(400 + horizon / 10), {
        params: JSON.stringify({ n_estimators: 10, max_depth: 3 }),
        horizon: String(horizon),
      });
      expect(started.statusCode, started.body).toBe(202);
      expect(queued[0].request.horizon).toBe(horizon);
      expect(await runJob(queued[0])).toMatchObject({ kind: "job", state: "done" });
      const done = JSON.parse((await get(`/api/${(JSON.parse(started.body) as Job).status_url}`)).body) as Job;
      const model = (await companyVersions()).find((v) => v.id === done.model_id);
      expect(model).toMatchObject({ horizon, is_active: false, training: { horizon } });
    },
    60_000,
  );

  it("sent again while its job waits, the same history is that job; parameters refused never start one", async () => {
    const queued: TrainEvent[] = [];
    lambdaService(queued);
    const text = history(300);
    const first = JSON.parse((await train(text, { params: JSON.stringify({ n_estimators: 7 }) })).body) as Job;
    const again = JSON.parse((await train(text, { params: JSON.stringify({ n_estimators: 7 }) })).body) as Job;
    expect(again.job).toBe(first.job);
    expect(queued).toHaveLength(1);
    const refused = await train(text, { params: JSON.stringify({ max_depth: 99 }) });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).detail).toMatch(/^params\.max_depth: нужно целое число/);
    expect(queued).toHaveLength(1);
    // The job waiting is run, so its slot is given back.
    const runJob = lambdaService([]);
    await runJob(queued[0]);
  }, 120_000);

  it("fails a history the trainer refuses with its Russian message, and stores nothing", async () => {
    const queued: TrainEvent[] = [];
    const runJob = lambdaService(queued);
    const before = (await companyVersions()).length;
    const started = await train(history(300, true));
    expect(started.statusCode).toBe(202);
    const job = JSON.parse(started.body) as Job;
    expect(await runJob(queued[0])).toMatchObject({ kind: "job", state: "failed" });
    const failed = JSON.parse((await get(`/api/${job.status_url}`)).body) as Job;
    expect(failed).toMatchObject({ state: "failed", progress: 100 });
    expect(failed.detail).toMatch(/^file: /);
    expect(failed.detail).toMatch(/[а-я]/);
    expect(await companyVersions()).toHaveLength(before);
    expect(await workerDeps.blobs.get(queued[0].request.key)).toBeUndefined();
  }, 120_000);
});
