// `npm run bench -- trust-replay` («Done when»): the ninth round's red team replayed at the
// machine's size against the local server as `npm start` runs it, in a process of its own. Company A, one
// user per flood, keeps in flight at once: 10 reads of a done reconciliation of TRUST_SENSORS meters ×
// TRUST_DAYS days (60 × 121: 7 260 sensor-days, a ~74 MB export, its record ~9,8 MB), 10 reads of its
// gassings register of 92 days, 12 of its journal PDFs of a day, and 4 reconciliations of the same export;
// a refused request (429) is asked again after 200 ms. Company B meanwhile asks get_me every 40 ms, pushes
// 60 readings every 2 s and reads each batch until done, and reads its own journal PDF; each of B's
// figures is also taken alone first. After TRUST_SECONDS (60) of the floods the server gets SIGTERM
// under all of them at once. Goals: B's get_me p50 < 50 ms and p95 < 250 ms, push → done p50 < 1 s, the
// PDF within 2× alone, the end within 5 s of the signal. Small for a check: TRUST_SENSORS=3 TRUST_DAYS=92
// TRUST_SECONDS=15. Seeding takes the machine for minutes at full size (a reconciliation of 74 MB runs
// before the floods).
// before those floods, A's live tiles and a working's day chart are flooded for
// TRUST_LIVE_SECONDS (30) alone — 10 lanes of GET v1/telemetry/live/ and 10 of …/live/chart/ on a mine
// of TRUST_LIVE_SENSORS meters (200) in workings of 10, with TRUST_LIVE_HOURS (24) of minutes up to the
// seed and its first working bound to the platform's 1-hour model, a minute pushed after the binding (its
// forecast computed, what it reads kept) — and B's get_me and journal PDF are
// measured meanwhile against alone. Goals as above: get_me p50 < 50 ms and p95 < 250 ms, the PDF within 2×.
// Between them, the bulkheads at the limits table's maxima: A's mine «Предел» seeded by
// tests/support/maxima.ts (a full register, an open «нет данных» a sensor, a year of minutes of three
// meters and of handovers, a certificate scan of LIMITS.sensorChecks.certificateFileBytes) and flooded
// one flood at a time for TRUST_FLOOD_SECONDS (15) each: 10 lanes of the dispatch template, 10 of the
// sensor register, 1 of certificate scans uploaded at the largest, 10 downloading the largest, 10 of the
// events list, 10 of the handovers list, a handover made and the checks due in turn, 10 of a meter's day,
// 10 abatement evaluations of LIMITS.abatement.streams streams in flight; under each B's get_me every 40 ms (p50, p95,
// max) and a gateway's push of a reading every 500 ms (its answer 202, p95). Goals per flood: get_me p50
// < 50 ms and p95 < 250 ms, the push's ack p95 < 250 ms. TRUST_PHASES (live,bulkheads,replay by default)
// runs some of the three: TRUST_PHASES=bulkheads seeds and runs only the bulkheads (and B); TRUST_FLOODS
// names some of its floods. B is measured from a client thread of its own, so A's answers read on the
// bench's thread are not counted as B's wait; per flood the server's CPU is printed by thread.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, createUser } from "@server/domain/company/users";
import { startLocalServer } from "@server/local/server";
import { zoneOffsetMs } from "@core/company-clock";
import { ABATEMENT_PARAMS } from "../support/tenant-objects";
import { apiCall, counted, newTally, tallyLine, type ApiCall, type FloodTally } from "../support/floods";
import type { Actor } from "@server/domain/context";
import { facilityShifts } from "@server/domain/monitoring/instruments/shifts";
import { LIMITS } from "@server/contract/schemas/limits";
import { maximaLine, seedMaxima, yearOfDays } from "../support/maxima";
import { pdfBytes } from "../support/admin";
import { JOURNAL_CODES, JOURNAL_SENSORS, readingsOf } from "../support/journal-day";
import { percentile } from "../support/live-stream";
import { startServerProcess } from "../support/server-process";
import { clientThread } from "../support/client-thread";

const SENSORS = Number(process.env.TRUST_SENSORS ?? 60);
const DAYS = Math.max(92, Number(process.env.TRUST_DAYS ?? 121));
const SECONDS = Number(process.env.TRUST_SECONDS ?? 60);
const LIVE_SENSORS = Number(process.env.TRUST_LIVE_SENSORS ?? 200);
const LIVE_HOURS = Number(process.env.TRUST_LIVE_HOURS ?? 24);
const LIVE_SECONDS = Number(process.env.TRUST_LIVE_SECONDS ?? 30);
/** The bulkheads' floods run (their keys, comma-separated: template, register, uploads, downloads, events,
 *  handovers, days, abatement); all by default. */
const FLOODS = process.env.TRUST_FLOODS ? new Set(process.env.TRUST_FLOODS.split(",").map((key) => key.trim())) : undefined;
/** Each bulkhead flood's length, seconds. */
const FLOOD_SECONDS = Number(process.env.TRUST_FLOOD_SECONDS ?? 15);
/** The phases run: `live` (A's live tiles and day charts), `bulkheads` (the floods at the maxima) and
 *  `replay` (the ninth round's floods, then SIGTERM under them). */
const PHASES = new Set((process.env.TRUST_PHASES ?? "live,bulkheads,replay").split(",").map((p) => p.trim()));
/** The live mine's workings: 10 meters each. */
const LIVE_PER_WORKING = 10;
const PASSWORD = "trust-replay-2026";
const MINUTE = 60_000;
const DAY = 86_400_000;
const ZONE = "Asia/Novokuznetsk";
/** The stored days' first UTC day: the last of them 10 days before today, compacted (no minute items). */
const FIRST = Math.floor(Date.now() / DAY) * DAY - (DAYS + 10) * DAY;

/** A's users, one a flood, and B's. */
const names = [
  "reader",
  "gassings",
  "journals",
  "reconciler",
  "live",
  "chart",
  "keeper",
  "taker",
  "template",
  "register",
  "uploader",
  "downloader",
  "events",
  "handovers",
  "days",
  "abatement",
  "b",
];
const emails = Object.fromEntries(names.map((name) => [name, `${name}@trust-replay.example`]));

const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** Meter `s`'s value at minute `m` from FIRST: around 0,4 %, at 2,6 % for 12 minutes a day. */
function valueAt(s: number, m: number): number {
  const rise = 120 + ((s * 97 + Math.floor(m / 1440) * 31) % 1200);
  const minute = m % 1440;
  return minute >= rise && minute < rise + 12 ? 2.6 : round3(0.4 + 0.2 * Math.sin((m + s * 13) / 41));
}
/** Minutes the store lacks (the export has them): 30 of each meter's day, so each row lists its examples. */
const heldBack = (s: number, m: number) => (m + s) % 48 === 0;

/** The wall time of an instant on the company's clock as the export writes it: «ДД.ММ.ГГГГ ЧЧ:ММ:СС». */
function wall(t: number): string {
  const iso = new Date(t + zoneOffsetMs(t, ZONE)).toISOString();
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
}

/** The dispatch export of every meter and minute of the stored days (UTF-8, «;», comma decimals). */
function exportBytes(): Uint8Array {
  const lines = [`Время;${Array.from({ length: SENSORS }, (_, s) => `М-${s + 1}`).join(";")}`];
  for (let m = 0; m < DAYS * 1440; m++) {
    let line = wall(FIRST + m * MINUTE + 20_000);
    for (let s = 0; s < SENSORS; s++) line += `;${valueAt(s, m).toFixed(4).replace(".", ",")}`;
    lines.push(line);
  }
  return new TextEncoder().encode(lines.join("\r\n"));
}

const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(1))
    .join(" / ");
const dateOf = (t: number) => new Date(t + zoneOffsetMs(t, ZONE)).toISOString().slice(0, 10);
const ms = (values: number[]) =>
  values.length ? `p50 ${percentile(values, 0.5).toFixed(0)} ms, p95 ${percentile(values, 0.95).toFixed(0)} ms` : "none";

async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  if (!res.ok) throw new Error(`trust-replay: sign-in of ${email}: ${res.status}`);
  return ((await res.json()) as { access: string }).access;
}

async function ok<T>(res: Response, what: string): Promise<T> {
  if (res.status >= 300) throw new Error(`trust-replay: ${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The export uploaded as the web uploads it (the grant, the PUT): its file_upload. A PUT cut without an
 *  answer is tried again with a new grant: on a server just started, the first PUT of 77 MB was cut
 *  (ECONNRESET, no request logged) in 2 of 4 tries at load 25, the next ones stored. */
async function uploaded(url: string, call: ApiCall, token: string, facility: string, bytes: Uint8Array): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await uploadedOnce(url, call, token, facility, bytes);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`an upload's PUT cut (${String((error as { cause?: { code?: string } }).cause?.code ?? error)}): asked again`);
    }
  }
}

async function uploadedOnce(url: string, call: ApiCall, token: string, facility: string, bytes: Uint8Array): Promise<string> {
  const grant = await ok<{ url: string; method: string; headers: Record<string, string>; file_upload: string }>(
    await call(token, "v1/telemetry/upload-url/", {
      method: "POST",
      body: JSON.stringify({ facility, content_type: "text/csv", size: bytes.byteLength, name: "АГК.csv" }),
    }),
    "upload grant",
  );
  const put = await fetch(new URL(grant.url, url), {
    method: grant.method,
    headers: { ...grant.headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
  if (!put.ok) throw new Error(`trust-replay: PUT of the export: ${put.status}`);
  return grant.file_upload;
}

const startReconciliation = (call: ApiCall, token: string, facility: string, fileUpload: string) =>
  call(token, "v1/telemetry/reconciliations/", {
    method: "POST",
    body: JSON.stringify({ facility, file_upload: fileUpload, name: "АГК.csv" }),
  });

/** `lanes` GETs of `path` in flight while `going()`; a 429 is asked again after 200 ms. */
const getLanes = (call: ApiCall, token: string, path: string, lanes: number, going: () => boolean, tally: FloodTally) =>
  Promise.all(
    Array.from({ length: lanes }, async () => {
      while (going()) {
        const status = await counted(() => call(token, path), tally);
        if (status === undefined) return;
        if (status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }),
  );

/** B's batch of 60 readings of the minutes before now, pushed and read until done: its time, ms. */
async function pushToDone(call: ApiCall, token: string, facility: string, n: number): Promise<number> {
  const started = performance.now();
  const end = Math.floor(Date.now() / MINUTE) * MINUTE;
  const readings = Array.from({ length: 60 }, (_, i) => ({
    sensor: "М-7",
    t: new Date(end - (60 - i) * MINUTE + (n % 50) * 1_000 + 100).toISOString(),
    value: 0.5,
  }));
  const accepted = await ok<{ status_url: string }>(
    await call(token, "v1/telemetry/readings/", { method: "POST", body: JSON.stringify({ facility, readings }) }),
    "B's push",
  );
  for (;;) {
    const res = await call(token, accepted.status_url.replace(/^\/api\//, ""));
    const batch = (await res.json()) as { state?: string };
    if (batch.state === "done") return performance.now() - started;
    if (batch.state === "failed") throw new Error("trust-replay: B's batch failed");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** B's journal PDF: its time, ms. */
async function pdfTime(call: ApiCall, token: string, path: string): Promise<number> {
  const started = performance.now();
  const res = await call(token, path);
  const bytes = await res.arrayBuffer();
  if (res.status !== 200 || bytes.byteLength < 1000) throw new Error(`trust-replay: B's PDF ${res.status}`);
  return performance.now() - started;
}

/** B's browser and gateway: a client thread of their own (tests/support/client-thread.ts), each request
 *  timed there. A's floods are sent and read on the bench's thread (ten 10 MB downloads at once keep its
 *  HTTP parser busy for hundreds of ms); another company's client does not wait for them. */
interface ClientB {
  url: string;
  send: ReturnType<typeof clientThread>["send"];
}

/** get_me of B every 40 ms while `going()`: its latencies, ms. */
async function probeGetMe(b: ClientB, token: string, going: () => boolean, into: number[]): Promise<void> {
  while (going()) {
    const answer = await b
      .send({ url: `${b.url}/api/v1/users/get_me/`, method: "GET", headers: { Authorization: `Bearer ${token}` } })
      .catch(() => undefined);
    if (!answer) return;
    if (answer.status === 200) into.push(answer.ms);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** `lanes` requests in flight while `going()`, the n-th made by `request(n)`; a 429 is asked again after
 *  200 ms, a request that ends without an answer ends its lane. */
const cycleLanes = (lanes: number, going: () => boolean, tally: FloodTally, request: (n: number) => Promise<Response>) => {
  let n = 0;
  return Promise.all(
    Array.from({ length: lanes }, async () => {
      while (going()) {
        const status = await counted(() => request(n++), tally);
        if (status === undefined) return;
        if (status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }),
  );
};

/** A gateway's push of one reading of B's meter М-7 with B's key: the time to its answer 202, ms (NaN
 *  for another answer). */
async function pushAck(b: ClientB, key: string, facility: string): Promise<number> {
  const body = JSON.stringify({ facility, readings: [{ sensor: "М-7", t: new Date(Date.now() - 5_000).toISOString(), value: 0.5 }] });
  const answer = await b.send({
    url: `${b.url}/api/v1/telemetry/readings/`,
    method: "POST",
    headers: { Authorization: `Gateway ${key}`, "Content-Type": "application/json" },
    body: new TextEncoder().encode(body).buffer as ArrayBuffer,
  });
  return answer.status === 202 ? answer.ms : Number.NaN;
}

/** B's gateway pushing a reading every 500 ms while `going()`: each ack's time, ms (NaN: not 202). */
async function probePushes(b: ClientB, key: string, facility: string, going: () => boolean, into: number[]): Promise<void> {
  while (going()) {
    into.push(await pushAck(b, key, facility).catch(() => Number.NaN));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The bulkheads at the maxima: each of A's floods alone for FLOOD_SECONDS, B's get_me and gateway push
 *  measured under it; the figures and the goals printed per flood. */
async function bulkheads(b: ClientB, call: ApiCall, tokens: Record<string, string>, seeded: Seeded, pid: number): Promise<void> {
  const { facility, sensor, verification } = seeded.maxima!;
  const days = yearOfDays(Date.now()).slice(1, -1);
  const scan = pdfBytes(LIMITS.sensorChecks.certificateFileBytes, "bulkheads");
  const verifications = `v1/facilities/${facility}/sensors/${sensor}/verifications/`;
  const get = (token: string, path: string) => () => call(token, path);
  const year = new Date().getUTCFullYear() - 1;
  // An evaluation at the maxima: LIMITS.abatement.streams drainage streams, every option evaluated for each.
  const abatementBody = JSON.stringify({
    streams: Array.from({ length: LIMITS.abatement.streams }, (_, i) => ({
      code: `d${i + 1}`,
      kind: "drainage",
      q_mix_m3_min: 20 + (i % 30),
      c_ch4_pct: 25 + (i % 40),
    })),
    params: ABATEMENT_PARAMS,
  });
  const floods: { key: string; name: string; lanes: number; request: (n: number) => Promise<Response> }[] = [
    {
      key: "template",
      name: "the dispatch template",
      lanes: 10,
      request: get(tokens.template, `v1/facilities/${facility}/sensors/dispatch-template/`),
    },
    { key: "register", name: "the sensor register", lanes: 10, request: get(tokens.register, `v1/facilities/${facility}/sensors/`) },
    {
      key: "uploads",
      name: "certificate scans uploaded",
      lanes: 1,
      request: async (n) => {
        const body = {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: `Б-${n}`,
          verified_on: `${year}-06-01`,
          valid_to: `${year + 1}-05-31`,
          certificate: `С-${Date.now().toString(36)}-${n}`,
        };
        const recorded = await call(tokens.uploader, verifications, { method: "POST", body: JSON.stringify(body) });
        if (!recorded.ok) return recorded;
        const { id } = (await recorded.json()) as { id: string };
        const form = new FormData();
        form.set("file", new File([scan as Uint8Array<ArrayBuffer>], "свидетельство.pdf", { type: "application/pdf" }));
        return call(tokens.uploader, `${verifications}${id}/certificate/`, { method: "PUT", body: form });
      },
    },
    {
      key: "downloads",
      name: "the largest scan downloaded",
      lanes: 10,
      request: get(tokens.downloader, `${verifications}${verification}/certificate/`),
    },
    { key: "events", name: "the events list", lanes: 10, request: get(tokens.events, `v1/telemetry/events/?facility=${facility}`) },
    {
      key: "handovers",
      name: "handovers: the list, one made, the checks due",
      lanes: 10,
      request: (n) =>
        n % 3 === 0
          ? call(tokens.handovers, `v1/facilities/${facility}/handovers/`)
          : n % 3 === 1
            ? call(tokens.handovers, `v1/facilities/${facility}/handovers/`, {
                method: "POST",
                body: JSON.stringify({ remarks: `Смена сдана (${n})` }),
              })
            : call(tokens.handovers, `v1/facilities/${facility}/sensor-checks/due/`),
    },
    {
      key: "days",
      name: "a meter's day",
      lanes: 10,
      request: (n) => call(tokens.days, `v1/facilities/${facility}/sensors/${sensor}/day/?date=${days[(n * 37) % days.length]}`),
    },
    {
      key: "abatement",
      name: `abatement evaluations of ${LIMITS.abatement.streams} streams`,
      lanes: 10,
      request: () => call(tokens.abatement, "v1/abatement/evaluate/", { method: "POST", body: abatementBody }),
    },
  ];
  const under = async (going: () => boolean) => {
    const getMe: number[] = [];
    const acks: number[] = [];
    await Promise.all([probeGetMe(b, tokens.b, going, getMe), probePushes(b, seeded.gatewayB, seeded.facilityB, going, acks)]);
    return { getMe, acks };
  };
  const figures = ({ getMe, acks }: { getMe: number[]; acks: number[] }) => {
    const acked = acks.filter((v) => !Number.isNaN(v));
    return (
      `B's get_me ${ms(getMe)}, max ${getMe.length ? Math.max(...getMe).toFixed(0) : "–"} ms (${getMe.length}); ` +
      `push ack p95 ${percentile(acked, 0.95).toFixed(0)} ms (${acked.length} of ${acks.length})`
    );
  };
  let quiet = true;
  const alone = under(() => quiet);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  quiet = false;
  console.log(`bulkheads: B alone: ${figures(await alone)}; load ${load()}`);
  for (const flood of floods.filter((f) => FLOODS === undefined || FLOODS.has(f.key))) {
    const cpuBefore = threadCpu(pid);
    let going = true;
    const tally = newTally();
    const lanes = cycleLanes(flood.lanes, () => going, tally, flood.request);
    const measured = under(() => going);
    await new Promise((resolve) => setTimeout(resolve, FLOOD_SECONDS * 1000));
    const loadThen = load();
    const cpuAfter = threadCpu(pid);
    going = false;
    const [measures] = await Promise.all([measured, lanes]);
    const answered = tally.requests.flatMap((r) => (r.status !== undefined && r.status < 300 ? [r.ended - r.sent] : []));
    const acked = measures.acks.filter((v) => !Number.isNaN(v));
    const goals = [
      ["get_me p50 < 50 ms", percentile(measures.getMe, 0.5) < 50],
      ["get_me p95 < 250 ms", percentile(measures.getMe, 0.95) < 250],
      ["push ack p95 < 250 ms", percentile(acked, 0.95) < 250],
    ] as const;
    console.log(
      `bulkheads: ${flood.name} ×${flood.lanes} for ${FLOOD_SECONDS} s: A ${tallyLine(tally)} (answered ${ms(answered)}); ` +
        `${figures(measures)}; load ${loadThen}; goals: ${goals.map(([goal, met]) => `${goal} ${met ? "met" : "MISSED"}`).join(", ")}`,
    );
    console.log(`bulkheads: ${flood.name}: the server's CPU by thread: ${cpuSpent(cpuBefore, cpuAfter, pid)}`);
    // What a flood left running (a job, a scan stored) settles before the next.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** CPU seconds each thread of process `pid` has used (/proc, clock ticks of 10 ms), with its name. */
function threadCpu(pid: number): Map<number, { name: string; seconds: number }> {
  const threads = new Map<number, { name: string; seconds: number }>();
  for (const task of readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .sort((a, b) => a - b)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1].split(" ");
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
      threads.set(task, { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // a thread that ended meanwhile
    }
  }
  return threads;
}

/** Where a process's CPU went between two `threadCpu` reads, by thread (over 0,5 s): the front thread is
 *  the process's own; the worker threads in the order they started (the engine's first). */
function cpuSpent(before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>, pid: number): string {
  return [...after]
    .map(([tid, now]) => ({ tid, name: now.name, seconds: now.seconds - (before.get(tid)?.seconds ?? 0) }))
    .filter((thread) => thread.seconds >= 0.5)
    .map((thread) => `${thread.tid === pid ? "front thread" : `${thread.name} ${thread.tid}`} ${thread.seconds.toFixed(1)} s`)
    .join(", ");
}

/** The process's end: when this process saw it, its code or signal, and what it printed. */
function ending(child: ChildProcess) {
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return new Promise<{ at: number; code: number | null; signal: NodeJS.Signals | null; output: () => string }>((done) =>
    child.once("exit", (code, signal) => done({ at: performance.now(), code, signal, output: () => output })),
  );
}

/** What the replay reads from its folder: the facilities, the done reconciliation, the 4 exports uploaded. */
interface Seeded {
  facilityA: string;
  facilityB: string;
  done: string;
  pending: string[];
  /** A's live mine. */
  live: string;
  /** B's gateway key (its mine's). */
  gatewayB: string;
  /** A's mine at the maxima: a meter with a year of minutes and the verification with the largest scan. */
  maxima?: { facility: string; sensor: string; verification: string };
}

/** A's live mine: LIVE_SENSORS methane meters in workings of LIVE_PER_WORKING, LIVE_HOURS of minutes up to
 *  now pushed as a gateway would (10 000 readings a push) and applied, the first working bound to the
 *  platform's 1-hour model. */
async function seedLive(call: ApiCall, token: string): Promise<string> {
  const post = async (path: string, body: unknown) =>
    ok<{ id: string }>(await call(token, path, { method: "POST", body: JSON.stringify(body) }), path);
  const live = (await post("v1/facilities/", { name: "Шахта «Живая»", kind: "underground_mine" })).id;
  for (let s = 0; s < LIVE_SENSORS; s++) {
    const working = `Лава ${Math.floor(s / LIVE_PER_WORKING) + 1}`;
    await post(`v1/facilities/${live}/sensors/`, { code: `Ж-${s + 1}`, kind: "methane", working, warning: 1, alarm: 2 });
  }
  const end = Math.floor(Date.now() / MINUTE) * MINUTE;
  const minutes = LIVE_HOURS * 60;
  const perPush = Math.max(1, Math.floor(10_000 / LIVE_SENSORS));
  const statuses: string[] = [];
  for (let first = 0; first < minutes; first += perPush) {
    const readings = [];
    for (let m = first; m < Math.min(minutes, first + perPush); m++)
      for (let s = 0; s < LIVE_SENSORS; s++)
        readings.push({ sensor: `Ж-${s + 1}`, t: new Date(end - (minutes - m) * MINUTE + 20_000).toISOString(), value: valueAt(s, m) });
    const body = JSON.stringify({ facility: live, readings });
    let res = await call(token, "v1/telemetry/readings/", { method: "POST", body });
    // A push refused while the company's earlier ones are applied is asked again.
    while (res.status === 429) {
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      res = await call(token, "v1/telemetry/readings/", { method: "POST", body });
    }
    const accepted = await ok<{ status_url: string }>(res, "the live mine's push");
    statuses.push(accepted.status_url.replace(/^\/api\//, ""));
  }
  for (const status of statuses)
    for (;;) {
      const batch = await ok<{ state: string }>(await call(token, status), "the live mine's batch");
      if (batch.state === "done") break;
      if (batch.state === "failed") throw new Error("trust-replay: a live mine's batch failed");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  const bind = await call(token, "v1/telemetry/live/models/", {
    method: "POST",
    body: JSON.stringify({ facility: live, working: "Лава 1", horizon: 60, model: "xgboost-h60" }),
  });
  await ok(bind, "the live mine's binding");
  // The gateway's next minute, as a live mine's is: the forecaster computes the bound working's forecast
  // and keeps what it reads (forecast-means.ts), which the day chart reads.
  const next = Array.from({ length: LIVE_SENSORS }, (_, s) => ({
    sensor: `Ж-${s + 1}`,
    t: new Date(end + 20_000).toISOString(),
    value: valueAt(s, minutes),
  }));
  const pushed = await ok<{ status_url: string }>(
    await call(token, "v1/telemetry/readings/", { method: "POST", body: JSON.stringify({ facility: live, readings: next }) }),
    "the live mine's next minute",
  );
  for (;;) {
    const batch = await ok<{ state: string }>(await call(token, pushed.status_url.replace(/^\/api\//, "")), "the live mine's next minute");
    if (batch.state === "done") break;
    if (batch.state === "failed") throw new Error("trust-replay: the live mine's next minute failed");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return live;
}

/** The companies, their users, A's stored days and exports, B's day, and a reconciliation done, written by
 *  the server in this process on the folder, closed before the server's own process opens it. */
async function seed(dataDir: string): Promise<Seeded> {
  const seeding = performance.now();
  let facilityA = "";
  let facilityB = "";
  let live = "";
  let done = "";
  let gatewayB = "";
  let maxima: Seeded["maxima"];
  const pending: string[] = [];
  const local = await startLocalServer({ dataDir, port: 0 });
  try {
    const a = await createCompany(local.deps, { name: "Шахта А (нагрузка)", time_zone: ZONE });
    const b = await createCompany(local.deps, { name: "Шахта Б (измеряет)", time_zone: ZONE });
    const users = new Map<string, Actor>();
    for (const name of names) {
      const company = name === "b" ? b.id : a.id;
      const user = await createUser(local.deps, { companyId: company, email: emails[name], password: PASSWORD });
      users.set(name, { id: user.id, company, email: emails[name], role: user.role } as Actor);
    }
    const call = apiCall(local.url);
    const tokenA = await signIn(local.url, emails.reconciler);
    const tokenB = await signIn(local.url, emails.b);
    const post = async (token: string, path: string, body: unknown) =>
      ok<{ id: string }>(await call(token, path, { method: "POST", body: JSON.stringify(body) }), path);
    if (PHASES.has("replay")) {
      facilityA = (await post(tokenA, "v1/facilities/", { name: "Шахта «Нагрузка»", kind: "underground_mine" })).id;
      const sensors: string[] = [];
      for (let s = 0; s < SENSORS; s++) {
        const body = { code: `М-${s + 1}`, kind: "methane", working: `Лава ${s + 1}`, warning: 1, alarm: 2 };
        sensors.push((await post(tokenA, `v1/facilities/${facilityA}/sensors/`, body)).id);
      }
      const bytes = exportBytes();
      for (let i = 0; i < 5; i++) pending.push(await uploaded(local.url, call, tokenA, facilityA, bytes));
      console.log(
        `the export ${(bytes.byteLength / 1048576).toFixed(1)} MB uploaded 5 times; ${Math.round((performance.now() - seeding) / 1000)} s`,
      );
      for (const [s, sensor] of sensors.entries()) {
        const days = Array.from({ length: DAYS }, async (_, d) => {
          const offsets: number[] = [];
          const values: number[] = [];
          for (let m = d * 1440; m < (d + 1) * 1440; m++) {
            if (heldBack(s, m)) continue;
            offsets.push((m - d * 1440) * MINUTE + 20_000);
            values.push(valueAt(s, m));
          }
          const day = new Date(FIRST + d * DAY).toISOString().slice(0, 10);
          const stored = await local.deps.repos.monitoring.putDay(
            {
              company: a.id,
              sensor,
              day,
              offsets: Uint32Array.from(offsets),
              values: Float64Array.from(values),
              applied: { "trust-replay": [offsets.length, 0, 0] },
              corrections: [],
              compacted: true,
              version: 1,
            },
            0,
          );
          if (!stored) throw new Error("trust-replay: a day was not stored");
        });
        await Promise.all(days);
      }
      console.log(`stored ${SENSORS * DAYS} sensor-days; ${Math.round((performance.now() - seeding) / 1000)} s`);
    }
    facilityB = (await post(tokenB, "v1/facilities/", { name: "Шахта «Мерило»", kind: "underground_mine" })).id;
    for (const body of JOURNAL_SENSORS()) await post(tokenB, `v1/facilities/${facilityB}/sensors/`, body);
    for (const code of JOURNAL_CODES) await post(tokenB, "v1/telemetry/readings/", { facility: facilityB, readings: readingsOf(code) });
    gatewayB = (
      await ok<{ key: string }>(
        await call(tokenB, `v1/facilities/${facilityB}/gateway-keys/`, { method: "POST", body: JSON.stringify({ label: "Шлюз Б" }) }),
        "B's gateway key",
      )
    ).key;
    if (PHASES.has("bulkheads")) {
      const tokenKeeper = await signIn(local.url, emails.keeper);
      const facility = (await post(tokenKeeper, "v1/facilities/", { name: "Шахта «Предел»", kind: "underground_mine" })).id;
      const meters: string[] = [];
      for (let s = 1; s <= 3; s++) {
        const body = { code: `Г-${s}`, kind: "methane", working: "Лава Г", warning: 1, alarm: 2 };
        meters.push((await post(tokenKeeper, `v1/facilities/${facility}/sensors/`, body)).id);
      }
      const shifts = await facilityShifts(local.deps, a.id, facility);
      const seeded = await seedMaxima(local.deps, {
        by: users.get("keeper")!,
        taker: users.get("taker")!,
        facility,
        yearMeters: meters,
        handoversUntil: shifts.span(shifts.at(Date.now()))!.from,
      });
      console.log(`A's mine at the maxima: ${maximaLine(seeded)}`);
      maxima = { facility, sensor: meters[0], verification: seeded.certificate.verification };
    }
    if (PHASES.has("live")) {
      live = await seedLive(call, tokenA);
      console.log(
        `the live mine: ${LIVE_SENSORS} meters × ${LIVE_HOURS} h of minutes applied; ${Math.round((performance.now() - seeding) / 1000)} s`,
      );
    }
    if (PHASES.has("replay")) {
      const started = await ok<{ id: string; status_url: string }>(
        await startReconciliation(call, tokenA, facilityA, pending.shift()!),
        "the first reconciliation",
      );
      const reconciling = performance.now();
      for (;;) {
        const record = await ok<{ state: string; days_count: number }>(await call(tokenA, started.status_url.replace(/^\/api\//, "")), "");
        if (record.state === "done") {
          console.log(`the reconciliation done in ${Math.round((performance.now() - reconciling) / 1000)} s: ${record.days_count} rows`);
          break;
        }
        if (record.state === "failed") throw new Error("trust-replay: the first reconciliation failed");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      done = started.id;
    }
    await local.settled();
  } finally {
    await local.close();
  }
  console.log(`seeded in ${Math.round((performance.now() - seeding) / 1000)} s; load ${load()}`);
  return { facilityA, facilityB, done, pending, live, gatewayB, maxima };
}

export async function run(): Promise<void> {
  // TRUST_DATA_DIR: a folder seeded once (TRUST_SEED_ONLY=1 seeds it and stops) and measured later, on a
  // quieter machine; a folder measured is used up (its reconciliations started, its jobs cut by the stop).
  const dataDir = process.env.TRUST_DATA_DIR ?? mkdtempSync(join(tmpdir(), "trust-replay-"));
  const seedFile = join(dataDir, "trust-replay.json");
  let child: ChildProcess | undefined;
  try {
    console.log(
      `phases ${[...PHASES].join(", ")}; ${SENSORS} meters × ${DAYS} days; floods for ${SECONDS} s; ` +
        `the bulkheads' for ${FLOOD_SECONDS} s each; load at start ${load()}`,
    );
    if (!existsSync(seedFile)) writeFileSync(seedFile, JSON.stringify(await seed(dataDir)));
    if (process.env.TRUST_SEED_ONLY) return;
    const seeded = JSON.parse(readFileSync(seedFile, "utf8")) as Seeded;
    const { facilityA, facilityB, done, pending, live } = seeded;

    const server = await startServerProcess(dataDir);
    child = server.child;
    const ended = ending(server.child);
    const call = apiCall(server.url);
    const clientOfB = clientThread();
    const b: ClientB = { url: server.url, send: clientOfB.send };
    const tokens = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await signIn(server.url, emails[name])])));
    const from = dateOf(FIRST + DAY);
    const to = dateOf(FIRST + 92 * DAY);
    const middle = dateOf(FIRST + Math.floor(DAYS / 2) * DAY);
    const pdfPathB = `v1/telemetry/journal/?facility=${facilityB}&date=2026-03-02&format=pdf`;
    // Threads warmed: the figures alone are a warm server's.
    await pdfTime(call, tokens.b, pdfPathB);
    if (facilityA)
      await ok(await call(tokens.gassings, `v1/telemetry/gassings/?facility=${facilityA}&from=${from}&to=${from}`), "a warming read");

    let going = true;
    const quietGetMe: number[] = [];
    const quietProbe = probeGetMe(b, tokens.b, () => going, quietGetMe);
    const alonePdf: number[] = [];
    const alonePush: number[] = [];
    for (let i = 0; i < 3; i++) alonePdf.push(await pdfTime(call, tokens.b, pdfPathB));
    for (let i = 0; i < 3; i++) alonePush.push(await pushToDone(call, tokens.b, facilityB, i));
    going = false;
    await quietProbe;
    console.log(`B alone: get_me ${ms(quietGetMe)}; push → done ${ms(alonePush)}; journal PDF ${ms(alonePdf)}; load ${load()}`);

    // A's live tiles and a working's day chart flooded alone, B measured meanwhile.
    if (PHASES.has("live") && live && LIVE_SECONDS > 0) {
      going = true;
      const liveTallies = { tiles: newTally(), charts: newTally() };
      const liveFloods = Promise.all([
        getLanes(call, tokens.live, `v1/telemetry/live/?facility=${live}`, 10, () => going, liveTallies.tiles),
        getLanes(
          call,
          tokens.chart,
          `v1/telemetry/live/chart/?facility=${live}&working=${encodeURIComponent("Лава 1")}`,
          10,
          () => going,
          liveTallies.charts,
        ),
      ]);
      const liveGetMe: number[] = [];
      const livePdfs: number[] = [];
      const liveProbes = Promise.all([
        probeGetMe(b, tokens.b, () => going, liveGetMe),
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          while (going) livePdfs.push(await pdfTime(call, tokens.b, pdfPathB).catch(() => Number.NaN));
        })(),
      ]);
      await new Promise((resolve) => setTimeout(resolve, LIVE_SECONDS * 1000));
      const loadThen = load();
      going = false;
      await Promise.all([liveFloods, liveProbes]);
      const pdfs = livePdfs.filter((v) => !Number.isNaN(v));
      console.log(
        `B under A's live floods (${LIVE_SENSORS} meters, ${LIVE_SECONDS} s): get_me ${ms(liveGetMe)} (${liveGetMe.length} calls); ` +
          `journal PDF ${ms(pdfs)} (${livePdfs.length}; alone p50 ${percentile(alonePdf, 0.5).toFixed(0)} ms); load ${loadThen}`,
      );
      const answered = (tally: FloodTally) => ms(tally.requests.flatMap((r) => (r.status === 200 ? [r.ended - r.sent] : [])));
      console.log(
        `A's live floods: tiles ${tallyLine(liveTallies.tiles)} (answered ${answered(liveTallies.tiles)}); ` +
          `day charts ${tallyLine(liveTallies.charts)} (answered ${answered(liveTallies.charts)})`,
      );
      const liveGoals = [
        [`get_me p50 < 50 ms`, percentile(liveGetMe, 0.5) < 50],
        [`get_me p95 < 250 ms`, percentile(liveGetMe, 0.95) < 250],
        [`PDF within 2× alone`, percentile(pdfs, 0.5) <= 2 * percentile(alonePdf, 0.5)],
      ] as const;
      console.log(`live goals: ${liveGoals.map(([goal, met]) => `${goal} ${met ? "met" : "MISSED"}`).join("; ")}`);
    }

    if (PHASES.has("bulkheads") && seeded.maxima) await bulkheads(b, call, tokens, seeded, server.child.pid!);

    if (!PHASES.has("replay")) {
      server.child.kill("SIGTERM");
      const exit = await ended;
      console.log(`the server ended (${exit.code ?? exit.signal}); load ${load()}`);
      return;
    }
    going = true;
    const flooding = () => going;
    const tallies = { reads: newTally(), gassings: newTally(), journals: newTally(), reconciliations: newTally() };
    // The reconciliations asked first: each is a job holding one of A's four heavy-work slots for minutes,
    // so asked last they found the slots always taken by the reads and were never started.
    const reconciliations = pending.map(async (fileUpload) => {
      while (going) {
        const status = await counted(() => startReconciliation(call, tokens.reconciler, facilityA, fileUpload), tallies.reconciliations);
        if (status !== 429) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const cpuBefore = threadCpu(server.child.pid!);
    const floods = Promise.all([
      ...reconciliations,
      getLanes(call, tokens.reader, `v1/telemetry/reconciliations/${done}/`, 10, flooding, tallies.reads),
      getLanes(call, tokens.gassings, `v1/telemetry/gassings/?facility=${facilityA}&from=${from}&to=${to}`, 10, flooding, tallies.gassings),
      getLanes(
        call,
        tokens.journals,
        `v1/telemetry/journal/?facility=${facilityA}&date=${middle}&format=pdf`,
        12,
        flooding,
        tallies.journals,
      ),
    ]);
    const getMe: number[] = [];
    const pushes: number[] = [];
    const pdfs: number[] = [];
    const probes = Promise.all([
      probeGetMe(b, tokens.b, flooding, getMe),
      (async () => {
        for (let n = 10; going; n++) {
          pushes.push(await pushToDone(call, tokens.b, facilityB, n).catch(() => Number.NaN));
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
      })(),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        while (going) pdfs.push(await pdfTime(call, tokens.b, pdfPathB).catch(() => Number.NaN));
      })(),
    ]);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const loadThen = load();
    const cpuAfter = threadCpu(server.child.pid!);
    const finished = (values: number[]) => values.filter((v) => !Number.isNaN(v));
    console.log(
      `B under the floods: get_me ${ms(getMe)} (${getMe.length} calls); push → done ${ms(finished(pushes))} ` +
        `(${pushes.length}); journal PDF ${ms(finished(pdfs))} (${pdfs.length}; alone p50 ${percentile(alonePdf, 0.5).toFixed(0)} ms); ` +
        `load ${loadThen}`,
    );
    console.log(
      `A's floods: reconciliation reads ${tallyLine(tallies.reads)}; gassings ${tallyLine(tallies.gassings)}; ` +
        `journal PDFs ${tallyLine(tallies.journals)}; reconciliations ${tallyLine(tallies.reconciliations)}`,
    );

    console.log(`the server's CPU over the ${SECONDS} s, by thread: ${cpuSpent(cpuBefore, cpuAfter, server.child.pid!)}`);

    // SIGTERM under all of them at once.
    const sent = performance.now();
    server.child.kill("SIGTERM");
    const killer = setTimeout(() => server.child.kill("SIGKILL"), 30_000);
    const exit = await ended;
    clearTimeout(killer);
    going = false;
    await Promise.race([Promise.all([floods, probes]), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    const took = (exit.at - sent) / 1000;
    const errors = exit
      .output()
      .split("\n")
      .filter((line) => /error|ошибк|не завершилась/i.test(line));
    console.log(
      `SIGTERM to exit under all of them: ${took.toFixed(2)} s (exit ${exit.code ?? exit.signal}; load ${load()})` +
        (errors.length ? `; its errors:\n${errors.slice(0, 10).join("\n")}` : ""),
    );
    const goals = [
      [`get_me p50 < 50 ms`, percentile(getMe, 0.5) < 50],
      [`get_me p95 < 250 ms`, percentile(getMe, 0.95) < 250],
      [`push → done p50 < 1 s`, percentile(finished(pushes), 0.5) < 1000],
      [`PDF within 2× alone`, percentile(finished(pdfs), 0.5) <= 2 * percentile(alonePdf, 0.5)],
      [`SIGTERM end within 5 s`, took < 5],
    ] as const;
    console.log(`goals: ${goals.map(([goal, met]) => `${goal} ${met ? "met" : "MISSED"}`).join("; ")}`);
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    if (!process.env.TRUST_SEED_ONLY) rmSync(dataDir, { recursive: true, force: true });
  }
}
