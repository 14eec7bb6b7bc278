// `npm run load`: against the product as `npm start` runs it (a child process on loopback with its
// own data folder), each phase in an empty company of its own (the demo company's year counts
// calculations of its own): first calculation creates at CREATE_RATE (default 150) per second from
// 4 writers, side by side with a bare route of the same server (the web app's index, served from
// memory), so the creates' latency reads against what the machine gives any request then; then
// mixed reads and writes; then a SIGKILL in the middle of a write load and a restart. It prints the
// DynamoDB calls of one create (counted on the same app, tests/support/counted-api.ts) and the
// machine's load average, and checks that nothing failed, that every create offered was served,
// that the stored items equal the writes acknowledged (and the statistics snapshot kept by the
// stream handler counts them all), and that no acknowledged write is lost by the kill. Bounded:
// LOAD_SECONDS (default 60) at LOAD_RATE (default 300) requests per second, the creates for
// CREATE_SECONDS (default 20), then a 10-second kill phase. `npm run load -- --write-docs` writes
// what it printed into docs/performance.md (tests/support/generated-doc.ts) when the check passed.
// Its latencies are each answer's own time (ignoreCoordinatedOmission): with a rate set, autocannon
// otherwise also records, for an answer of n ms, n − 1, n − 2, … 1 ms (its correction for coordinated
// omission assumes 1 ms between a writer's requests), which halves the percentiles it reports.
import autocannon from "autocannon";
import { openSharedStorage } from "@server/local/storage";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { writeGeneratedBlock } from "../support/generated-doc";
import { LOAD_CREATE_PATH, createCallsLine, loadCreateBody, loadCreateCalls } from "../support/load-create";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const RATE = Number(process.env.LOAD_RATE ?? 300);
const CREATE_RATE = Number(process.env.CREATE_RATE ?? 150);
const CREATE_SECONDS = Number(process.env.CREATE_SECONDS ?? 20);
const PORT = Number(process.env.LOAD_PORT ?? 3217);
const URL_BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = "load-password-2026";
const dataDir = mkdtempSync(join(tmpdir(), "fugitive-load-"));

function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "functions/src/local.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), LOGIN_FAILURES_PER_ADDRESS: "100000" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("URL:")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function json<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(`${URL_BASE}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

let companies = 0;

/** A new company with one user, made by the admin command beside the running server. */
async function ownCompany(): Promise<string> {
  companies += 1;
  const email = `load${companies}-${Date.now()}@example.com`;
  await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "functions/src/admin/cli.ts",
      "create-user",
      "--company",
      `Нагрузка ${companies} ${Date.now()}`,
      "--email",
      email,
      "--password",
      PASSWORD,
    ],
    { env: { ...process.env, DATA_DIR: dataDir } },
  );
  return email;
}

async function signIn(email: string): Promise<string> {
  const { access } = await json<{ access: string }>("/api/token/", {
    method: "POST",
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  return access;
}

/** A signed-in user of a new, empty company and a project of theirs. */
async function session() {
  const email = await ownCompany();
  const access = await signIn(email);
  const project = await json<{ id: string }>("/api/v1/projects/create_project/", {
    method: "POST",
    token: access,
    body: JSON.stringify({ name: `Нагрузка ${Date.now()}`, start_date: "2024-01-01", end_date: "2024-12-31" }),
  });
  return { email, token: access, project: project.id };
}

const createBody = (project: string) => JSON.stringify(loadCreateBody(project));

/** What the run prints, in order: written into docs/performance.md with --write-docs. */
const printed: string[] = [];
const say = (line: string) => {
  printed.push(line);
  console.log(line);
};

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");

async function run(seconds: number, rate: number, token: string, project: string, writesOnly: boolean, acknowledged: string[]) {
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  const write = {
    method: "POST" as const,
    path: LOAD_CREATE_PATH,
    headers,
    body: createBody(project),
    onResponse: (status: number, body: string) => {
      if (status === 201) acknowledged.push((JSON.parse(body) as { id: string }).id);
    },
  };
  const reads = [
    { method: "GET" as const, path: `/api/v1/underground_emission_ch4/?project=${project}&limit=10&offset=0`, headers },
    { method: "GET" as const, path: "/api/v1/dictionary/get_underground_emission_ch4/", headers },
    { method: "GET" as const, path: `/api/v1/projects/${project}/`, headers },
  ];
  return autocannon({
    url: URL_BASE,
    connections: 16,
    // A fixed number of requests rather than a duration: autocannon drops the answers still in
    // flight when a duration ends, which would make acknowledged writes look lost.
    amount: seconds * rate,
    overallRate: rate,
    ignoreCoordinatedOmission: true,
    timeout: 10,
    requests: writesOnly ? [write] : [write, ...reads],
  });
}

/** The rate served is the requests over the phase's time: autocannon's own «average» is the mean of
 *  its per-second counts, the phase's last partial second counted as a whole one. */
function report(title: string, result: autocannon.Result) {
  say(
    `${title}: ${result.requests.total} requests in ${result.duration.toFixed(1)} s, ` +
      `${(result.requests.total / result.duration).toFixed(0)} req/s, ` +
      `latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms, ` +
      `2xx ${result["2xx"]}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
  );
}

say(createCallsLine(await loadCreateCalls()));
let server = await startServer();
let failed = false;
try {
  // Phase 0: creates from 4 writers at CREATE_RATE, and beside them a bare route of the same server.
  const writer = await session();
  const created: string[] = [];
  say(`load average before the creates: ${loadAverage()} (1 / 5 / 15 min)`);
  const [creates, bare] = await Promise.all([
    autocannon({
      url: URL_BASE,
      connections: 4,
      amount: CREATE_SECONDS * CREATE_RATE,
      overallRate: CREATE_RATE,
      ignoreCoordinatedOmission: true,
      timeout: 10,
      requests: [
        {
          method: "POST",
          path: LOAD_CREATE_PATH,
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${writer.token}` },
          body: createBody(writer.project),
          onResponse: (status: number, body: string) => {
            if (status === 201) created.push((JSON.parse(body) as { id: string }).id);
          },
        },
      ],
    }),
    autocannon({
      url: URL_BASE,
      connections: 1,
      amount: CREATE_SECONDS * 20,
      overallRate: 20,
      ignoreCoordinatedOmission: true,
      timeout: 10,
      requests: [{ path: "/" }],
    }),
  ]);
  report(`creates ${CREATE_SECONDS} s offered at ${CREATE_RATE}/s, 4 writers`, creates);
  report("bare route (GET /, the same server) meanwhile at 20/s", bare);
  say(`load average after the creates: ${loadAverage()}; creates served ${created.length} of ${CREATE_SECONDS * CREATE_RATE}`);
  if (created.length !== CREATE_SECONDS * CREATE_RATE || creates.non2xx + creates.errors + creates.timeouts > 0) failed = true;

  // Phase 1: mixed load. Every answer must be 2xx and every acknowledged write stored.
  const first = await session();
  const acknowledged: string[] = [];
  const result = await run(SECONDS, RATE, first.token, first.project, false, acknowledged);
  report(`mixed load ${SECONDS} s at ${RATE} req/s`, result);
  // What the table holds, read through the server's engine; then the list's count, which the
  // stream handler keeps a moment behind the writes, must catch up with it.
  const me = await json<{ company: { id: string } }>("/api/v1/users/get_me/", { token: first.token });
  const shared = await openSharedStorage(dataDir);
  const stored = (await shared.repos.calculations.listAllByProject(me.company.id, first.project, "underground_emission_ch4", "active"))
    .length;
  await shared.close();
  say(`writes acknowledged ${acknowledged.length}, items stored ${stored}`);
  if (result.non2xx + result.errors + result.timeouts > 0 || stored !== acknowledged.length) failed = true;
  // The statistics snapshot follows the writes through the table's stream handler: it must catch
  // up with every acknowledged write (the company has no other calculations).
  const caughtUp = Date.now();
  let counted = -1;
  let listed = -1;
  // Locally the handler shares the process (and its two cores) with the API: after a minute of
  // overload it is a few thousand records behind, and catches up once the load stops. Waited for
  // while it moves on (how long depends on how busy the machine is); a count that stands still
  // for 30 s is one that will not catch up.
  let moved = Date.now();
  while (Date.now() - moved < 30_000) {
    const stats = await json<{ calculations: Record<string, number> }>("/api/v1/users/statistics/", { token: first.token });
    const nowCounted = stats.calculations.underground_emission_ch4 ?? 0;
    const nowListed = (
      await json<{ count: number }>(`/api/v1/underground_emission_ch4/?project=${first.project}&limit=1`, { token: first.token })
    ).count;
    if (nowCounted !== counted || nowListed !== listed) moved = Date.now();
    [counted, listed] = [nowCounted, nowListed];
    if (counted === acknowledged.length && listed === acknowledged.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  say(
    `statistics: ${counted} calculations counted, list count ${listed}, of ${acknowledged.length}; caught up ${Date.now() - caughtUp} ms after the load`,
  );
  if (counted !== acknowledged.length || listed !== acknowledged.length) failed = true;

  // Phase 2: SIGKILL in the middle of a write load, restart, check every acknowledged write.
  const second = await session();
  const beforeKill: string[] = [];
  const load = run(10, RATE, second.token, second.project, true, beforeKill);
  await new Promise((r) => setTimeout(r, 5000));
  server.kill("SIGKILL");
  await new Promise((r) => server.once("exit", r));
  report("write load with SIGKILL at 5 s", await load);
  server = await startServer();
  const token = await signIn(second.email);
  let lost = 0;
  for (const id of beforeKill) {
    const res = await fetch(`${URL_BASE}/api/v1/underground_emission_ch4/${id}/single_calc/1/`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) lost += 1;
  }
  say(`after SIGKILL and restart: ${beforeKill.length} acknowledged writes, ${lost} lost`);
  if (lost > 0 || beforeKill.length === 0) failed = true;
  // Writes answered just before the kill may not have reached the statistics then; the restart
  // rebuilds the snapshot, which must count what the table holds. Counted on the table itself
  // (through the server's engine): dynalite writes an item's index entries before the item, so a
  // kill between the two leaves an index entry that the lists' counts would include.
  const restarted = await json<{ company: { id: string } }>("/api/v1/users/get_me/", { token });
  const storage = await openSharedStorage(dataDir);
  const held = (await storage.repos.calculations.listActiveByCompany(restarted.company.id)).length;
  await storage.close();
  const after = await json<{ calculations: Record<string, number> }>("/api/v1/users/statistics/", { token });
  say(`statistics after the restart: ${after.calculations.underground_emission_ch4} counted, ${held} stored`);
  if (after.calculations.underground_emission_ch4 !== held) failed = true;
} finally {
  server.kill("SIGINT");
  await new Promise((r) => server.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
say(failed ? "LOAD CHECK FAILED" : "load check passed: 0 errors, no acknowledged write lost");
if (process.argv.includes("--write-docs")) {
  if (failed) console.log("docs/performance.md not written: the check failed");
  else writeGeneratedBlock("load", printed);
}
process.exitCode = failed ? 1 : 0;
