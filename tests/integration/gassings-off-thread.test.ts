// the gassings register of 92 days folds its stored minutes off the request thread.
// In its route's heavy-work slot the fold still ran on the request thread: A's 10 reads of 92 days took
// B's get_me p95 to 2 s. On the local server as `npm start` runs it (the engine and the spreadsheet
// threads in threads of their own, the server in this process), company A reads its register of 92
// days (8 methane meters, a reading a minute, a gassing a day each) while this thread's event loop is
// watched and company B asks get_me every 20 ms: the loop is never held for a second, and B's get_me p95
// stays under the 250 ms. Before the fix, at load 28: the loop held 3,6 s at once, B's get_me
// p95 3,9 s (3 calls in 4,4 s); after it, at load 27: held at most 0,43 s, p95 76 ms (363 calls). A warm
// thread reads the register in 2,2–3,0 s, as the request thread did (2,7–4,2 s).
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCompany, createUser } from "@server/domain/company/users";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { percentile } from "../support/live-stream";

const METERS = 8;
const DAYS = 92;
const PASSWORD = "gassings-off-thread-2026";
const MINUTE = 60_000;
const DAY = 86_400_000;
/** The register's first UTC day: far enough back that every day is compacted (no minute items). */
const FIRST = Date.UTC(2026, 0, 1);

let server: LocalServer;
let a: string;
let b: string;
let facility: string;

const call = (token: string, path: string) => fetch(`${server.url}/api/${path}`, { headers: { Authorization: `Bearer ${token}` } });
async function signIn(email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status}`);
  return ((await res.json()) as { access: string }).access;
}

/** A meter's day: a reading a minute around 0,4 %, at 2,6 % for 12 minutes from a time of its own. */
function meterDay(meter: number, day: number): { offsets: Uint32Array; values: Float64Array } {
  const offsets = new Uint32Array(1440);
  const values = new Float64Array(1440);
  const rise = 120 + ((meter * 97 + day * 31) % 1200);
  for (let m = 0; m < 1440; m++) {
    offsets[m] = m * MINUTE + 20_000;
    values[m] = m >= rise && m < rise + 12 ? 2.6 : Math.round((0.4 + 0.2 * Math.sin((m + meter * 13) / 41)) * 1000) / 1000;
  }
  return { offsets, values };
}

beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
  const suffix = randomBytes(3).toString("hex");
  const emails: string[] = [];
  const companies: string[] = [];
  for (const name of ["a", "b"]) {
    const company = await createCompany(server.deps, { name: `Шахта ${name}-${suffix}` });
    const email = `${name}-${suffix}@gassings-off-thread.example`;
    await createUser(server.deps, { companyId: company.id, email, password: PASSWORD });
    emails.push(email);
    companies.push(company.id);
  }
  [a, b] = await Promise.all(emails.map(signIn));
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${a}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  facility = (await post("v1/facilities/", { name: "Шахта «Реестр»", kind: "underground_mine" })).id;
  const company = companies[0];
  for (let meter = 0; meter < METERS; meter++) {
    const sensor = await post(`v1/facilities/${facility}/sensors/`, {
      code: `М-${meter + 1}`,
      kind: "methane",
      working: `Лава ${meter + 1}`,
      warning: 1,
      alarm: 2,
    });
    for (let day = 0; day < DAYS + 1; day++) {
      const stored = await server.deps.repos.monitoring.putDay(
        {
          company,
          sensor: sensor.id,
          day: new Date(FIRST + day * DAY).toISOString().slice(0, 10),
          ...meterDay(meter, day),
          applied: { seeded: [1440, 0, 0] },
          corrections: [],
          compacted: true,
          version: 1,
        },
        0,
      );
      if (!stored) throw new Error("a day was not stored");
    }
  }
}, 300_000);
afterAll(() => server?.close());

it("A's register of 92 days does not hold the request thread, nor B's get_me", async () => {
  const to = new Date(FIRST + (DAYS - 1) * DAY).toISOString().slice(0, 10);
  const path = `v1/telemetry/gassings/?facility=${facility}&from=2026-01-01&to=${to}`;
  const latencies: number[] = [];
  let reading = true;
  const probe = (async () => {
    while (reading) {
      const started = performance.now();
      const res = await call(b, "v1/users/get_me/");
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  let gassings = 0;
  try {
    // Two reads of A in flight: the company's turn runs them one after the other in the threads.
    for (const res of await Promise.all([call(a, path), call(a, path)])) {
      expect(res.status, await res.clone().text()).toBe(200);
      gassings = ((await res.json()) as { results: unknown[] }).results.length;
    }
  } finally {
    loop.disable();
    reading = false;
    await probe;
  }
  const seconds = (performance.now() - started) / 1000;
  const held = loop.max / 1e6;
  const p95 = percentile(latencies, 0.95);
  console.log(
    `2 × the register of ${DAYS} days (${METERS} meters, ${gassings} gassings): ${seconds.toFixed(1)} s; the request thread ` +
      `held at most ${held.toFixed(0)} ms; B's get_me p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms ` +
      `(${latencies.length} calls; load ${loadavg()[0].toFixed(1)})`,
  );
  expect(gassings).toBeGreaterThanOrEqual(DAYS);
  expect(latencies.length).toBeGreaterThan(5);
  expect(p95).toBeLessThan(250);
  // The fold on the request thread held it 3,6 s at once (load 28); the thread's answer is only sent here.
  expect(held).toBeLessThan(1_000);
}, 120_000);

it("the journal's minutes, JSON and PDF, are read by the threads too", async () => {
  const threads = server.deps.spreadsheets;
  const read = threads.minutesRead!.bind(threads);
  const asked: string[] = [];
  threads.minutesRead = (actor, what) => {
    asked.push(what.read);
    return read(actor, what);
  };
  try {
    const date = new Date(FIRST + 10 * DAY).toISOString().slice(0, 10);
    const json = await call(a, `v1/telemetry/journal/?facility=${facility}&date=${date}`);
    expect(json.status, await json.clone().text()).toBe(200);
    expect(((await json.json()) as { sensors: unknown[] }).sensors).toHaveLength(METERS);
    const pdf = await call(a, `v1/telemetry/journal/?facility=${facility}&date=${date}&format=pdf`);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect(asked).toEqual(["journal", "journal"]);
  } finally {
    threads.minutesRead = read;
  }
}, 60_000);

it("a year's completeness and offers, and a working's day chart, are read by the threads too", async () => {
  const threads = server.deps.spreadsheets;
  const read = threads.minutesRead!.bind(threads);
  const asked: string[] = [];
  threads.minutesRead = (actor, what) => {
    asked.push(what.read);
    return read(actor, what);
  };
  try {
    const completeness = await call(a, `v1/facilities/${facility}/sensors/completeness/?year=2026`);
    expect(completeness.status, await completeness.clone().text()).toBe(200);
    const sensors = (await completeness.json()) as { code: string; months: { month: string }[] }[];
    expect(sensors.map((s) => s.code)).toEqual(Array.from({ length: METERS }, (_, m) => `М-${m + 1}`));
    expect(sensors[0].months.map((m) => m.month).slice(0, 3)).toEqual(["2026-01", "2026-02", "2026-03"]);
    const offers = await call(a, `v1/telemetry/offers/?facility=${facility}&year=2026`);
    expect(offers.status, await offers.clone().text()).toBe(200);
    expect(await offers.json()).toEqual([]);
    const chart = await call(a, `v1/telemetry/live/chart/?facility=${facility}&working=${encodeURIComponent("Лава 1")}`);
    expect(chart.status, await chart.clone().text()).toBe(200);
    expect(((await chart.json()) as { meters: { code: string }[] }).meters.map((m) => m.code)).toEqual(["М-1"]);
    // Another company's facility is 404 from the thread as from the request thread.
    expect((await call(b, `v1/facilities/${facility}/sensors/completeness/?year=2026`)).status).toBe(404);
    expect(asked).toEqual(["completeness", "offers", "live_chart", "completeness"]);
  } finally {
    threads.minutesRead = read;
  }
}, 60_000);
