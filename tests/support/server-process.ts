// The local server as its own process (`node --max-semi-space-size=16 --import tsx functions/src/local.ts`,
// as package.json's `serve` starts it: SERVER_NODE_FLAGS), for what only a
// process shows: SIGKILL mid-write (crash-writes, readings-crash) and the ingest bench's memory.
// Signed in as the demo user; resolves once the server prints its URL.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SERVER_NODE_FLAGS } from "@server/local/heap-limits";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The demo login every such process is started with (the same as ./server.ts's DEMO). */
const DEMO_LOGIN = { email: "demo@example.com", password: "demo-password" };

/** `nodeArgs`: flags for the server's Node (the ingest bench's --trace-gc, which NODE_OPTIONS refuses);
 *  `env`: settings of its own (the create bench's users' pace lifted). */
export function startServerProcess(
  dataDir: string,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, "--import", "tsx", "functions/src/local.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      LOCAL_DEMO_EMAIL: DEMO_LOGIN.email,
      LOCAL_DEMO_PASSWORD: DEMO_LOGIN.password,
      // The demo mine's minute feed (local/demo-feed.ts) off: what these processes measure (memory,
      // a kill mid-write, a bench's lag) is the load they offer, not a simulator's beside it.
      DEMO_READINGS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((done, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const url = /URL:\s+(http:\S+)/.exec(output)?.[1];
      if (url) done({ child, url });
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code, signal) => fail(new Error(`server ended (${code ?? signal}) before it listened:\n${output}`)));
  });
}

/** A process's resident set now, MB (Linux, /proc/<pid>/status). */
export const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** A process's resident set now by kind, MB (/proc/<pid>/status): `anon` (RssAnon: its heaps, V8's and
 *  malloc's, and stacks) and `file` (RssFile: pages of files it maps, LevelDB's tables among them, clean
 *  page cache the kernel takes back under pressure; the binary's and libraries' too). */
export function rssKinds(pid: number): { anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { anon: kb("RssAnon"), file: kb("RssFile") };
}

/** What a process's resident set is made of (/proc/<pid>/smaps), MB: anonymous mappings of at most
 *  2 MB (V8's heap pages, of every isolate), larger anonymous ones and the brk heap (glibc's malloc
 *  arenas: the engine's store's and Node's native memory), the store's files mapped (SQLite's WAL
 *  index, `-shm`; LevelDB's tables, `.ldb`, before an earlier release), and the rest (the binary, its
 *  libraries, stacks). */
export function rssParts(pid: number): Record<string, number> {
  const parts: Record<string, number> = { "V8 pages": 0, "malloc arenas": 0, "store files": 0, other: 0 };
  let kind = "other";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16);
      const name = head[3].trim();
      // The main arena grows by brk ([heap]); the others are anonymous mappings of 64 MB.
      kind =
        name === ""
          ? size <= 2 * 1048576
            ? "V8 pages"
            : "malloc arenas"
          : name === "[heap]"
            ? "malloc arenas"
            : /\.(ldb|db-shm)$/.test(name)
              ? "store files"
              : "other";
    } else if (line.startsWith("Rss:")) parts[kind] += Number(line.split(/\s+/)[1]) / 1024;
  }
  return parts;
}

/** `rssParts` as a line: «V8 pages 307 MB, malloc arenas 86 MB, …». */
export const rssPartsLine = (pid: number): string =>
  Object.entries(rssParts(pid))
    .map(([part, mb]) => `${part} ${mb.toFixed(0)} MB`)
    .join(", ");
