// the security review's R4, measured as the red team did: the local server as `npm start` runs it, in a process of
// its own, while one user keeps ten evaluations of 50 streams each in flight (POST
// v1/abatement/evaluate/, every option of every stream evaluated), another company's get_me is asked
// every 40 ms from this process. The evaluations run in the scoring threads, one per company at a time,
// in the user's and the company's heavy-work slots (the rest refused 429 at once, asked again after
// 200 ms): another company's get_me p50 stays under 50 ms (before: 762 ms, p90 4,6 s), or on a machine
// loaded beside the test under twice its quiet p50.
import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";
import { vectorParams } from "../support/abatement-vectors";

const IN_FLIGHT = 10;
const STREAMS = 50;
const BURST_SECONDS = 12;
const PASSWORD = "abatement-burst-2026";

let server: { child: ChildProcess; url: string };
let dataDir: string;
let staff: string;
let other: string;

const call = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
  });

async function json<T>(token: string, path: string, body: unknown): Promise<T> {
  const res = await call(token, path, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const signIn = async (email: string) => {
  const res = await fetch(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status}`);
  return ((await res.json()) as { access: string }).access;
};

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
};

/** 50 streams, each with every option its code allows (no options named): drainage at engine
 *  concentrations with a capture upgrade, and shafts for the oxidisers, each a little different. */
const body = (n: number) =>
  JSON.stringify({
    streams: Array.from({ length: STREAMS }, (_, i) =>
      i % 2 === 0
        ? { code: `d${i}`, kind: "drainage", q_mix_m3_min: 20 + i + n / 1000, c_ch4_pct: 20 + (i % 70) }
        : { code: `s${i}`, kind: "ventilation", q_air_m3_s: 150 + i + n / 1000, c_ch4_pct: 0.3 + (i % 7) / 10 },
    ),
    params: vectorParams(),
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "fugitive-abatement-burst-"));
  server = await startServerProcess(dataDir);
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "functions/src/admin/cli.ts", "create-user", "--company", "Оператор", "--new-company"].concat([
      "--email",
      "operator@abatement-burst.example",
      "--password",
      PASSWORD,
      "--role",
      "admin",
    ]),
    { env: { ...process.env, DATA_DIR: dataDir } },
  );
  const operator = await signIn("operator@abatement-burst.example");
  const company = await json<{ id: string }>(operator, "v1/admin/companies/", { name: "Шахта Оценочная" });
  await json(operator, `v1/admin/companies/${company.id}/users/`, {
    email: "staff@abatement-burst.example",
    password: PASSWORD,
    first_name: "Иван",
    last_name: "Петров",
  });
  staff = await signIn("staff@abatement-burst.example");
  other = (await signInAsDemo(server.url)).access;
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) {
    const exited = new Promise((done) => server.child.once("exit", done));
    server.child.kill("SIGTERM");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("one user's abatement evaluations of 50 streams, ten in flight", () => {
  it("do not hold another company's get_me", async () => {
    const statuses = new Map<number, number>();
    const served: number[] = [];
    let latencies: number[] = [];
    let working = true;
    const probe = async () => {
      while (working) {
        const started = performance.now();
        const res = await call(other, "v1/users/get_me/");
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`get_me answered ${res.status}`);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    };
    // Quiet first: the machine's own pace, which a loaded machine (the suite beside it) slows too.
    const quietProbe = probe();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    working = false;
    await quietProbe;
    const quiet = percentile(latencies, 0.5);
    latencies = [];
    working = true;
    const burstProbe = probe();
    const until = performance.now() + BURST_SECONDS * 1000;
    try {
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async (_, i) => {
          for (let n = i; performance.now() < until; n += IN_FLIGHT) {
            const asked = performance.now();
            const res = await call(staff, "v1/abatement/evaluate/", { method: "POST", body: body(n) });
            const answer = await res.text();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status === 200) {
              served.push(performance.now() - asked);
              expect((JSON.parse(answer) as { streams: unknown[] }).streams).toHaveLength(STREAMS);
            }
            // A refused evaluation (429: the user's heavy-work slots taken) is asked again after a pause.
            if (res.status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }),
      );
    } finally {
      working = false;
      await burstProbe;
    }
    const p50 = percentile(latencies, 0.5);
    console.log(
      `1 user × ${IN_FLIGHT} in flight of ${STREAMS}-stream evaluations for ${BURST_SECONDS} s: ` +
        `${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")} (served p50 ${percentile(served, 0.5).toFixed(0)} ms); ` +
        `another company's get_me p50 ${p50.toFixed(1)} ms, p90 ${percentile(latencies, 0.9).toFixed(1)} ms, ` +
        `max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} calls; quiet p50 ${quiet.toFixed(1)} ms; load ${loadavg()[0].toFixed(1)})`,
    );
    expect(
      [...statuses.keys()].every((status) => status === 200 || status === 429),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    // an earlier round's bound, 50 ms; on a machine loaded beside the test (the quiet p50 itself over 25 ms)
    // twice the quiet p50: the burst may not add to what the machine already costs.
    expect(p50).toBeLessThan(Math.max(50, 2 * quiet));
  }, 180_000);
});
