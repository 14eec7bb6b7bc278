// `npm run bench -- ingest`: a mine's year of one-minute readings of 20 sensors (20 × 525 600 =
// 10 512 000 values) pushed through POST v1/telemetry/readings/ with a gateway key, 10 000 readings a
// request, two pushers, against the local server as `npm start` runs it (its own process, a new data
// folder), while another company's user asks GET v1/users/get_me/ five times a second. Prints the
// readings per second pushed and applied, the consumer's lag (from the last 202 to the last batch
// applied), the server's peak resident memory (VmHWM) and get_me's p50 and p95 meanwhile.
// INGEST_DAYS sets the days pushed (365 unless set): the year at a few minutes of a busy machine's
// two cores. (The dispatch export's file path — one file through the direct upload — is not built:
// this pushes the same readings as a gateway would.)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAdmin } from "../support/admin-command";
import { accessToken, signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";

const SENSORS = 20;
const PER_BATCH = 10_000;
const MINUTES_PER_BATCH = PER_BATCH / SENSORS;
const DAYS = Number(process.env.INGEST_DAYS ?? 365);
const MINUTES = DAYS * 1440;
const START = Date.UTC(2025, 0, 1);

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The server's peak resident set so far, MB (Linux). */
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

function batchBody(index: number): string {
  const parts: string[] = [];
  for (let m = index * MINUTES_PER_BATCH; m < Math.min(MINUTES, (index + 1) * MINUTES_PER_BATCH); m++) {
    const t = new Date(START + m * 60_000).toISOString();
    for (let s = 0; s < SENSORS; s++)
      parts.push(`{"sensor":"S-${s}","t":"${t}","value":${(0.3 + ((m * 7 + s * 13) % 50) / 100).toFixed(3)}}`);
  }
  return `{"readings":[${parts.join(",")}]}`;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "ingest-bench-"));
  const server = await startServerProcess(dataDir);
  try {
    const token = String((await signInAsDemo(server.url)).access);
    const facility = await call(server.url, token, "POST", "/v1/facilities/", { name: "Шахта «Стенд»", kind: "underground_mine" });
    const point = await call(server.url, token, "POST", `/v1/facilities/${facility.id}/points/`, {
      name: "Ствол",
      kind: "ventilation_shaft",
    });
    for (let s = 0; s < SENSORS; s++) {
      await call(server.url, token, "POST", `/v1/facilities/${facility.id}/sensors/`, { code: `S-${s}`, kind: "methane", point: point.id });
    }
    const key = String((await call(server.url, token, "POST", `/v1/facilities/${facility.id}/gateway-keys/`, { label: "Стенд" })).key);
    // Another company's user, made by the administration command on the running server's folder.
    const other = { email: "other@ingest.example", password: "other-password-1" };
    const made = await runAdmin(dataDir, [
      "create-user",
      "--company",
      "ООО «Соседи»",
      "--new-company",
      "--email",
      other.email,
      "--password",
      other.password,
    ]);
    if (made.status !== 0) throw new Error(`create-user: ${made.stderr}`);
    const otherToken = await accessToken(server.url, other);
    const batches = Math.ceil(MINUTES / MINUTES_PER_BATCH);
    const latencies: number[] = [];
    let pushing = true;
    const reader = (async () => {
      while (pushing) {
        const started = performance.now();
        await call(server.url, otherToken, "GET", "/v1/users/get_me/");
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const ids: string[] = [];
    let next = 0;
    const started = performance.now();
    const pusher = async () => {
      while (next < batches) {
        const index = next++;
        const res = await fetch(`${server.url}/api/v1/telemetry/readings/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Gateway ${key}` },
          body: batchBody(index),
        });
        if (res.status !== 202) throw new Error(`push ${index}: ${res.status} ${await res.text()}`);
        ids[index] = String(((await res.json()) as { batch: string }).batch);
      }
    };
    await Promise.all([pusher(), pusher()]);
    const pushed = performance.now();
    const done = async (id: string) => (await call(server.url, token, "GET", `/v1/telemetry/batches/${id}/`)).state === "done";
    // The queue is applied oldest first: the last batch answered is the last applied.
    while (!(await done(ids[ids.length - 1]))) await new Promise((r) => setTimeout(r, 250));
    const applied = performance.now();
    pushing = false;
    await reader;
    const undone = [];
    for (const id of ids) if (!(await done(id))) undone.push(id);
    if (undone.length > 0) throw new Error(`${undone.length} batches not applied`);
    const readings = MINUTES * SENSORS;
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`${DAYS} days × ${SENSORS} sensors = ${readings.toLocaleString("en")} readings in ${batches} pushes of ${PER_BATCH}`);
    console.log(
      `pushed (202) in ${((pushed - started) / 1000).toFixed(1)} s: ${Math.round(readings / ((pushed - started) / 1000)).toLocaleString("en")} readings/s`,
    );
    console.log(
      `applied in ${((applied - started) / 1000).toFixed(1)} s: ${Math.round(readings / ((applied - started) / 1000)).toLocaleString("en")} readings/s; consumer lag after the last 202: ${((applied - pushed) / 1000).toFixed(1)} s`,
    );
    console.log(`server peak resident memory: ${peakMb(server.child.pid!).toFixed(0)} MB`);
    console.log(
      `get_me meanwhile (${sorted.length} requests): p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms`,
    );
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
