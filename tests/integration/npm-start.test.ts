// Stopping `npm start` the way a user or a process manager does: SIGINT or SIGTERM to the npm
// process. Every process it started ends, the server closes its store cleanly (SQLite's WAL
// checkpointed and removed; no LevelDB in the folder), and the data folder opens again with what was
// written; the folder it made is its owner's alone (0700, files 0600). `npm start` builds, then execs `npm run serve`; this spawns
// that second part (the build would rewrite web/dist under the other tests).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEMO, signInAsDemo } from "../support/server";
import { startLocalServer } from "@server/local/server";
import { SERVER_NODE_FLAGS } from "@server/local/heap-limits";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const SLOW = 120_000;

const pids = () =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
const readProc = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
};
const parentOf = (pid: number) =>
  Number(
    readProc(pid, "stat")
      ?.replace(/^.*\) /, "")
      .split(" ")[1] ?? 0,
  );
/** Running (not zombie) processes: a zombie has ended and only waits for its parent to read it. */
const running = (pid: number) => {
  const state = readProc(pid, "stat")?.replace(/^.*\) /, "")[0];
  return state !== undefined && state !== "Z";
};
const describeProcess = (pid: number) => `${pid}: ${readProc(pid, "cmdline")?.replace(/\0/g, " ").trim()}`;

/** The processes whose parent chain leads to root. */
function descendants(root: number): number[] {
  return pids().filter((pid) => {
    for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
      at = parentOf(at);
      if (at === root) return true;
    }
    return false;
  });
}

/** The processes that inherited this DATA_DIR: whatever npm started, even once reparented. */
const withDataDir = (dataDir: string) =>
  pids().filter((pid) => running(pid) && (readProc(pid, "environ") ?? "").split("\0").includes(`DATA_DIR=${dataDir}`));

function waitFor<T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) return done(value);
      if (Date.now() - started > timeoutMs) return fail(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 100);
    };
    tick();
  });
}

/** How the child ended, or "still running" after timeoutMs. */
const exited = (child: ChildProcess, timeoutMs: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null } | "still running">((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done({ code: child.exitCode, signal: child.signalCode });
    const timer = setTimeout(() => done("still running"), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal });
    });
  });

const signIn = async (url: string) => (await signInAsDemo(url)).access;

describe("npm start, stopped by a signal", () => {
  it("execs the server after the build, so that npm's signal reaches it", () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.start).toMatch(/^npm run build && exec npm run serve$/);
    expect(scripts.serve).toMatch(/^exec node /);
    // The request thread's heap limits, which only Node's command line gives: the same in `npm start`,
    // the systemd unit and the tests' and benches' servers (heap-limits.ts).
    const unit = readFileSync(join(repoRoot, "infra/onprem/fugitive-emissions.service"), "utf8");
    for (const flag of SERVER_NODE_FLAGS) {
      expect(scripts.serve).toContain(` ${flag} `);
      expect(unit).toMatch(new RegExp(`^ExecStart=\\S+/node .*${flag} `, "m"));
    }
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to npm stops every process it started and closes the data folder cleanly",
    async (signal) => {
      // A folder the start makes (its modes are the start's).
      const parent = mkdtempSync(join(tmpdir(), "fugitive-npm-start-"));
      const dataDir = join(parent, "data");
      const npm = spawn("npm", ["run", "serve"], {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: "0",
          HOST: "127.0.0.1",
          LOCAL_DEMO_EMAIL: DEMO.email,
          LOCAL_DEMO_PASSWORD: DEMO.password,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npm.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      npm.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      try {
        const url = await waitFor("the server's URL", () => /URL:\s+(http:\S+)/.exec(output)?.[1], 90_000);
        const token = await signIn(url);
        const created = await fetch(`${url}/api/v1/projects/create_project/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: `Остановлен ${signal}`, start_date: "2024-01-01", end_date: "2024-12-31" }),
        });
        expect(created.status).toBe(201);
        const project = (await created.json()) as { id: string };
        expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(true);
        // the folder holds password hashes and secrets: its owner's alone, as the systemd
        // unit's UMask=0077 makes it, whatever the shell's umask.
        const modes = Object.fromEntries(
          ["", ...(readdirSync(dataDir, { recursive: true }) as string[])].map((name) => {
            const stat = statSync(join(dataDir, name));
            return [name || ".", (stat.mode & 0o777).toString(8)];
          }),
        );
        expect(Object.keys(modes)).toEqual(
          expect.arrayContaining([".", "sqlite", "sqlite/items.db", "jwt-secret", "dynamodb-endpoint.json"]),
        );
        for (const [name, mode] of Object.entries(modes)) {
          expect(mode, name).toBe(statSync(join(dataDir, name)).isDirectory() ? "700" : "600");
        }

        const started = new Set([...descendants(npm.pid!), ...withDataDir(dataDir)]);
        expect([...started].map(describeProcess).join("\n")).toMatch(/node .*functions\/src\/local\.ts/);

        npm.kill(signal);
        const end = await exited(npm, 30_000);
        expect(end, output).toEqual({ code: 0, signal: null });
        expect(output).toContain("Остановка…");
        const left = await waitFor(
          "the processes to end",
          () => {
            const alive = [...started, ...withDataDir(dataDir)].filter(running);
            return alive.length === 0 ? [] : undefined;
          },
          10_000,
        ).catch(() => [...started, ...withDataDir(dataDir)].filter(running).map(describeProcess));
        expect(left).toEqual([]);
        // Removed only by a clean close of the storage.
        expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(false);
        // The store is SQLite's, closed: its WAL checkpointed into the database and removed by the
        // last connection's close. Nothing of LevelDB.
        expect(readdirSync(join(dataDir, "sqlite")).sort()).toEqual(["items.db", "lock.db"]);
        expect(existsSync(join(dataDir, "dynamodb"))).toBe(false);

        const again = await startLocalServer({ dataDir, port: 0, demo: DEMO });
        try {
          const res = await fetch(`${again.url}/api/v1/projects/${project.id}/`, {
            headers: { Authorization: `Bearer ${await signIn(again.url)}` },
          });
          expect(res.status).toBe(200);
          expect(await res.json()).toMatchObject({ name: `Остановлен ${signal}` });
        } finally {
          await again.close();
        }
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
        for (const pid of withDataDir(dataDir)) process.kill(pid, "SIGKILL");
        rmSync(parent, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
