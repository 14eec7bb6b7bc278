// `npm run bench -- monitoring`: a facility of 20 workings × 12 sensors (4 methane meters, an
// anemometer, a drainage line's flow, CH4 content and methane flow, 2 pressure and 2 temperature
// sensors), each working bound to the platform's 1-hour model, on the local server as `npm start` runs
// it (its own process, a new data folder). A page's stream (GET v1/telemetry/live/stream/) is connected
// while a gateway pushes one reading a minute per sensor, one push of 240 readings per minute:
//   - replayed at 100× (a minute every 0,6 s) over MONITORING_FAST_MINUTES of the last hours (30);
//   - at real time over MONITORING_REAL_MINUTES (5), each push at the wall clock's minute.
// For each push and working it measures the time from the push's 202 to the first streamed tiles in
// which the working shows that minute (its latest reading), and to the first in which its forecast is
// issued at it (the forecaster computes and stores it as the consumer applies the batch, and the watch
// pushes the tiles again once it is stored); prints p50 and p95 of both per phase, checks that no reading is lost at 100× (every
// batch done with all 240 accepted, every meter on the last minute), and another company's
// GET v1/users/get_me/ p50 and p95 meanwhile (five a second). Targets: p95 ≤ 5 s at real time, get_me
// p50 < 50 ms. It also prints the server's CPU per batch at 100× (all its threads and each apart, from
// /proc), which the machine's load moves far less than the latencies. docs/performance.md keeps a run;
// MONITORING_SERVER_LOG=1 prints the server's output and each streamed update as it comes;
// MONITORING_PROFILE=DIR starts the server with `--cpu-prof --cpu-prof-dir=DIR` (a profile per thread).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { neighbourUser } from "../support/admin-command";
import { accessToken, signInAsDemo } from "../support/server";
import { byKind, processCpuMs, threadCpuMs } from "../support/server-cpu";
import { startServerProcess } from "../support/server-process";
import { openLiveStream, percentile, tileLatencies } from "../support/live-stream";

const WORKINGS = 20;
const KINDS = [
  ["М1", "methane", { warning: 1, alarm: 1.5 }],
  ["М2", "methane", { warning: 1, alarm: 1.5 }],
  ["М3", "methane", { warning: 1, alarm: 1.5 }],
  ["М4", "methane", { warning: 1, alarm: 1.5 }],
  ["V", "air_velocity", { area_m2: 12 }],
  ["QД", "flow", {}],
  ["МД", "methane_high", {}],
  ["QМ", "methane_flow", {}],
  ["P1", "pressure", {}],
  ["P2", "pressure", {}],
  ["T1", "temperature", {}],
  ["T2", "temperature", {}],
] as const;
const MINUTE = 60_000;
const FAST_MINUTES = Number(process.env.MONITORING_FAST_MINUTES ?? 30);
const REAL_MINUTES = Number(process.env.MONITORING_REAL_MINUTES ?? 5);
const HISTORY_MINUTES = 90;

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One minute's readings of every sensor: a methane level that drifts with the working and the minute. */
function minuteReadings(t: number) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  const at = new Date(t).toISOString();
  const m = Math.floor(t / MINUTE);
  for (let w = 0; w < WORKINGS; w++) {
    for (const [code, kind] of KINDS) {
      const value =
        kind === "methane"
          ? 0.4 + 0.3 * Math.sin((m + w * 17) / 90) ** 2
          : kind === "air_velocity"
            ? 2 + 0.1 * Math.sin(m / 13)
            : kind === "flow"
              ? 60
              : kind === "methane_high"
                ? 35
                : kind === "methane_flow"
                  ? 21
                  : kind === "pressure"
                    ? 95
                    : 18;
      readings.push({ sensor: `${code}-${w + 1}`, t: at, value: Number(value.toFixed(4)) });
    }
  }
  return readings;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "monitoring-bench-"));
  const profileDir = process.env.MONITORING_PROFILE;
  const server = await startServerProcess(dataDir, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
  const pid = server.child.pid!;
  if (process.env.MONITORING_SERVER_LOG) {
    server.child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    server.child.stdout!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    server.child.on("exit", (code, signal) => console.error("server exit", code, signal));
    console.error("server", server.url);
  }
  const stop = new AbortController();
  try {
    // Access tokens expire within the run on a busy machine: the batch checks sign in again.
    let token = String((await signInAsDemo(server.url)).access);
    const facility = await call(server.url, token, "POST", "/v1/facilities/", { name: "Шахта «Мониторинг»", kind: "underground_mine" });
    const point = await call(server.url, token, "POST", `/v1/facilities/${facility.id}/points/`, {
      name: "Ствол",
      kind: "ventilation_shaft",
    });
    for (let w = 0; w < WORKINGS; w++) {
      for (const [code, kind, extra] of KINDS) {
        await call(server.url, token, "POST", `/v1/facilities/${facility.id}/sensors/`, {
          code: `${code}-${w + 1}`,
          kind,
          point: point.id,
          working: `Лава ${String(w + 1).padStart(2, "0")}`,
          ...extra,
        });
      }
      await call(server.url, token, "POST", "/v1/telemetry/live/models/", {
        facility: facility.id,
        working: `Лава ${String(w + 1).padStart(2, "0")}`,
        horizon: 60,
        model: "xgboost-h60",
      });
    }
    const key = String((await call(server.url, token, "POST", `/v1/facilities/${facility.id}/gateway-keys/`, { label: "Стенд" })).key);
    const other = await neighbourUser(dataDir, "other@monitoring.example");
    let otherToken = await accessToken(server.url, other);

    const push = async (readings: { sensor: string; t: string; value: number }[]) => {
      const res = await fetch(`${server.url}/api/v1/telemetry/readings/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Gateway ${key}` },
        body: JSON.stringify({ readings }),
      });
      if (res.status !== 202) throw new Error(`push: ${res.status} ${await res.text()}`);
      return String(((await res.json()) as { batch: string }).batch);
    };
    const batchDone = async (id: string): Promise<{ state: string; accepted: number }> => {
      const res = await fetch(`${server.url}/api/v1/telemetry/batches/${id}/`, { headers: { Authorization: `Bearer ${token}` } });
      if (res.status === 401) {
        token = String((await signInAsDemo(server.url)).access);
        return batchDone(id);
      }
      if (res.status !== 200) throw new Error(`batch ${id}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { state: string; accepted: number };
    };

    const start = Math.floor(Date.now() / MINUTE) * MINUTE;
    const fastFrom = start - (FAST_MINUTES + 30) * MINUTE;
    // The hours before, in one go: what the forecast's lags and the stream's first tiles read.
    const history: ReturnType<typeof minuteReadings> = [];
    for (let k = HISTORY_MINUTES; k > 0; k--) history.push(...minuteReadings(fastFrom - k * MINUTE));
    let last = "";
    for (let i = 0; i < history.length; i += 9_600) last = await push(history.slice(i, i + 9_600));
    while ((await batchDone(last)).state !== "done") await sleep(250);

    // The page's stream: each tiles event with its arrival time.
    const stream = await openLiveStream(server.url, token, String(facility.id), stop.signal, (s, count) => {
      if (process.env.MONITORING_SERVER_LOG)
        console.error("live", count, new Date().toISOString(), s.tiles[0]?.updated_at, s.tiles[0]?.forecasts[0]?.issued_at);
    });
    const seen = stream.seen;

    const latencies: number[] = [];
    let asking = true;
    const asker = (async () => {
      while (asking && !stop.signal.aborted) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${otherToken}` } }).catch(
          () => undefined,
        );
        if (!res) break;
        await res.arrayBuffer();
        if (res.status === 401) otherToken = await accessToken(server.url, other);
        else latencies.push(performance.now() - t0);
        await sleep(200);
      }
    })();

    // The consumer may fall behind at 100×: nothing is lost, the tiles come later.
    const measure = (pushes: { t: number; answered: number }[]) => tileLatencies(stream, pushes, WORKINGS);
    const report = (name: string, m: { tile: number[]; forecast: number[] }) =>
      console.log(
        `${name}: push 202 → tile p50 ${(percentile(m.tile, 0.5) / 1000).toFixed(2)} s, p95 ${(percentile(m.tile, 0.95) / 1000).toFixed(2)} s; → forecast p50 ${(percentile(m.forecast, 0.5) / 1000).toFixed(2)} s, p95 ${(percentile(m.forecast, 0.95) / 1000).toFixed(2)} s (${m.tile.length} working-minutes)`,
      );

    // 100×: a minute every 0,6 s.
    const fast: { t: number; answered: number; batch: string }[] = [];
    const [cpuBefore, threadsBefore] = [processCpuMs(pid), threadCpuMs(pid)];
    const fastStarted = performance.now();
    for (let k = 0; k < FAST_MINUTES; k++) {
      const due = fastStarted + (k * MINUTE) / 100;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const t = fastFrom + k * MINUTE;
      const batch = await push(minuteReadings(t));
      fast.push({ t, answered: performance.now(), batch });
    }
    const fastMeasured = await measure(fast);
    report(`100× (${FAST_MINUTES} minutes in ${((FAST_MINUTES * 0.6) / 60).toFixed(1)} min)`, fastMeasured);
    const lastFast = new Date(fast[fast.length - 1].t).toISOString();
    let lost = 0;
    let accepted = 0;
    for (const p of fast) {
      let status = await batchDone(p.batch);
      while (status.state !== "done") {
        await sleep(200);
        status = await batchDone(p.batch);
      }
      accepted += status.accepted;
      lost += WORKINGS * KINDS.length - status.accepted;
    }
    // The server's CPU over the 100× phase, its batches all done (the forecasts, the detector and the
    // tiles they caused with them), per batch.
    await sleep(1_000);
    const fastCpu = processCpuMs(pid) - cpuBefore;
    const fastThreads = new Map([...threadCpuMs(pid)].map(([thread, cpu]) => [thread, cpu - (threadsBefore.get(thread) ?? 0)]));
    const finalTiles = seen[seen.length - 1].tiles;
    const metersBehind = finalTiles.flatMap((t) => t.meters).filter((m) => (m.at ?? "") < lastFast).length;
    const fastGetMe = [...latencies];

    // Real time: each push at the wall clock's minute.
    latencies.length = 0;
    const real: { t: number; answered: number }[] = [];
    for (let k = 0; k < REAL_MINUTES; k++) {
      const next = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;
      await sleep(next - Date.now());
      await push(minuteReadings(next));
      real.push({ t: next, answered: performance.now() });
    }
    const realMeasured = await measure(real);
    asking = false;
    await asker;
    stop.abort();
    await stream.closed;

    console.log(
      `${WORKINGS} workings × ${KINDS.length} sensors, one reading a minute each (${WORKINGS * KINDS.length} a push), each working bound to the 1-hour model; ${HISTORY_MINUTES} minutes pushed before`,
    );
    console.log(
      `100×: ${accepted.toLocaleString("en")} of ${(FAST_MINUTES * WORKINGS * KINDS.length).toLocaleString("en")} readings accepted, ${lost} lost; meters behind the last minute on the stream: ${metersBehind}`,
    );
    console.log(
      `server's CPU at 100×: ${(fastCpu / FAST_MINUTES).toFixed(0)} ms a batch (all its threads); by thread: ${byKind(fastThreads, FAST_MINUTES)}`,
    );
    console.log(
      `get_me of another company during 100× (${fastGetMe.length}): p50 ${percentile(fastGetMe, 0.5).toFixed(1)} ms, p95 ${percentile(fastGetMe, 0.95).toFixed(1)} ms`,
    );
    report(`real time (${REAL_MINUTES} minutes)`, realMeasured);
    console.log(
      `get_me of another company during real time (${latencies.length}): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms`,
    );
    console.log(`stream events received: ${seen.length}`);
    if (lost > 0 || metersBehind > 0) throw new Error("readings lost at 100×");
  } catch (error) {
    console.error("monitoring bench:", error);
    throw error;
  } finally {
    stop.abort();
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
