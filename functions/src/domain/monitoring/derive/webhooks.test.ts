// Webhooks against receivers in memory behind the sender's transport: the events the
// detector finds in pushed readings are posted once each (an Idempotency-Key per event and state),
// every body's X-Signature verifies with the secret shown once; the same readings pushed again post
// nothing; a receiver that is down gets the delivery after it comes back (the retry's back-off passed
// on the clock), and one that never comes back is failed after its attempts, each in the log. Where
// private addresses are not allowed (AWS), loopback, private and link-local URLs are refused. A
// reviewer configures none; another company sees none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADVISORY_NOTE } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { WebhookTransport } from "../../../ports";
import { Forbidden, Invalid, NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import {
  RECEIVER_BACKOFF_SECONDS,
  WEBHOOK_RETRY_SECONDS,
  checkWebhookUrl,
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  verifyWebhookSignature,
  webhookSender,
  type WebhookCreated,
} from "./webhooks";
import { receiverAllowList } from "./webhook-addresses";

interface Received {
  key: string;
  signature: string;
  body: string;
}

/** The receivers of these tests, in memory by port: the sender's transport (ports/webhook-transport.ts)
 *  hands them what it posts, with no socket (adapters/webhooks is what speaks HTTP and DNS). */
const receivers = new Map<number, Receiver>();
let nextPort = 40_000;

/** A receiver that keeps what it is sent (204), or one that never answers (`hangs`); `down()` refuses
 *  what comes, `up()` takes it again on the same port. */
class Receiver {
  received: Received[] = [];
  connections = 0;
  listening = false;
  readonly port = nextPort++;
  constructor(readonly hangs = false) {
    receivers.set(this.port, this);
  }
  async up(): Promise<void> {
    this.listening = true;
  }
  async down(): Promise<void> {
    this.listening = false;
  }
}

const transport: WebhookTransport = {
  async post({ url, headers, body, allowed, signal }) {
    if (!allowed(url.hostname)) return "address not allowed";
    const receiver = receivers.get(Number(url.port));
    if (!receiver?.listening) throw new Error(`connect ECONNREFUSED ${url.host}`);
    receiver.connections += 1;
    if (receiver.hangs)
      return new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
    receiver.received.push({ key: headers["Idempotency-Key"], signature: headers["X-Signature"], body });
    return 204;
  },
};

let now = Date.parse("2026-11-16T03:00:00Z");
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
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  await d.webhooks.drain();
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
  d = await memoryDomain(clock, { webhookAllowedReceivers: ["127.0.0.1"] }, transport);
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
    await d.webhooks.drain();
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
    await d.webhooks.drain();
    expect(receiver.received).toHaveLength(5);
    now += WEBHOOK_RETRY_SECONDS[0] * 1000;
    await d.webhooks.drain();
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
      await d.webhooks.drain();
    }
    const log = await listDeliveries(d.deps, other, deaf.id);
    expect(log.length).toBeGreaterThan(0);
    for (const x of log) expect(x).toMatchObject({ state: "failed", attempts: WEBHOOK_RETRY_SECONDS.length + 1, next_at: null });
  });
});

describe("who may configure webhooks, and where they may post", () => {
  it("refuses loopback, private, link-local and plain http unless the operator named them (AWS, and the local host by default)", () => {
    const strict = receiverAllowList([]);
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
      // R15: a trailing dot, and IPv4 inside every IPv6 form.
      "https://localhost./",
      "https://LOCALHOST../",
      "https://[::7f00:1]/",
      "https://[::127.0.0.1]/",
      "https://[64:ff9b::7f00:1]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[64:ff9b:1::a00:1]/",
      "https://[::ffff:0:7f00:1]/",
      "https://[2002:7f00:1::1]/",
      "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
      "https://[fe80::1]/",
      "https://[ff02::1]/",
      "https://[::]/",
      "https://0.0.0.0/",
      "https://2130706433/",
      "https://0x7f.1/",
      "ftp://hooks.example.com/",
      "https://user:pass@hooks.example.com/",
      "не адрес",
    ])
      expect(() => checkWebhookUrl(url, strict), url).toThrow(Invalid);
    expect(checkWebhookUrl("https://hooks.example.com/agk", strict).toString()).toBe("https://hooks.example.com/agk");
    expect(checkWebhookUrl("https://[2a00:1450:4010:c0e::64]/agk", strict).hostname).toBe("[2a00:1450:4010:c0e::64]");
    expect(() => checkWebhookUrl("http://10.1.2.3:8080/agk", strict)).toThrow(Invalid);
    // The operator named the mine's network: its receivers, over plain http too, and no other private one.
    const mine = receiverAllowList(["10.1.0.0/16", "agk.mine.local"]);
    expect(checkWebhookUrl("http://10.1.2.3:8080/agk", mine).hostname).toBe("10.1.2.3");
    expect(checkWebhookUrl("http://agk.mine.local./agk", mine).hostname).toBe("agk.mine.local.");
    expect(() => checkWebhookUrl("http://10.2.0.1/", mine)).toThrow(Invalid);
    expect(() => checkWebhookUrl("http://127.0.0.1:3000/", mine)).toThrow(Invalid);
    expect(() => checkWebhookUrl("http://169.254.169.254/", mine)).toThrow(Invalid);
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
    await d.webhooks.drain();
    expect(receiver.received).toHaveLength(before);
  });
});

describe("a receiver that does not answer (R5)", () => {
  it("is backed off alone: its deliveries due meanwhile are put off, their attempts not counted, the company's other receiver served", async () => {
    const hanging = new Receiver(true);
    const answering = new Receiver();
    await hanging.up();
    await answering.up();
    const at = Date.UTC(2026, 5, 1, 12);
    const own = await memoryDomain(clockAt(at), { webhookAllowedReceivers: ["127.0.0.1"] }, transport);
    const actor = await own.actor("ООО «Молчащий приемник»");
    const deaf = await createWebhook(own.deps, actor, { url: `http://127.0.0.1:${hanging.port}/` });
    const live = await createWebhook(own.deps, actor, { url: `http://127.0.0.1:${answering.port}/` });
    const queue = async (webhook: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const key = `e${i}.open`;
        await own.deps.repos.webhooks.createDelivery({
          company: actor.company,
          webhook,
          key,
          sort: `${iso(at)}#${key}`,
          event: `e${i}`,
          body: "{}",
          state: "pending",
          attempts: 0,
          last_status: 0,
          last_error: "",
          created_at: iso(at),
          next_at: iso(at),
          delivered_at: null,
          version: 1,
        });
      }
    };
    await queue(deaf.id, 6);
    await queue(live.id, 3);
    const sender = webhookSender(own.deps, transport, { timeoutMs: 300, sends: { perCompany: 4, perReceiver: 2 } });
    try {
      await sender.drain();
      expect(hanging.connections).toBe(2);
      expect(answering.received).toHaveLength(3);
      const log = await listDeliveries(own.deps, actor, deaf.id);
      const tried = log.filter((x) => x.attempts === 1);
      const putOff = log.filter((x) => x.attempts === 0);
      expect(tried).toHaveLength(2);
      for (const x of tried) expect(x).toMatchObject({ state: "pending", last_status: 0, last_error: "приемник не ответил за 0.3 с" });
      expect(putOff).toHaveLength(4);
      for (const x of putOff) {
        expect(x.state).toBe("pending");
        expect(x.last_error).toMatch(/доставка отложена/);
        expect(Date.parse(x.next_at as string) - at).toBe(RECEIVER_BACKOFF_SECONDS[0] * 1000);
      }
      expect((await listDeliveries(own.deps, actor, live.id)).every((x) => x.state === "delivered")).toBe(true);
    } finally {
      await sender.close();
      await hanging.down();
      await answering.down();
    }
  });
});
