// Webhooks (issue 78) against a receiver on loopback: the events the detector finds in pushed readings
// are posted once each (an Idempotency-Key per event and state), every body's X-Signature verifies with
// the secret shown once; the same readings pushed again post nothing; a receiver that is down gets the
// delivery after it comes back (the retry's back-off passed on the clock), and one that never comes
// back is failed after its attempts, each in the log. Where private addresses are not allowed (AWS),
// loopback, private and link-local URLs are refused. A reviewer configures none; another company sees none.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADVISORY_NOTE, MINUTE_MS } from "@core/telemetry";
import { memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../contract/schemas/facility";
import { sensorCreateSchema } from "../../contract/schemas/sensor";
import { parseWith } from "../../http/validate";
import { createPoint } from "./emission-points";
import type { Actor } from "../context";
import { Forbidden, Invalid, NotFound } from "../errors";
import { drainTelemetry, telemetryIdle } from "../telemetry/consumer";
import { storeBatch } from "../telemetry/readings";
import { createSensor } from "../telemetry/register";
import {
  WEBHOOK_RETRY_SECONDS,
  checkWebhookUrl,
  createWebhook,
  deleteWebhook,
  drainWebhooks,
  listDeliveries,
  listWebhooks,
  verifyWebhookSignature,
  webhooksIdle,
  type WebhookCreated,
} from "./webhooks";

interface Received {
  key: string;
  signature: string;
  body: string;
}

/** A receiver on loopback that keeps what it is sent; `down()` stops it, `up()` listens again on its port. */
class Receiver {
  received: Received[] = [];
  private server: Server | undefined;
  port = 0;
  async up(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({
          key: String(req.headers["idempotency-key"]),
          signature: String(req.headers["x-signature"]),
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

let now = Date.now();
const clock = { now: () => new Date(now) };
let d: MemoryDomain;
let staff: Actor;
let facility: string;
let hook: WebhookCreated;
const receiver = new Receiver();

const AT = Date.UTC(2026, 2, 1, 16, 50);
const iso = (t: number) => new Date(t).toISOString();
/** 0,95 % from 16:55 UTC, 1,5 % from 17:00, 2,2 % at 17:05–17:06, 0,5 % from 17:10; none 17:20–17:29, none after 17:39. */
function hour(): { sensor: string; t: string; value: number }[] {
  const out: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 50; m++) {
    if (m >= 30 && m < 40) continue;
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    out.push({ sensor: "М-7", t: iso(AT + m * MINUTE_MS + 15_000), value });
  }
  return out;
}

async function push(actor: Actor, target: string, readings: { sensor: string; t: string; value: number }[]) {
  await storeBatch(d.deps, actor.company, target, { json: { readings } });
  void drainTelemetry(d.deps);
  await telemetryIdle(d.deps);
  await webhooksIdle(d.deps);
}

async function mine(actor: Actor): Promise<string> {
  const id = (await d.facility(actor, { name: "Шахта «Вебхук»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, actor, id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  await d.write(() =>
    createSensor(
      d.deps,
      actor,
      id,
      parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", point: point.id, working: "Лава 12-1", warning: 1, alarm: 2 }),
    ),
  );
  return id;
}

beforeAll(async () => {
  d = await memoryDomain({ webhookPrivateAddresses: true }, clock);
  staff = await d.actor("ООО «Приемник»");
  facility = await mine(staff);
  await receiver.up();
  hook = await createWebhook(d.deps, staff, { url: `http://127.0.0.1:${receiver.port}/agk`, label: "Диспетчерская" });
  await push(staff, facility, hour());
});
afterAll(() => receiver.down());

describe("a webhook's deliveries", () => {
  it("shows its secret once, then its first characters only", async () => {
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const [listed] = await listWebhooks(d.deps, staff);
    expect(listed).toEqual({
      id: hook.id,
      url: `http://127.0.0.1:${receiver.port}/agk`,
      label: "Диспетчерская",
      secret_prefix: hook.secret.slice(0, 12),
      created_at: hook.created_at,
      created_by: staff.email,
    });
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
  });

  it("posts each event once, signed: the signature verifies with the secret and not with another", () => {
    const keys = receiver.received.map((r) => r.key);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    expect(
      keys.map((k) =>
        k
          .split(".")
          .slice(-3)
          .join(".")
          .replace(/\.[0-9a-z]+\./, "."),
      ),
    ).toEqual(expect.arrayContaining(["pre_warning.closed", "warning.closed", "alarm.closed", "none.closed", "none.open"]));
    const seconds = Math.floor(now / 1000);
    for (const r of receiver.received) {
      expect(verifyWebhookSignature(hook.secret, r.signature, r.body, seconds)).toBe(true);
      expect(verifyWebhookSignature(hook.secret, r.signature, `${r.body} `, seconds)).toBe(false);
      expect(verifyWebhookSignature(`${hook.secret}x`, r.signature, r.body, seconds)).toBe(false);
      expect(verifyWebhookSignature(hook.secret, r.signature, r.body, seconds + 3_600)).toBe(false);
    }
    const alarm = JSON.parse(receiver.received.find((r) => r.key.includes(".alarm."))!.body);
    expect(alarm).toMatchObject({
      type: "telemetry.event.closed",
      facility: { id: facility, name: "Шахта «Вебхук»" },
      event: { kind: "threshold", level: "alarm", sensor_code: "М-7", working: "Лава 12-1", peak: 2.2, minutes_above: 2 },
      advisory: ADVISORY_NOTE,
    });
    expect(alarm.id).toBe(receiver.received.find((r) => r.key.includes(".alarm."))!.key);
  });

  it("posts nothing again when the same readings are pushed again", async () => {
    await push(staff, facility, hour());
    await drainWebhooks(d.deps);
    expect(receiver.received).toHaveLength(5);
  });

  it("gets a delivery to a receiver that is down after it comes back", async () => {
    await receiver.down();
    // A reading at 18:30 closes the stale channel open since 17:40 (and one stale from 18:31 opens).
    await push(staff, facility, [{ sensor: "М-7", t: iso(Date.UTC(2026, 2, 1, 18, 30, 15)), value: 0.5 }]);
    expect(receiver.received).toHaveLength(5);
    const waiting = (await listDeliveries(d.deps, staff, hook.id)).filter((x) => x.state === "pending");
    expect(waiting).toHaveLength(2);
    for (const w of waiting) {
      expect(w).toMatchObject({ attempts: 1, last_status: 0 });
      expect(Date.parse(w.next_at as string) - now).toBe(WEBHOOK_RETRY_SECONDS[0] * 1000);
      expect(w.last_error).not.toBe("");
    }
    await receiver.up();
    // Not yet due: nothing is sent before its back-off passed.
    await drainWebhooks(d.deps);
    expect(receiver.received).toHaveLength(5);
    now += WEBHOOK_RETRY_SECONDS[0] * 1000;
    await drainWebhooks(d.deps);
    expect(receiver.received).toHaveLength(7);
    const keys = receiver.received.map((r) => r.key);
    expect(new Set(keys).size).toBe(7);
    expect(keys.slice(5).sort()).toEqual(waiting.map((w) => w.key).sort());
    const log = await listDeliveries(d.deps, staff, hook.id);
    expect(log.every((x) => x.state === "delivered" && x.next_at === null && x.last_status === 204)).toBe(true);
    expect(log.filter((x) => x.attempts === 2)).toHaveLength(2);
  });

  it("fails a delivery whose receiver never comes back, after its attempts, each in the log", async () => {
    const other = await d.actor("ООО «Глухой приемник»");
    const lost = new Receiver();
    await lost.up();
    const port = lost.port;
    await lost.down();
    const deaf = await createWebhook(d.deps, other, { url: `http://127.0.0.1:${port}/` });
    await push(other, await mine(other), hour().slice(0, 12));
    for (const seconds of WEBHOOK_RETRY_SECONDS) {
      now += seconds * 1000;
      await drainWebhooks(d.deps);
    }
    const log = await listDeliveries(d.deps, other, deaf.id);
    expect(log.length).toBeGreaterThan(0);
    for (const x of log) expect(x).toMatchObject({ state: "failed", attempts: WEBHOOK_RETRY_SECONDS.length + 1, next_at: null });
  });
});

describe("who may configure webhooks, and where they may post", () => {
  it("refuses loopback, private, link-local and plain http where private addresses are not allowed (AWS)", () => {
    for (const url of [
      "http://hooks.example.com/",
      "https://127.0.0.1/",
      "https://localhost:8443/",
      "https://10.1.2.3/",
      "https://172.16.0.9/",
      "https://192.168.1.10/",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://[::ffff:127.0.0.1]/",
      "ftp://hooks.example.com/",
      "https://user:pass@hooks.example.com/",
      "не адрес",
    ])
      expect(() => checkWebhookUrl(url, false), url).toThrow(Invalid);
    expect(checkWebhookUrl("https://hooks.example.com/agk", false).toString()).toBe("https://hooks.example.com/agk");
    expect(checkWebhookUrl("http://10.1.2.3:8080/agk", true).hostname).toBe("10.1.2.3");
  });

  it("refuses a reviewer, and another company sees none of it", async () => {
    const reviewer = await d.actor("ООО «Проверяющий»", "reviewer");
    await expect(createWebhook(d.deps, reviewer, { url: "https://hooks.example.com/" })).rejects.toThrow(Forbidden);
    const stranger = await d.actor("ООО «Чужая»");
    expect(await listWebhooks(d.deps, stranger)).toEqual([]);
    await expect(listDeliveries(d.deps, stranger, hook.id)).rejects.toThrow(NotFound);
    await expect(deleteWebhook(d.deps, stranger, hook.id)).rejects.toThrow(NotFound);
  });

  it("posts nothing more once deleted", async () => {
    await deleteWebhook(d.deps, staff, hook.id);
    expect(await listWebhooks(d.deps, staff)).toEqual([]);
    const before = receiver.received.length;
    await push(staff, facility, [{ sensor: "М-7", t: iso(Date.UTC(2026, 2, 1, 19, 0, 15)), value: 0.5 }]);
    await drainWebhooks(d.deps);
    expect(receiver.received).toHaveLength(before);
  });
});
