// The local server as its own process (`node --import tsx functions/src/local.ts`), for what only a
// process shows: SIGKILL mid-write (crash-writes, telemetry-crash) and the ingest bench's memory.
// Signed in as the demo user; resolves once the server prints its URL.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The demo login every such process is started with (the same as ./server.ts's DEMO). */
const DEMO_LOGIN = { email: "demo@example.com", password: "demo-password" };

/** `nodeArgs`: flags for the server's Node (the ingest bench's --trace-gc, which NODE_OPTIONS refuses). */
export function startServerProcess(dataDir: string, nodeArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "functions/src/local.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      LOCAL_DEMO_EMAIL: DEMO_LOGIN.email,
      LOCAL_DEMO_PASSWORD: DEMO_LOGIN.password,
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
