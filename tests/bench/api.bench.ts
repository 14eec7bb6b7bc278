// API latency at fixed request rates, against the local server as `npm start` runs it (in this
// process, memory storage with dynalite and the table-stream handler in threads of their own,
// loopback) and, for scale, against a bare Hono route served the same
// way on the same machine: calculation create (POST v1/underground_emission_ch4/), list (GET,
// 10 of a project's 100 calculations) and get (GET one), each at 50 and 150 requests/s for 10 s. autocannon sends at
// the fixed rate (overallRate) from this process too, so the figures include its share of the two
// cores; compare the lines, not the absolute numbers with another machine. BENCH_API_SECONDS
// shortens the runs. The warm-up's writes go to the create project, not the listed one. First it
// counts the DynamoDB calls (and capacity units) of each operation, on the same app with its
// document client counted (tests/support/api-call-counts.ts, held by tests/integration/round-trips).
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import { startLocalServer } from "@server/local/server";
import { countedApi } from "../support/counted-api";
import { PERFORMANCE_DOC, measureOperations, printedLines, writeDocumented } from "../support/api-call-counts";
import { loadCreateBody } from "../support/load-create";

const RATES = [50, 150];
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const demo = { email: "bench@example.com", password: "bench-password" };

interface Figures {
  p50: number;
  p99: number;
  max: number;
  sent: number;
  non2xx: number;
  errors: number;
}

/** Answers of the product's API that were not 2xx: the bench exits with a failure when there are any. */
let refused = 0;

async function measure(url: string, request: autocannon.Request, rate: number): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: 10,
    overallRate: rate,
    // Each answer's own time: with a rate set, autocannon otherwise also records, for an answer of
    // n ms, n − 1, n − 2, … 1 ms (its correction for coordinated omission assumes 1 ms between
    // requests), which halves the percentiles it reports.
    ignoreCoordinatedOmission: true,
    amount: rate * SECONDS,
    timeout: 10,
    requests: [request],
  });
  refused += result.non2xx;
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    sent: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function bareHono(): Promise<{ url: string; close: () => Promise<void> }> {
  const items = Array.from({ length: 10 }, (_, i) => ({ id: String(i), name: `Расчет ${i}`, res_ch4: 12060, res_ch4_to_co2: 301500 }));
  const app = new Hono()
    .post("/create", async (c) => c.json({ id: "1", ...(await c.req.json()) }, 201))
    .get("/list", (c) => c.json({ results: items, count: 100 }, 200));
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      resolve({ url: `http://127.0.0.1:${(info as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

async function json<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const row = (label: string, f: Figures) =>
  `  ${label.padEnd(34)} p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms  max ${String(f.max).padStart(5)} ms` +
  `  (${f.sent} requests${f.non2xx + f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : ""})`;

/** Each operation's DynamoDB calls with a warm process (tests/support/api-call-counts.ts); with
 *  `--write-docs`, written into docs/performance.md's generated table. */
async function countCalls(): Promise<void> {
  const api = await countedApi();
  try {
    const measured = await measureOperations(api);
    console.log("DynamoDB calls per operation (warm process), sequential rounds, capacity units consumed:");
    for (const line of printedLines(measured)) console.log(line);
    if (process.argv.includes("--write-docs")) {
      writeDocumented(measured);
      console.log(`  written to ${PERFORMANCE_DOC}`);
    }
  } finally {
    await api.close();
  }
}

export async function run(): Promise<void> {
  await countCalls();
  const server = await startLocalServer({ port: 0, demo });
  const bare = await bareHono();
  try {
    // Signed in again before each rate's lines: on a busy machine the lines outlast an access token.
    const signIn = async () =>
      (
        await json<{ access: string }>(`${server.url}/api/token/`, {
          method: "POST",
          body: JSON.stringify({ ...demo, guardant_code: "" }),
        })
      ).access;
    let token = await signIn();
    const newProject = (name: string) =>
      json<{ id: string }>(`${server.url}/api/v1/projects/create_project/`, {
        method: "POST",
        token,
        body: JSON.stringify({ name, start_date: "2024-01-01", end_date: "2024-12-31" }),
      });
    const writes = await newProject("Нагрузка: создание");
    const reads = await newProject("Нагрузка: список");
    // A small figure each (as the load's, tests/support/load-create.ts): the bench's thousands of
    // creates stay far inside the project's bound on its kept sums (domain/inventory/magnitudes.ts).
    const body = (project: string) => JSON.stringify(loadCreateBody(project));
    let one = "";
    for (let i = 0; i < 100; i++) {
      ({ id: one } = await json<{ id: string }>(`${server.url}/api/v1/underground_emission_ch4/`, {
        method: "POST",
        token,
        body: body(reads.id),
      }));
    }
    const requests = () => {
      const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
      return {
        headers,
        create: { method: "POST", path: "/api/v1/underground_emission_ch4/", headers, body: body(writes.id) } as autocannon.Request,
        list: {
          method: "GET",
          path: `/api/v1/underground_emission_ch4/?project=${reads.id}&limit=10&offset=0`,
          headers,
        } as autocannon.Request,
        get: { method: "GET", path: `/api/v1/underground_emission_ch4/${one}/`, headers } as autocannon.Request,
      };
    };
    let { headers, create, list, get } = requests();

    // Warm-up (not reported): the first requests compile the handlers and the core.
    await autocannon({ url: server.url, connections: 10, overallRate: 100, amount: 300, requests: [create] });
    await autocannon({ url: server.url, connections: 10, overallRate: 100, amount: 300, requests: [list] });
    await autocannon({ url: bare.url, connections: 10, overallRate: 100, amount: 300, requests: [{ method: "GET", path: "/list" }] });

    console.log(`${SECONDS} s per line, 10 connections, latency of each answer:`);
    for (const rate of RATES) {
      token = await signIn();
      ({ headers, create, list, get } = requests());
      console.log(`${rate} req/s`);
      console.log(row("API create calculation", await measure(server.url, create, rate)));
      console.log(
        row(
          "bare Hono POST (echo JSON)",
          await measure(bare.url, { method: "POST", path: "/create", headers, body: body(writes.id) }, rate),
        ),
      );
      console.log(row("API list calculations (10 of 100)", await measure(server.url, list, rate)));
      console.log(row("bare Hono GET (10 items)", await measure(bare.url, { method: "GET", path: "/list" }, rate)));
      console.log(row("API get one calculation", await measure(server.url, get, rate)));
    }
  } finally {
    await bare.close();
    await server.close();
  }
  if (refused > 0) {
    console.log(`API BENCH FAILED: ${refused} answers were not 2xx`);
    process.exitCode = 1;
  }
}
