// `npm run load`: against the product as `npm start` runs it (a child process on loopback with its
// own data folder), each phase in empty companies of its own (the demo company's year counts
// calculations of its own), its load offered as a company's staff would: many users of several
// companies, each user from a connection of their own at a pace under the server's per-user pace
// (USER_REQUEST_BURST / USER_REQUESTS_PER_SECOND: one user offering 150/s was served 30/s),
// the pace per user printed beside the figures. First calculation creates at CREATE_RATE (default
// 150) per second from CREATE_USERS (default 8) users of 4 companies, side by side with a bare route of the same server (the web app's index, served from
// memory), so the creates' latency reads against what the machine gives any request then; then
// mixed reads and writes; then a SIGKILL in the middle of a write load and a restart. It prints the
// DynamoDB calls of one create (counted on the same app, tests/support/counted-api.ts) and the
// machine's line (day, commit, processor, load average) and its load average before and after the creates. When the creates are not
// served at the rate offered at p50 ≤ 25 ms, it finds and prints the knee: the highest rate this host serves so, by steps of
// KNEE_SECONDS (10) from the same writers. It checks that nothing failed, that every create offered was answered,
// that the stored items equal the writes acknowledged (and the statistics snapshot kept by the
// stream handler counts them all), and that no acknowledged write is lost by the kill. Bounded:
// LOAD_SECONDS (default 60) at LOAD_RATE (default 300) requests per second, the creates for
// CREATE_SECONDS (default 20), then a 10-second kill phase. `npm run load -- --write-docs` writes
// what it printed into docs/performance.md (tests/support/generated-doc.ts) when the check passed.
// Its latencies are each answer's time from when its request was due, the requests offered at a
// steady pace per user (arrivals.ts says why not autocannon's rate).
import { offerArrivals, type Planned } from "./arrivals";
import { teams, type Session } from "./team";
import { openSharedStorage } from "@server/local/storage";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { writeGeneratedBlock } from "../support/generated-doc";
import { machineLine } from "../support/machine";
import { USER_REQUEST_BURST, USER_REQUESTS_PER_SECOND } from "@server/config";
import { SERVER_NODE_FLAGS } from "@server/local/heap-limits";
import { LOAD_CREATE_PATH, createCallsLine, loadCreateBody, loadCreateCalls } from "../support/load-create";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** The server's pace per user (functions/src/config.ts), which the load stays under. */
const USER_PACE = { burst: USER_REQUEST_BURST, perSecond: USER_REQUESTS_PER_SECOND };
const RATE = Number(process.env.LOAD_RATE ?? 300);
const CREATE_RATE = Number(process.env.CREATE_RATE ?? 150);
const CREATE_SECONDS = Number(process.env.CREATE_SECONDS ?? 20);
const PORT = Number(process.env.LOAD_PORT ?? 3217);
const URL_BASE = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), "fugitive-load-"));

function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "--import", "tsx", "functions/src/local.ts"], {
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

const { json, signIn, team } = teams(URL_BASE, dataDir);

/** A create phase's p50 at or under which its rate counts as served, ms; the knee is the
 *  highest rate served so, found when CREATE_RATE is not, by steps of KNEE_SECONDS down to KNEE_LOWEST. */
const KNEE_P50_MS = 25;
const KNEE_SECONDS = Number(process.env.KNEE_SECONDS ?? 10);
const KNEE_LOWEST = 5;

/** How many companies a phase's users belong to. */
const COMPANIES = 4;
const CREATE_USERS = Number(process.env.CREATE_USERS ?? 8);
const LOAD_USERS = Number(process.env.LOAD_USERS ?? 16);

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

/** What one phase's connections answered. */
interface Offered {
  title: string;
  seconds: number;
  rates: number[];
  latencies: number[];
  ok: number;
  lastAnswer: number;
  errors: number;
  timeouts: number;
}

/** `rate` requests per second for `seconds` seconds from `connections` users, each at a whole share of
 *  the rate (150 from 8: 6 × 19 + 2 × 18) from a connection of their own, out of step with one another
 *  (arrivals.ts). Each answer's own time from when it was due and when it came are kept: a phase is
 *  served at the rate offered when its last answer comes within the seconds it was offered over. */
async function offer(
  title: string,
  rate: number,
  seconds: number,
  connections: number,
  requests: Planned[] | ((connection: number) => Planned[]),
): Promise<Offered> {
  const rates = Array.from({ length: connections }, (_, i) => Math.floor(rate / connections) + (i < rate % connections ? 1 : 0));
  const answered = await offerArrivals(URL_BASE, rates, seconds, (user) => (typeof requests === "function" ? requests(user) : requests));
  return { title, seconds, rates, ...answered };
}

/** The nearest-rank percentile of answer times, in whole ms. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN);
}

/** Requests answered per second of the phase: over the seconds offered, or until the last answer
 *  when it came later. */
const servedRate = (o: Offered) => o.latencies.length / Math.max(o.seconds, o.lastAnswer);
/** Served at the rate offered: the rate served, in whole requests per second as printed, is the rate
 *  offered (at 150/s over 20 s: the last answer within about 0,07 s of the 20 s). */
const servedInTime = (o: Offered, rate: number) => Math.round(servedRate(o)) >= rate;
const allAnswered = (o: Offered) => o.latencies.length === o.ok && o.errors + o.timeouts === 0;

/** The connections' rates as «2 × 38 + 2 × 37». */
const shares = (rates: number[]) => [...new Set(rates)].map((rate) => `${rates.filter((r) => r === rate).length} × ${rate}`).join(" + ");

function report(o: Offered, users?: { users: number; companies: number }) {
  const answered = o.latencies.length;
  const from = users
    ? `${users.users} users of ${users.companies} companies, a connection each (${shares(o.rates)} per second per user)`
    : o.rates.length === 1
      ? "1 connection"
      : `${o.rates.length} connections (${shares(o.rates)} per second)`;
  say(
    `${o.title}, ${from}: ` +
      `${answered} answered, the last ${o.lastAnswer.toFixed(2)} s after the start, served ${servedRate(o).toFixed(0)}/s, ` +
      `latency p50 ${percentile(o.latencies, 0.5)} ms p99 ${percentile(o.latencies, 0.99)} ms, ` +
      `2xx ${o.ok}, non-2xx ${answered - o.ok}, errors ${o.errors}, timeouts ${o.timeouts}`,
  );
}

/** A phase of creates kept the pace offered: every one answered, in time, at p50 ≤ KNEE_P50_MS. */
const keptPace = (o: Offered, rate: number) => allAnswered(o) && servedInTime(o, rate) && percentile(o.latencies, 0.5) <= KNEE_P50_MS;

/** Waits (up to two minutes) until the statistics count every create acknowledged so far (the stream
 *  handler has caught up), so that a knee step does not pay for the phase before it. */
async function settle(writers: readonly Session[], created: readonly string[]) {
  const firstOfCompany = [...new Map(writers.map((user) => [user.company, user])).values()];
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    let counted = 0;
    for (const user of firstOfCompany) {
      const stats = await json<{ calculations: Record<string, number> }>("/api/v1/users/statistics/", { token: user.token });
      counted += stats.calculations.underground_emission_ch4 ?? 0;
    }
    if (counted >= created.length) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The highest create rate this host serves at p50 ≤ KNEE_P50_MS, by steps of KNEE_SECONDS from
 *  the same writers: down by a quarter at a time from the rate offered until one is kept, then
 *  halving the gap to the last one not kept, twice. */
async function knee(writers: Session[], created: string[]) {
  const steps: string[] = [];
  const step = async (rate: number) => {
    const offered = await offer(`knee ${rate}/s`, rate, KNEE_SECONDS, writers.length, (i) =>
      calculationRequests(writers[i].token, writers[i].project, true, created),
    );
    const kept = keptPace(offered, rate);
    steps.push(`${rate}/s ${kept ? "kept" : "not kept"}, p50 ${percentile(offered.latencies, 0.5)} ms`);
    await settle(writers, created);
    return { rate, offered, kept };
  };
  let notKept = CREATE_RATE;
  let served: Awaited<ReturnType<typeof step>> | undefined;
  for (let rate = Math.floor(CREATE_RATE * 0.75); rate >= KNEE_LOWEST; rate = Math.floor(rate * 0.75)) {
    const tried = await step(rate);
    if (tried.kept) {
      served = tried;
      break;
    }
    notKept = rate;
  }
  for (let n = 0; served && n < 2 && notKept - served.rate > 2; n++) {
    const tried = await step(Math.round((served.rate + notKept) / 2));
    if (tried.kept) served = tried;
    else notKept = tried.rate;
  }
  return { served, steps: `steps of ${KNEE_SECONDS} s: ${steps.join("; ")}` };
}

function calculationRequests(token: string, project: string, writesOnly: boolean, acknowledged: string[]): Planned[] {
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  const write: Planned = {
    method: "POST",
    path: LOAD_CREATE_PATH,
    headers,
    body: createBody(project),
    onResponse: (status: number, body: string) => {
      if (status === 201) acknowledged.push((JSON.parse(body) as { id: string }).id);
    },
  };
  if (writesOnly) return [write];
  return [
    write,
    { method: "GET", path: `/api/v1/underground_emission_ch4/?project=${project}&limit=10&offset=0`, headers },
    { method: "GET", path: "/api/v1/dictionary/get_underground_emission_ch4/", headers },
    { method: "GET", path: `/api/v1/projects/${project}/`, headers },
  ];
}

console.log(machineLine());
say(createCallsLine(await loadCreateCalls()));
let server = await startServer();
let failed = false;
/** The creates' rate was not served at p50 ≤ KNEE_P50_MS on this host (the knee is printed instead). */
let outOfReach = false;
try {
  // Phase 0: creates from 4 writers at CREATE_RATE, and beside them a bare route of the same server.
  const writers = await team(CREATE_USERS, COMPANIES);
  const created: string[] = [];
  say(
    `server's pace per user: ${USER_PACE.burst} at once, then ${USER_PACE.perSecond}/s; the load offered as users of ${COMPANIES} companies, each under it`,
  );
  say(`load average before the creates: ${loadAverage()} (1 / 5 / 15 min)`);
  const [creates, bare] = await Promise.all([
    offer(`creates ${CREATE_SECONDS} s offered at ${CREATE_RATE}/s`, CREATE_RATE, CREATE_SECONDS, writers.length, (i) =>
      calculationRequests(writers[i].token, writers[i].project, true, created),
    ),
    offer("bare route (GET /, the same server) meanwhile at 20/s", 20, CREATE_SECONDS, 1, [{ path: "/" }]),
  ]);
  report(creates, { users: writers.length, companies: COMPANIES });
  report(bare);
  say(`load average after the creates: ${loadAverage()}; creates served ${created.length} of ${CREATE_SECONDS * CREATE_RATE}`);
  if (created.length !== CREATE_SECONDS * CREATE_RATE || !allAnswered(creates)) failed = true;
  if (!keptPace(creates, CREATE_RATE)) {
    // The rate offered is out of reach on this host: the highest rate it serves at p50 ≤ KNEE_P50_MS.
    await settle(writers, created);
    const found = await knee(writers, created);
    say(
      found.served
        ? `knee: ${found.served.rate}/s served at p50 ${percentile(found.served.offered.latencies, 0.5)} ms p99 ${percentile(found.served.offered.latencies, 0.99)} ms (${found.steps}); ${CREATE_RATE}/s is out of reach on this host`
        : `knee: below ${KNEE_LOWEST}/s (${found.steps}); ${CREATE_RATE}/s is out of reach on this host`,
    );
    outOfReach = true;
  }

  // Phase 1: mixed load. Every answer must be 2xx and every acknowledged write stored.
  const mixed = await team(LOAD_USERS, COMPANIES);
  const acknowledged: string[] = [];
  const result = await offer(`mixed load ${SECONDS} s at ${RATE} req/s`, RATE, SECONDS, mixed.length, (i) =>
    calculationRequests(mixed[i].token, mixed[i].project, false, acknowledged),
  );
  report(result, { users: mixed.length, companies: COMPANIES });
  // What the table holds, read through the server's engine; then the lists' counts, which the
  // stream handler keeps a moment behind the writes, must catch up with it.
  const shared = await openSharedStorage(dataDir);
  let stored = 0;
  for (const user of mixed) {
    stored += (await shared.repos.calculations.listAllByProject(user.company, user.project, "underground_emission_ch4", "active")).length;
  }
  await shared.close();
  say(`writes acknowledged ${acknowledged.length}, items stored ${stored}`);
  if (!allAnswered(result) || stored !== acknowledged.length) failed = true;
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
  // One user of each company reads its statistics; every user lists their own project.
  const firstOfCompany = [...new Map(mixed.map((user) => [user.company, user])).values()];
  while (Date.now() - moved < 30_000) {
    let nowCounted = 0;
    for (const user of firstOfCompany) {
      const stats = await json<{ calculations: Record<string, number> }>("/api/v1/users/statistics/", { token: user.token });
      nowCounted += stats.calculations.underground_emission_ch4 ?? 0;
    }
    let nowListed = 0;
    for (const user of mixed) {
      nowListed += (
        await json<{ count: number }>(`/api/v1/underground_emission_ch4/?project=${user.project}&limit=1`, { token: user.token })
      ).count;
    }
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
  const killed = await team(LOAD_USERS, COMPANIES);
  // Each user's acknowledged writes, read back after the restart by that user.
  const beforeKill: string[][] = killed.map(() => []);
  const load = offer("write load with SIGKILL at 5 s", RATE, 10, killed.length, (i) =>
    calculationRequests(killed[i].token, killed[i].project, true, beforeKill[i]),
  );
  await new Promise((r) => setTimeout(r, 5000));
  server.kill("SIGKILL");
  await new Promise((r) => server.once("exit", r));
  report(await load, { users: killed.length, companies: COMPANIES });
  server = await startServer();
  let lost = 0;
  for (const [i, user] of killed.entries()) {
    const token = await signIn(user.email);
    for (const id of beforeKill[i]) {
      const res = await fetch(`${URL_BASE}/api/v1/underground_emission_ch4/${id}/single_calc/1/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) lost += 1;
    }
  }
  const acknowledgedBeforeKill = beforeKill.reduce((sum, ids) => sum + ids.length, 0);
  say(`after SIGKILL and restart: ${acknowledgedBeforeKill} acknowledged writes, ${lost} lost`);
  if (lost > 0 || acknowledgedBeforeKill === 0) failed = true;
  // Writes answered just before the kill may not have reached the statistics then; the restart
  // rebuilds the snapshot, which must count what the table holds. Counted on the table itself
  // (through the server's engine): dynalite writes an item's index entries before the item, so a
  // kill between the two leaves an index entry that the lists' counts would include.
  const storage = await openSharedStorage(dataDir);
  let held = 0;
  for (const company of new Set(killed.map((user) => user.company)))
    held += (await storage.repos.calculations.listActiveByCompany(company)).length;
  await storage.close();
  let countedAfter = 0;
  for (const user of [...new Map(killed.map((u) => [u.company, u])).values()]) {
    const after = await json<{ calculations: Record<string, number> }>("/api/v1/users/statistics/", { token: await signIn(user.email) });
    countedAfter += after.calculations.underground_emission_ch4 ?? 0;
  }
  say(`statistics after the restart: ${countedAfter} counted, ${held} stored`);
  if (countedAfter !== held) failed = true;
} finally {
  server.kill("SIGINT");
  await new Promise((r) => server.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
say(
  failed
    ? "LOAD CHECK FAILED"
    : `load check passed: 0 errors, no acknowledged write lost${outOfReach ? `; the creates' ${CREATE_RATE}/s not served at p50 ≤ ${KNEE_P50_MS} ms here (the knee above)` : ""}`,
);
if (process.argv.includes("--write-docs")) {
  if (failed) console.log("docs/performance.md not written: the check failed");
  else writeGeneratedBlock("load", printed);
}
process.exitCode = failed ? 1 : 0;
