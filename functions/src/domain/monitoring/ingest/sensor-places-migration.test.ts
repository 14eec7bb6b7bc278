// on an existing installation: registers stored before places (every sensor named a
// point) move over once per company — each entry of a sensor's register, the past ones too, gets its
// section from its working and a place; a longwall's meter named as the ventilation shaft's channel no
// longer measures it, the shaft's own and the drainage line's keep their points; each sensor moved is in
// the company's change log by «система»; a second run changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import { requisitesChange } from "../../company/requisites-audit";
import type { Actor } from "../../context";
import type { Sensor } from "../../../ports";
import { newSensor } from "./register";
import { migrateSensorPlaces } from "./sensor-places-migration";

let d: MemoryDomain;
let staff: Actor;
let facility: string;
const points: Record<string, string> = {};

/** A sensor as a release before places stored it: no section, no place, a point always. */
function storedBefore(code: string, kind: Sensor["kind"], point: string, working: string): Sensor {
  const register = {
    code,
    kind,
    point,
    role: "recording" as const,
    working,
    warning: null,
    alarm: null,
    area_m2: kind === "air_velocity" ? 12 : null,
    conditions: "standard" as const,
    in_service_from: null,
    in_service_to: null,
  };
  const sensor = newSensor(
    staff,
    facility,
    register as unknown as Omit<Sensor["revisions"][number], "valid_from">,
    "2026-01-01T00:00:00.000Z",
  );
  // A second entry of the register, as a change of W made it.
  return { ...sensor, revisions: [...sensor.revisions, { ...sensor.revisions[0], valid_from: "2026-02-01T00:00:00.000Z" }] };
}

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Старый реестр»");
  facility = (await d.facility(staff, { name: "Шахта «Прежняя»", kind: "underground_mine" })).id;
  for (const [name, kind] of [
    ["Вентиляционный ствол № 2", "ventilation_shaft"],
    ["Дегазационная установка", "drainage_station"],
  ]) {
    points[name] = (await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name, kind })))).id;
  }
  const shaft = points["Вентиляционный ствол № 2"];
  const drainage = points["Дегазационная установка"];
  for (const sensor of [
    storedBefore("ВС2-V", "air_velocity", shaft, ""),
    storedBefore("ВС2-CH4", "methane", shaft, ""),
    storedBefore("Л-V", "air_velocity", shaft, "Лава 12-3"),
    storedBefore("М-11", "methane", shaft, "Лава 12-3"),
    storedBefore("ДГ-CH4", "methane_high", drainage, ""),
    storedBefore("ДГ-Q", "flow", drainage, "Дегазационный трубопровод"),
  ]) {
    for (const field of ["section", "place"] as const) {
      delete (sensor as Partial<Sensor>)[field];
      for (const revision of sensor.revisions) delete (revision as Partial<Sensor["revisions"][number]>)[field];
    }
    await d.deps.repos.sensors.create(sensor);
  }
});

describe("the registers stored before places move over", () => {
  it("gives every entry a section and a place, and keeps a point only where the place measures it", async () => {
    const [report] = await migrateSensorPlaces(d.deps);
    expect(report).toMatchObject({ company: staff.company, sensors: 6, points_cleared: 2, conflicts: 0 });
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    const shaft = points["Вентиляционный ствол № 2"];
    const drainage = points["Дегазационная установка"];
    expect(sensors.map((s) => [s.code, s.section, s.place, s.point])).toEqual([
      ["ВС2-CH4", "", "shaft", shaft],
      ["ВС2-V", "", "shaft", shaft],
      ["ДГ-CH4", "", "drainage_pipeline", drainage],
      ["ДГ-Q", "Дегазационный трубопровод", "drainage_pipeline", drainage],
      ["Л-V", "Лава 12-3", "other", null],
      ["М-11", "Лава 12-3", "other", null],
    ]);
    // The past entries too: a past month is read with them.
    const longwall = sensors.find((s) => s.code === "М-11")!;
    expect(longwall.revisions.map((r) => [r.section, r.place, r.point])).toEqual([
      ["Лава 12-3", "other", null],
      ["Лава 12-3", "other", null],
    ]);
  });

  it("logs each sensor moved as the company's change, by «система»", async () => {
    const { results } = await d.deps.repos.adminAudit.listCompany(staff.company, { limit: 50, offset: 0 });
    const moved = results.filter((e) => e.action === "sensor.places");
    expect(moved).toHaveLength(6);
    const longwall = requisitesChange(moved.find((e) => e.target_label.startsWith("М-11"))!);
    expect(longwall.actor_email).toBe("system");
    expect(longwall.changes).toEqual([
      { field: "point_name", label: "Источник выбросов", before: "Вентиляционный ствол № 2", after: "" },
      { field: "section", label: "Участок", before: "", after: "Лава 12-3" },
      { field: "place", label: "Место датчика", before: "", after: "Другое место" },
    ]);
  });

  it("runs once: a second start changes nothing", async () => {
    expect(await migrateSensorPlaces(d.deps)).toEqual([]);
  });
});
