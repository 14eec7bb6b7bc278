// A user's jobs in AWS hold their heavy-work slots until they end, however long they run (// a job's slot lapsed after the budgets' 10-minute window, and one user had 4 trainings in flight,
// bound 2). The API answers the third job of a user 429; the job function, which may run 15
// minutes, carries its slots into the budget's current window every minute while it runs, and gives
// back the carried ones when it ends. The only mock is Lambda's invoke (aws-sdk-client-mock): the
// API and the job function run for real on dynalite and a blob folder; the clock is faked to pass
// the window.
import { localRuntime } from "@server/local/subscribers";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { InvokeCommand, LambdaClient, type InvokeCommandInput } from "@aws-sdk/client-lambda";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { lambdaSpreadsheets } from "@server/adapters/spreadsheets/lambda-worker";
import { configFromEnv } from "@server/config";
import { systemClock, type Actor, type Deps } from "@server/domain/context";
import { HEAVY_PER_USER, JOB_PASSPORT_LINES } from "@server/domain/heavy-work";
import { createProject } from "@server/domain/calculations/projects";
import { createCompany, createUser } from "@server/domain/company/users";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { ExportDeps } from "@server/export/project-export";
import type { AttemptCounter, SpreadsheetWorker } from "@server/ports";
import { apiHandler } from "@server/lambda/api";
import { answer } from "@server/lambda/spreadsheets";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { apiGatewayEvent } from "./api-gateway-event";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const lambda = mockClient(LambdaClient);
afterEach(() => {
  lambda.reset();
  vi.useRealTimers();
});
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

beforeAll(async () => {
  storage = await openMemoryStorage();
  dir = mkdtempSync(join(tmpdir(), "job-slots-"));
  workerDeps = {
    repos: { ...storage.repos, attempts: countingReleases(storage.repos.attempts) },
    blobs: fsBlobStore(dir),
    clock: systemClock,
  };
  deps = {
    ...workerDeps,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: lambdaSpreadsheets(new LambdaClient({ region: "eu-central-1" }), "spreadsheet-fn", "export-job-fn"),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
  };
  const company = await createCompany(deps, { name: "ООО Шахта" });
  const email = `${randomBytes(4).toString("hex")}@example.com`;
  const user = await createUser(deps, { companyId: company.id, email, password: "correct-horse", role: "staff" });
  actor = { id: user.id, company: company.id, email, role: user.role };
  const project = await createProject(deps, actor, { name: "Северная", start_date: "2025-01-01", end_date: "2025-12-31" });
  // The company's list counts at the PDF passport's job size, as the stream keeps them.
  await storage.repos.statistics.apply(actor.company, {
    source: "TEST#job-size",
    sequence: "1",
    deltas: [],
    lists: [{ project: project.id, type: "underground", active: JOB_PASSPORT_LINES.pdf, archived: 0 }],
    at: new Date().toISOString(),
  });
  handler = apiHandler(deps);
}, 60_000);

afterAll(async () => {
  await storage?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh access token (the clock moves past a token's 15 minutes here). */
async function signIn(): Promise<string> {
  const res = await handler(
    apiGatewayEvent({ path: "/api/token/", json: { email: actor.email, password: "correct-horse", guardant_code: "" } }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return (JSON.parse(res.body) as { access: string }).access;
}

const passport = async (year: number) =>
  handler(
    apiGatewayEvent({
      path: `/api/v1/inventory/${year}/report/`,
      query: "format=pdf",
      headers: { authorization: `Bearer ${await signIn()}` },
    }),
  );

/** A job function whose passport takes as long as the test says: it ends when `finish` is called. */
function slowJobFunction() {
  let finish = () => {};
  const finished = new Promise<void>((done) => (finish = done));
  const worker: SpreadsheetWorker = {
    ...inProcessSpreadsheets(() => workerDeps),
    async inventoryReport() {
      await finished;
      return { kind: "body", fileName: "Паспорт.pdf", contentType: "application/pdf", body: new TextEncoder().encode("%PDF-") };
    },
  };
  const run = (event: unknown) =>
    answer(
      inProcessSpreadsheets(() => workerDeps),
      event,
      quiet,
      { deps: workerDeps, worker },
      "job",
    );
  return { run, finish };
}

/** The slots given back so far, and who waits for a count of them. A carry takes each slot again in
 *  the current window and then gives the old one back, so a minute's carries have landed when as many
 *  slots more have been given back as the jobs hold. */
let released = 0;
const waiting: { count: number; done: () => void }[] = [];
function countingReleases(attempts: AttemptCounter): AttemptCounter {
  return new Proxy(attempts, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (name !== "release" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<AttemptCounter["release"]>) => {
        await target.release(...args);
        released++;
        for (const waiter of waiting.filter((w) => released >= w.count)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.done();
        }
      };
    },
  });
}
/** Resolves once `count` slots in all have been given back. */
const releasedAtLeast = (count: number) =>
  released >= count ? Promise.resolve() : new Promise<void>((done) => waiting.push({ count, done }));

describe("a user's jobs in AWS", () => {
  it(`hold their ${HEAVY_PER_USER} slots while they run, past the budgets' 10-minute window, and give them back when they end`, async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"], now: Date.now() });
    const queued: unknown[] = [];
    lambda.on(InvokeCommand).callsFake(async (input: InvokeCommandInput) => {
      expect(input).toMatchObject({ FunctionName: "export-job-fn", InvocationType: "Event" });
      queued.push(decode(input.Payload));
      return { StatusCode: 202 };
    });
    expect((await passport(2025)).statusCode).toBe(202);
    expect((await passport(2024)).statusCode).toBe(202);
    const third = await passport(2023);
    expect(third.statusCode).toBe(429);
    expect(JSON.parse(third.body).detail).toContain(`у пользователя не более ${HEAVY_PER_USER}`);

    // The job function runs both; they take 25 minutes (the function's own limit aside).
    const jobs = queued.map(() => slowJobFunction());
    const heldSlots = (queued as { slots?: { key: string }[] }[])
      .flatMap((job) => job.slots ?? [])
      .filter((slot) => /^heavy-/.test(slot.key));
    expect(heldSlots.length).toBeGreaterThanOrEqual(2 * 2);
    const running = jobs.map((job, i) => job.run(queued[i]));
    // Each job carries its slots from an interval it sets once it has written that it runs.
    while (vi.getTimerCount() < jobs.length) await new Promise((done) => setImmediate(done));
    for (let minute = 1; minute <= 25; minute++) {
      const before = released;
      vi.advanceTimersByTime(60_000);
      await releasedAtLeast(before + heldSlots.length);
    }
    // Still running: the user holds both slots, the third job is still refused.
    expect((await passport(2023)).statusCode).toBe(429);
    expect(queued).toHaveLength(2);

    for (const job of jobs) job.finish();
    for (const result of await Promise.all(running)) expect(result).toMatchObject({ kind: "job", state: "done" });
    // Ended, they gave back the slots they carried: the user has both again.
    expect((await passport(2023)).statusCode).toBe(202);
    expect((await passport(2022)).statusCode).toBe(202);
    expect((await passport(2021)).statusCode).toBe(429);
  }, 120_000);
});
