// A server process's CPU from /proc, all its threads and each apart: what the benches that run the local
// server as its own process (create, monitoring) divide by the work they sent it, a figure the machine's
// load moves far less than a latency.
import { readFileSync, readdirSync } from "node:fs";

/** A process's CPU time so far, all its threads, ms (/proc/<pid>/stat: utime + stime in clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Each thread's CPU time so far, ms, by «name (tid)»: the request thread is the one whose tid is the pid. */
export function threadCpuMs(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = tid === String(pid) ? "request thread" : `${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))} ${tid}`;
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      threads.set(name, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return threads;
}

/** Threads' CPU per unit of work (`count` of them: creates, batches) by kind: the request thread, each worker thread of the server's own (named by
 *  Linux «WorkerThread»: dynalite's engine, the table stream's handler, …) by its share, V8's helper
 *  threads (its GC and compiler) and libuv's pool each summed. */
export function byKind(threads: Map<string, number>, count: number): string {
  const kinds = new Map<string, number>();
  for (const [thread, cpu] of threads) {
    const kind = thread.startsWith("V8Worker")
      ? "V8's helper threads"
      : thread.startsWith("libuv-worker")
        ? "libuv's pool"
        : thread === "request thread" || thread.startsWith("WorkerThread")
          ? thread.replace("WorkerThread", "worker thread")
          : "other threads";
    kinds.set(kind, (kinds.get(kind) ?? 0) + cpu);
  }
  return [...kinds]
    .filter(([, cpu]) => cpu / count >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, cpu]) => `${kind} ${ms(cpu / count)} ms`)
    .join(", ");
}

const ms = (n: number) => n.toFixed(1);
