// The minute's run (lambda/monitoring-minute.ts: in AWS an EventBridge schedule, locally the host's
// timers) on the real local DynamoDB engine: a channel whose readings stopped is found stale from the
// register and its stored days alone (no state of the process that applied the readings), once per
// silence, and its webhook delivery made; a delivery whose receiver answered 503 is tried again by a
// later run once its back-off passed, and delivered then. The rules on the in-memory repositories:
// functions/src/domain/monitoring/derive/events.test.ts and functions/src/domain/monitoring/derive/webhooks.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { WEBHOOK_RETRY_SECONDS } from "@server/domain/monitoring/derive/webhooks";
import { minuteDeps, monitoringMinute } from "@server/lambda/monitoring-minute";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let staffCompany: string;
let other: string;
let facility: string;
let hook: { id: string };
let receiver: Server;
let answer = 503;
const received: { key: string; body: string }[] = [];
let now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });

interface EventRow {
  id: string;
  kind: string;
  start: string;
  end: string | null;
  sensor_code: string;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (answer === 204) received.push({ key: String(req.headers["idempotency-key"]), body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  h = await createHarness({ webhookAllowedReceivers: ["127.0.0.1"] }, { now: () => new Date(now) });
  ({ token: staff, companyId: staffCompany } = await h.signedInUser("ООО «Минутный обход»"));
  ({ token: other } = await h.signedInUser("ООО «Соседний обход»"));
  facility = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Тихая»", kind: "underground_mine" }), 201)).id;
  const point = await json<{ id: string }>(
    await post(`/api/v1/facilities/${facility}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
    201,
  );
  for (const code of ["М-1", "М-2"])
    await json(
      await post(`/api/v1/facilities/${facility}/sensors/`, {
        code,
        kind: "methane",
        point: point.id,
        working: "Лава 3-2",
        warning: 1,
        alarm: 2,
      }),
      201,
    );
  hook = await json(
    await post("/api/v1/company/webhooks/", {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/agk`,
      label: "Диспетчерская",
    }),
    201,
  );
  // Ten minutes of both meters up to the minute before now; М-2 goes on reading below.
  const readings = ["М-1", "М-2"].flatMap((sensor) =>
    Array.from({ length: 10 }, (_, i) => ({ sensor, t: new Date(now - (10 - i) * MINUTE_MS + 5_000).toISOString(), value: 0.4 })),
  );
  await json(await post("/api/v1/telemetry/readings/", { facility, readings }), 202);
  await monitoringIdle(h.deps);
  await h.webhooks.drain();
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const staleEvents = async () =>
  (
    await json<{ results: EventRow[] }>(
      await h.request(
        `/api/v1/telemetry/events/?facility=${facility}&kind=stale&from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + MINUTE_MS).toISOString()}`,
        { token: staff },
      ),
      200,
    )
  ).results;

async function minutePasses(readingOfM2 = true) {
  if (readingOfM2) {
    await json(
      await post("/api/v1/telemetry/readings/", {
        facility,
        readings: [{ sensor: "М-2", t: new Date(now + 5_000).toISOString(), value: 0.4 }],
      }),
      202,
    );
    await monitoringIdle(h.deps);
  }
  now += MINUTE_MS;
}

describe("the minute's run (EventBridge each minute in AWS)", () => {
  it("finds nothing while every channel read within 2 minutes", async () => {
    await minutePasses();
    // A deps object of its own, as a new Lambda's: nothing of the process that applied the readings.
    expect(await monitoringMinute(minuteDeps({ repos: h.deps.repos, clock: h.deps.clock, config: h.deps.config }))).toEqual({
      stale: 0,
      reannounced: 0,
    });
    expect(await staleEvents()).toEqual([]);
  });

  it("finds the channel whose readings stopped stale, once, from the stored days, and makes its delivery", async () => {
    await minutePasses();
    await minutePasses();
    const run = () => monitoringMinute(minuteDeps({ repos: h.deps.repos, clock: h.deps.clock, config: h.deps.config }));
    expect(await run()).toEqual({ stale: 1, reannounced: 0 });
    const [open] = await staleEvents();
    expect(open).toMatchObject({ kind: "stale", sensor_code: "М-1", end: null, start: new Date(now - 3 * MINUTE_MS).toISOString() });
    // Once per silence: the open event stored is the mark.
    await minutePasses();
    expect(await run()).toEqual({ stale: 0, reannounced: 0 });
    expect(await staleEvents()).toHaveLength(1);
    // Its delivery was tried when made and again by the next minute's run, its 10 s back-off passed (the
    // receiver answered 503 both times); it waits for the next one.
    const log = await json<{ key: string; state: string; attempts: number; last_status: number }[]>(
      await h.request(`/api/v1/company/webhooks/${hook.id}/deliveries/`, { token: staff }),
      200,
    );
    expect(log).toEqual([expect.objectContaining({ key: `${open.id}.open`, state: "pending", attempts: 2, last_status: 503 })]);
  });

  it("sends a delivery whose back-off passed once the receiver answers again, once", async () => {
    answer = 204;
    now += WEBHOOK_RETRY_SECONDS[1] * 1000;
    const run = () => monitoringMinute(minuteDeps({ repos: h.deps.repos, clock: h.deps.clock, config: h.deps.config }));
    await run();
    await run();
    expect(received.map((r) => r.key)).toEqual([`${(await staleEvents())[0].id}.open`]);
    expect(JSON.parse(received[0].body)).toMatchObject({
      type: "telemetry.event.opened",
      event: { kind: "stale", end: null, sensor_code: "М-1" },
    });
  });

  it("shows another company none of it", async () => {
    const seen = await h.request(`/api/v1/telemetry/events/?facility=${facility}`, { token: other });
    expect(seen.status).toBe(404);
  });

  it("compacts the settled days in an hour's fifth minute while its time lasts, the rest in the next hour's", async () => {
    const day = new Date(now).toISOString().slice(0, 10);
    const [m1] = await h.deps.repos.sensors.listOfFacility(staffCompany, facility);
    const compacted = async () => (await h.deps.repos.monitoring.getDay(staffCompany, m1.id, day))?.compacted === true;
    // 01:05 of the second day after: the day closed, its grace and its settling passed.
    now = Date.parse(`${day}T00:00:00Z`) + 2 * 86_400_000 + 65 * MINUTE_MS;
    const deps = minuteDeps({ repos: h.deps.repos, clock: h.deps.clock, config: h.deps.config });
    await monitoringMinute(deps, undefined, () => false);
    expect(await compacted()).toBe(false);
    await monitoringMinute(deps, undefined, () => true);
    expect(await compacted()).toBe(true);
  });
});
