// `npm run bench -- create`: a calculation create against the bare route of the same server at the
// same concurrency: the product as `npm start` runs it (a child process, dynalite on disk), WRITERS
// (default 4) users of as many new companies, each sending one request at a time (a closed loop),
// the server's pace per user lifted so that it never waits on it. In ROUNDS (default 6) alternating
// phases of PER_ROUND (default 50) requests per user: the bare route (GET /, the web app's index from
// memory), then creates (the load's, tests/support/load-create.ts); each round's ratio of the two
// p50s is paired, so the machine's speed drifting between rounds cancels out of it. Prints each
// phase's p50 / p99, the ratio's median and range, and the CPU per create of the server (all its
// threads, /proc) and of this process (the generator) counted apart.
// CREATE_PROFILE=DIR starts the server with `--cpu-prof --cpu-prof-dir=DIR` (a .cpuprofile per
// thread, written when it stops); CREATE_NODE_FLAGS adds flags of the server's Node. `--write-docs` writes the printed lines into docs/performance.md.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedLoop, type ClosedLoop } from "../load/closed-loop";
import { teams } from "../load/team";
import { writeGeneratedBlock } from "../support/generated-doc";
import { LOAD_CREATE_PATH, loadCreateBody } from "../support/load-create";
import { machineLine } from "../support/machine";
import { createFloor, type Floor } from "./create-floor";
import { startServerProcess } from "../support/server-process";
import { byKind, processCpuMs, threadCpuMs } from "../support/server-cpu";

const WRITERS = Number(process.env.WRITERS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const PER_ROUND = Number(process.env.PER_ROUND ?? 50);
const WARM_UP = 20;

/** The nearest-rank percentile, ms. */
function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const ms = (n: number) => n.toFixed(1);

export async function run(): Promise<void> {
  const printed: string[] = [];
  const say = (line: string) => {
    printed.push(line);
    console.log(line);
  };
  console.log(machineLine());
  const dataDir = mkdtempSync(join(tmpdir(), "fugitive-create-bench-"));
  const profileDir = process.env.CREATE_PROFILE;
  const callsFile = join(dataDir, "engine-calls.json");
  const nodeArgs = [
    ...(process.env.CREATE_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
  ];
  const { child, url } = await startServerProcess(dataDir, nodeArgs, {
    USER_REQUEST_BURST: "1000000",
    USER_REQUESTS_PER_SECOND: "1000000",
    LOGIN_FAILURES_PER_ADDRESS: "100000",
    REQUEST_LOG: "errors",
    ENGINE_CALLS_FILE: callsFile,
  });
  const base = url.replace(/\/$/, "");
  let bareP50 = Number.NaN;
  try {
    const { team } = teams(base, dataDir);
    const writers = await team(WRITERS, WRITERS);
    const create = (user: number) => ({
      method: "POST",
      path: LOAD_CREATE_PATH,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${writers[user].token}` },
      body: JSON.stringify(loadCreateBody(writers[user].project)),
    });
    const bare = () => ({ path: "/" });
    const check = (phase: ClosedLoop, what: string) => {
      if (phase.refused > 0) throw new Error(`${what}: ${phase.refused} answers not 2xx, the first ${phase.firstRefusal}`);
    };
    check(await closedLoop(base, WRITERS, WARM_UP, bare), "bare route");
    check(await closedLoop(base, WRITERS, WARM_UP, create), "create");
    // The warm-up's records handled by the table stream and the engine's count written down.
    const engineCalls = async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return JSON.parse(readFileSync(callsFile, "utf8")) as Record<string, number>;
    };
    const callsBefore = await engineCalls();

    const bares: number[] = [];
    const creates: number[] = [];
    const ratios: number[] = [];
    let serverCpu = 0;
    let ownCpu = 0;
    let createSeconds = 0;
    const threadCpu = new Map<string, number>();
    const createPhases: [number, number][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await closedLoop(base, WRITERS, PER_ROUND, bare);
      check(b, "bare route");
      const [server, own, threads] = [processCpuMs(child.pid!), ownCpuMs(), threadCpuMs(child.pid!)];
      const from = process.hrtime.bigint();
      const c = await closedLoop(base, WRITERS, PER_ROUND, create);
      // The create phases on the monotonic clock the profiles' samples are timed on, µs.
      createPhases.push([Number(from / 1000n), Number(process.hrtime.bigint() / 1000n)]);
      serverCpu += processCpuMs(child.pid!) - server;
      for (const [thread, after] of threadCpuMs(child.pid!))
        threadCpu.set(thread, (threadCpu.get(thread) ?? 0) + after - (threads.get(thread) ?? 0));
      ownCpu += ownCpuMs() - own;
      createSeconds += c.seconds;
      check(c, "create");
      bares.push(...b.latencies);
      creates.push(...c.latencies);
      ratios.push(percentile(c.latencies, 0.5) / percentile(b.latencies, 0.5));
    }
    const count = creates.length;
    const callsAfter = await engineCalls();
    const sortedRatios = [...ratios].sort((a, b) => a - b);
    say(
      `${count} creates and ${bares.length} bare-route requests (GET /) at ${WRITERS} writers, one at a time each, in ${ROUNDS} alternating rounds of ${PER_ROUND} per writer (users' pace lifted)`,
    );
    say(
      `create p50 ${ms(percentile(creates, 0.5))} ms, p99 ${ms(percentile(creates, 0.99))} ms; served ${(count / createSeconds).toFixed(0)}/s`,
    );
    bareP50 = percentile(bares, 0.5);
    say(`bare route p50 ${ms(bareP50)} ms, p99 ${ms(percentile(bares, 0.99))} ms`);
    say(
      `create / bare route, p50 of each round paired: median ${percentile(ratios, 0.5).toFixed(2)}×, range ${sortedRatios[0].toFixed(2)}–${sortedRatios.at(-1)!.toFixed(2)}×`,
    );
    if (profileDir) writeFileSync(join(profileDir, "create-phases.json"), JSON.stringify(createPhases));
    say(`CPU per create: server ${ms(serverCpu / count)} ms (all its threads), generator ${ms(ownCpu / count)} ms (this process, apart)`);
    say(`server's CPU per create by thread: ${byKind(threadCpu, count)}`);
    const made = Object.entries(callsAfter)
      .map(([operation, n]) => [operation, (n - (callsBefore[operation] ?? 0)) / count] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1]);
    say(
      `DynamoDB calls per create, the request's and the table stream handler's: ${ms(made.reduce((sum, [, n]) => sum + n, 0))} (${made.map(([operation, n]) => `${operation} ${n.toFixed(2)}`).join(", ")})`,
    );
  } finally {
    child.kill("SIGINT");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (profileDir) console.log(`CPU profiles in ${profileDir}: ${readdirSync(profileDir).join(", ")}`);
  // The floor, with the server stopped: the storage's part of a create alone (create-floor.ts).
  const floorLine = (what: string, floor: Floor) =>
    `${what}: ${floor.shape}, p50 ${ms(floor.p50)} ms (${(floor.p50 / bareP50).toFixed(2)}× the bare route's), p99 ${ms(floor.p99)} ms, CPU ${ms(floor.cpuMs)} ms per create (client and engine threads)`;
  say(
    `floor, ${WRITERS} writers of one process sending a recorded create's DynamoDB calls alone to an engine thread on disk (no HTTP, domain or stream handler), ${PER_ROUND * ROUNDS} each:`,
  );
  say(floorLine("  the request path's calls", await createFloor(WRITERS, PER_ROUND * ROUNDS)));
  const readAndWrite = (command: string) => command === "BatchGetItemCommand" || command === "PutItemCommand";
  say(floorLine("  only its read and its write", await createFloor(WRITERS, PER_ROUND * ROUNDS, WARM_UP, readAndWrite)));
  if (process.argv.includes("--write-docs")) writeGeneratedBlock("create", printed);
}
