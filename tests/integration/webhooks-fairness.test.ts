// R5: webhook deliveries of all companies went out one at a time with a 10 s timeout, so
// company A's 10 webhooks to a receiver that never answers delayed company B's alarm deliveries by
// 15 min 31 s. Now companies take turns within WEBHOOK_SENDS, each receiver has its own bound and
// back-off: with A's 10 webhooks posting to a server on 127.0.0.1 that accepts and never answers, B's
// alarm reaches B's receiver within 10 s. Both receivers are this file's, stopped at its end; A's
// attempts in flight are cut by the harness's close.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { WEBHOOK_SENDS } from "@server/domain/monitoring/derive/webhooks";
import { LIMITS } from "@server/contract/schemas/limits";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let hanging: Server;
let answering: Server;
let hangingConnections = 0;
const arrived: { key: string; at: number }[] = [];
const AT = Date.UTC(2026, 2, 1, 16, 50);

const portOf = (server: Server) => (server.address() as AddressInfo).port;
async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const waitFor = async (what: () => boolean, ms: number) => {
  const until = performance.now() + ms;
  while (!what() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return what();
};

/** A mine with one methane sensor of `token`'s company: answers the facility's id. */
async function mine(token: string): Promise<string> {
  const post = (path: string, body: unknown) => h.request(path, { method: "POST", token, json: body });
  const facility = await json<{ id: string }>(
    await post("/api/v1/facilities/", { name: "Шахта «Очередь»", kind: "underground_mine" }),
    201,
  );
  const point = await json<{ id: string }>(
    await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
    201,
  );
  await json(
    await post(`/api/v1/facilities/${facility.id}/sensors/`, {
      code: "М-7",
      kind: "methane",
      point: point.id,
      working: "Лава 12-1",
      warning: 1,
      alarm: 2,
    }),
    201,
  );
  return facility.id;
}

/** Readings that open and close a warning and an alarm (five events). */
function hour(): { sensor: string; t: string; value: number }[] {
  const out: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 30; m++) {
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    out.push({ sensor: "М-7", t: new Date(AT + m * MINUTE_MS + 15_000).toISOString(), value });
  }
  return out;
}

beforeAll(async () => {
  hanging = createServer(() => undefined);
  hanging.on("connection", () => (hangingConnections += 1));
  answering = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      arrived.push({ key: String(req.headers["idempotency-key"]), at: performance.now() });
      res.writeHead(204).end();
    });
  });
  await Promise.all([hanging, answering].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  h = await createHarness({ webhookAllowedReceivers: ["127.0.0.1"] });
}, 60_000);
afterAll(async () => {
  await h?.close();
  for (const server of [hanging, answering]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe("one company's receiver that never answers", () => {
  it("does not delay another company's alarm: it arrives within 10 s", async () => {
    const a = await h.signedInUser("ООО «Глухие приемники»");
    const b = await h.signedInUser("ООО «Тревога»");
    const [mineA, mineB] = [await mine(a.token), await mine(b.token)];
    for (let i = 0; i < LIMITS.webhooks.perCompany; i++)
      await json(
        await h.request("/api/v1/company/webhooks/", {
          method: "POST",
          token: a.token,
          json: { url: `http://127.0.0.1:${portOf(hanging)}/hook${i}` },
        }),
        201,
      );
    await json(
      await h.request("/api/v1/company/webhooks/", {
        method: "POST",
        token: b.token,
        json: { url: `http://127.0.0.1:${portOf(answering)}/agk` },
      }),
      201,
    );

    // A's events: 5 deliveries to each of its 10 webhooks, their attempts hanging.
    await json(
      await h.request("/api/v1/telemetry/readings/", { method: "POST", token: a.token, json: { facility: mineA, readings: hour() } }),
      202,
    );
    await monitoringIdle(h.deps);
    expect(await waitFor(() => hangingConnections > 0, 10_000)).toBe(true);

    const pushed = performance.now();
    await json(
      await h.request("/api/v1/telemetry/readings/", { method: "POST", token: b.token, json: { facility: mineB, readings: hour() } }),
      202,
    );
    await monitoringIdle(h.deps);
    const alarm = await waitFor(() => arrived.some((r) => r.key.includes(".alarm.")), 10_000);
    const took = (arrived.find((r) => r.key.includes(".alarm."))?.at ?? performance.now()) - pushed;
    console.log(
      `B's alarm webhook arrived ${(took / 1000).toFixed(2)} s after its push, A's receiver holding ${hangingConnections} connections`,
    );
    expect(alarm, "B's alarm delivery within 10 s").toBe(true);
    expect(took).toBeLessThan(10_000);
    // A's receiver holds at most its share of attempts at once, not all 50.
    expect(hangingConnections).toBeLessThanOrEqual(WEBHOOK_SENDS.perReceiver);
  }, 60_000);
});
