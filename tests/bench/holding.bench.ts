// `npm run bench -- holding`: a holding's monitoring at real time in the last hour of a
// UTC day, on the local server as `npm start` runs it (its own process, a new data folder). The demo
// company has HOLDING_FACILITIES mines (30) of HOLDING_SENSORS sensors (150: 20 workings of 7 — two
// methane meters, an anemometer, a drainage line's flow, CH4 content and methane flow, a pressure sensor
// — and temperature sensors outside the workings), the first mine's 20 workings bound to the platform's
// 1-hour model (as monitoring.bench.ts binds them); two other companies have HOLDING_OTHER_FACILITIES
// mines (2) of the same sensors. The clock: the server runs with its wall clock moved back to
// yesterday (UTC), preloaded by tests/support/shifted-clock.mjs, so its time is yesterday's 23:39 when
// the run begins while pushes still come at real time.
//   1. The days at their fullest: every sensor's day from 00:00 to 23:39, one reading a minute, pushed by
//      the gateways (HOLDING_FILL=minutes: 66 minutes of a mine's 150 sensors a push, as a gateway
//      catching up sends them; days: 7 sensors' whole days a push) and applied by the consumer, the
//      server's clock nearly stopped at 23:39 meanwhile (so no channel falls silent while the others are
//      filled) and the users' and gateways' paces lifted; then that server is stopped.
//   2. The run: the server started again on the folder at real pace, its clock at 23:38:30. At each of its
//      minutes from 23:40, HOLDING_MINUTES of them (10), every mine pushes its sensors' minute at once.
//      Measured: from each push's 202 to the first mine's tiles showing the minute and its forecast
//      (GET v1/telemetry/live/stream/, as monitoring.bench.ts does), the consumer's lag (from a push's
//      202 to its batch done), another company's GET v1/users/get_me/ p50 and p95 (five a second), and
//      what the server wrote to disk per reading pushed: its process's write_bytes (/proc/<pid>/io, all
//      its threads, the store's WAL and checkpoints and the batches' blobs included; cancelled_write_bytes, the
//      files deleted before they were written out, beside it) and the data folder's growth.
//   3. Nothing lost: the run's minutes pushed again are accepted by none of their batches (their
//      `accepted` sums to 0), and, the server stopped, the folder read back holds each reading as sent.
// Goals on a quiet two-core machine: tile p95 ≤ 1 s, get_me p50 < 50 ms, ≤ 2 KB written per reading.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { systemClock } from "@server/domain/context";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openSharedStorage } from "@server/local/storage";
import { runAdmin } from "../support/admin-command";
import { callApi } from "../support/api-call";
import { openLiveStream, percentile, tileLatencies } from "../support/live-stream";
import { differences, storedReadings, type BatchStatus } from "../support/readings-shape";
import { DEMO, accessToken, type Credentials } from "../support/server";
import { machineLine } from "../support/machine";
import { processCpuMs } from "../support/server-cpu";
import { startServerProcess } from "../support/server-process";

const FACILITIES = Number(process.env.HOLDING_FACILITIES ?? 30);
const SENSORS = Number(process.env.HOLDING_SENSORS ?? 150);
const MINUTES = Number(process.env.HOLDING_MINUTES ?? 10);
const OTHER_FACILITIES = Number(process.env.HOLDING_OTHER_FACILITIES ?? 2);
const FILL = process.env.HOLDING_FILL ?? "minutes";
const OTHER_COMPANIES = 2;
const MINUTE = 60_000;
const DAY = 86_400_000;
/** The run's first minute, of the day: 23:40 (the days filled up to it), or HOLDING_FROM ("00:20": the
 *  day's other end, its sensors' days holding few minutes yet). */
const RUN_FROM = process.env.HOLDING_FROM ?? "23:40";
const RUN_FROM_MIN = Number(RUN_FROM.slice(0, 2)) * 60 + Number(RUN_FROM.slice(3, 5));
const WORKING_KINDS = [
  ["М1", "methane", { warning: 1, alarm: 1.5 }],
  ["М2", "methane", { warning: 1, alarm: 1.5 }],
  ["V", "air_velocity", { area_m2: 12 }],
  ["QД", "flow", {}],
  ["МД", "methane_high", {}],
  ["QМ", "methane_flow", {}],
  ["P", "pressure", {}],
] as const;
const WORKINGS = Math.min(20, Math.floor(SENSORS / WORKING_KINDS.length));
/** Readings one push may carry (LIMITS.monitoring.readingsPerRequest). */
const PUSH_MAX = 10_000;
const SHIFTED_CLOCK = new URL("../support/shifted-clock.mjs", import.meta.url).href;
/** HOLDING_TRACE=DIR (a tmpfs, /dev/shm/…): the store's writes by the kind of item, from each server
 *  process into DIR/<pid>.json (store-trace.mjs). */
const STORE_TRACE = process.env.HOLDING_TRACE ? ["--import", new URL("./store-trace.mjs", import.meta.url).href] : [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ioOf = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(": "))
      .map(([k, v]) => [k, Number(v)]),
  ) as Record<"write_bytes" | "cancelled_write_bytes" | "wchar", number>;
const folderBytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const path = join(dir, e.name);
    try {
      return n + (e.isDirectory() ? folderBytes(path) : statSync(path).size);
    } catch {
      return n; // a file the engine deleted meanwhile
    }
  }, 0);
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (values: readonly number[], p: number) => `${(percentile(values, p) / 1000).toFixed(2)} s`;

interface SensorPlan {
  code: string;
  kind: string;
  working?: string;
  extra: Record<string, number>;
}

/** A mine's sensors: WORKINGS workings of WORKING_KINDS, the rest temperature sensors of no working. */
const PLAN: SensorPlan[] = Array.from({ length: SENSORS }, (_, i) => {
  const w = Math.floor(i / WORKING_KINDS.length);
  if (w >= WORKINGS) return { code: `T-${i + 1}`, kind: "temperature", extra: {} };
  const [code, kind, extra] = WORKING_KINDS[i % WORKING_KINDS.length];
  return { code: `${code}-${w + 1}`, kind, working: `Лава ${String(w + 1).padStart(2, "0")}`, extra };
});

/** A sensor's reading at the minute `m` (minutes since 1970): a value that drifts as a mine's would,
 *  below the methane meters' levels, with the decimals a gateway sends. */
function valueAt(kind: string, s: number, m: number): number {
  const wave = Math.sin((m + s * 17) / 90);
  const noise = Math.sin(m * 12.9898 + s * 78.233) * 0.5;
  const base: Record<string, [number, number, number]> = {
    methane: [0.4, 0.3, 2],
    air_velocity: [2, 0.3, 2],
    flow: [60, 5, 1],
    methane_high: [35, 3, 1],
    methane_flow: [21, 2, 2],
    pressure: [95, 0.5, 2],
    temperature: [18, 1, 1],
  };
  const [level, swing, digits] = base[kind];
  return Number((level + swing * (wave * wave + 0.1 * noise)).toFixed(digits));
}

/** A user's calls, signed in again when the access token expired. */
function session(url: string, user: Credentials) {
  let token: Promise<string> | undefined;
  const signed = () => (token ??= accessToken(url, user));
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    let res = await callApi(url, await signed(), method, path, body);
    if (res.status === 401) {
      token = undefined;
      res = await callApi(url, await signed(), method, path, body);
    }
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { user, call, token: signed };
}
type Session = ReturnType<typeof session>;

interface Mine {
  id: string;
  company: string;
  key: string;
  sensors: Map<string, string>;
  owner: Credentials;
}

async function makeMine(user: Session, name: string, bind: boolean): Promise<Mine> {
  const facility = await user.call("POST", "/v1/facilities/", { name, kind: "underground_mine" });
  const point = await user.call("POST", `/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" });
  const sensors = new Map<string, string>();
  for (const s of PLAN) {
    const made = await user.call("POST", `/v1/facilities/${facility.id}/sensors/`, {
      code: s.code,
      kind: s.kind,
      point: point.id,
      ...(s.working ? { working: s.working } : {}),
      ...s.extra,
    });
    sensors.set(s.code, String(made.id));
  }
  if (bind)
    for (let w = 0; w < WORKINGS; w++)
      await user.call("POST", "/v1/telemetry/live/models/", {
        facility: facility.id,
        working: `Лава ${String(w + 1).padStart(2, "0")}`,
        horizon: 60,
        model: "xgboost-h60",
      });
  const key = await user.call("POST", `/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" });
  return { id: String(facility.id), company: String(facility.company), key: String(key.key), sensors, owner: user.user };
}

/** The mine's readings of the sensors `plan` over the minutes [from, to). */
function readingsOf(plan: readonly SensorPlan[], from: number, to: number) {
  const out: { sensor: string; t: string; value: number }[] = [];
  for (const s of plan) {
    const index = PLAN.indexOf(s);
    for (let t = from; t < to; t += MINUTE)
      out.push({ sensor: s.code, t: new Date(t).toISOString(), value: valueAt(s.kind, index, t / MINUTE) });
  }
  return out;
}

/** Pushes through the mine's gateway key; a refusal for the pace or a busy server is tried again. */
async function push(url: string, mine: Mine, readings: readonly { sensor: string; t: string; value: number }[]) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}/api/v1/telemetry/readings/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Gateway ${mine.key}` },
      body: JSON.stringify({ readings }),
    });
    if (res.status === 202) return String(((await res.json()) as { batch: string }).batch);
    const text = await res.text();
    if ((res.status !== 429 && res.status !== 503) || attempt > 20) throw new Error(`push: ${res.status} ${text}`);
    await sleep(1000);
  }
}

/** Waits for the batch to be applied; answers its status. */
async function applied(user: Session, batch: string): Promise<BatchStatus> {
  for (;;) {
    const status = (await user.call("GET", `/v1/telemetry/batches/${batch}/`)) as unknown as BatchStatus;
    if (status.state === "done") return status;
    if (status.state !== "queued") throw new Error(`batch ${batch} is ${status.state}`);
    await sleep(100);
  }
}

/** The run's server's store writes by the kind of item (store-trace.mjs), the kinds that wrote most
 *  first: a commit's bytes shared among its writes, the checkpoints' and the close's shared among the
 *  kinds as their commits' are. */
function traceLines(file: string, readings: number): string {
  type Kind = { puts: number; dels: number; keyBytes: number; valueBytes: number; commits: number; bytes: number };
  const { totals, kinds } = JSON.parse(readFileSync(file, "utf8")) as {
    totals: Record<"commits" | "commitBytes" | "checkpoints" | "checkpointBytes" | "closeBytes" | "puts" | "dels", number>;
    kinds: Record<string, Kind>;
  };
  const scale = (totals.commitBytes + totals.checkpointBytes + totals.closeBytes) / totals.commitBytes;
  const perReading = (bytes: number) => `${Math.round(bytes / readings).toLocaleString("en")} B a reading`;
  return [
    `the store's writes (${file}): ${totals.commits} commits (${totals.puts} puts, ${totals.dels} deletes) ${mb(totals.commitBytes)}, ` +
      `${totals.checkpoints} automatic checkpoints ${mb(totals.checkpointBytes)}, the close ${mb(totals.closeBytes)}: ` +
      perReading(totals.commitBytes + totals.checkpointBytes + totals.closeBytes),
    ...Object.entries(kinds)
      .sort(([, a], [, b]) => b.bytes - a.bytes)
      .slice(0, 15)
      .map(
        ([kind, k]) =>
          `  ${kind}: ${k.puts} puts, ${k.dels} deletes in ${Math.round(k.commits)} commits' share, values ${mb(k.valueBytes)}; ` +
          `${mb(k.bytes)} in commits, ${mb(k.bytes * scale)} with its share of the checkpoints (${perReading(k.bytes * scale)})`,
      ),
  ].join("\n");
}

/** Waits until the process has written nothing for 3 s, `limit` seconds at most; answers the seconds waited. */
async function writesSettled(pid: number, limit: number): Promise<number> {
  const began = performance.now();
  let last = ioOf(pid).write_bytes;
  for (let quiet = 0; quiet < 3 && performance.now() - began < limit * 1000; ) {
    await sleep(1000);
    const now = ioOf(pid).write_bytes;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - began) / 1000;
}

/** A server process on the folder with its clock moved to `at` (yesterday's) now, running at `rate`. */
const serverAt = (dataDir: string, at: number, rate: number, env: Record<string, string> = {}) =>
  startServerProcess(dataDir, ["--import", SHIFTED_CLOCK, ...STORE_TRACE], {
    SHIFTED_CLOCK_MS: String(at - Date.now()),
    SHIFTED_CLOCK_RATE: String(rate),
    ...env,
  });

async function stopServer(server: Awaited<ReturnType<typeof startServerProcess>>) {
  const exited = new Promise((r) => server.child.once("exit", r));
  server.child.kill("SIGTERM");
  await exited;
}

export async function run(): Promise<void> {
  const day = Math.floor(Date.now() / DAY) * DAY - DAY;
  const runFrom = day + RUN_FROM_MIN * MINUTE;
  if (!/^\d\d:\d\d$/.test(RUN_FROM) || RUN_FROM_MIN < 2) throw new Error("HOLDING_FROM: a minute of the day as HH:MM, from 00:02");
  if (RUN_FROM_MIN + MINUTES > 24 * 60) throw new Error("HOLDING_MINUTES: the run stays in its day");
  console.log(machineLine());
  const dataDir = mkdtempSync(join(tmpdir(), "holding-bench-"));
  const stop = new AbortController();
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    // 1. The days filled, the clock at 23:39 and nearly still (0,6 s a real minute).
    const lifted = {
      USER_REQUEST_BURST: "1000000",
      USER_REQUESTS_PER_SECOND: "1000000",
      GATEWAY_REQUEST_BURST: "1000000",
      GATEWAY_REQUESTS_PER_SECOND: "1000000",
    };
    const filling = await serverAt(dataDir, runFrom - MINUTE, 0.01, lifted);
    server = filling;
    const began = performance.now();
    const holding = session(filling.url, DEMO);
    const others: Session[] = [];
    for (let c = 1; c <= OTHER_COMPANIES; c++) {
      const user = { email: `other${c}@holding.example`, password: "neighbour-password-1" };
      const made = await runAdmin(dataDir, [
        "create-user",
        "--company",
        `ООО «Соседи ${c}»`,
        "--new-company",
        "--email",
        user.email,
        "--password",
        user.password,
      ]);
      if (made.status !== 0) throw new Error(`create-user: ${made.stderr}`);
      others.push(session(filling.url, user));
    }
    const plans = [
      ...Array.from({ length: FACILITIES }, (_, i) => ({ user: holding, name: `Шахта «Холдинг-${i + 1}»`, bind: i === 0 })),
      ...others.flatMap((user, c) =>
        Array.from({ length: OTHER_FACILITIES }, (_, i) => ({ user, name: `Шахта «Соседи ${c + 1}-${i + 1}»`, bind: false })),
      ),
    ];
    const mines: Mine[] = new Array(plans.length);
    let nextPlan = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextPlan < plans.length) {
          const i = nextPlan++;
          mines[i] = await makeMine(plans[i].user, plans[i].name, plans[i].bind);
        }
      }),
    );
    const userOf = (mine: Mine) => (mine.owner === DEMO ? holding : others.find((o) => o.user === mine.owner)!);
    const made = performance.now();

    // A push carries a span of minutes of all the mine's sensors, as a gateway catching up sends them
    // (HOLDING_FILL=minutes), or whole days of a few sensors (days).
    const byDays = FILL === "days";
    const span = Math.floor(PUSH_MAX / (byDays ? RUN_FROM_MIN : SENSORS));
    const fills = mines.flatMap((mine) =>
      byDays
        ? Array.from({ length: Math.ceil(PLAN.length / span) }, (_, i) => ({
            mine,
            plan: PLAN.slice(i * span, (i + 1) * span),
            from: day,
            to: runFrom,
          }))
        : Array.from({ length: Math.ceil(RUN_FROM_MIN / span) }, (_, i) => ({
            mine,
            plan: PLAN,
            from: day + i * span * MINUTE,
            to: Math.min(runFrom, day + (i + 1) * span * MINUTE),
          })),
    );
    const filled: { mine: Mine; batch: string; lines: number }[] = [];
    let nextFill = 0;
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        while (nextFill < fills.length) {
          const { mine, plan, from, to } = fills[nextFill++];
          const readings = readingsOf(plan, from, to);
          filled.push({ mine, batch: await push(filling.url, mine, readings), lines: readings.length });
        }
      }),
    );
    let fillAccepted = 0;
    for (const f of filled) fillAccepted += (await applied(userOf(f.mine), f.batch)).accepted;
    const fillLines = filled.reduce((n, f) => n + f.lines, 0);
    if (fillAccepted !== fillLines) throw new Error(`fill: ${fillAccepted} of ${fillLines} readings accepted`);
    const fillSeconds = (performance.now() - made) / 1000;
    // The fill's writes (the store's checkpoints; LevelDB's compactions before) finish here, not in the run (a full fill's take minutes).
    const settled = await writesSettled(filling.child.pid!, 900);
    console.log(
      `set up ${mines.length} mines (${(mines.length * SENSORS).toLocaleString("en")} sensors) in ${((made - began) / 1000).toFixed(0)} s; ` +
        `days filled to ${RUN_FROM} by ${FILL} (${fillLines.toLocaleString("en")} readings in ${filled.length} pushes) in ${fillSeconds.toFixed(0)} s ` +
        `(${Math.round(fillLines / fillSeconds).toLocaleString("en")} readings/s), its writes settled ${settled.toFixed(0)} s later, folder ${mb(folderBytes(dataDir))}`,
    );
    await stopServer(filling);
    server = undefined;

    // 2. The run, at real pace from 23:38:30. The run's server is this process's child: once it has
    // ended and been reaped, the kernel adds its I/O counts to this process's /proc/self/io, so the
    // difference across its life is everything it wrote, its close's checkpoint of the WAL included
    // (which the figure read from /proc/<pid>/io while it runs cannot hold).
    const benchIoBefore = ioOf(process.pid);
    const running = await serverAt(dataDir, runFrom - 90_000, 1);
    server = running;
    const pid = running.child.pid!;
    const url = running.url;
    const clockOffset = runFrom - 90_000 - Date.now();
    const clock = () => Date.now() + clockOffset;
    const holdingRun = session(url, DEMO);
    const othersRun = others.map((o) => session(url, o.user));
    const runUserOf = (mine: Mine) => (mine.owner === DEMO ? holdingRun : othersRun.find((o) => o.user === mine.owner)!);
    // The start's own writes (the store's recovery) settle before the run.
    await writesSettled(pid, 40);
    const stream = await openLiveStream(url, await holdingRun.token(), mines[0].id, stop.signal);
    const getMe: number[] = [];
    const neighbour = othersRun[0];
    let asking = true;
    const asker = (async () => {
      while (asking) {
        const token = await neighbour.token();
        const t0 = performance.now();
        const res = await fetch(`${url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
        if (!res) break;
        await res.arrayBuffer();
        if (res.status === 200) getMe.push(performance.now() - t0);
        else if (res.status === 401) await neighbour.call("GET", "/v1/users/get_me/");
        await sleep(200);
      }
    })();

    if (clock() > runFrom) throw new Error(`the run's server started too late for ${RUN_FROM}: run again`);
    const pushed: { mine: Mine; t: number; answered: number; batch: string }[] = [];
    const lags: number[] = [];
    /** The largest lag of each run minute. */
    const minuteLags = new Map<number, number>();
    let pushing = true;
    // The consumer's lag: each batch's from its 202 to its first status done, every batch not done yet
    // asked once a round (one request at a time, so the asking adds no load of its own to the server's): a
    // batch done is seen done within a round, whatever the batches before it (asked in push order until
    // each was done, one slow batch made every later one's lag its own).
    const tracker = (async () => {
      let waiting: typeof pushed = [];
      let seen = 0;
      while (pushing || seen < pushed.length || waiting.length > 0) {
        waiting.push(...pushed.slice(seen));
        seen = pushed.length;
        const still: typeof pushed = [];
        for (const p of waiting) {
          const status = (await runUserOf(p.mine).call("GET", `/v1/telemetry/batches/${p.batch}/`)) as unknown as BatchStatus;
          if (status.state !== "done") {
            still.push(p);
            continue;
          }
          const lag = performance.now() - p.answered;
          lags.push(lag);
          const k = Math.round((p.t - runFrom) / MINUTE);
          minuteLags.set(k, Math.max(minuteLags.get(k) ?? 0, lag));
        }
        waiting = still;
        await sleep(100);
      }
    })();
    const before = ioOf(pid);
    const folderBefore = folderBytes(dataDir);
    const blobsBefore = folderBytes(join(dataDir, "blobs"));
    const cpuBefore = processCpuMs(pid);
    const loadBefore = loadavg()[0];
    for (let k = 0; k < MINUTES; k++) {
      const t = runFrom + k * MINUTE;
      await sleep(t - clock());
      await Promise.all(
        mines.map(async (mine) => {
          const batch = await push(url, mine, readingsOf(PLAN, t, t + MINUTE));
          pushed.push({ mine, t, answered: performance.now(), batch });
        }),
      );
    }
    pushing = false;
    await tracker;
    const tiles = await tileLatencies(
      stream,
      pushed.filter((p) => p.mine === mines[0]),
      WORKINGS,
    );
    // The forecasts and the watch's tiles written after the last batch: a few seconds more.
    await sleep(5_000);
    const after = ioOf(pid);
    const cpu = processCpuMs(pid) - cpuBefore;
    const loadAfter = loadavg()[0];
    const folderAfter = folderBytes(dataDir);
    const blobsAfter = folderBytes(join(dataDir, "blobs"));
    asking = false;
    await asker;
    const readings = mines.length * SENSORS * MINUTES;
    const written = after.write_bytes - before.write_bytes;

    // 3. The run's minutes again: nothing accepted.
    let again = 0;
    for (const mine of mines) {
      const batch = await push(url, mine, readingsOf(PLAN, runFrom, runFrom + MINUTES * MINUTE));
      const status = await applied(runUserOf(mine), batch);
      again += status.accepted + status.corrected;
    }
    stop.abort();
    await stream.closed;
    await stopServer(running);
    server = undefined;
    const benchIoStopped = ioOf(process.pid);
    const walFile = join(dataDir, "sqlite", "items.db-wal");
    const walLeft = existsSync(walFile) ? statSync(walFile).size : 0;
    const storage = await openSharedStorage(dataDir);
    let lost = 0;
    try {
      for (const mine of mines) {
        const { stored, twice } = await storedReadings(
          { repos: storage.repos, clock: systemClock },
          mine.company,
          mine.sensors,
          runFrom,
          runFrom + MINUTES * MINUTE,
        );
        const sent = new Map<string, Map<number, number>>();
        for (const r of readingsOf(PLAN, runFrom, runFrom + MINUTES * MINUTE)) {
          if (!sent.has(r.sensor)) sent.set(r.sensor, new Map());
          sent.get(r.sensor)!.set(Date.parse(r.t), r.value);
        }
        const d = differences(sent, stored);
        lost += d.missing + d.changed + twice;
      }
    } finally {
      await storage.close();
    }
    // A stop that ran past its bound (stop-watchdog.ts) ends the server before its store's close has
    // checkpointed the WAL: the read-back's open and close then do it, and read nothing else.
    const benchIoAfter = ioOf(process.pid);
    const lifeWritten = benchIoAfter.write_bytes - benchIoBefore.write_bytes;
    const lifeCancelled = benchIoAfter.cancelled_write_bytes - benchIoBefore.cancelled_write_bytes;
    const readBackWritten = benchIoAfter.write_bytes - benchIoStopped.write_bytes;

    console.log(
      `${FACILITIES} mines of the holding and ${OTHER_COMPANIES} × ${OTHER_FACILITIES} of other companies, ${SENSORS} sensors each, ` +
        `${WORKINGS} workings of the first bound to the 1-hour model; ${MINUTES} minutes from ${RUN_FROM} at real time, ` +
        `${mines.length} pushes of ${SENSORS} readings a minute (${readings.toLocaleString("en")} readings); ` +
        `load average ${loadBefore.toFixed(1)} at the run's start, ${loadAfter.toFixed(1)} at its end`,
    );
    console.log(
      `push 202 → tile p50 ${ms(tiles.tile, 0.5)}, p95 ${ms(tiles.tile, 0.95)}; → forecast p50 ${ms(tiles.forecast, 0.5)}, p95 ${ms(tiles.forecast, 0.95)} (${tiles.tile.length} working-minutes); the largest tile of each minute: ${Array.from({ length: tiles.tile.length / WORKINGS }, (_, k) => (Math.max(...tiles.tile.slice(k * WORKINGS, (k + 1) * WORKINGS)) / 1000).toFixed(2)).join(" · ")} s`,
    );
    console.log(
      `consumer's lag (202 → batch done): p50 ${ms(lags, 0.5)}, p95 ${ms(lags, 0.95)}, max ${(Math.max(...lags) / 1000).toFixed(2)} s (${lags.length} batches); the largest of each minute: ${[
        ...minuteLags,
      ]
        .sort(([a], [b]) => a - b)
        .map(([, lag]) => (lag / 1000).toFixed(2))
        .join(" · ")} s`,
    );
    console.log(
      `get_me of another company (${getMe.length}): p50 ${percentile(getMe, 0.5).toFixed(1)} ms, p95 ${percentile(getMe, 0.95).toFixed(1)} ms`,
    );
    console.log(
      `written: ${mb(written)} write_bytes of the server process (${Math.round(written / readings).toLocaleString("en")} B a reading; ` +
        `cancelled_write_bytes ${mb(after.cancelled_write_bytes - before.cancelled_write_bytes)}, wchar ${mb(after.wchar - before.wchar)}); ` +
        `data folder ${mb(folderBefore)} → ${mb(folderAfter)} (${Math.round((folderAfter - folderBefore) / readings).toLocaleString("en")} B a reading, ` +
        `of which the blobs, the batches' bodies, ${Math.round((blobsAfter - blobsBefore) / readings).toLocaleString("en")} B)`,
    );
    console.log(
      `written by the run's server from its start to its end and by the WAL's last checkpoint (the run's minutes, their ` +
        `push again and the start; the stop left a WAL of ${mb(walLeft)}, whose checkpoint at the read-back's close wrote ${mb(readBackWritten)}): ` +
        `${mb(lifeWritten)} write_bytes (${Math.round(lifeWritten / readings).toLocaleString("en")} B a reading; ` +
        `cancelled_write_bytes ${mb(lifeCancelled)}); from the run's first minute on (the start's ${mb(before.write_bytes)} left out): ` +
        `${mb(lifeWritten - before.write_bytes)} (${Math.round((lifeWritten - before.write_bytes) / readings).toLocaleString("en")} B a reading)`,
    );
    if (process.env.HOLDING_TRACE) console.log(traceLines(join(process.env.HOLDING_TRACE, `${pid}.json`), readings));
    console.log(`server's CPU over the run: ${(cpu / MINUTES / 1000).toFixed(1)} s a minute (all its threads)`);
    console.log(
      `the run's minutes pushed again: ${again} readings accepted or corrected; read back: ${lost} missing, changed or stored twice`,
    );
    if (again > 0 || lost > 0) throw new Error("readings lost or stored twice");
  } catch (error) {
    console.error("holding bench:", error);
    throw error;
  } finally {
    stop.abort();
    if (server) await stopServer(server);
    // HOLDING_KEEP=1 keeps the folder for a bench of its reads (store-layout.bench.ts).
    if (process.env.HOLDING_KEEP) console.log(`the data folder kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
