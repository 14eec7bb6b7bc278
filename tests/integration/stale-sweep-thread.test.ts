// D65's stale sweep off the request thread. With 5 000 sensors in service and their
// gateway silent, the sweep kept the request thread about 40 % busy (another company's p50 24 ms) and
// took some 10 minutes to mark them all. On the local server as `npm start` runs it, the sweep now runs
// in the consumer's thread, where the readings are applied, reading each facility's kept heads: here a
// channel silent for 10 minutes is found stale by a sweep that reads nothing through the request
// thread's storage (the server's clock moved on, so it need not wait).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCompany, createUser } from "@server/domain/company/users";
import { startLocalServer, type LocalServer } from "@server/local/server";

const PASSWORD = "stale-sweep-thread-2026";
let server: LocalServer;
/** The server's clock, moved on by the test: the channel falls silent without waiting. */
let shift = 0;
const clock = { now: () => new Date(Date.now() + shift) };
let token: string;
let facility: string;

const api = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; batch: string };
};

beforeAll(async () => {
  server = await startLocalServer({ port: 0, clock });
  const suffix = randomBytes(3).toString("hex");
  const company = await createCompany(server.deps, { name: `Шахта тишины ${suffix}` });
  const email = `quiet-${suffix}@stale-sweep.example`;
  await createUser(server.deps, { companyId: company.id, email, password: PASSWORD });
  const signIn = await fetch(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
  });
  token = ((await signIn.json()) as { access: string }).access;
  facility = (await api("v1/facilities/", { name: "Шахта «Тишина»", kind: "underground_mine" })).id;
  await api(`v1/facilities/${facility}/sensors/`, { code: "М-1", kind: "methane", working: "Лава 1" });
}, 120_000);
afterAll(() => server?.close());

it("finds a silent channel in the consumer's thread, reading nothing on the request thread", async () => {
  // Readings up to half a minute ago, applied by the consumer's thread; then 10 minutes of silence.
  const end = clock.now().getTime() - 30_000;
  const readings = Array.from({ length: 10 }, (_, k) => ({ sensor: "М-1", t: new Date(end - k * 60_000).toISOString(), value: 0.4 }));
  const { batch } = await api("v1/telemetry/readings/", { facility, readings });
  const company = (await server.deps.repos.facilities.list((await server.deps.repos.companies.list()).at(-1)!.id))[0]?.company;
  await expect
    .poll(async () => (await server.deps.repos.monitoring.getBatch(company ?? "", batch))?.state, { timeout: 60_000 })
    .toBe("done");
  shift += 10 * 60_000;
  const consumer = server.deps.readingsConsumer!;
  // The request thread's storage, watched: the sweep must not read through it.
  const repos = server.deps.repos;
  const read: string[] = [];
  const watched = ["sensorEvents", "monitoring", "sensors", "facilities", "companies"] as const;
  const kept = watched.map((name) => [name, repos[name]] as const);
  for (const [name, repository] of kept) {
    (repos as unknown as Record<string, unknown>)[name] = new Proxy(repository, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        return typeof value === "function"
          ? (...args: unknown[]) => {
              read.push(`${name}.${String(key)}`);
              return value.apply(target, args);
            }
          : value;
      },
    });
  }
  let found: number | undefined;
  try {
    found = await consumer.sweepStale!();
  } finally {
    for (const [name, repository] of kept) (repos as unknown as Record<string, unknown>)[name] = repository;
  }
  // One (the server's own sweep, in the thread too, may have found it a moment before: then none).
  expect([0, 1]).toContain(found);
  expect(read).toEqual([]);
  const events = await server.deps.repos.sensorEvents.listOfFacility(
    company!,
    facility,
    new Date(end - 3_600_000).toISOString(),
    new Date(clock.now().getTime() + 60_000).toISOString(),
  );
  expect(events.filter((e) => e.kind === "stale" && e.end === null)).toHaveLength(1);
}, 120_000);
