// D56: a facility's sensor register through the API (list, add, one, change, retire), the register as
// it was at a reading's time, the change log, and the facility's gateway keys (shown once, stored
// hashed, listed without the key, revoked, reading nothing), on the real local DynamoDB engine.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { registerAt } from "@server/domain/monitoring/ingest/register";
import { requisitesChange } from "@server/domain/company/requisites-audit";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import type { Sensor as StoredSensor } from "@server/ports";

let h: Harness;
let staff: string;
let other: string;
let reviewer: string;
let companyId: string;
let facility: { id: string };
let shaft: { id: string };
let drainage: { id: string };

type Sensor = StoredSensor;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const patch = (path: string, body: unknown, token = staff) => h.request(path, { method: "PATCH", token, json: body });
const del = (path: string, token = staff) => h.request(path, { method: "DELETE", token });
const get = (path: string, token = staff) => h.request(path, { token });
const sensors = () => `/api/v1/facilities/${facility.id}/sensors/`;
const keysPath = () => `/api/v1/facilities/${facility.id}/gateway-keys/`;

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Датчики»");
  staff = a.token;
  companyId = a.companyId;
  ({ token: other } = await h.signedInUser("ООО «Чужие датчики»"));
  await createUser(h.deps, { companyId, email: "reviewer@sensors.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@sensors.example", "reviewer-password")).json()) as { access: string }).access;
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Распадская»", kind: "underground_mine" }), 201);
  shaft = await json(await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол № 2", kind: "ventilation_shaft" }), 201);
  drainage = await json(await post(`/api/v1/facilities/${facility.id}/points/`, { name: "ДУ-1", kind: "drainage_station" }), 201);
});
afterAll(() => h.close());

describe("a facility's sensor register (D56)", () => {
  let methane: Sensor;

  it("adds sensors with their kind, point, levels and cross-section, and lists them by code", async () => {
    methane = await json<Sensor>(
      await post(sensors(), { code: "М-12", kind: "methane", point: shaft.id, role: "cut_off", warning: 0.6, alarm: 1.0 }),
      201,
    );
    expect(methane).toMatchObject({ code: "М-12", kind: "methane", role: "cut_off", warning: 0.6, alarm: 1, is_active: true, version: 1 });
    expect(methane.revisions).toHaveLength(1);
    await json(await post(sensors(), { code: "АН-3", kind: "air_velocity", point: shaft.id, area_m2: 14.5 }), 201);
    await json(await post(sensors(), { code: "Q-1", kind: "flow", point: drainage.id, conditions: "actual" }), 201);
    const listed = await json<Sensor[]>(await get(sensors()), 200);
    expect(listed.map((s) => s.code)).toEqual(["АН-3", "М-12", "Q-1"]);
  });

  it("refuses in Russian an anemometer without a cross-section, an alarm below the warning, a twin code and another facility's point", async () => {
    const refused = async (body: unknown) => (await json<{ detail: string }>(await post(sensors(), body), 400)).detail;
    expect(await refused({ code: "АН-4", kind: "air_velocity", point: shaft.id })).toContain("площадь сечения");
    expect(await refused({ code: "М-13", kind: "methane", point: shaft.id, warning: 1.0, alarm: 0.6 })).toContain("аварийный уровень ниже");
    expect(await refused({ code: "м-12", kind: "methane", point: shaft.id })).toContain("уже есть датчик «М-12»");
    expect(await refused({ code: "М-14", kind: "methane", point: "not-a-point" })).toContain("источник выбросов не найден");
    expect(await refused({ code: "М-15", kind: "co2", point: shaft.id })).toContain("выберите вид датчика");
  });

  it("keeps the register as it was: a reading before a change is read with the old levels", async () => {
    const before = Date.now() - 1000;
    const changed = await json<Sensor>(
      await patch(`${sensors()}${methane.id}/`, { warning: 1.0, alarm: 1.5, version: methane.version }),
      200,
    );
    expect(changed.revisions.map((r) => r.warning)).toEqual([0.6, 1.0]);
    expect(registerAt(changed, before).warning).toBe(0.6);
    expect(registerAt(changed, Date.now() + 1000).warning).toBe(1.0);
    expect(registerAt(changed, "2020-01-01T00:00:00Z").alarm).toBe(1.0);
    expect((await json<{ detail: string }>(await patch(`${sensors()}${methane.id}/`, { warning: 0.5, version: 1 }), 409)).detail).toContain(
      "изменен другим пользователем",
    );
    expect(
      (await json<{ detail: string }>(await patch(`${sensors()}${methane.id}/`, { colour: "red", version: 2 }), 400)).detail,
    ).toContain("такого поля нет у датчика");
    methane = changed;
  });

  it("retires a sensor from today: listed as retired, its code free for a new one", async () => {
    const retired = await json<Sensor>(await del(`${sensors()}${methane.id}/`), 200);
    expect(retired.is_active).toBe(false);
    expect(retired.in_service_to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await json(await post(sensors(), { code: "М-12", kind: "methane", point: shaft.id }), 201);
  });

  it("writes every change to the company's change log with Russian labels and the point's name, never an id", async () => {
    const { results } = await h.deps.repos.adminAudit.listCompany(companyId, { limit: 50, offset: 0 });
    const shown = results.filter((e) => e.target_type === "sensor").map(requisitesChange);
    const update = shown.find((e) => e.changes.some((c) => c.field === "warning"));
    expect(update?.changes.find((c) => c.field === "warning")).toMatchObject({
      label: "Предупредительный уровень, % об.",
      before: "0,6",
      after: "1",
    });
    const created = shown.find((e) => e.created && e.target_label.startsWith("АН-3"));
    expect(created?.changes.find((c) => c.field === "point_name")?.after).toBe("Ствол № 2");
    expect(created?.changes.find((c) => c.field === "kind")?.after).toBe("Скорость воздуха");
    expect(JSON.stringify(shown)).not.toContain(shaft.id);
  });

  it("is another company's 404, like a missing facility", async () => {
    expect((await get(sensors(), other)).status).toBe(404);
    expect((await post(sensors(), { code: "X", kind: "methane", point: shaft.id }, other)).status).toBe(404);
    expect((await get(`${sensors()}${methane.id}/`, other)).status).toBe(404);
    expect((await del(`${sensors()}${methane.id}/`, other)).status).toBe(404);
  });
});

describe("gateway keys", () => {
  let created: { id: string; key: string; prefix: string; revoked_at: string | null };

  it("answer the key once, list it without the key and store only its SHA-256", async () => {
    created = await json(await post(keysPath(), { label: "Шлюз диспетчерской" }), 201);
    expect(created.key).toMatch(/^agk_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.revoked_at).toBeNull();
    const listed = await json<Record<string, unknown>[]>(await get(keysPath()), 200);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(listed[0]).not.toHaveProperty("hash");
    const stored = await h.deps.repos.gatewayKeys.get(companyId, facility.id, created.id);
    expect(stored?.hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect(await h.deps.repos.gatewayKeys.byHash(stored!.hash)).toEqual({ company: companyId, facility: facility.id, id: created.id });
  });

  it("read nothing: a key is no user token", async () => {
    for (const path of [sensors(), keysPath(), "/api/v1/users/get_me/", "/api/v1/facilities/"]) {
      const res = await h.request(path, { headers: { Authorization: `Gateway ${created.key}` } });
      expect(res.status, path).toBe(401);
      const bearer = await h.request(path, { headers: { Authorization: `Bearer ${created.key}` } });
      expect(bearer.status, path).toBe(401);
    }
  });

  it("are made and revoked by staff, not by a reviewer or another company", async () => {
    expect((await post(keysPath(), { label: "Чужой" }, reviewer)).status).toBe(403);
    expect((await del(`${keysPath()}${created.id}/`, reviewer)).status).toBe(403);
    expect((await post(keysPath(), { label: "Чужой" }, other)).status).toBe(404);
    expect((await del(`${keysPath()}${created.id}/`, other)).status).toBe(404);
    expect((await json<{ detail: string }>(await post(keysPath(), { label: " " }), 400)).detail).toContain("назовите ключ");
  });

  it("once revoked are listed as revoked and their hash finds nothing", async () => {
    const revoked = await json<{ revoked_at: string | null }>(await del(`${keysPath()}${created.id}/`), 200);
    expect(revoked.revoked_at).not.toBeNull();
    expect(await h.deps.repos.gatewayKeys.byHash(createHash("sha256").update(created.key).digest("hex"))).toBeUndefined();
    const listed = await json<{ revoked_at: string | null }[]>(await get(keysPath()), 200);
    expect(listed[0].revoked_at).toBe(revoked.revoked_at);
  });
});

describe("the mine's sensor list imported into the register", () => {
  const importPath = (dryRun = false) => `${sensors()}import/${dryRun ? "?dry_run=1" : ""}`;
  const sendList = (bytes: Uint8Array, name: string, dryRun = false, token = staff) => {
    const body = new FormData();
    body.set("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
    return h.request(importPath(dryRun), { method: "POST", token, body });
  };

  it("downloads its template as a workbook and as a CSV Russian Excel opens", async () => {
    const xlsx = await get(`${sensors()}template/`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toContain("spreadsheetml");
    expect(decodeURIComponent(xlsx.headers.get("content-disposition") ?? "")).toContain("Шаблон — Датчики АГК.xlsx");
    const bytes = new Uint8Array(await xlsx.arrayBuffer());
    expect([...bytes.subarray(0, 2)]).toEqual([0x50, 0x4b]);
    const csv = await get(`${sensors()}template/?format=csv`);
    const raw = new Uint8Array(await csv.arrayBuffer());
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(raw);
    expect(text.split("\r\n")[0]).toBe(
      "Код датчика;Вид датчика;Источник выбросов;Роль;Выработка;Участок;Место датчика;Предупредительный уровень W, % об. (CO — ppm);Аварийный уровень A, % об. (CO — ppm);Площадь сечения, м²;Условия расхода;В эксплуатации с;В эксплуатации по;Норма загазирования;Порядок по струе;Свежий воздух перед датчиком",
    );
    // the longwall's meter in its section at its place, measuring no point.
    expect(text).toContain(
      "М-12;Метан (0–4 % об.);;отключающий;Лава 24-12;Выемочный участок 24-12;Исходящая струя очистной выработки;1;1,5;;;01.01.2026;",
    );
    expect((await get(`${sensors()}template/`, other)).status).toBe(404);
  });

  it("previews a list with its bad rows, refuses it whole, then makes the good one's sensors", async () => {
    const list = (rows: string[]) =>
      new TextEncoder().encode(["Код датчика;Вид датчика;Источник выбросов;Площадь сечения, м²", ...rows].join("\r\n"));
    const bad = list(["М-20;Метан;Ствол № 2;", "АН-20;Скорость воздуха;Ствол № 2;"]);
    const preview = await json<{ count: number; errors: { row: number; column: string; message: string }[] }>(
      await sendList(bad, "Датчики.csv", true),
      200,
    );
    expect(preview.count).toBe(2);
    expect(preview.errors).toEqual([
      { sheet: "CSV", row: 3, column: "Площадь сечения, м²", message: "для анемометра укажите площадь сечения выработки, м²" },
    ]);
    const refused = await json<{ detail: string }>(await sendList(bad, "Датчики.csv"), 400);
    expect(refused.detail).toBe(
      "Лист «CSV», строка 3, столбец «Площадь сечения, м²»: для анемометра укажите площадь сечения выработки, м²",
    );
    const codes = async () => (await json<Sensor[]>(await get(sensors()), 200)).map((s) => s.code);
    expect(await codes()).not.toContain("М-20");
    const made = await json<Sensor[]>(
      await sendList(list(["М-20;Метан;Ствол № 2;", "АН-20;Скорость воздуха;Ствол № 2;14,5"]), "Датчики.csv"),
      201,
    );
    expect(made.map((s) => [s.code, s.point, s.area_m2])).toEqual([
      ["М-20", shaft.id, null],
      ["АН-20", shaft.id, 14.5],
    ]);
    expect(await codes()).toEqual(expect.arrayContaining(["М-20", "АН-20"]));
  });

  it("is another company's 404, and an empty file is refused in words", async () => {
    const one = new TextEncoder().encode("Код датчика;Вид датчика;Источник выбросов\r\nМ-30;Метан;Ствол № 2");
    expect((await sendList(one, "Датчики.csv", true, other)).status).toBe(404);
    expect((await sendList(one, "Датчики.csv", false, other)).status).toBe(404);
    const empty = await json<{ detail: string }>(await sendList(new Uint8Array(0), "Датчики.csv", true), 400);
    expect(empty.detail).toContain("файл пуст");
  });
});

describe("what the readings give per sensor (D58–D62)", () => {
  it("answers completeness, a month's gaps and a day to the company's users, 400 for a malformed month or date", async () => {
    const listed = await json<Sensor[]>(await get(sensors()), 200);
    // a meter registered today without a date put in service, and no reading before,
    // served no earlier month («—»); put in service from 01.01.2026, its March without a reading is one gap.
    const registered = listed.find((s) => s.code === "М-12" && s.is_active)!;
    expect((await get(`${sensors()}${registered.id}/gaps/?month=2026-03`)).status).toBe(400);
    const methane = await json<Sensor>(
      await patch(`${sensors()}${registered.id}/`, { in_service_from: "2026-01-01", version: registered.version }),
      200,
    );
    const year = await json<{ code: string; months: { month: string }[] }[]>(await get(`${sensors()}completeness/?year=2026`), 200);
    expect(year.map((s) => s.code)).toContain("М-12");
    const gaps = await json<{ month: string; count: number; gaps: { rule: string }[] }>(
      await get(`${sensors()}${methane.id}/gaps/?month=2026-03`),
      200,
    );
    expect(gaps).toMatchObject({ month: "2026-03", count: 1, gaps: [{ rule: "too_long" }] });
    const day = await json<{ value: unknown[]; levels: { warning: number } }>(
      await get(`${sensors()}${methane.id}/day/?date=2026-03-15`),
      200,
    );
    expect(day.value).toHaveLength(1440);
    expect((await json<{ detail: string }>(await get(`${sensors()}${methane.id}/gaps/?month=2026-13`), 400)).detail).toContain(
      "месяц в виде ГГГГ-ММ",
    );
    expect((await json<{ detail: string }>(await get(`${sensors()}${methane.id}/day/?date=15.03.2026`), 400)).detail).toContain(
      "Дата: укажите дату в формате ГГГГ-ММ-ДД",
    );
    expect((await get(`${sensors()}${methane.id}/gaps/?month=2026-03`, other)).status).toBe(404);
    expect((await get(`${sensors()}completeness/?year=2026`, other)).status).toBe(404);
  });

  it("reads nothing with a gateway key", async () => {
    const key = await json<{ key: string }>(await post(keysPath(), { label: "Шлюз для чтения" }), 201);
    const listed = await json<Sensor[]>(await get(sensors()), 200);
    for (const path of [
      `${sensors()}completeness/?year=2026`,
      `${sensors()}${listed[0].id}/gaps/?month=2026-03`,
      `${sensors()}${listed[0].id}/day/?date=2026-03-15`,
    ]) {
      expect((await h.request(path, { headers: { Authorization: `Gateway ${key.key}` } })).status, path).toBe(401);
    }
  });
});

describe("a code taken at once", () => {
  it("stores one sensor of ten creates of one code at once, and one of two renames to one code", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(sensors(), { code: "DUP-15348", kind: "methane", point: shaft.id })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(
      statuses.every((s) => s === 201 || s === 400 || s === 409),
      String(statuses),
    ).toBe(true);
    const listed = await json<Sensor[]>(await get(sensors()), 200);
    expect(listed.filter((s) => s.code.toLowerCase() === "dup-15348" && s.is_active)).toHaveLength(1);
    // Two sensors renamed to one new code at once: one is.
    const [a, b] = await Promise.all(
      ["DUP-A", "DUP-B"].map(async (code) => json<Sensor>(await post(sensors(), { code, kind: "methane", point: shaft.id }), 201)),
    );
    const renames = await Promise.all([a, b].map((s) => patch(`${sensors()}${s.id}/`, { code: "DUP-RENAMED", version: s.version })));
    expect(renames.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    const after = await json<Sensor[]>(await get(sensors()), 200);
    expect(after.filter((s) => s.code === "DUP-RENAMED")).toHaveLength(1);
  });
});
