// Export jobs as a bounded, fair queue that cleans up (docs/security.md, «Caps, job queue and chart
// data bounded»), on the local host: a queued or running job holds its heavy-work slot, so the
// user's third job is a 429 with Retry-After; an identical request reuses the job (queued, running or
// done) until the data change, once the user has a slot to ask with (a heavy route
// takes its slot before it reads the store, where the job it would reuse is found); companies take turns in the threads; job files expire as the
// exports bucket's lifecycle rule expires them in AWS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { HEAVY_PER_COMPANY, HEAVY_PER_USER, JOB_FILE_DAYS } from "@server/domain/heavy-work";
import { deleteExpiredJobFiles } from "@server/adapters/spreadsheets/jobs";
import { sweepUploads } from "@server/local/upload-sweep";
import { jobOf } from "@server/http/export-jobs";
import { finished, getAs, jobCompany, type Job, type JobCompany } from "../support/report-job-company";

let server: LocalServer;
let big: JobCompany;
let other: JobCompany;

beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
  [big, other] = await Promise.all([jobCompany(server, "Шахта Большая", 2), jobCompany(server, "Разрез Соседний")]);
}, 120_000);
afterAll(() => server?.close());

const passport = (token: string, year: number, facility = "") =>
  getAs(server, token, `v1/inventory/${year}/report/?format=pdf${facility ? `&facility=${facility}` : ""}`);

async function started(res: Response): Promise<Job> {
  expect(res.status, await res.clone().text()).toBe(202);
  return (await res.json()) as Job;
}

/** When the job's thread took it (its state object), by its signed id. */
async function startedAt(company: string, job: Job): Promise<number> {
  const uuid = jobOf(server.deps.config, company, job.job, new Date())!;
  const stored = await server.deps.blobs.get(`exports/${company}/jobs/${uuid}.json`);
  return (JSON.parse(new TextDecoder().decode(stored!.body)) as { started_at?: number }).started_at ?? Number.NaN;
}

describe("a user's export jobs", () => {
  it("hold their slots while queued or running: the third is a 429 with Retry-After, an identical one is the same job", async () => {
    const [token] = big.tokens;
    const first = await started(await passport(token, 2025));
    // The same request again, with a slot left to ask with: the same job, however many times it is asked.
    for (let i = 0; i < 3; i++) expect((await started(await passport(token, 2025))).job).toBe(first.job);
    const second = await started(await passport(token, 2024));
    // The route takes its slot before it looks for the job: with both held by the jobs, even the same request waits.
    expect((await passport(token, 2025)).status).toBe(HEAVY_PER_USER === 2 ? 429 : 202);
    const third = await passport(token, 2023);
    expect(third.status).toBe(HEAVY_PER_USER === 2 ? 429 : 202);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await third.json()) as { detail: string }).detail).toContain(`у пользователя не более ${HEAVY_PER_USER}`);

    expect(await finished(server, token, first)).toMatchObject({ state: "done" });
    expect(await finished(server, token, second)).toMatchObject({ state: "done" });
    // Ended, they no longer count; a finished job is still reused for the same data.
    expect((await started(await passport(token, 2025))).job).toBe(first.job);
    const fourth = await started(await passport(token, 2023));
    expect(await finished(server, token, fourth)).toMatchObject({ state: "done" });
  }, 180_000);

  it("are made again once the data changed", async () => {
    const [token] = big.tokens;
    const before = await started(await passport(token, 2025));
    expect(await finished(server, token, before)).toMatchObject({ state: "done" });
    const res = await fetch(`${server.url}/api/v1/projects/create_project/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Южная 2025", start_date: "2025-01-01", end_date: "2025-12-31" }),
    });
    expect(res.status).toBe(201);
    const after = await started(await passport(token, 2025));
    expect(after.job).not.toBe(before.job);
    expect(await finished(server, token, after)).toMatchObject({ state: "done" });
  }, 120_000);
});

describe("the queue of jobs", () => {
  it("serves companies in turn: another company's job starts before the burst's rest", async () => {
    // The company's whole budget: two users of two jobs each, then one job of another company.
    const years = [2019, 2018, 2017, 2016];
    const burst: Array<[string, Job]> = [];
    for (const [i, year] of years.entries()) {
      const token = big.tokens[i % 2];
      burst.push([token, await started(await passport(token, year))]);
    }
    expect(burst).toHaveLength(HEAVY_PER_COMPANY);
    const asked = Date.now();
    const theirs = await started(await passport(other.tokens[0], 2025));
    for (const [token, job] of burst) expect(await finished(server, token, job)).toMatchObject({ state: "done" });
    expect(await finished(server, other.tokens[0], theirs)).toMatchObject({ state: "done" });
    const burstStarts = await Promise.all(burst.map(([, job]) => startedAt(big.company, job)));
    const theirStart = await startedAt(other.company, theirs);
    // Every start is on record, so the comparison below compares times, not NaN.
    for (const at of [...burstStarts, theirStart]) expect(Number.isFinite(at)).toBe(true);
    // The burst's jobs still queued when theirs was asked (a thread may have ended one and taken the
    // next while the burst was being asked: on a quiet machine a small passport takes a fraction of a
    // second): at most the one a thread took while their request was on its way starts before theirs.
    const queued = burstStarts.filter((at) => at >= asked);
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.filter((at) => at < theirStart).length).toBeLessThanOrEqual(1);
  }, 240_000);
});

describe("job files", () => {
  it(`expire after ${JOB_FILE_DAYS} days as in the bucket`, async () => {
    const [token] = big.tokens;
    const job = await started(await passport(token, 2015));
    const done = await finished(server, token, job);
    expect(done.state).toBe("done");
    const day = 24 * 60 * 60 * 1000;
    // Not yet: a day before the expiry nothing goes.
    expect(await deleteExpiredJobFiles(server.deps.blobs, new Date(Date.now() + (JOB_FILE_DAYS - 1) * day))).toEqual([]);
    // The local server's hourly sweep, as run once the files are older than the expiry.
    const later = new Date(Date.now() + (JOB_FILE_DAYS + 1) * day);
    await sweepUploads({ ...server.deps, clock: { now: () => later } }, () => {});
    const uuid = jobOf(server.deps.config, big.company, job.job, new Date())!;
    expect(await server.deps.blobs.get(`exports/${big.company}/jobs/${uuid}.json`)).toBeUndefined();
    expect(await server.deps.blobs.get(`exports/${big.company}/jobs/${uuid}.pdf`)).toBeUndefined();
    expect((await getAs(server, token, done.file_url!)).status).toBe(404);
  }, 120_000);
});
