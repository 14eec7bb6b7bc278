// a long monitoring period computed as a job. Over LIMITS.climate.periodJobMeterHours
// (lowered here through the host's config) POST v1/climate-projects/{id}/periods/ checks the period and
// answers 202 with the job, where the host runs jobs; the job (adapters/spreadsheets/jobs.ts, runJob:
// what the local server's spreadsheet thread and the job function in AWS run) computes and stores the
// period, and its state names it. The host's job queue is the test's here, so the job runs when the
// test says: while it waits the project's periods are held (a second create is 409), another company
// gets 404 for its state; once it ran, its period's figures equal those the request computes (201) from
// the same minutes in a twin project. A job whose period no longer fits its project fails with the
// Russian reason, stores nothing and gives the periods back. A long period computed again is a job too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobStatus, runJob } from "@server/adapters/spreadsheets/jobs";
import { workerRequest, type WorkerRequest } from "@server/adapters/spreadsheets/protocol";
import type { ClimatePeriodJobRequest, JobTicket } from "@server/export/formats";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { SpreadsheetWorker } from "@server/ports";
import { PERIODS_BUSY } from "@server/domain/climate/periods";
import { LIMITS } from "@server/contract/schemas/limits";
import { CASE_A_METHODOLOGY, caseAPeriod, type CaseAPeriod } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let staff: { token: string; companyId: string };
let other: string;
let a: CaseAPeriod;
/** The jobs the host was asked to start, not yet run. */
const queued: Extract<WorkerRequest, { op: "job" }>[] = [];
let kept: SpreadsheetWorker;

type Job = { job: string; state: string; progress: number; status_url?: string; period_id?: string; detail?: string };

async function twin(name: string): Promise<string> {
  const device = {
    name: "Ф-1",
    point: a.point,
    kind: "flare_open",
    flow_basis: "normal_0C",
    sensors: { q: "Q-A", c: "C-A", flame: "FL-A" },
  };
  const res = await h.request("/api/v1/climate-projects/", {
    method: "POST",
    token: staff.token,
    json: { name, facility: a.facility, start: "2026-06-01", methodology: CASE_A_METHODOLOGY, devices: [device] },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const create = (project: string, token = staff.token) =>
  h.request(`/api/v1/climate-projects/${project}/periods/`, {
    method: "POST",
    token,
    json: { start: "2026-06-01T00:00", end: "2026-06-01T06:00" },
  });

const status = async (job: Job, token = staff.token) => h.request(`/api/${job.status_url}`, { token });

/** Runs the jobs the host was asked to start, as its thread or the job function would. */
async function runQueued() {
  const worker = inProcessSpreadsheets(() => h.deps);
  for (const event of queued.splice(0)) await runJob(h.deps, worker, event);
}

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("ООО «Долгий период»");
  other = (await h.signedInUser("ООО «Чужая шахта»")).token;
  a = await caseAPeriod(h, staff.token, "Факел на запросе");
  kept = h.deps.spreadsheets;
  // A host that runs periods as jobs, its queue the test's; states as the local host keeps them.
  h.deps.spreadsheets = {
    ...kept,
    jobsOf: [...(kept.jobsOf ?? []), "climate_period"],
    async climatePeriod(request: ClimatePeriodJobRequest, ticket: JobTicket) {
      queued.push({ op: "job", job: ticket.id, request, slots: ticket.slots });
      return { kind: "job", job: { job: ticket.id, state: "queued", progress: 0 } };
    },
    jobStatus: (actor, job) => jobStatus(h.deps, { actor, job }),
  };
  // 6 hours × 3 meters is 18 meter-hours: over 10, a job.
  h.deps.config.climatePeriodJobMeterHours = 10;
});
afterAll(async () => {
  if (kept) h.deps.spreadsheets = kept;
  h.deps.config.climatePeriodJobMeterHours = undefined;
  await h?.close();
});

describe("a long climate period", () => {
  it("is 202 and a job; held while it waits; computed by the job to the figures the request computes", async () => {
    expect(LIMITS.climate.periodJobMeterHours).toBe(20_000);
    const project = await twin("Факел заданием");
    const res = await create(project);
    expect(res.status, await res.clone().text()).toBe(202);
    const job = (await res.json()) as Job;
    expect(job).toMatchObject({ state: "queued", progress: 0 });
    expect(job.status_url).toBe(`v1/export_jobs/${job.job}/`);
    // The AWS worker's protocol takes the job as the API sends it to the job function.
    expect(workerRequest.safeParse(queued[0]).success).toBe(true);

    // While it waits: the project's periods are held, nothing is listed, another company sees no job.
    const again = await create(project);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { detail: string }).detail).toBe(PERIODS_BUSY);
    const listed = await h.request(`/api/v1/climate-projects/${project}/periods/`, { token: staff.token });
    expect(((await listed.json()) as { count: number }).count).toBe(0);
    expect((await status(job)).status).toBe(200);
    expect(((await (await status(job)).json()) as Job).state).toBe("queued");
    expect((await status(job, other)).status).toBe(404);
    expect((await create(project, other)).status).toBe(404);

    await runQueued();
    const done = (await (await status(job)).json()) as Job;
    expect(done).toMatchObject({ state: "done", progress: 100 });
    expect(done.period_id).toBeTruthy();
    expect((await status(job, other)).status).toBe(404);
    const read = await h.request(`/api/v1/climate-projects/${project}/periods/${done.period_id}/`, { token: staff.token });
    expect(read.status).toBe(200);
    const period = (await read.json()) as Record<string, unknown>;
    // The same minutes computed on the request (a.period, 201): the same figures, hours and deviations.
    for (const key of ["totals", "devices", "deviations", "carbon_units", "hours", "start", "end", "period", "rules_version"]) {
      expect(period[key], key).toEqual(a.period[key]);
    }
    expect(period.carbon_units).toBe(15);
    expect(period).toMatchObject({ project, computed_by: a.period.computed_by });
    // Given back: the next period of the project is computed (the same bounds are an overlap, 400).
    const overlap = await create(project);
    expect(overlap.status).toBe(400);
    expect(((await overlap.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("start")}: период пересекается с периодом 01\\.06\\.2026 00:00`),
    );
    queued.splice(0);
  });

  it("that no longer fits its project fails with the reason, stores nothing and gives the periods back", async () => {
    const project = await twin("Факел с переносом начала");
    const res = await create(project);
    expect(res.status).toBe(202);
    const job = (await res.json()) as Job;
    // Meanwhile the project is moved to start a day later.
    const stored = (await (await h.request(`/api/v1/climate-projects/${project}/`, { token: staff.token })).json()) as { version: number };
    const moved = await h.request(`/api/v1/climate-projects/${project}/`, {
      method: "PATCH",
      token: staff.token,
      json: { start: "2026-06-02", version: stored.version },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    await runQueued();
    const failed = (await (await status(job)).json()) as Job;
    expect(failed).toMatchObject({ state: "failed", detail: `${fieldName("start")}: период начинается раньше начала проекта` });
    const listed = await h.request(`/api/v1/climate-projects/${project}/periods/`, { token: staff.token });
    expect(((await listed.json()) as { count: number }).count).toBe(0);
    // The hold was given back: the next create is checked at once (400), not refused as busy (409).
    const next = await create(project);
    expect(next.status).toBe(400);
  });

  it("is computed again as a job: 202, the same request while it waits is that job, then its next version", async () => {
    const project = await twin("Факел с пересчетом");
    const started = (await (await create(project)).json()) as Job;
    await runQueued();
    const id = ((await (await status(started)).json()) as Job).period_id!;
    const base = `/api/v1/climate-projects/${project}/periods/${id}/`;
    const recompute = (version: number, token = staff.token) =>
      h.request(`${base}recompute/`, { method: "POST", token, json: { version } });

    const res = await recompute(1);
    expect(res.status, await res.clone().text()).toBe(202);
    const job = (await res.json()) as Job;
    const again = await recompute(1);
    expect(again.status).toBe(202);
    expect(((await again.json()) as Job).job).toBe(job.job);
    expect(queued).toHaveLength(1);
    expect(workerRequest.safeParse(queued[0]).success).toBe(true);
    expect((await recompute(1, other)).status).toBe(404);
    expect((await status(job, other)).status).toBe(404);

    await runQueued();
    const done = (await (await status(job)).json()) as Job;
    expect(done).toMatchObject({ state: "done", period_id: id });
    const period = (await (await h.request(base, { token: staff.token })).json()) as Record<string, unknown> & {
      version: number;
      history: { action: string }[];
    };
    expect(period.version).toBe(2);
    expect(period.history.map((step) => step.action)).toEqual(["compute", "recompute"]);
    // The same minutes: the same figures.
    for (const key of ["totals", "devices", "deviations", "carbon_units"]) expect(period[key], key).toEqual(a.period[key]);
    // The version read before is stale now: refused at once.
    const stale = await recompute(1);
    expect(stale.status).toBe(409);
    expect(queued).toHaveLength(0);
    // In the company's change log, as a recompute on the request is.
    await h.settled();
    const log = await h.deps.repos.adminAudit.listCompany(staff.companyId, { limit: 20, offset: 0 });
    expect(log.results.some((e) => e.action === "climate_period.recompute" && e.target_id === id)).toBe(true);
  });

  it("is computed on the request (201) where the host runs no period jobs, whatever its length", async () => {
    const project = await twin("Факел без заданий");
    const jobs = h.deps.spreadsheets;
    h.deps.spreadsheets = kept;
    try {
      const res = await create(project);
      expect(res.status, await res.clone().text()).toBe(201);
      expect(((await res.json()) as { carbon_units: number }).carbon_units).toBe(15);
    } finally {
      h.deps.spreadsheets = jobs;
    }
  });
});
