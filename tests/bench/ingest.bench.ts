// `npm run bench -- ingest`: a mine's year of one-minute readings of 20 sensors (20 × 525 600 =
// 10 512 000 values) through the file path — the dispatch system's export (CSV, «;», «ДД.ММ.ГГГГ
// ЧЧ:ММ:СС» on the company's clock, a column per sensor: about 64 MB) sent by the direct upload
// (POST v1/telemetry/upload-url/, the PUT, POST v1/telemetry/files/) — against the local server as
// `npm start` runs it (its own process, a new data folder), while another company's user asks GET
// v1/users/get_me/ five times a second. Prints the readings per second, the consumer's lag (from the
// 202 to the batch done), the server's resident memory by stage (sampled every second from
// /proc/<pid>/status: before, after the upload, the highest while the consumer runs, after) and its
// peak (VmHWM) with its RssAnon and RssFile, and get_me's p50 and p95 meanwhile. INGEST_DAYS sets the
// days (365 unless set); INGEST_PATH=push pushes the same readings as a gateway would instead, 10 000
// a request, two pushers. It also prints the server's CPU from the upload to the batch done (all its threads
// and each apart, /proc), which the machine's load moves far less than the time applied.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { neighbourUser } from "../support/admin-command";
import { accessToken, signInAsDemo } from "../support/server";
import { byKind, processCpuMs, threadCpuMs } from "../support/server-cpu";
import { rssKinds, rssMb, rssParts, startServerProcess } from "../support/server-process";

const SENSORS = 20;
const PER_BATCH = 10_000;
const MINUTES_PER_BATCH = PER_BATCH / SENSORS;
const DAYS = Number(process.env.INGEST_DAYS ?? 365);
const MINUTES = DAYS * 1440;
// Last year's: readings more than 24 months old are refused (LIMITS.monitoring.pastMonths).
const START = Date.UTC(new Date().getUTCFullYear() - 1, 0, 1);

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const send = () =>
    fetch(`${url}/api${path}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let res: Response;
  try {
    res = await send();
  } catch (error) {
    // A kept-alive connection the server closed as it was reused (undici: «other side closed»): a
    // read is asked again on a new one.
    if (method !== "GET") throw error;
    res = await send();
  }
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The server's peak resident set so far, MB (Linux). */
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
/** The year as the dispatch system exports it: «Время;S-0;…;S-19», a line a minute on Kemerovo's clock
 *  (UTC+7, the demo company's), values with a decimal comma. ASCII, so its bytes are the same in
 *  Windows-1251. */
function dispatchFile(): Buffer {
  const p = (n: number) => String(n).padStart(2, "0");
  const lines = [`Время;${Array.from({ length: SENSORS }, (_, s) => `S-${s}`).join(";")}`];
  for (let m = 0; m < MINUTES; m++) {
    const local = new Date(START + m * 60_000 + 7 * 3_600_000);
    const time = `${p(local.getUTCDate())}.${p(local.getUTCMonth() + 1)}.${local.getUTCFullYear()} ${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:00`;
    const values = Array.from({ length: SENSORS }, (_, s) => (0.3 + ((m * 7 + s * 13) % 50) / 100).toFixed(3).replace(".", ","));
    lines.push(`${time};${values.join(";")}`);
  }
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1");
}

function batchBody(index: number): string {
  const parts: string[] = [];
  for (let m = index * MINUTES_PER_BATCH; m < Math.min(MINUTES, (index + 1) * MINUTES_PER_BATCH); m++) {
    const t = new Date(START + m * 60_000).toISOString();
    for (let s = 0; s < SENSORS; s++)
      parts.push(`{"sensor":"S-${s}","t":"${t}","value":${(0.3 + ((m * 7 + s * 13) % 50) / 100).toFixed(3)}}`);
  }
  return `{"readings":[${parts.join(",")}]}`;
}

/** The year pushed as a gateway would, 10 000 readings a request, two pushers: the batches answered. */
async function pushAll(url: string, key: string): Promise<string[]> {
  const batches = Math.ceil(MINUTES / MINUTES_PER_BATCH);
  const ids: string[] = [];
  let next = 0;
  const pusher = async () => {
    while (next < batches) {
      const index = next++;
      const res = await fetch(`${url}/api/v1/telemetry/readings/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Gateway ${key}` },
        body: batchBody(index),
      });
      if (res.status !== 202) throw new Error(`push ${index}: ${res.status} ${await res.text()}`);
      ids[index] = String(((await res.json()) as { batch: string }).batch);
    }
  };
  await Promise.all([pusher(), pusher()]);
  return ids;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "ingest-bench-"));
  // INGEST_TRACE_GC=1: the server's V8 heaps as its garbage collector reports them (--trace-gc).
  const traceGc = process.env.INGEST_TRACE_GC === "1";
  const server = await startServerProcess(dataDir, traceGc ? ["--trace-gc"] : []);
  // Per isolate (the main thread, the engine's and the stream's threads, the workers'): the largest heap
  // committed and the largest live after a collection, from --trace-gc's lines «[pid:isolate] … a (b) -> c (d) MB».
  const heaps = new Map<string, { committed: number; live: number }>();
  if (traceGc) {
    let rest = "";
    server.child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^\[\d+:(0x[0-9a-f]+)\].*-> ([\d.]+) \(([\d.]+)\) MB/.exec(line);
        if (!m) continue;
        const heap = heaps.get(m[1]) ?? { committed: 0, live: 0 };
        heaps.set(m[1], { committed: Math.max(heap.committed, Number(m[3])), live: Math.max(heap.live, Number(m[2])) });
      }
    });
  }
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
    const other = await neighbourUser(dataDir, "other@ingest.example");
    const otherToken = await accessToken(server.url, other);
    const latencies: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const started = performance.now();
        await call(server.url, otherToken, "GET", "/v1/users/get_me/");
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const pid = server.child.pid!;
    const stages: [string, number][] = [["started, signed in", rssMb(pid)]];
    let highest = 0;
    let partsAtHighest: Record<string, number> = {};
    // RssAnon and RssFile when the whole was highest, and the highest RssAnon (the kernel keeps no peak
    // of either: sampled with the whole).
    let kindsAtHighest = rssKinds(pid);
    let highestAnon = kindsAtHighest.anon;
    let sampled = 0;
    const sampler = setInterval(() => {
      const rss = rssMb(pid);
      const kinds = rssKinds(pid);
      // The composition every fifth second (reading smaps costs a few ms), kept at the highest.
      if (sampled++ % 5 === 0 && rss >= highest) partsAtHighest = rssParts(pid);
      if (rss >= highest) kindsAtHighest = kinds;
      highest = Math.max(highest, rss);
      highestAnon = Math.max(highestAnon, kinds.anon);
    }, 1000);
    const done = async (id: string) => (await call(server.url, token, "GET", `/v1/telemetry/batches/${id}/`)).state === "done";
    const readings = MINUTES * SENSORS;
    const [cpuBefore, threadsBefore] = [processCpuMs(pid), threadCpuMs(pid)];
    const started = performance.now();
    let answered: number;
    let last: string;
    let what: string;
    if (process.env.INGEST_PATH === "push") {
      const ids = await pushAll(server.url, key);
      answered = performance.now();
      last = ids[ids.length - 1];
      what = `${ids.length} pushes of ${PER_BATCH}`;
    } else {
      const file = dispatchFile();
      what = `one file of ${(file.byteLength / 1048576).toFixed(1)} MB`;
      const grant = await call(server.url, token, "POST", "/v1/telemetry/upload-url/", {
        facility: facility.id,
        content_type: "text/csv",
        size: file.byteLength,
        name: "АГК год.csv",
      });
      const put = await fetch(`${server.url}${grant.url as string}`, {
        method: "PUT",
        headers: { ...(grant.headers as Record<string, string>), "Content-Length": String(file.byteLength) },
        body: file,
      });
      if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
      stages.push(["file uploaded", rssMb(pid)]);
      last = String(
        (await call(server.url, token, "POST", "/v1/telemetry/files/", { facility: facility.id, file_upload: grant.file_upload })).batch,
      );
      answered = performance.now();
    }
    while (!(await done(last))) await new Promise((r) => setTimeout(r, 250));
    const applied = performance.now();
    const cpu = processCpuMs(pid) - cpuBefore;
    const threads = new Map([...threadCpuMs(pid)].map(([thread, ms]) => [thread, ms - (threadsBefore.get(thread) ?? 0)]));
    clearInterval(sampler);
    stages.push(["highest while it came in and the consumer ran", Math.max(highest, rssMb(pid))], ["batch done", rssMb(pid)]);
    reading = false;
    await reader;
    const status = await call(server.url, token, "GET", `/v1/telemetry/batches/${last}/`);
    if (process.env.INGEST_PATH !== "push" && (status.accepted !== readings || (status.refused as unknown[]).length > 0)) {
      throw new Error(`the file's batch: ${JSON.stringify({ ...status, refused: (status.refused as unknown[]).slice(0, 3) })}`);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`${DAYS} days × ${SENSORS} sensors = ${readings.toLocaleString("en")} readings in ${what}`);
    console.log(
      `answered 202 in ${((answered - started) / 1000).toFixed(1)} s; applied in ${((applied - started) / 1000).toFixed(1)} s: ${Math.round(readings / ((applied - started) / 1000)).toLocaleString("en")} readings/s; consumer lag after the 202: ${((applied - answered) / 1000).toFixed(1)} s`,
    );
    // CPU per 10 000 readings: what the machine's load moves far less than the time applied.
    console.log(
      `server's CPU from the upload to the batch done: ${(cpu / 1000).toFixed(1)} s, ${((cpu * 10_000) / readings).toFixed(1)} ms per 10 000 readings; by thread, per 10 000: ${byKind(threads, readings / 10_000)}`,
    );
    console.log(`server resident memory: ${stages.map(([stage, mb]) => `${stage} ${mb.toFixed(0)} MB`).join("; ")}`);
    console.log(`server peak resident memory (VmHWM): ${peakMb(pid).toFixed(0)} MB`);
    console.log(
      `of which, when highest: RssAnon ${kindsAtHighest.anon.toFixed(0)} MB (its own heaps and stacks), RssFile ${kindsAtHighest.file.toFixed(0)} MB (mapped files: LevelDB's tables, the binary; clean, taken back under pressure); RssAnon at most ${highestAnon.toFixed(0)} MB`,
    );
    console.log(
      `made of, when highest: ${Object.entries(partsAtHighest)
        .map(([part, mb]) => `${part} ${mb.toFixed(0)} MB`)
        .join(", ")}`,
    );
    if (traceGc) {
      const largest = [...heaps.values()].sort((x, y) => y.committed - x.committed).slice(0, 6);
      console.log(
        `the server's V8 heaps (--trace-gc), largest committed / largest live after a collection, by isolate: ${largest.map((h) => `${h.committed.toFixed(0)} / ${h.live.toFixed(0)} MB`).join("; ")}`,
      );
    }
    console.log(
      `get_me meanwhile (${sorted.length} requests): p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms`,
    );
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
