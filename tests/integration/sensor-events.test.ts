// D65 over HTTP on the real local DynamoDB engine: readings pushed by a facility's gateway give their
// threshold and stale events once the consumer applied them (GET v1/telemetry/events/, filtered by
// level, working and shift on the company's clock), acknowledged with a comment (POST
// v1/telemetry/events/{id}/acknowledge/: who and when, once); the gateway's key reads none of it, and
// another company's user neither lists nor acknowledges. The detector's rules on the in-memory
// repositories: functions/src/domain/monitoring/derive/events.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let other: string;
let facility: { id: string };
let key: { key: string };

interface Event {
  id: string;
  sensor_code: string;
  working: string;
  kind: string;
  level: string | null;
  start: string;
  end: string | null;
  peak: number | null;
  minutes_above: number;
  shift: { date: string; number: number };
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  comment: string;
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const AT = Date.UTC(2026, 2, 1, 16, 50); // 01.03.2026 23:50 in Kemerovo
const iso = (t: number) => new Date(t).toISOString();
const events = (query: string, token = staff) =>
  h.request(`/api/v1/telemetry/events/?facility=${facility.id}&from=2026-03-01&to=2026-03-03${query}`, { token });

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «АГК-События»"));
  ({ token: other } = await h.signedInUser("ООО «Чужие события»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Лавная»", kind: "underground_mine" }), 201);
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
  key = await json(await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" }), 201);
  // 0,95 % from 16:55 UTC, 1,5 % from 17:00, 2,2 % at 17:05–17:06, 0,5 % from 17:10; none 17:20–17:29.
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 50; m++) {
    if (m >= 30 && m < 40) continue;
    const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
    readings.push({ sensor: "М-7", t: iso(AT + m * MINUTE_MS + 15_000), value });
  }
  const res = await h.request("/api/v1/telemetry/readings/", {
    method: "POST",
    headers: { Authorization: `Gateway ${key.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ readings }),
  });
  expect(res.status).toBe(202);
  await monitoringIdle(h.deps);
});
afterAll(() => h.close());

describe("GET v1/telemetry/events/", () => {
  it("lists the events the pushed readings give, by start, on the company's clock", async () => {
    const { results, count } = await json<{ results: Event[]; count: number }>(await events(""), 200);
    expect(count).toBe(5);
    expect(
      results.map((e) => [e.kind, e.level, e.start.slice(11, 16), e.end?.slice(11, 16) ?? null, e.shift.date, e.shift.number]),
    ).toEqual([
      ["threshold", "pre_warning", "16:55", "17:10", "2026-03-01", 3],
      ["threshold", "warning", "17:00", "17:10", "2026-03-02", 1],
      ["threshold", "alarm", "17:05", "17:07", "2026-03-02", 1],
      ["stale", null, "17:20", "17:30", "2026-03-02", 1],
      ["stale", null, "17:40", null, "2026-03-02", 1],
    ]);
    expect(results[2]).toMatchObject({ sensor_code: "М-7", working: "Лава 12-1", peak: 2.2, minutes_above: 2, acknowledged_by: null });
  });

  it("filters by level, working and shift", async () => {
    const levels = async (query: string) => (await json<{ results: Event[] }>(await events(query), 200)).results.map((e) => e.level);
    expect(await levels("&level=warning")).toEqual(["warning"]);
    expect(await levels("&shift=3")).toEqual(["pre_warning"]);
    expect(await levels(`&working=${encodeURIComponent("Лава 12-1")}&kind=threshold`)).toEqual(["pre_warning", "warning", "alarm"]);
  });

  it("refuses a bad filter in Russian with its field", async () => {
    expect((await json<{ detail: string }>(await events("&level=red"), 400)).detail).toMatch(/^Уровень: /);
    expect((await json<{ detail: string }>(await events("&shift=0"), 400)).detail).toMatch(/^Смена: /);
  });
});

describe("POST v1/telemetry/events/{id}/acknowledge/", () => {
  it("keeps who and when with the comment, and refuses a second acknowledgement", async () => {
    const alarm = (await json<{ results: Event[] }>(await events("&level=alarm"), 200)).results[0];
    const done = await json<Event>(
      await post(`/api/v1/telemetry/events/${alarm.id}/acknowledge/`, { comment: "Выезд ВГСЧ не требуется" }),
      200,
    );
    // By surname and initials, never the e-mail (this user gave no name).
    expect(done.acknowledged_by).toBe("ФИО не указано в профиле");
    expect(done.comment).toBe("Выезд ВГСЧ не требуется");
    expect(Date.parse(done.acknowledged_at as string)).not.toBeNaN();
    expect((await json<{ results: Event[] }>(await events("&level=alarm"), 200)).results[0]).toEqual(done);
    const again = await json<{ detail: string }>(await post(`/api/v1/telemetry/events/${alarm.id}/acknowledge/`, { comment: "" }), 409);
    expect(again.detail).toMatch(/уже квитировано/);
  });
});

// a dispatcher acknowledges several events at once with one comment.
describe("POST v1/telemetry/events/acknowledge/", () => {
  it("acknowledges the events named with one comment, keeps an earlier acknowledgement, and refuses another company's", async () => {
    const thresholds = (await json<{ results: Event[] }>(await events("&kind=threshold"), 200)).results;
    const alarm = thresholds.find((e) => e.level === "alarm")!;
    if (!alarm.acknowledged_at) await json(await post(`/api/v1/telemetry/events/${alarm.id}/acknowledge/`, { comment: "Раньше" }), 200);
    const before = (await json<{ results: Event[] }>(await events("&level=alarm"), 200)).results[0];
    const others = thresholds.filter((e) => e.level !== "alarm");
    const stranger = await post("/api/v1/telemetry/events/acknowledge/", { events: others.map((e) => e.id), comment: "чужое" }, other);
    expect(stranger.status).toBe(404);
    const done = await json<Event[]>(
      await post("/api/v1/telemetry/events/acknowledge/", { events: [...others.map((e) => e.id), alarm.id], comment: "Бригада выведена" }),
      200,
    );
    expect(done.map((e) => e.level)).toEqual(["pre_warning", "warning", "alarm"]);
    expect(done.slice(0, 2).every((e) => e.comment === "Бригада выведена" && e.acknowledged_by === "ФИО не указано в профиле")).toBe(true);
    expect(done[2]).toEqual(before);
    const refused = await post("/api/v1/telemetry/events/acknowledge/", { events: [], comment: "" });
    expect((await json<{ detail: string }>(refused, 400)).detail).toMatch(/^События: /);
  });
});

describe("who cannot read it", () => {
  it("a gateway key reads nothing: neither the list nor an acknowledgement", async () => {
    const auth = { Authorization: `Gateway ${key.key}` };
    expect((await h.request(`/api/v1/telemetry/events/?facility=${facility.id}`, { headers: auth })).status).toBe(401);
    const stale = (await json<{ results: Event[] }>(await events("&kind=stale"), 200)).results[0];
    const res = await h.request(`/api/v1/telemetry/events/${stale.id}/acknowledge/`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("another company's user sees none of it and acknowledges nothing", async () => {
    expect((await json<{ detail: string }>(await events("", other), 404)).detail).toBe("Площадка не найдена");
    const stale = (await json<{ results: Event[] }>(await events("&kind=stale"), 200)).results[0];
    await json(await post(`/api/v1/telemetry/events/${stale.id}/acknowledge/`, { comment: "чужое" }, other), 404);
    expect((await json<{ results: Event[] }>(await events("&kind=stale"), 200)).results[0].acknowledged_by).toBeNull();
  });
});

describe("GET v1/telemetry/shift-report/", () => {
  it("answers the shift's report as xlsx and as PDF, named for the facility, date and shift", async () => {
    const path = `/api/v1/telemetry/shift-report/?facility=${facility.id}&date=2026-03-02&shift=1`;
    const xlsx = await h.request(path, { token: staff });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(decodeURIComponent(xlsx.headers.get("content-disposition") ?? "")).toContain(
      "Отчет смены Шахта «Лавная» 02.03.2026 смена 1.xlsx",
    );
    expect(new Uint8Array(await xlsx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const pdf = await h.request(`${path}&format=pdf`, { token: staff });
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  });

  it("refuses a shift not begun in Russian, and another company's user", async () => {
    const res = await h.request(`/api/v1/telemetry/shift-report/?facility=${facility.id}&date=2099-01-01&shift=1`, { token: staff });
    expect((await json<{ detail: string }>(res, 400)).detail).toBe("Дата: смена еще не началась");
    const stranger = await h.request(`/api/v1/telemetry/shift-report/?facility=${facility.id}&date=2026-03-02&shift=1`, { token: other });
    expect(stranger.status).toBe(404);
    const gateway = await h.request(`/api/v1/telemetry/shift-report/?facility=${facility.id}&date=2026-03-02&shift=1`, {
      headers: { Authorization: `Gateway ${key.key}` },
    });
    expect(gateway.status).toBe(401);
  });
});
