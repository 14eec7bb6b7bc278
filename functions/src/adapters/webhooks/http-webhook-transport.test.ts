// Webhook deliveries over Node's HTTP and DNS (R10 and R15): a receiver whose address the
// domain's rule does not allow is never connected to, by address or by a name that resolves there,
// and a name the operator allowed is resolved, checked and connected to at the address checked. The
// receiver is a server on 127.0.0.1 that counts what reaches it, stopped after the file.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain } from "../../../../tests/support/memory-domain";
import { listDeliveries, NOT_DELIVERED_ADDRESS, webhookSender } from "../../domain/monitoring/derive/webhooks";
import { httpWebhookTransport } from "./http-webhook-transport";

describe("a delivery to an address not allowed", () => {
  let receiver: Server;
  let port: number;
  let reached = 0;
  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      reached += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  /** A webhook stored as it is (a URL registered before the rules, or a name whose record changed),
   *  one delivery due, sent once by a sender under `allowed`; answers its log entry. */
  async function sendTo(url: string, allowed: string[]) {
    const d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"), { webhookAllowedReceivers: allowed });
    const actor = await d.actor("ООО «Адреса»");
    const now = d.deps.clock.now().toISOString();
    await d.deps.repos.webhooks.create({
      company: actor.company,
      id: "hook",
      url,
      label: "",
      secret: "whsec_test",
      created_at: now,
      created_by: actor.email,
    });
    await d.deps.repos.webhooks.createDelivery({
      company: actor.company,
      webhook: "hook",
      key: "event.open",
      sort: `${now}#event.open`,
      event: "event",
      body: "{}",
      state: "pending",
      attempts: 0,
      last_status: 0,
      last_error: "",
      created_at: now,
      next_at: now,
      delivered_at: null,
      version: 1,
    });
    const sender = webhookSender(d.deps, httpWebhookTransport);
    await sender.drain();
    await sender.close();
    return (await listDeliveries(d.deps, actor, "hook"))[0];
  }

  it("is never connected to: «не доставлено», no status of the far end, by address or by a name that resolves there", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://localhost.:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
    ]) {
      const log = await sendTo(url, []);
      expect(log, url).toMatchObject({ state: "pending", attempts: 1, last_status: 0, last_error: NOT_DELIVERED_ADDRESS });
    }
    expect(reached).toBe(0);
  });

  it("is sent where the operator named the network: the name resolved, checked and connected to", async () => {
    const log = await sendTo(`http://localhost:${port}/`, ["127.0.0.0/8"]);
    expect(log).toMatchObject({ state: "delivered", attempts: 1, last_status: 200, last_error: "" });
    expect(reached).toBe(1);
    const named = await sendTo(`http://localhost.:${port}/`, ["localhost"]);
    expect(named).toMatchObject({ state: "delivered", last_status: 200 });
    expect(reached).toBe(2);
  });
});
