// a stop's deadline holds while the request thread is busy: a process whose only thread
// spins after arming its watchdog is ended by it, the watchdog's message on stderr.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const WATCHDOG = fileURLToPath(new URL("./stop-watchdog.ts", import.meta.url));

describe("the stop's watchdog", () => {
  it("ends a process whose thread never yields, past the deadline it was armed with", async () => {
    const script = `
      import { startStopWatchdog } from ${JSON.stringify(WATCHDOG)};
      const watchdog = startStopWatchdog();
      // The watchdog's thread keeps nothing alive (a server's socket does): a timer waits for it here.
      const waiting = setInterval(() => {}, 1000);
      await watchdog.ready;
      clearInterval(waiting);
      watchdog.arm(300, "Остановка не завершилась: процесс завершен");
      const armed = performance.now();
      while (performance.now() - armed < 20_000) {}
      process.exit(3);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const started = performance.now();
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    expect(ended).toEqual({ code: null, signal: "SIGKILL" });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(stderr).toContain("Остановка не завершилась: процесс завершен");
  }, 60_000);
});
