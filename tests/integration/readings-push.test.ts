// D57: a mine's readings pushed through POST v1/telemetry/readings/ by its gateway key or a user, on the real
// local DynamoDB engine: order-independent (the readings reversed give the same minutes), whole files
// refused (empty, another encoding, no header), a line refused by its number while its batch is answered
// 202 (1e308 %, a 1970 reading, an unclosed quote); a gateway key that reads nothing, pushes only to its
// facility and is refused once revoked; another company's user neither pushes nor reads. Section 12's
// ventilation hour stored, read back, pushed again and corrected, and lines refused by number in JSON and
// in Windows-1251 are the domain's, asserted in the unit tier (functions/src/domain/monitoring/ingest/readings.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUp, sensorMinutes } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { CSV_ENCODING_MESSAGE } from "@core/csv";
import { INTERRUPTED, readingsBetween } from "@server/domain/monitoring/minutes/consumer";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let other: string;
let companyId: string;
let facility: { id: string };
let second: { id: string };
const sensors: Record<string, string> = {};
let key: { id: string; key: string };

interface Batch {
  batch: string;
  state: string;
  lines: number;
  accepted: number;
  duplicate: number;
  corrected: number;
  refused: { line: number; reason: string }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const PUSH = "/api/v1/telemetry/readings/";
const byGateway = (body: unknown, secret = key.key) =>
  h.request(PUSH, {
    method: "POST",
    headers: { Authorization: `Gateway ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const csvPush = (bytes: Uint8Array, token = staff, target = facility.id) =>
  h.request(`${PUSH}?facility=${target}`, { method: "POST", token, headers: { "Content-Type": "text/csv" }, body: bytes });

/** The batch once the consumer applied it. */
async function applied(res: Response, token = staff): Promise<Batch> {
  const accepted = await json<{ batch: string; status_url: string }>(res, 202);
  expect(accepted.status_url).toBe(`/api/v1/telemetry/batches/${accepted.batch}/`);
  await monitoringIdle(h.deps);
  return json<Batch>(await h.request(accepted.status_url, { token }), 200);
}

const iso = (t: number) => new Date(t).toISOString();

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «АГК»");
  staff = a.token;
  companyId = a.companyId;
  ({ token: other } = await h.signedInUser("ООО «Чужой АГК»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Телеметрия»", kind: "underground_mine" }), 201);
  second = await json(await post("/api/v1/facilities/", { name: "Шахта «Соседняя»", kind: "underground_mine" }), 201);
  const shaft = await json<{ id: string }>(
    await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
    201,
  );
  const near = await json<{ id: string }>(
    await post(`/api/v1/facilities/${second.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
    201,
  );
  for (const [code, kind] of [
    ["М-1", "methane"],
    ["Q-1", "flow"],
    ["М-2", "methane"],
  ] as const) {
    const made = await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point: shaft.id }), 201);
    sensors[code] = made.id;
  }
  await json(await post(`/api/v1/facilities/${second.id}/sensors/`, { code: "С-9", kind: "methane", point: near.id }), 201);
  key = await json(await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" }), 201);
});
afterAll(() => h.close());

describe("order and idempotence", () => {
  it("gives the same minutes and roll-ups whether the readings come forward, reversed or split", async () => {
    const start = Date.UTC(2026, 2, 2, 0, 0);
    const rows = Array.from({ length: 600 }, (_, i) => ({ t: start + i * 20_000, value: 0.3 + ((i * 37) % 11) / 100 }));
    const push = async (code: string, list: typeof rows) => {
      for (let i = 0; i < list.length; i += 250) {
        await applied(await byGateway({ readings: list.slice(i, i + 250).map((r) => ({ sensor: code, t: iso(r.t), value: r.value })) }));
      }
    };
    await push("М-1", rows);
    await push("М-2", [...rows].reverse());
    const minutesOf = async (code: string) => {
      const r = await readingsBetween(h.deps, companyId, sensors[code], start, start + 200 * MINUTE_MS);
      return sensorMinutes("methane", r.times, r.values, start, 200);
    };
    const forward = await minutesOf("М-1");
    const backward = await minutesOf("М-2");
    expect([...backward.values]).toEqual([...forward.values]);
    expect(rollUp(backward, "Asia/Novokuznetsk", { warning: 0.35 })).toEqual(rollUp(forward, "Asia/Novokuznetsk", { warning: 0.35 }));
  });
});

describe("a re-sent push recognised", () => {
  it("the same Idempotency-Key within a day answers the first batch and stores nothing: a correction made since stands", async () => {
    const t = iso(Date.UTC(2026, 2, 3, 6, 0));
    const keyed = (value: number, idempotencyKey: string) =>
      h.request(PUSH, {
        method: "POST",
        headers: { Authorization: `Gateway ${key.key}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify({ readings: [{ sensor: "М-1", t, value }] }),
      });
    const first = await applied(await keyed(0.41, "gw-batch-17"));
    expect(first.accepted).toBe(1);
    const correction = await applied(await keyed(0.52, "gw-batch-18"));
    expect(correction.corrected).toBe(1);
    const listed = async () =>
      (await json<Batch[]>(await h.request(`/api/v1/telemetry/batches/?facility=${facility.id}`, { token: staff }), 200)).length;
    const before = await listed();
    // The gateway lost the first 202 and sends its batch again.
    const again = await json<{ batch: string }>(await keyed(0.41, "gw-batch-17"), 202);
    await monitoringIdle(h.deps);
    expect(again.batch).toBe(first.batch);
    expect(await listed()).toBe(before);
    const at = Date.parse(t);
    const stored = await readingsBetween(h.deps, companyId, sensors["М-1"], at, at + MINUTE_MS);
    expect([...stored.values]).toEqual([0.52]);
    // A key with a space is refused, naming the header.
    const bad = await keyed(0.41, "gw batch");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^Idempotency-Key: /);
  });
});

describe("a key sent again with another body", () => {
  it("is refused 422 naming the key and the first batch, a gateway's and a user's push alike, and stores nothing", async () => {
    const start = Date.UTC(2026, 2, 5, 6, 0);
    const five = (from: number, value: number) =>
      Array.from({ length: 5 }, (_, i) => ({ sensor: "М-1", t: iso(from + i * MINUTE_MS), value }));
    const sent = (body: string, idempotencyKey: string, authorization: string) =>
      h.request(PUSH, {
        method: "POST",
        headers: { Authorization: authorization, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body,
      });
    for (const [who, authorization, body] of [
      ["gateway", `Gateway ${key.key}`, {}],
      ["user", `Bearer ${staff}`, { facility: facility.id }],
    ] as const) {
      const idempotencyKey = `gw-${who}-116`;
      const at = who === "gateway" ? start : start + 60 * MINUTE_MS;
      const first = await applied(await sent(JSON.stringify({ ...body, readings: five(at, 0.99) }), idempotencyKey, authorization));
      expect(first.accepted).toBe(5);
      // The same readings sent again, spaced and ordered otherwise: the first batch, nothing stored.
      const same = JSON.stringify({ readings: five(at, 0.99).map(({ value, t, sensor }) => ({ value, t, sensor })), ...body }, null, 2);
      expect((await json<{ batch: string }>(await sent(same, idempotencyKey, authorization), 202)).batch).toBe(first.batch);
      // Five other instants under the same key: refused, naming the key and the batch it first made.
      const other = await sent(JSON.stringify({ ...body, readings: five(at + 10 * MINUTE_MS, 0.99) }), idempotencyKey, authorization);
      const detail = (await json<{ detail: string }>(other, 422)).detail;
      expect(detail).toContain(`«${idempotencyKey}»`);
      expect(detail).toContain(first.batch);
      // Another value at the same instants: refused too.
      await json(await sent(JSON.stringify({ ...body, readings: five(at, 0.5) }), idempotencyKey, authorization), 422);
      await monitoringIdle(h.deps);
      const stored = await readingsBetween(h.deps, companyId, sensors["М-1"], at, at + 20 * MINUTE_MS);
      expect([...stored.values]).toEqual([0.99, 0.99, 0.99, 0.99, 0.99]);
    }
  });
});

describe("a batch being applied", () => {
  it("reads no failure while it is queued with only the reason kept in case its application never ends", async () => {
    const batch = await storeBatch(h.deps, companyId, facility.id, {
      json: { readings: [{ sensor: "М-2", t: iso(Date.UTC(2026, 2, 4, 6, 0)), value: 0.4 }] },
    });
    // What the consumer writes as an application begins (consumer.ts attemptBegins).
    await h.deps.repos.monitoring.updateBatch({ ...batch, attempts: 1, failure: INTERRUPTED });
    const status = await json<Batch & { failure?: string }>(
      await h.request(`/api/v1/telemetry/batches/${batch.batch}/`, { token: staff }),
      200,
    );
    expect(status.state).toBe("queued");
    expect(status.failure).toBeUndefined();
    const listed = await json<Array<{ batch: string; failure?: string }>>(
      await h.request(`/api/v1/telemetry/batches/?facility=${facility.id}`, { token: staff }),
      200,
    );
    expect(listed.find((b) => b.batch === batch.batch)?.failure).toBeUndefined();
  });
});

describe("bad lines, files and credentials", () => {
  it("refuses an empty file, a file in another encoding and a CSV without its header as a whole, storing nothing", async () => {
    const before = await h.deps.repos.monitoring.queued(1000);
    expect((await json<{ detail: string }>(await csvPush(new Uint8Array(0)), 400)).detail).toBe(
      "Строка 1: файл пустой (0 байт) — в нем нет ни заголовка, ни показаний",
    );
    const utf16 = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode("s\0e\0")]);
    expect((await json<{ detail: string }>(await csvPush(utf16), 400)).detail).toBe(
      `Строка 1 (заголовок): ${CSV_ENCODING_MESSAGE.replace("Не удалось прочитать файл CSV", "не удалось прочитать")}`,
    );
    expect((await json<{ detail: string }>(await csvPush(new TextEncoder().encode("код;время\nМ-1;x\n")), 400)).detail).toContain(
      "sensor;t;value",
    );
    expect(await h.deps.repos.monitoring.queued(1000)).toEqual(before);
  });

  it("refuses 1e308 % of methane by line in the batch it answers 202, storing the batch's good readings (R3)", async () => {
    const batch = await applied(
      await byGateway({
        readings: [
          { sensor: "М-1", t: "2026-03-09T00:00:00Z", value: 0.41 },
          { sensor: "М-1", t: "2026-03-09T00:01:00Z", value: 1e308 },
          { sensor: "М-1", t: "2026-03-09T00:02:00Z", value: 0.43 },
        ],
      }),
    );
    expect(batch).toMatchObject({
      state: "done",
      lines: 3,
      accepted: 2,
      refused: [{ line: 2, reason: "значение 1e+308 невозможно для датчика «М-1» (% об.): допустимо от -100 до 200" }],
    });
    const r = await readingsBetween(h.deps, companyId, sensors["М-1"], Date.UTC(2026, 2, 9), Date.UTC(2026, 2, 10));
    expect([...r.values]).toEqual([0.41, 0.43]);
  });

  it("refuses a 1970 reading by line and stores the current one beside it (R1)", async () => {
    const now = Date.now() - MINUTE_MS;
    const batch = await applied(
      await byGateway({
        readings: [
          { sensor: "М-2", t: "1970-01-01T00:00:00Z", value: 0.4 },
          { sensor: "М-2", t: iso(now), value: 0.42 },
        ],
      }),
    );
    expect(batch).toMatchObject({ state: "done", lines: 2, accepted: 1 });
    expect(batch.refused).toEqual([{ line: 1, reason: expect.stringMatching(/^время 1970-01-01T00:00:00Z раньше .*не принимаются$/) }]);
    expect([...(await readingsBetween(h.deps, companyId, sensors["М-2"], now, now + 1)).values]).toEqual([0.42]);
  });

  it("refuses a CSV line whose quote is never closed by its number, answering 202, not 500 (R11)", async () => {
    const text = 'sensor;t;value\nМ-1;2026-03-10T00:00:00Z;0,41\nМ-1;2026-03-10T00:01:00Z;"0,42\nМ-1;2026-03-10T00:02:00Z;0,43\n';
    const batch = await applied(await csvPush(new TextEncoder().encode(text)));
    expect(batch).toMatchObject({
      lines: 3,
      accepted: 2,
      refused: [{ line: 3, reason: "кавычка в строке не закрыта: строка не прочитана" }],
    });
  });

  it("a gateway key reads nothing and pushes only to its facility", async () => {
    const { batch } = await json<{ batch: string }>(
      await byGateway({ readings: [{ sensor: "М-1", t: "2026-03-05T00:00:00Z", value: 0.4 }] }),
      202,
    );
    await monitoringIdle(h.deps);
    const status = await h.request(`/api/v1/telemetry/batches/${batch}/`, { headers: { Authorization: `Gateway ${key.key}` } });
    expect(status.status).toBe(401);
    expect((await byGateway({ facility: second.id, readings: [{ sensor: "С-9", t: "2026-03-05T00:00:00Z", value: 0.4 }] })).status).toBe(
      403,
    );
    expect((await byGateway({ readings: [] }, "agk_not-a-key")).status).toBe(401);
  });

  it("another company's user can neither push to the facility nor read its batch", async () => {
    const { batch } = await json<{ batch: string }>(
      await post(PUSH, { facility: facility.id, readings: [{ sensor: "М-1", t: "2026-03-06T00:00:00Z", value: 0.4 }] }),
      202,
    );
    expect(
      (await post(PUSH, { facility: facility.id, readings: [{ sensor: "М-1", t: "2026-03-06T00:01:00Z", value: 0.4 }] }, other)).status,
    ).toBe(404);
    expect((await h.request(`/api/v1/telemetry/batches/${batch}/`, { token: other })).status).toBe(404);
    expect((await h.request(PUSH, { method: "POST", json: { readings: [] } })).status).toBe(401);
  });

  it("a revoked key is refused", async () => {
    await json(await h.request(`/api/v1/facilities/${facility.id}/gateway-keys/${key.id}/`, { method: "DELETE", token: staff }), 200);
    const res = await byGateway({ readings: [{ sensor: "М-1", t: "2026-03-07T00:00:00Z", value: 0.4 }] });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe("Ключ шлюза недействителен или отозван");
  });
});

// D89: every batch names who sent it — the user by surname and initials (a user's push
// read «передача шлюза» with no one named), or the gateway key by its label — on its status and in the
// facility's list of loads («Загрузки АГК»); never an e-mail.
describe("who sent a batch", () => {
  it("keeps the user's surname and initials, or the gateway key's label, and lists them", async () => {
    const t = iso(Date.UTC(2026, 2, 5, 6, 0));
    const user = (await h.deps.repos.users.listByCompany(companyId))[0];
    await h.deps.repos.users.update(companyId, user.id, { first_name: "Ольга Ивановна", last_name: "Кузнецова" });
    const byUser = await applied(await post(PUSH, { facility: facility.id, readings: [{ sensor: "М-1", t, value: 0.4 }] }));
    // The file's key is revoked by then: a key of its own.
    const own = await json<{ key: string }>(
      await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз диспетчерской" }),
      201,
    );
    const byKey = await applied(await byGateway({ readings: [{ sensor: "М-1", t, value: 0.45 }] }, own.key));
    expect((byUser as Batch & { sent_by?: string }).sent_by).toBe("Кузнецова О. И.");
    const listed = await json<(Batch & { sent_by?: string })[]>(
      await h.request(`/api/v1/telemetry/batches/?facility=${facility.id}`, { token: staff }),
      200,
    );
    const senders = new Map(listed.map((b) => [b.batch, b.sent_by]));
    expect(senders.get(byUser.batch)).toBe("Кузнецова О. И.");
    expect(senders.get(byKey.batch)).toBe("ключ шлюза «Шлюз диспетчерской»");
    expect(JSON.stringify(listed)).not.toContain("@");
  });
});
