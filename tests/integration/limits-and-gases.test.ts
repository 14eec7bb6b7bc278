// over HTTP on the real local DynamoDB engine, on a server whose clock reads
// 10.01.2027: an administrator's edition of the permissible methane concentrations that overlaps another
// is refused 409 naming it; a past day's journal reads its meter against that day's own edition (Order
// 507's Appendix 3 on 31.12.2026, the new one on 05.01.2027), naming the act, point and edition; a
// carbon-monoxide meter comes in from the mine's sensor list, its readings from the dispatch export, and
// is journalled in ppm against its own A. The rules on the in-memory repositories:
// functions/src/domain/monitoring/derive/methane-limits.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";
import { signedInAdmin } from "../support/admin";

let h: Harness;
let staff: string;
let admin: string;
let facility: string;
const START = Date.now();
const NOW = Date.parse("2027-01-10T03:00:00Z");

interface Row {
  code: string;
  unit: string;
  limit: number | null;
  limit_source: { by: string; act: string | null; point: string | null; edition: string | null; text_read: boolean } | null;
  day: number | null;
}
interface Journal {
  sensors: Row[];
  gassings: { sensors: string[]; limits: number[] }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const limitsPath = "/api/v1/reference/methane-limits/";
const EDITION = {
  act: "Приказ Ростехнадзора «Правила безопасности в угольных шахтах» (новая редакция)",
  edition: "Редакция с 01.01.2027",
  valid_from: "2027-01-01",
  rows: [
    { place: "intake", limit_pct: 0.5, point: "прил. 3, п. 5" },
    { place: "working", limit_pct: 0.5, point: "прил. 3, п. 1" },
    { place: "wing_outgoing", limit_pct: 0.75, point: "прил. 3, п. 2" },
    { place: "local_accumulation", limit_pct: 2, point: "прил. 3, п. 3" },
    { place: "suction_pipeline", limit_pct: 3.5, point: "прил. 3, п. 4" },
  ],
};
/** 20 minutes from 10:00 local (03:00 UTC) of `day`, two readings a minute. */
const minutes = (sensor: string, day: string, value: number) =>
  Array.from({ length: 20 }, (_, m) => Date.parse(`${day}T03:00:00Z`) + m * 60_000).flatMap((t) => [
    { sensor, t: new Date(t + 10_000).toISOString(), value },
    { sensor, t: new Date(t + 40_000).toISOString(), value },
  ]);

beforeAll(async () => {
  h = await createHarness({}, { now: () => new Date(NOW + (Date.now() - START)) });
  ({ token: staff } = await h.signedInUser("ООО «Пределы по актам»"));
  ({ token: admin } = await signedInAdmin(h));
  facility = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Редакции»", kind: "underground_mine" }), 201))
    .id;
  const point = await json<{ id: string; name: string }>(
    await post(`/api/v1/facilities/${facility}/points/`, { name: "Вентиляционный ствол", kind: "ventilation_shaft" }),
    201,
  );
  await json(
    // A face meter: read against the working's row (D87), whichever edition holds.
    await post(`/api/v1/facilities/${facility}/sensors/`, { code: "М-1", kind: "methane", working: "Лава 1", place: "face" }),
    201,
  );
  // The mine's list with a carbon-monoxide line (A 17 ppm), taken whole.
  const list = [
    "Код датчика;Вид датчика;Источник выбросов;Выработка;Аварийный уровень A, % об. (CO — ppm)",
    `CO-1;Оксид углерода;${point.name};Лава 1;17`,
  ];
  const body = new FormData();
  body.set("file_data", new Blob([new TextEncoder().encode(list.join("\r\n"))]), "Датчики.csv");
  const made = await json<{ code: string; kind: string; alarm: number | null }[]>(
    await h.request(`/api/v1/facilities/${facility}/sensors/import/`, { method: "POST", token: staff, body }),
    201,
  );
  expect(made.map((s) => [s.code, s.kind, s.alarm])).toEqual([["CO-1", "carbon_monoxide", 17]]);
});
afterAll(() => h.close());

describe("the permissible limits by edition", () => {
  it("refuses an edition overlapping another 409, naming it, and takes one from the day the last ended", async () => {
    const overlapping = await json<{ detail: string }>(await post(limitsPath, { ...EDITION, valid_from: "2026-12-01" }, admin), 409);
    expect(overlapping.detail).toContain(
      "«Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020)» (с 01.01.2021 до 01.01.2027)",
    );
    await json(await post(limitsPath, EDITION, admin), 201);
    const again = await json<{ detail: string }>(await post(limitsPath, { ...EDITION, valid_from: "2027-06-01" }, admin), 409);
    expect(again.detail).toContain("«Редакция с 01.01.2027» (с 01.01.2027 без срока окончания)");
  });

  it("reads each past day against its own day's edition and names it in the journal", async () => {
    for (const day of ["2026-12-31", "2027-01-05"])
      await json(await post("/api/v1/telemetry/readings/", { facility, readings: minutes("М-1", day, 0.7) }), 202);
    await monitoringIdle(h.deps);
    const journal = async (date: string) =>
      json<Journal>(await h.request(`/api/v1/telemetry/journal/?facility=${facility}&date=${date}`, { token: staff }), 200);
    const before = await journal("2026-12-31");
    const m1 = before.sensors.find((s) => s.code === "М-1")!;
    expect([m1.limit, m1.limit_source?.by, m1.limit_source?.point, m1.limit_source?.text_read]).toEqual([
      1,
      "place",
      "п. 122, приложение № 3",
      false,
    ]);
    expect(m1.limit_source?.act).toContain("№ 507");
    expect(before.gassings).toEqual([]);
    const after = await journal("2027-01-05");
    const m1After = after.sensors.find((s) => s.code === "М-1")!;
    expect([m1After.limit, m1After.limit_source?.edition, m1After.limit_source?.point]).toEqual([
      0.5,
      "Редакция с 01.01.2027",
      "прил. 3, п. 1",
    ]);
    expect(after.gassings.map((g) => [g.sensors, g.limits])).toEqual([[["М-1"], [0.5]]]);
  });
});

describe("the АГК's carbon-monoxide channel", () => {
  it("is read from the dispatch export and journalled in ppm against its own A", async () => {
    const file = [
      "Время;CO-1",
      ...Array.from({ length: 10 }, (_, m) => `05.01.2027 10:${String(m).padStart(2, "0")}:00;${m < 5 ? 12 : 14}`),
    ].join("\r\n");
    const bytes = new TextEncoder().encode(file);
    const grant = await json<{ url: string; method: string; headers: Record<string, string>; file_upload: string }>(
      await post("/api/v1/telemetry/upload-url/", { facility, content_type: "text/csv", size: bytes.byteLength, name: "АГК CO.csv" }),
      200,
    );
    const put = await h.request(grant.url, {
      method: grant.method,
      headers: { ...grant.headers, "Content-Length": String(bytes.byteLength) },
      body: bytes as NonNullable<RequestInit["body"]>,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const queued = await json<{ status_url: string }>(
      await post("/api/v1/telemetry/files/", { facility, file_upload: grant.file_upload, name: "АГК CO.csv" }),
      202,
    );
    await monitoringIdle(h.deps);
    const batch = await json<{ accepted: number; refused: unknown[] }>(await h.request(queued.status_url, { token: staff }), 200);
    expect([batch.accepted, batch.refused]).toEqual([10, []]);
    const journal = await json<Journal>(
      await h.request(`/api/v1/telemetry/journal/?facility=${facility}&date=2027-01-05`, { token: staff }),
      200,
    );
    const co = journal.sensors.find((s) => s.code === "CO-1")!;
    expect([co.unit, co.day, co.limit, co.limit_source?.by]).toEqual(["ppm", 13, 17, "alarm"]);
    // A meter of another gas opens no methane gassing.
    expect(journal.gassings.flatMap((g) => g.sensors)).not.toContain("CO-1");
  });
});
