// The machine and the commit a bench's figures were measured on, as the benches print them and the
// generated blocks of docs/performance.md state them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

/** The commit a run was made on: its short hash, «+ changes» when the work tree differs from it. */
export function commitOfRun(): string {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/performance.md") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " + changes" : ""}`;
  } catch {
    return "unknown (no git)";
  }
}

/** The host's processor as the kernel names it (/proc/cpuinfo's model name; os.cpus() elsewhere). */
export function cpuModel(): string {
  try {
    const named = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1];
    if (named) return named.trim();
  } catch {}
  return cpus()[0]?.model.trim() || "unknown";
}

/** The machine a run was made on, as the generated blocks and the benches' first lines state it: the
 *  day, the commit, the processor and its cores, the load average (a reader tells a host, or a busy
 *  hour, from a regression by these). */
export function machineLine(when = new Date()): string {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  return `Measured ${when.toISOString().slice(0, 10)} on commit ${commitOfRun()}, node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} cores of ${cpuModel()}, load average ${load} (1 / 5 / 15 min).`;
}
