// Webhooks over HTTP on the real local DynamoDB engine: a company registers a receiver on
// loopback (the local host allows it), the events of readings pushed by the API are posted to it — while
// it answers 503 each delivery waits in the queue with its attempt in the log, and once it answers and
// the back-off passed each event arrives once, its signature verifying with the secret answered once.
// A gateway key reads nothing; another company neither lists nor reads the deliveries. The rules on the
// in-memory repositories: functions/src/domain/monitoring/derive/webhooks.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { verifyWebhookSignature, WEBHOOK_RETRY_SECONDS } from "@server/domain/monitoring/derive/webhooks";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let other: string;
let gatewayKey: string;
let hook: { id: string; secret: string; secret_prefix: string };
let receiver: Server;
let answer = 503;
const received: { key: string; signature: string; body: string }[] = [];
let now = Date.now();

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const AT = Date.UTC(2026, 2, 1, 16, 50);

interface Delivery {
  key: string;
  event_state: string;
  state: string;
  attempts: number;
  last_status: number;
  next_at: string | null;
  delivered_at: string | null;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (answer === 204)
        received.push({
          key: String(req.headers["idempotency-key"]),
          signature: String(req.headers["x-signature"]),
          body: Buffer.concat(chunks).toString("utf8"),
        });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  h = await createHarness({ webhookAllowedReceivers: ["127.0.0.1"] }, { now: () => new Date(now) });
  ({ token: staff } = await h.signedInUser("ООО «Вебхуки»"));
  ({ token: other } = await h.signedInUser("ООО «Чужие вебхуки»"));
  const facility = await json<{ id: string }>(
    await post("/api/v1/facilities/", { name: "Шахта «Приемная»", kind: "underground_mine" }),
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
  gatewayKey = (await json<{ key: string }>(await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" }), 201)).key;
  hook = await json(
    await post("/api/v1/company/webhooks/", {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/agk`,
      label: "Диспетчерская",
    }),
    201,
  );
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 50; m++) {
    if (m >= 30 && m < 40) continue;
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    readings.push({ sensor: "М-7", t: new Date(AT + m * MINUTE_MS + 15_000).toISOString(), value });
  }
  await json(await post("/api/v1/telemetry/readings/", { facility: facility.id, readings }), 202);
  await monitoringIdle(h.deps);
  await h.webhooks.drain();
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const deliveries = async (token = staff) =>
  json<Delivery[]>(await h.request(`/api/v1/company/webhooks/${hook.id}/deliveries/`, { token }), 200);

describe("v1/company/webhooks/", () => {
  it("answers the secret once and lists the webhook by its first characters", async () => {
    expect(hook.secret).toMatch(/^whsec_/);
    const listed = await json<{ id: string; secret_prefix: string }[]>(await h.request("/api/v1/company/webhooks/", { token: staff }), 200);
    expect(listed).toEqual([expect.objectContaining({ id: hook.id, secret_prefix: hook.secret.slice(0, 12) })]);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
  });

  it("keeps each event's delivery waiting, its attempt in the log, while the receiver answers 503", async () => {
    const log = await deliveries();
    expect(log).toHaveLength(5);
    for (const d of log) {
      expect(d).toMatchObject({ state: "pending", attempts: 1, last_status: 503, delivered_at: null });
      expect(Date.parse(d.next_at as string) - now).toBe(WEBHOOK_RETRY_SECONDS[0] * 1000);
    }
    expect(received).toEqual([]);
  });

  it("posts each event once after the receiver answers again, signed with the secret", async () => {
    answer = 204;
    now += WEBHOOK_RETRY_SECONDS[0] * 1000;
    await h.webhooks.drain();
    await h.webhooks.drain();
    expect(received).toHaveLength(5);
    expect(new Set(received.map((r) => r.key)).size).toBe(5);
    for (const r of received) {
      expect(verifyWebhookSignature(hook.secret, r.signature, r.body, Math.floor(now / 1000))).toBe(true);
      expect(JSON.parse(r.body).id).toBe(r.key);
    }
    const log = await deliveries();
    expect(log.every((d) => d.state === "delivered" && d.attempts === 2 && d.last_status === 204 && d.next_at === null)).toBe(true);
    expect(log.map((d) => d.event_state).sort()).toEqual(["closed", "closed", "closed", "closed", "open"]);
  });

  it("is read by no gateway key and by no other company", async () => {
    expect((await h.request("/api/v1/company/webhooks/", { headers: { Authorization: `Gateway ${gatewayKey}` } })).status).toBe(401);
    expect(await json(await h.request("/api/v1/company/webhooks/", { token: other }), 200)).toEqual([]);
    await json(await h.request(`/api/v1/company/webhooks/${hook.id}/deliveries/`, { token: other }), 404);
    await json(await h.request(`/api/v1/company/webhooks/${hook.id}/`, { method: "DELETE", token: other }), 404);
  });

  it("posts nothing once removed", async () => {
    await json(await h.request(`/api/v1/company/webhooks/${hook.id}/`, { method: "DELETE", token: staff }), 200);
    expect(await json(await h.request("/api/v1/company/webhooks/", { token: staff }), 200)).toEqual([]);
    await json(await h.request(`/api/v1/company/webhooks/${hook.id}/deliveries/`, { token: staff }), 404);
  });
});
