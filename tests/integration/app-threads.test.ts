// The bulkheads (functions/src/local/app-threads.ts, docs/architecture.md «The front thread and the app
// threads»): with the routes in app threads, a company's heavy reads fold on its lane's thread while the
// front thread only accepts and streams and another company's requests run on another thread; bodies
// and answers cross whole; a thread that dies answers its requests 503 and is replaced.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompany, createUser } from "@server/domain/company/users";
import { createSensor } from "@server/domain/monitoring/ingest/register";
import type { Actor } from "@server/domain/context";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { multipart, pdfBytes } from "../support/admin";
import { clientThread } from "../support/client-thread";
import { watchHolds } from "../support/front-hold";

/** Meters on A's mine: its register's read folds them for far longer than the front's budget. */
const METERS = 600;
const FRONT_BUDGET_MS = 50;
const PASSWORD = "app-threads-2026";

let server: LocalServer;
let dataDir: string;
const a = { token: "", company: "", facility: "" };
const b = { token: "", company: "" };

async function signIn(email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

/** `lanes` clients each reading `url` `rounds` times, sent and read in a client thread (client-thread.ts):
 *  their answers' statuses and when the last one was answered here. */
async function floodFrom(
  url: string,
  token: string,
  size: { lanes: number; rounds: number },
): Promise<{ statuses: number[]; last: number }> {
  const client = clientThread();
  const statuses: number[] = [];
  try {
    await Promise.all(
      Array.from({ length: size.lanes }, async () => {
        for (let round = 0; round < size.rounds; round++)
          statuses.push((await client.send({ url, method: "GET", headers: { Authorization: `Bearer ${token}` } })).status);
      }),
    );
    return { statuses, last: performance.timeOrigin + performance.now() };
  } finally {
    await client.close();
  }
}

const get = (token: string, path: string) => fetch(`${server.url}/api/${path}`, { headers: { Authorization: `Bearer ${token}` } });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "app-threads-"));
  server = await startLocalServer({ dataDir, port: 0, appThreads: 2 });
  for (const [who, name] of [
    [a, "Шахта Нагруженная"],
    [b, "Шахта Соседняя"],
  ] as const) {
    who.company = (await createCompany(server.deps, { name })).id;
    await createUser(server.deps, { companyId: who.company, email: `${who.company}@threads.example`, password: PASSWORD });
    who.token = await signIn(`${who.company}@threads.example`);
  }
  const made = await fetch(`${server.url}/api/v1/facilities/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${a.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Шахта «Глубокая»", kind: "underground_mine" }),
  });
  expect(made.status).toBe(201);
  a.facility = ((await made.json()) as { id: string }).id;
  const user = (await server.deps.repos.users.listByCompany(a.company))[0];
  const actor = { id: user.id, company: a.company, email: user.email, role: user.role } as Actor;
  for (let m = 0; m < METERS; m++)
    await createSensor(server.deps, actor, a.facility, { code: `М-${m + 1}`, kind: "methane", working: `Лава ${1 + (m % 20)}` } as never);
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the app threads", () => {
  it("fold one company's heavy reads on its lane's thread: the front is never held and another company's get_me is answered meanwhile", async () => {
    const alone = performance.now();
    expect((await get(a.token, `v1/facilities/${a.facility}/sensors/`)).status).toBe(200);
    const oneRead = performance.now() - alone;
    // Measured up to three times, the least hold kept: a fold holds the front each time, a collection of
    // this process's heap (the test's own, the server's front shares it) once.
    const holds: number[] = [];
    for (let measure = 0; measure < 3 && !(Math.min(...holds) < FRONT_BUDGET_MS); measure++) {
      const watch = watchHolds();
      // A's flood from a thread of its own: the client's parsing of its answers would hold this thread,
      // the front's, itself.
      const flood = floodFrom(`${server.url}/api/v1/facilities/${a.facility}/sensors/`, a.token, { lanes: 10, rounds: 2 });
      // B's reads begin once A's are in flight, and end before A's last one does.
      const inFlight = () => server.appThreads?.state().lanes.get(`company:${a.company}`)?.inFlight ?? 0;
      for (let waited = 0; inFlight() === 0 && waited < 5_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      const lanes = server.appThreads?.state().lanes;
      const bDone: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await get(b.token, "v1/users/get_me/");
        expect(res.status).toBe(200);
        bDone.push(performance.timeOrigin + performance.now());
      }
      const { statuses, last: lastOfA } = await flood;
      holds.push(watch.stop());
      expect(statuses).toEqual(Array(20).fill(200));
      expect(lanes?.get(`company:${a.company}`)?.inFlight, "A's lane in flight").toBeGreaterThan(0);
      expect(Math.max(...bDone), `B's five get_me (A's one read alone ${Math.round(oneRead)} ms)`).toBeLessThan(lastOfA);
    }
    console.log(
      `A's register of ${METERS} alone ${Math.round(oneRead)} ms; the front's longest holds ${holds.map((h) => h.toFixed(1)).join(", ")} ms`,
    );
    expect(Math.min(...holds), "the front thread's longest hold, ms").toBeLessThan(FRONT_BUDGET_MS);
  }, 300_000);

  it("give a lane the thread the fewest lanes hold, and one thread at a time", async () => {
    const pending = [get(a.token, `v1/facilities/${a.facility}/sensors/`), get(a.token, `v1/facilities/${a.facility}/sensors/`)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const other = get(b.token, "v1/users/get_me/");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { lanes } = server.appThreads!.state();
    const laneA = lanes.get(`company:${a.company}`);
    const laneB = lanes.get(`company:${b.company}`);
    await Promise.all([...pending, other].map(async (p) => (await p).arrayBuffer()));
    expect(laneA?.inFlight).toBe(2);
    if (laneB) expect(laneB.thread).not.toBe(laneA?.thread);
  });

  it("carry a body and an answer whole: a 3 MB certificate scan up, the same bytes down", async () => {
    const facility = a.facility;
    const sensors = (await (await get(a.token, `v1/facilities/${facility}/sensors/`)).json()) as { id: string }[];
    const sensor = sensors[0].id;
    const verification = await fetch(`${server.url}/api/v1/facilities/${facility}/sensors/${sensor}/verifications/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${a.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0419",
        verified_on: "2026-03-01",
        valid_to: "2027-02-28",
        certificate: "С-2026/0301",
      }),
    });
    expect(verification.status, await verification.clone().text()).toBe(201);
    const id = ((await verification.json()) as { id: string }).id;
    const scan = pdfBytes(3 * 1024 * 1024 + randomBytes(1)[0], "through the app threads");
    const { body, headers } = await multipart({}, { name: "Свидетельство.pdf", bytes: scan });
    const put = await fetch(`${server.url}/api/v1/facilities/${facility}/sensors/${sensor}/verifications/${id}/certificate/`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${a.token}`, ...headers },
      body: body as Uint8Array<ArrayBuffer>,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const down = await get(a.token, `v1/facilities/${facility}/sensors/${sensor}/verifications/${id}/certificate/`);
    expect(down.status).toBe(200);
    const bytes = new Uint8Array(await down.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(scan).digest("hex"));
    expect(down.headers.get("Content-Disposition")).toMatch(/^attachment/);
  });

  it("feed the table stream with their writes: a project made in a thread is counted once the server settles", async () => {
    for (const name of ["Первый", "Второй"]) {
      const res = await fetch(`${server.url}/api/v1/projects/create_project/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${b.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name, start_date: "2014-01-01", end_date: "2024-12-31" }),
      });
      expect(res.status).toBe(201);
    }
    await server.settled();
    const stats = (await (await get(b.token, "v1/users/statistics/")).json()) as { projects: { active: number } };
    expect(stats.projects.active).toBe(2);
  });

  it("answer a request whose thread died 503 in JSON, and the next on a new thread", async () => {
    const pending = get(a.token, `v1/facilities/${a.facility}/sensors/`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await server.appThreads!.stopThreadOf(`company:${a.company}`);
    const res = await pending;
    if (res.status !== 200) {
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/повторите запрос/);
    }
    expect((await get(a.token, "v1/users/get_me/")).status).toBe(200);
  });
});
