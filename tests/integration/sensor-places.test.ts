// an earlier round through the API, as a new user registers a mine: a ventilation shaft with its own anemometer
// and methane meter, a longwall of one extraction section with its face, 10–20 m and return meters and its
// anemometer, a drainage line with its high-range meter and flow. The shaft's month is its own channels'
// alone (not the longwall's anemometer × its cross-section), «Данные АГК» names each point's channels and
// what a point without them lacks; a face meter named as the shaft's channel is refused. Gassings by the
// rules (item 2): the drainage line at 50 % opens none, two meters of the section above the norm at once
// are one general gassing, and one across midnight is in both days' journals, carried over into the second.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { instantOfWallTime } from "@core/company-clock";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let facility: { id: string };
const points: Record<string, string> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown) => h.request(path, { method: "POST", token: staff, json: body });
const get = <T>(path: string) => h.request(path, { token: staff }).then((res) => json<T>(res, 200));
const ZONE = "Asia/Novokuznetsk";
// 15.03.2026 10:00 in Kemerovo: an hour well inside the month, so the month's figures are the hour's.
const HOUR = instantOfWallTime(2026, 3, 15, 10, 0, ZONE);
const SECTION = "Выемочный участок 12-3";

async function push(readings: { sensor: string; t: number; value: number }[]) {
  const body = { facility: facility.id, readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) };
  await json(await post("/api/v1/telemetry/readings/", body), 202);
  await monitoringIdle(h.deps);
}

/** Every minute of [from, from + minutes) of each code, at its value. */
const minutes = (from: number, count: number, values: Record<string, number>) =>
  Array.from({ length: count }, (_, m) =>
    Object.entries(values).map(([sensor, value]) => ({ sensor, t: from + m * MINUTE_MS, value })),
  ).flat();

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «Шахта по местам»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Места»", kind: "underground_mine" }), 201);
  for (const [name, kind] of [
    ["Вентиляционный ствол № 2", "ventilation_shaft"],
    ["Вентиляционный ствол № 3", "ventilation_shaft"],
    ["Дегазационная установка", "drainage_station"],
  ]) {
    points[name] = (await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/points/`, { name, kind }), 201)).id;
  }
  const shaft = points["Вентиляционный ствол № 2"];
  const drainage = points["Дегазационная установка"];
  const longwall = { working: "Лава 12-3", section: SECTION };
  for (const body of [
    { code: "ВС2-V", kind: "air_velocity", area_m2: 12, point: shaft, place: "shaft" },
    { code: "ВС2-CH4", kind: "methane", point: shaft, place: "shaft", warning: 0.75, alarm: 1 },
    { code: "Л-V", kind: "air_velocity", area_m2: 12.5, place: "longwall_return", ...longwall },
    { code: "М-З", kind: "methane", place: "face", warning: 1, alarm: 2, ...longwall },
    { code: "М-10", kind: "methane", place: "face_10_20m", warning: 0.8, alarm: 1, ...longwall },
    // The longwall's return meter hangs in its return airway: another working of the same section.
    { code: "М-И", kind: "methane", place: "section_return", warning: 0.8, alarm: 1, ...longwall, working: "Вентиляционный штрек 12-3" },
    { code: "ДГ-CH4", kind: "methane_high", point: drainage, place: "drainage_pipeline" },
    { code: "ДГ-Q", kind: "flow", point: drainage, place: "drainage_pipeline" },
  ]) {
    await json(await post(`/api/v1/facilities/${facility.id}/sensors/`, body), 201);
  }
  await push(minutes(HOUR, 60, { "ВС2-V": 2, "ВС2-CH4": 0.4, "Л-V": 3, "М-З": 0.5, "М-10": 0.45, "М-И": 0.56, "ДГ-CH4": 50, "ДГ-Q": 10 }));
  // 11:00–11:09: the section's 10–20 m and return meters at 1,3 % (their A 1 %) at once; 1,2 % first,
  // within D58's step of 1 % a minute from 0,45 %.
  const eleven = HOUR + 60 * MINUTE_MS;
  await push([
    ...minutes(eleven, 1, { "М-10": 1.2, "М-И": 1.2 }),
    ...minutes(eleven + MINUTE_MS, 9, { "М-10": 1.3, "М-И": 1.35 }),
    ...minutes(eleven + 10 * MINUTE_MS, 5, { "М-10": 0.5, "М-И": 0.5 }),
  ]);
  // 16.03 23:40 – 17.03 00:30: the face meter above its place's norm of 1 % (D87: its A of 2 % is
  // an alarm) across midnight (23:41 – 00:21).
  const late = instantOfWallTime(2026, 3, 16, 23, 40, ZONE);
  await push(
    [0.5, 1.4, ...Array.from({ length: 38 }, (_, m) => 2.3 + (m % 3) * 0.05), 1.6, 0.7, ...Array(8).fill(0.5)].map((value, m) => ({
      sensor: "М-З",
      t: late + m * MINUTE_MS,
      value,
    })),
  );
}, 120_000);

afterAll(() => h?.close());

describe("a sensor hangs at a place of its working", () => {
  it("keeps each sensor's section and place, and no point for the longwall's meters", async () => {
    const sensors = await get<{ code: string; section: string; place: string; point: string | null }[]>(
      `/api/v1/facilities/${facility.id}/sensors/`,
    );
    const byCode = new Map(sensors.map((s) => [s.code, s]));
    expect(byCode.get("М-З")).toMatchObject({ section: SECTION, place: "face", point: null });
    expect(byCode.get("ВС2-V")).toMatchObject({ section: "", place: "shaft", point: points["Вентиляционный ствол № 2"] });
  });

  it("refuses a face meter named as the shaft's channel (400 at its place)", async () => {
    const res = await post(`/api/v1/facilities/${facility.id}/sensors/`, {
      code: "М-Х",
      kind: "methane",
      place: "face",
      point: points["Вентиляционный ствол № 2"],
    });
    const body = await json<{ detail: string; errors: { field: string }[] }>(res, 400);
    expect(body.errors.map((e) => e.field)).toEqual(["place"]);
    expect(body.detail).toContain("не измеряет источник «Вентиляционный ствол № 2»");
  });

  it("computes the shaft's month from its own anemometer and methane meter alone", async () => {
    const offers = await get<{ point: string; month: string; volume_thousand_m3: number; ef_ch4: number }[]>(
      `/api/v1/telemetry/offers/?facility=${facility.id}&year=2026`,
    );
    const shaft = offers.find((o) => o.point === points["Вентиляционный ствол № 2"] && o.month === "2026-03")!;
    // 2 m/s × 12 m² × 3 600 s = 86,4 thousand m³ at the shaft's 0,4 %; the longwall's 3 m/s × 12,5 m² and
    // its 0,56 % are the longwall's air, not the shaft's.
    expect(shaft.volume_thousand_m3).toBeCloseTo(86.4, 9);
    expect(shaft.ef_ch4).toBeCloseTo(0.4, 9);
    expect(offers.some((o) => o.point === points["Вентиляционный ствол № 3"])).toBe(false);
  });

  it("names each point's own channels on «Данные АГК», and what a point without them lacks", async () => {
    const channels = await get<{ point_name: string; channels: { code: string; place: string }[]; lacks: string[] }[]>(
      `/api/v1/telemetry/offers/channels/?facility=${facility.id}`,
    );
    expect(channels.map((p) => [p.point_name, p.channels.map((c) => c.code), p.lacks])).toEqual([
      ["Вентиляционный ствол № 2", ["ВС2-CH4", "ВС2-V"], []],
      ["Вентиляционный ствол № 3", [], ["расхода газовой смеси или скорости воздуха (анемометра)", "метана"]],
      ["Дегазационная установка", ["ДГ-CH4", "ДГ-Q"], []],
    ]);
  });
});

interface JournalGassing {
  sensors: string[];
  kind: string;
  section: string;
  working: string;
  start: string;
  end: string | null;
  carried_over: boolean;
}
const journal = (date: string) =>
  get<{ sensors: { code: string; place: string }[]; gassings: JournalGassing[] }>(
    `/api/v1/telemetry/journal/?facility=${facility.id}&date=${date}`,
  );
const local = (d: number, h: number, m: number) => new Date(instantOfWallTime(2026, 3, d, h, m, ZONE)).toISOString();

describe("gassings as the rules classify them", () => {
  it("opens no gassing on the drainage line at 50 %, and takes the section's two meters above the norm at once as one general gassing", async () => {
    const day = await journal("2026-03-15");
    // The drainage line's meter is no meter of the workings' air: not in the journal, no gassing.
    expect(day.sensors.map((s) => s.code)).not.toContain("ДГ-CH4");
    expect(day.gassings.map((g) => [g.sensors, g.kind, g.section, g.working, g.start, g.end, g.carried_over])).toEqual([
      [["М-10", "М-И"], "общее", SECTION, "Вентиляционный штрек 12-3, Лава 12-3", local(15, 11, 0), local(15, 11, 10), false],
    ]);
  });

  it("lists a gassing across midnight in both days' journals, carried over into the second", async () => {
    const before = await journal("2026-03-16");
    const after = await journal("2026-03-17");
    const across = [["М-З"], "местное", SECTION, local(16, 23, 41), local(17, 0, 21)];
    expect(before.gassings.map((g) => [g.sensors, g.kind, g.section, g.start, g.end, g.carried_over])).toEqual([[...across, false]]);
    expect(after.gassings.map((g) => [g.sensors, g.kind, g.section, g.start, g.end, g.carried_over])).toEqual([[...across, true]]);
  });
});
