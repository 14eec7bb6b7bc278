// `npx tsx tests/load/footprint.ts`: the memory and disk a mine-sized company needs of the local
// server, as docs/operations.md states them («Sizing»). The product as the systemd unit runs it (a
// child process, web/dist built, on a new data folder with the demo company and its year), idle; then
// FOOTPRINT_CALCULATIONS (default 10 000: five years of a mine's monthly measured and estimated
// sources, 2 000 a year) created over the API by 4 writers into five yearly projects; then the year's
// passport rendered (the spreadsheet thread) and a backup taken (the admin command beside the
// server). It prints the server's resident memory (VmRSS, and VmHWM, its peak; its own memory and
// the mapped files') after each step, the data folder's size and the backup's size and time. Run on
// a quiet machine: the figures are the process's own, but the times are the machine's.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { LOAD_CREATE_PATH, loadCreateBody } from "../support/load-create";
import { SERVER_NODE_FLAGS } from "@server/local/heap-limits";

const CALCULATIONS = Number(process.env.FOOTPRINT_CALCULATIONS ?? 10_000);
const WRITERS = 4;
const root = mkdtempSync(join(tmpdir(), "fugitive-footprint-"));
const dataDir = join(root, "data");
const run = promisify(execFile);

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "--import", "tsx", "functions/src/local.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", REQUEST_LOG: "off", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  return new Promise((done, fail) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const url = /URL:\s+(http\S+)/.exec(output)?.[1];
      if (url) done({ child, url });
    });
    child.once("exit", (code) => fail(new Error(`server ended (${code}):\n${output}`)));
  });
}

/** VmRSS and VmHWM of a process, MB. */
function memory(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024);
  // RssFile: pages of files the process maps (LevelDB's tables among them), which the kernel takes
  // back under pressure; RssAnon: its own heap and stacks.
  return `resident ${mb("VmRSS")} MB (peak ${mb("VmHWM")} MB; ${mb("RssAnon")} MB own, ${mb("RssFile")} MB mapped files)`;
}

async function du(path: string): Promise<string> {
  return (await run("du", ["-sh", path])).stdout.split("\t")[0]!;
}

async function call(url: string, token: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

const settle = () => new Promise((r) => setTimeout(r, 5_000));
const { child, url } = await startServer();
const pid = child.pid!;
try {
  await settle();
  console.log(`started, idle: ${memory(pid)}; data folder ${await du(dataDir)}`);
  const signIn = await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "demo@example.com", password: "demo-password", guardant_code: "" }),
  });
  const { access } = (await signIn.json()) as { access: string };
  const projects: string[] = [];
  for (const year of [2021, 2022, 2023, 2024, 2025]) {
    const created = await call(url, access, "/v1/projects/create_project/", {
      name: `Шахта ${year}`,
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
    });
    projects.push(((await created.json()) as { id: string }).id);
  }
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < CALCULATIONS) {
        const n = next++;
        await call(url, access, LOAD_CREATE_PATH.replace(/^\/api/, ""), loadCreateBody(projects[n % projects.length]!));
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  await settle();
  console.log(`${CALCULATIONS} calculations created in ${seconds.toFixed(0)} s: ${memory(pid)}; data folder ${await du(dataDir)}`);
  const passport = await call(url, access, "/v1/inventory/2025/report/?format=xlsx");
  await passport.arrayBuffer();
  console.log(`the year's passport rendered: ${memory(pid)}`);
  const backup = join(root, "backup.tar.gz");
  const started = performance.now();
  await run(process.execPath, ["--import", "tsx", "functions/src/admin/cli.ts", "backup", "--to", backup], {
    env: { ...process.env, DATA_DIR: dataDir },
  });
  console.log(
    `backup: ${(statSync(backup).size / 1024 / 1024).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s (the command's start included): server ${memory(pid)}`,
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  rmSync(root, { recursive: true, force: true });
}
