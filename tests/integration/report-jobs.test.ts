// A large company's report passport on the local host (docs/performance.md, «Report passport»): from
// JOB_PASSPORT_LINES on it is made as a job in a spreadsheet thread, as the job function makes it in
// AWS. The call answers 202 at once with the job's signed id; its state goes from queued through
// running to done with its progress; the file is then served by v1/export_jobs/{id}/file/ (the local
// store gives no download address). Another company's user gets 404 for both. Below the size the
// passport is made inside the call. A version the year never approved is a 404, never a job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { JOB_PASSPORT_LINES } from "@server/domain/heavy-work";
import { copyCalculation } from "../support/large-inventory";
import { accessToken } from "../support/server";

let server: LocalServer;
let company: string;
let token: string;
let otherToken: string;

const signIn = (email: string, password: string) => accessToken(server.url, { email, password });

const get = (path: string, bearer = token) => fetch(`${server.url}/api/${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
}

beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
  company = (await createCompany(server.deps, { name: "Шахта Большая" })).id;
  await createUser(server.deps, { companyId: company, email: "staff@example.com", password: "staff-password", role: "staff" });
  const other = await createCompany(server.deps, { name: "Другая организация" });
  await createUser(server.deps, { companyId: other.id, email: "other@example.com", password: "other-password", role: "staff" });
  token = await signIn("staff@example.com", "staff-password");
  otherToken = await signIn("other@example.com", "other-password");
  const project = await post<{ id: string }>("v1/projects/create_project/", {
    name: "Северная 2025",
    start_date: "2025-01-01",
    end_date: "2025-12-31",
  });
  // One day of its own, so its copies, a day each after it, are a line each of the year, not duplicates (D43).
  const first = await post<{ id: string }>("v1/underground/", {
    name: "Измерения",
    project: project.id,
    period: { from: "2025-01-01", to: "2025-01-01" },
    volume: 40_000,
    p_co2: 1.8393,
    p_ch4: 0.668,
    ef_co2: 1,
    ef_ch4: 60,
  });
  await server.settled();
  // Below the PDF's job size: made inside the call.
  const small = await get("v1/inventory/2025/report/?format=pdf");
  expect(small.status).toBe(200);
  expect(new TextDecoder().decode((await small.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  await copyCalculation(server.deps, company, "underground", first.id, JOB_PASSPORT_LINES.pdf);
  await server.settled();
}, 120_000);

afterAll(() => server?.close());

interface Job {
  job: string;
  state: string;
  progress: number;
  status_url?: string;
  file_url?: string;
  file_name?: string;
}

describe("a large company's report passport on the local host", () => {
  it("is made as a job: 202 at once, queued → running → done with progress, then its file", async () => {
    const started = await get("v1/inventory/2025/report/?format=pdf");
    expect(started.status).toBe(202);
    const job = (await started.json()) as Job;
    expect(job).toMatchObject({ state: "queued", progress: 0, status_url: `v1/export_jobs/${job.job}/` });

    const seen: Job[] = [];
    const deadline = Date.now() + 90_000;
    for (;;) {
      const res = await get(job.status_url!);
      expect(res.status).toBe(200);
      const state = (await res.json()) as Job;
      seen.push(state);
      if (state.state === "done" || state.state === "failed" || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const done = seen.at(-1)!;
    expect(done).toMatchObject({
      state: "done",
      progress: 100,
      file_name: "Паспорт отчета 2025.pdf",
      file_url: `v1/export_jobs/${job.job}/file/`,
    });
    // The progress only grows through the job's states. (Which running steps a 100 ms poll sees
    // depends on the machine's speed: a fast layout goes from 10 to 90 between two polls.)
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.every((s) => ["queued", "running", "done"].includes(s.state))).toBe(true);

    // Another company's user: the same id is not theirs.
    expect((await get(job.status_url!, otherToken)).status).toBe(404);
    expect((await get(done.file_url!, otherToken)).status).toBe(404);

    const file = await get(done.file_url!);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toContain(encodeURIComponent("Паспорт отчета 2025.pdf"));
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    // Every line of the year is in it: the annex names the last copy.
    expect(bytes.byteLength).toBeGreaterThan(100_000);
  }, 120_000);

  it("answers 404 for a version the year never approved, its pack or its passport, before any job", async () => {
    for (const path of ["v1/inventory/2025/versions/1/pack/", "v1/inventory/2025/report/?format=pdf&version=5"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ detail: expect.stringMatching(/^Версия \d инвентаризации 2025 года не найдена$/) });
    }
  });

  it("makes the workbook of the same company inside the call (below the xlsx's job size)", async () => {
    const res = await get("v1/inventory/2025/report/?format=xlsx");
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  }, 60_000);
});
