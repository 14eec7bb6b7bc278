// Projects of large forecasts written straight through a local server's repositories (no model
// run: the rows and the summary as the API stores them), and a file download measured while
// another user keeps asking get_me: the finding an earlier round (66 × 100 000 rows, the detailed
// export took the server down) for the heavy-work test and the bench.
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { LocalServer } from "@server/local/server";
import { storeForecastRows, type ForecastKeptRow } from "@server/domain/forecast/rows";
import { newId } from "@server/domain/ids";
import type { StoredCalculation } from "@server/ports";
import type { Project } from "@server/contract/schemas/project";

/** Rows of one longwall, as a 100 000-row upload holds them. */
export const longwallRows = (n: number): ForecastKeptRow[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    x1: 1200 + (i % 300),
    x2: 1190 + (i % 290),
    x7: 35.5 + (i % 7) / 10,
    x8: 48.2,
    x12: 0.41,
    x13: 9100 + (i % 50),
    x15: 17.1,
    result: 0.3 + (i % 10) / 10,
  }));

export async function createProject(server: LocalServer, company: string, owner: string, name: string): Promise<Project> {
  const now = new Date().toISOString();
  const project: Project = {
    id: newId(),
    name,
    start_date: "2025-01-01",
    end_date: "2025-12-31",
    reporting_year: 2025,
    created_at: now,
    updated_at: now,
    status: 1,
    company,
    user: owner,
    is_active: true,
    is_deleted: false,
    version: 1,
  };
  await server.deps.repos.projects.create(project);
  return project;
}

/** The rows of one forecast in the blob store; forecasts may share them (addForecasts). */
export const storeRows = (server: LocalServer, company: string, rows: number) =>
  storeForecastRows(server.deps, company, newId(), longwallRows(rows));

/** `count` forecasts of `rows` rows each in `project`, all reading the rows stored at `dataKey`. */
export async function addForecasts(server: LocalServer, project: Project, author: string, count: number, rows: number, dataKey: string) {
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const calculation: StoredCalculation = {
      id: newId(),
      type: "regres_methane",
      project: project.id,
      company: project.company,
      name: `Прогноз лавы № ${i + 1}`,
      is_active: true,
      is_deleted: false,
      version: 1,
      methodology_version: "2026.1",
      created_at: at,
      created_by: author,
      updated_at: at,
      updated_by: author,
      inputs: { method: "xgboost" },
      results: { rows, max_result: 1.2, data_key: dataKey },
      coefficients: {},
    };
    await server.deps.repos.calculations.create(calculation);
  }
  // The export's bound reads the list counts the table stream keeps.
  await server.settled();
}

export interface DownloadFigures {
  status: number;
  seconds: number;
  bytes: number;
  /** Peak RSS of this process (the server's) above what it was before, MB. */
  rssGrowthMb: number;
  /** The other user's get_me meanwhile, ms. */
  p50: number;
  p95: number;
  calls: number;
}

/** The other user's get_me asked again `everyMs` after each answer while `work` runs, and this process's peak RSS. */
export async function whileProbing<T>(
  url: string,
  probeToken: string,
  work: () => Promise<T>,
  everyMs = 100,
): Promise<{ value: T; seconds: number; rssGrowthMb: number; heapGrowthMb: number; p50: number; p95: number; calls: number }> {
  global.gc?.();
  // The request thread's own heap and buffers (the worker threads' isolates are not in it).
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = process.memoryUsage().rss;
  const heldBefore = held();
  let peak = before;
  let heldPeak = heldBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    heldPeak = Math.max(heldPeak, held());
  }, 50);
  let working = true;
  const latencies: number[] = [];
  const probe = (async () => {
    while (working) {
      const started = performance.now();
      const res = await fetch(`${url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${probeToken}` } });
      if (res.status !== 200) throw new Error(`get_me answered ${res.status}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    working = false;
    await probe;
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? Number.NaN;
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return {
    value,
    seconds,
    rssGrowthMb: mb(peak - before),
    heapGrowthMb: mb(heldPeak - heldBefore),
    p50: at(0.5),
    p95: at(0.95),
    calls: latencies.length,
  };
}

/** Downloads `path` with `token` while `probeToken`'s get_me is asked every 100 ms. */
export async function downloadWhileProbing(url: string, path: string, token: string, probeToken: string): Promise<DownloadFigures> {
  const { value, ...figures } = await whileProbing(url, probeToken, async () => {
    const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += chunk.byteLength;
    return { status: res.status, bytes };
  });
  return { ...value, ...figures };
}

/** A longwall's file of `rows` rows as a forecast upload sends it (CSV, 100 000 rows ≈ 4 MB). */
export const longwallCsv = (rows: number): Uint8Array =>
  new TextEncoder().encode(
    ["id,x1,x2,x7,x8,x12,x13,x15", ...longwallRows(rows).map((r) => [r.id, r.x1, r.x2, r.x7, r.x8, r.x12, r.x13, r.x15].join(","))].join(
      "\n",
    ),
  );

/** `count` forecast uploads of `csv` into `projectId` sent at once by `token`'s user (multipart,
 *  as the dialog sends them) from a thread of their own (upload-burst.mjs): each upload's status. */
export function parallelUploads(url: string, token: string, projectId: string, csv: Uint8Array, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const burst = new Worker(new URL("./upload-burst.mjs", import.meta.url), { workerData: { url, token, projectId, csv, count } });
    burst.once("message", (statuses: number[]) => resolve(statuses));
    burst.once("error", reject);
  });
}

/** GETs of `urls` with `token`'s user, `atOnce` at a time, sent from a thread of their own
 *  (read-burst.mjs): each answer's status and size. */
export function parallelReads(token: string, urls: string[], atOnce: number): Promise<Array<{ status: number; bytes: number }>> {
  return new Promise((resolve, reject) => {
    const burst = new Worker(new URL("./read-burst.mjs", import.meta.url), { workerData: { token, urls, atOnce } });
    burst.once("message", resolve);
    burst.once("error", reject);
  });
}
