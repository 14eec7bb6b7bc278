// R7 (and an earlier round, R8, item 13): `POST v1/telemetry/readings/` was outside both paces — one
// user's token reached 484 requests a second, junk bearer tokens there were never 429, and junk
// `Gateway …` keys cost a hash and a query each. On the local server, on clocks the test moves: a
// user's token pushes at the user's pace (waiting in the user's own line), a gateway key at its own
// pace (GATEWAY_REQUEST_BURST, GATEWAY_REQUESTS_PER_SECOND), and junk tokens and keys spend the
// address's refusals, after which the address is answered 429 before any key is hashed or looked up —
// at the server's first gate, for a valid token from that address too, at once. Order, not time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { refusalPace, requestPace, type RefusalPace, type RequestPace } from "@server/http/request-pace";
import { accessToken } from "../support/server";
import { manualClock } from "../support/manual-clock";

const userClock = manualClock();
const gatewayClock = manualClock();
const refusalClock = manualClock();
const REFUSALS = { burst: 3, perSecond: 1 };
let server: LocalServer;
let userPace: RequestPace;
let gatewayPace: RequestPace;
let refusals: RefusalPace;
let token: string;
let user: string;
let company: string;
let facility: string;
let gateway: { id: string; key: string };
let byHashCalls = 0;

const api = (path: string, init: RequestInit & { address?: string } = {}) => {
  const headers = new Headers(init.headers);
  headers.set("X-Forwarded-For", init.address ?? "198.51.100.20");
  return fetch(`${server.url}/api${path}`, { ...init, headers });
};
const push = (authorization: string, address?: string) =>
  api("/v1/telemetry/readings/", {
    method: "POST",
    address,
    headers: { Authorization: authorization, "Content-Type": "application/json" },
    body: JSON.stringify({ facility, readings: [{ sensor: "НЕТ-ТАКОГО", t: "2026-03-01T00:00:15Z", value: 0.5 }] }),
  });

/** A request's status, and whether it has answered yet. */
function started(request: Promise<Response>): { status: Promise<number>; done: () => boolean } {
  let done = false;
  const status = request.then(async (res) => {
    await res.arrayBuffer();
    done = true;
    return res.status;
  });
  return { status, done: () => done };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`never came: ${what}`);
}

beforeAll(async () => {
  userPace = requestPace({ burst: 2, perSecond: 1 }, userClock);
  gatewayPace = requestPace({ burst: 2, perSecond: 1 }, gatewayClock);
  refusals = refusalPace(REFUSALS, refusalClock);
  server = await startLocalServer({ port: 0, trustProxy: true, pace: userPace, gatewayPace, refusals });
  company = (await createCompany(server.deps, { name: "Шахта «Темп»" })).id;
  user = (await createUser(server.deps, { companyId: company, email: "push@pace.example", password: "user-password" })).id;
  token = await accessToken(server.url, { email: "push@pace.example", password: "user-password" });
  const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  facility = (
    (await (
      await api("/v1/facilities/", { method: "POST", headers: auth, body: JSON.stringify({ name: "Шахта", kind: "underground_mine" }) })
    ).json()) as { id: string }
  ).id;
  const created = await api(`/v1/facilities/${facility}/gateway-keys/`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ label: "Шлюз" }),
  });
  expect(created.status).toBe(201);
  gateway = (await created.json()) as { id: string; key: string };
  userClock.advance(10_000);
  const byHash = server.deps.repos.gatewayKeys.byHash.bind(server.deps.repos.gatewayKeys);
  server.deps.repos.gatewayKeys.byHash = (hash) => {
    byHashCalls += 1;
    return byHash(hash);
  };
}, 60_000);
afterAll(() => server?.close());

describe("the readings' push, paced", () => {
  it("takes a user's token at the user's pace: past the burst, it waits in the user's line", async () => {
    userClock.advance(10_000);
    const line = Array.from({ length: 3 }, () => started(push(`Bearer ${token}`)));
    await until("the burst answered", () => line[0].done() && line[1].done());
    expect(line[2].done()).toBe(false);
    expect(userPace.waiting(`${company}/${user}`)).toBe(1);
    userClock.advance(1_000);
    // Accepted (its line refused: the sensor is none of the facility's) once its turn came.
    expect(await Promise.all(line.map((r) => r.status))).toEqual([202, 202, 202]);
  });

  it("takes a gateway key at the key's own pace", async () => {
    gatewayClock.advance(10_000);
    const line = Array.from({ length: 3 }, () => started(push(`Gateway ${gateway.key}`)));
    await until("the burst answered", () => line[0].done() && line[1].done());
    expect(line[2].done()).toBe(false);
    expect(gatewayPace.waiting(`${company}/${gateway.id}`)).toBe(1);
    gatewayClock.advance(1_000);
    expect(await Promise.all(line.map((r) => r.status))).toEqual([202, 202, 202]);
  });

  it("refuses junk tokens and keys by the address's allowance, then answers 429 before any key is hashed or looked up", async () => {
    const address = "203.0.113.77";
    refusalClock.advance(60_000);
    userClock.advance(10_000);
    gatewayClock.advance(10_000);
    const before = byHashCalls;
    const first = [
      await push("Bearer eyJhbGciOiJIUzI1NiJ9.junk.c2ln", address),
      await push("Gateway agk_not-a-key-of-anyone", address),
      await push("Gateway junk", address),
    ];
    expect(first.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(byHashCalls - before).toBe(1);
    const looked = byHashCalls;
    for (const authorization of ["Bearer eyJhbGciOiJIUzI1NiJ9.junk2.c2ln", "Gateway agk_another-junk-key", "Gateway junk"]) {
      const res = await push(authorization, address);
      expect(res.status, authorization).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await res.json()) as { detail: string }).detail).toMatch(
        /^Слишком много запросов без действительного токена с этого адреса/,
      );
    }
    expect(byHashCalls).toBe(looked);
    // A valid token and a valid key from that address are answered 429 at once, not held.
    expect((await api("/v1/users/get_me/", { address, headers: { Authorization: `Bearer ${token}` } })).status).toBe(429);
    expect((await push(`Gateway ${gateway.key}`, address)).status).toBe(429);
    // Another address is served as usual; the sign-in is not behind the gate.
    expect((await api("/v1/users/get_me/", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await api("/token/", { method: "POST", address, headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(
      400,
    );
    // Once the allowance comes back, the address is served again.
    refusalClock.advance(1_000);
    expect((await push(`Gateway ${gateway.key}`, address)).status).toBe(202);
  });
});
