// D56 on the in-memory repositories: a facility's sensor register (added with its kind, point, levels
// and cross-section; refused in Russian for a twin code, a kind there is none of, an anemometer
// without a cross-section, an alarm below the warning, another facility's point), the register as it
// was at a reading's time, a sensor retired from today with its code free again, and the gateway keys
// (answered once, stored as their SHA-256, revoked to nothing, not a reviewer's to make). Over HTTP,
// with another company's 404s and the change log's labels: tests/integration/sensors.test.ts.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { gatewayKeyCreateSchema, sensorCreateSchema, sensorPatchSchema } from "../../../contract/schemas/sensor";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import { createUser } from "../../company/users";
import type { Actor } from "../../context";
import type { Sensor } from "../../../ports";
import { SENSOR_KINDS, inRange, possibleValue } from "@core/monitoring";
import {
  createGatewayKey,
  createSensor,
  gatewayKeyGrant,
  getSensor,
  listGatewayKeys,
  listSensors,
  patchSensor,
  registerAt,
  retireSensor,
  revokeGatewayKey,
  sensorUnit,
} from "./register";

let d: MemoryDomain;
/** The test's clock: the register's revisions are stamped with it. */
let now = Date.parse("2026-11-16T03:00:00Z");
let staff: Actor;
let other: Actor;
let reviewer: Actor;
let facility: string;
let shaft: string;
let drainage: string;

const add = (body: Record<string, unknown>, actor = staff) =>
  d.write(() => createSensor(d.deps, actor, facility, parseWith(sensorCreateSchema, body)));

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  staff = await d.actor("ООО «Датчики»");
  other = await d.actor("ООО «Чужие датчики»");
  const user = await createUser(d.deps, {
    companyId: staff.company,
    email: "reviewer@sensors.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = { id: user.id, company: staff.company, email: user.email, role: user.role };
  facility = (await d.facility(staff, { name: "Шахта «Распадская»", kind: "underground_mine" })).id;
  const point = (body: Record<string, unknown>) => d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, body)));
  shaft = (await point({ name: "Ствол № 2", kind: "ventilation_shaft" })).id;
  drainage = (await point({ name: "ДУ-1", kind: "drainage_station" })).id;
});

describe("a facility's sensor register (D56)", () => {
  let methane: Sensor;

  it("adds sensors with their kind, point, levels and cross-section, and lists them by code", async () => {
    methane = await add({ code: "М-12", kind: "methane", point: shaft, role: "cut_off", warning: 0.6, alarm: 1.0 });
    expect(methane).toMatchObject({ code: "М-12", kind: "methane", role: "cut_off", warning: 0.6, alarm: 1, is_active: true, version: 1 });
    expect(methane.revisions).toHaveLength(1);
    const anemometer = await add({ code: "АН-3", kind: "air_velocity", point: shaft, area_m2: 14.5 });
    expect(anemometer).toMatchObject({ area_m2: 14.5, role: "recording", conditions: "standard" });
    expect(sensorUnit(anemometer)).toBe("м/с");
    await add({ code: "Q-1", kind: "flow", point: drainage, conditions: "actual" });
    expect((await listSensors(d.deps, staff, facility)).map((s) => s.code)).toEqual(["АН-3", "М-12", "Q-1"]);
    expect((await getSensor(d.deps, staff, facility, methane.id)).code).toBe("М-12");
  });

  it("refuses in Russian a twin code, a kind there is none of, an anemometer without a cross-section, an alarm below the warning and another facility's point", async () => {
    await expect(add({ code: "м-12", kind: "methane", point: shaft })).rejects.toThrow("уже есть датчик «М-12»");
    await expect(add({ code: "М-15", kind: "co2", point: shaft })).rejects.toThrow("выберите вид датчика");
    await expect(add({ code: "АН-4", kind: "air_velocity", point: shaft })).rejects.toThrow("площадь сечения");
    // The domain's own rule, for a body that comes without the contract's check.
    await expect(
      d.write(() => createSensor(d.deps, staff, facility, { code: "АН-5", kind: "air_velocity", point: shaft } as never)),
    ).rejects.toThrow("Площадь сечения: для анемометра укажите площадь сечения выработки, м²");
    await expect(add({ code: "М-13", kind: "methane", point: shaft, warning: 1.0, alarm: 0.6 })).rejects.toThrow("аварийный уровень ниже");
    await expect(add({ code: "М-14", kind: "methane", point: "not-a-point" })).rejects.toThrow("источник выбросов не найден");
    expect(await listSensors(d.deps, staff, facility)).toHaveLength(3);
  });

  it("keeps the register as it was: a reading before a change is read with the old levels", async () => {
    const before = now;
    now += 60_000;
    const changed = await d.write(() =>
      patchSensor(
        d.deps,
        staff,
        facility,
        methane.id,
        parseWith(sensorPatchSchema, { warning: 1.0, alarm: 1.5, version: methane.version }),
      ),
    );
    expect(changed.revisions.map((r) => r.warning)).toEqual([0.6, 1.0]);
    expect(registerAt(changed, before).warning).toBe(0.6);
    expect(registerAt(changed, now).warning).toBe(1.0);
    expect(registerAt(changed, "2020-01-01T00:00:00Z").alarm).toBe(1.0);
    await expect(
      d.write(() => patchSensor(d.deps, staff, facility, methane.id, parseWith(sensorPatchSchema, { warning: 0.5, version: 1 }))),
    ).rejects.toThrow("изменен другим пользователем");
    expect(() => parseWith(sensorPatchSchema, { colour: "red", version: 2 })).toThrow("такого поля нет у датчика");
    methane = changed;
  });

  it("retires a sensor from today: listed as retired, its code free for a new one", async () => {
    const retired = await d.write(() => retireSensor(d.deps, staff, facility, methane.id));
    expect(retired.is_active).toBe(false);
    expect(retired.in_service_to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await d.write(() => retireSensor(d.deps, staff, facility, methane.id))).toEqual(retired);
    const again = await add({ code: "М-12", kind: "methane", point: shaft });
    expect(again.id).not.toBe(methane.id);
    const entries = (await d.deps.repos.adminAudit.listCompany(staff.company, { limit: 50, offset: 0 })).results;
    expect(
      entries
        .filter((e) => e.target_type === "sensor")
        .map((e) => e.action)
        .sort(),
    ).toEqual(["sensor.create", "sensor.create", "sensor.create", "sensor.create", "sensor.retire", "sensor.update"]);
  });

  it("is another company's 404, like a missing facility", async () => {
    await expect(listSensors(d.deps, other, facility)).rejects.toThrow(/не найден/);
    await expect(getSensor(d.deps, other, facility, methane.id)).rejects.toThrow(/не найден/);
    await expect(getSensor(d.deps, staff, facility, "no-such-sensor")).rejects.toThrow("Датчик не найден");
    await expect(add({ code: "X", kind: "methane", point: shaft }, other)).rejects.toThrow(/не найден/);
  });
});

describe("gateway keys", () => {
  let created: Awaited<ReturnType<typeof createGatewayKey>>;

  it("answer the key once, list it without the key and store only its SHA-256", async () => {
    created = await d.write(() =>
      createGatewayKey(d.deps, staff, facility, parseWith(gatewayKeyCreateSchema, { label: "Шлюз диспетчерской" })),
    );
    expect(created.key).toMatch(/^agk_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.revoked_at).toBeNull();
    const listed = await listGatewayKeys(d.deps, staff, facility);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(listed[0]).not.toHaveProperty("hash");
    const stored = await d.deps.repos.gatewayKeys.get(staff.company, facility, created.id);
    expect(stored?.hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(await gatewayKeyGrant(d.deps, created.key)).toEqual({ company: staff.company, facility, id: created.id });
    expect(await gatewayKeyGrant(d.deps, "agk_not-a-key")).toBeUndefined();
    expect(await gatewayKeyGrant(d.deps, created.key.slice(4))).toBeUndefined();
  });

  it("are made and revoked by staff, not by a reviewer or another company", async () => {
    const label = parseWith(gatewayKeyCreateSchema, { label: "Чужой" });
    await expect(createGatewayKey(d.deps, reviewer, facility, label)).rejects.toThrow("не проверяющий");
    await expect(revokeGatewayKey(d.deps, reviewer, facility, created.id)).rejects.toThrow("не проверяющий");
    await expect(createGatewayKey(d.deps, other, facility, label)).rejects.toThrow(/не найден/);
    await expect(revokeGatewayKey(d.deps, other, facility, created.id)).rejects.toThrow(/не найден/);
    await expect(revokeGatewayKey(d.deps, staff, facility, "no-such-key")).rejects.toThrow("Ключ шлюза не найден");
    expect(() => parseWith(gatewayKeyCreateSchema, { label: " " })).toThrow("назовите ключ");
  });

  it("once revoked are listed as revoked and their key grants nothing", async () => {
    const revoked = await d.write(() => revokeGatewayKey(d.deps, staff, facility, created.id));
    expect(revoked.revoked_at).not.toBeNull();
    expect(await gatewayKeyGrant(d.deps, created.key)).toBeUndefined();
    expect((await listGatewayKeys(d.deps, staff, facility))[0].revoked_at).toBe(revoked.revoked_at);
    expect(await d.write(() => revokeGatewayKey(d.deps, staff, facility, created.id))).toEqual(revoked);
  });
});

// the АГК's other gas channels, each with its levels in its own unit.
describe("the АГК's carbon monoxide, oxygen and carbon dioxide channels", () => {
  let mine: string;
  let point: string;
  const addTo = (body: Record<string, unknown>) =>
    d.write(() => createSensor(d.deps, staff, mine, parseWith(sensorCreateSchema, { point, ...body })));

  beforeAll(async () => {
    mine = (await d.facility(staff, { name: "Шахта «Газы»", kind: "underground_mine" })).id;
    point = (
      await d.write(() => createPoint(d.deps, staff, mine, parseWith(pointCreateSchema, { name: "Ствол № 1", kind: "ventilation_shaft" })))
    ).id;
  });

  it("registers CO in ppm with its A, O2 and CO2 in % об.", async () => {
    const co = await addTo({ code: "CO-1", kind: "carbon_monoxide", warning: 10, alarm: 17 });
    expect([co.kind, co.warning, co.alarm, sensorUnit(co)]).toEqual(["carbon_monoxide", 10, 17, "ppm"]);
    expect(sensorUnit(await addTo({ code: "O2-1", kind: "oxygen" }))).toBe("% об.");
    expect(sensorUnit(await addTo({ code: "CO2-1", kind: "carbon_dioxide", alarm: 0.5 }))).toBe("% об.");
  });

  it("refuses levels on oxygen (its danger is a fall) and a level past the kind's range, naming the field", async () => {
    await expect(addTo({ code: "O2-2", kind: "oxygen", alarm: 18 })).rejects.toThrow(
      "Аварийный уровень A: у датчика вида «Кислород (O2)» уровней W и A нет",
    );
    await expect(addTo({ code: "CO2-2", kind: "carbon_dioxide", warning: 150 })).rejects.toThrow(
      "Предупредительный уровень W: не больше 100 % об.",
    );
    await expect(addTo({ code: "М-20", kind: "methane", alarm: 5 })).rejects.toThrow("Аварийный уровень A: не больше 4 % об.");
    // A patch without its kind is read against the stored kind.
    const o2 = (await listSensors(d.deps, staff, mine)).find((s) => s.code === "O2-1")!;
    await expect(
      d.write(() => patchSensor(d.deps, staff, mine, o2.id, parseWith(sensorPatchSchema, { warning: 19, version: o2.version }))),
    ).rejects.toThrow("Предупредительный уровень W: у датчика вида «Кислород (O2)» уровней W и A нет");
  });
});

// a longwall's shearer sends its run state and its position along the face; the position is a
// kind of its own, in metres, so that a model trained on «Положение комбайна, м» is bound to a channel that says so.
describe("the shearer's position beside its run state", () => {
  it("registers the position in м and its run state as 1/0, neither with levels", async () => {
    const mine = (await d.facility(staff, { name: "Шахта «Комбайн»", kind: "underground_mine" })).id;
    const add = (body: Record<string, unknown>) =>
      d.write(() => createSensor(d.deps, staff, mine, parseWith(sensorCreateSchema, { working: "Лава 12-1", ...body })));
    const position = await add({ code: "ПК-1", kind: "shearer_position" });
    const run = await add({ code: "К-1", kind: "run_status" });
    expect([position.kind, sensorUnit(position), SENSOR_KINDS.shearer_position.label]).toEqual([
      "shearer_position",
      "м",
      "Положение комбайна в лаве",
    ]);
    expect(sensorUnit(run)).toBe("1/0");
    await expect(add({ code: "ПК-2", kind: "shearer_position", warning: 100 })).rejects.toThrow(
      "Предупредительный уровень W: у датчика вида «Положение комбайна в лаве» уровней W и A нет",
    );
  });

  it("reads a position past any longwall (over 1 000 m) as out of range, and refuses one no encoder sends", () => {
    expect([inRange("shearer_position", 0), inRange("shearer_position", 312.5), inRange("shearer_position", 1200)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([possibleValue("shearer_position", 5000), possibleValue("shearer_position", 1e5)]).toEqual([true, false]);
  });
});
