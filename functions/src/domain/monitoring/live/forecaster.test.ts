// an earlier round's forecaster on the in-memory repositories, with no page watching: a bound working's forecast
// is computed as the readings' consumer applies each batch, stored as the working's latest and equal to
// the forecast route's computation on the same rows (runForecast over forecastRowsAt, what POST
// v1/regres_methane/ runs); the tiles read the stored one; a batch that changes none of a working's rows
// computes nothing, an unbound working nothing, and batches queued together (one round of the consumer)
// are forecast once, at their last minute. Its D65 forecast events: forecast-events.test.ts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { forecastRowsFromJson, forecastRun, runForecast } from "../../forecast/forecast";
import { drainReadings } from "../minutes/consumer";
import { forecastReadingsWritten, forecastsIdle, monitoringIdle } from "./forecaster";
import { forecastFacility } from "./forecaster";
import { bindLiveModel, forecastLevels, forecastRowsAt, forecastRowsKey, liveView, liveWindow } from "./live";
import { readingsBetween } from "../ingest/stored-readings";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

let d: MemoryDomain;
let staff: Actor;
let facility: { id: string; name: string };
/** The test's clock: the live forecasts read the minutes up to it. */
const NOW = Date.parse("2026-11-16T03:00:00Z");
const END = NOW - 10 * MINUTE_MS;

async function store(readings: { sensor: string; t: number; value: number }[]) {
  const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
  await storeBatch(d.deps, staff.company, facility.id, body);
}
async function push(readings: { sensor: string; t: number; value: number }[]) {
  await store(readings);
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}
const minute = (t: number) => [
  { sensor: "М-1", t, value: 0.6 + ((t / MINUTE_MS) % 7) / 100 },
  { sensor: "V-1", t, value: 2 },
  { sensor: "Q-1", t, value: 30 },
  { sensor: "М-9", t, value: 0.4 },
];

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  staff = await d.actor("ООО «Прогнозист»");
  facility = await d.facility(staff, { name: "Шахта «Без наблюдателя»", kind: "underground_mine" });
  const point = (
    await d.write(() => createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  for (const [code, kind, working, extra] of [
    ["М-1", "methane", "Лава 5", { warning: 1, alarm: 1.5 }],
    ["V-1", "air_velocity", "Лава 5", { area_m2: 12 }],
    ["Q-1", "flow", "Лава 5", {}],
    ["М-9", "methane", "Лава 9", { warning: 1, alarm: 1.5 }],
  ] as const) {
    const body = parseWith(sensorCreateSchema, { code, kind, point, working, ...extra });
    await d.write(() => createSensor(d.deps, staff, facility.id, body));
  }
  const history = [];
  for (let k = 120; k > 3; k--) history.push(...minute(END - k * MINUTE_MS));
  await push(history);
  await bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
});

describe("the forecaster, no page watching", () => {
  it("stores the bound working's forecast of the latest minute as each batch is applied, the route's figure bit for bit", async () => {
    await push(minute(END - 3 * MINUTE_MS));
    const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
    expect(stored).toMatchObject({ working: "Лава 5", horizon: 60, model: "xgboost-h60", issued: END - 3 * MINUTE_MS });
    expect(stored.forecast.issued_at).toBe(new Date(END - 3 * MINUTE_MS).toISOString());
    // The forecast route's computation of the same minutes.
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility.id);
    const working = sensors.filter((s) => s.working === "Лава 5");
    const meter = working.find((s) => s.code === "М-1")!;
    const { from, to } = liveWindow(NOW);
    const readings = new Map();
    for (const s of working) readings.set(s.id, await readingsBetween(d.deps, staff.company, s.id, from, to));
    const run = await forecastRun(d.deps, staff.company, "xgboost", { level: 90, ...forecastLevels(meter), horizon: 60 }, "xgboost-h60");
    const done = await runForecast(d.deps, run, forecastRowsFromJson(forecastRowsAt(working, meter, readings, END - 3 * MINUTE_MS)));
    const row = done.rows.at(-1)!;
    expect(typeof stored.forecast.result).toBe("number");
    expect(Object.is(stored.forecast.result, row.result)).toBe(true);
    expect(stored.forecast.lo).toBe(row.lo ?? null);
    expect(stored.forecast.p_exceed).toBe(row.p_exceed ?? null);
    // The tiles show the stored one; the working without a model has none.
    const view = await liveView(d.deps, staff, facility.id);
    expect(view.tiles.map((t) => t.working)).toEqual(["Лава 5", "Лава 9"]);
    expect(view.tiles[0].forecasts).toEqual([stored.forecast]);
    expect(view.tiles[1].forecasts).toEqual([]);
  });

  it("is computed again by the tiles when the stored one is more than an hour behind its meter (the forecaster failed on it)", async () => {
    const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
    const behind = stored.issued! - 61 * MINUTE_MS;
    await d.deps.repos.liveBindings.putForecast({
      ...stored,
      issued: behind,
      rows_key: "old",
      forecast: { ...stored.forecast, issued_at: new Date(behind).toISOString() },
    });
    const view = await liveView(d.deps, staff, facility.id);
    expect(view.tiles[0].forecasts[0]).toEqual(stored.forecast);
    const [again] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
    expect(again.issued).toBe(stored.issued);
    // An hour behind is still shown as stored.
    const step = stored.issued! - 60 * MINUTE_MS;
    const marked = { ...stored.forecast, issued_at: new Date(step).toISOString() };
    await d.deps.repos.liveBindings.putForecast({ ...again, issued: step, forecast: marked });
    expect((await liveView(d.deps, staff, facility.id)).tiles[0].forecasts[0]).toEqual(marked);
    await d.deps.repos.liveBindings.putForecast(again);
  });

  it("computes nothing for a batch that changes none of a working's rows, nor for a working without a model", async () => {
    const put = vi.spyOn(d.deps.repos.liveBindings, "putForecast");
    try {
      // The same minute again (duplicates), then the unbound working's meter alone.
      await push(minute(END - 3 * MINUTE_MS));
      await push([{ sensor: "М-9", t: END - 2 * MINUTE_MS, value: 0.41 }]);
      expect(put).not.toHaveBeenCalled();
      expect(await forecastFacility(d.deps, staff.company, facility.id)).toEqual([]);
    } finally {
      put.mockRestore();
    }
  });

  it("forecasts the batches a drain round takes together once, at their last minute", async () => {
    const put = vi.spyOn(d.deps.repos.liveBindings, "putForecast");
    try {
      for (const k of [2, 1, 0]) await store(minute(END - k * MINUTE_MS));
      void drainReadings(d.deps);
      await monitoringIdle(d.deps);
      expect(put.mock.calls.map(([f]) => f.issued)).toEqual([END]);
      const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
      expect(stored.issued).toBe(END);
    } finally {
      put.mockRestore();
    }
  });
});

// The holding bench's first minute after a start: the bound mine's forecasts (the model loaded, the
// window read) took 15 s, and every other facility's batch, other companies' too, waited for them.
describe("each facility's forecasts apart", () => {
  it("answers a facility's change while another facility's forecasts are still being computed", async () => {
    const other = await d.facility(staff, { name: "Шахта «Соседняя»", kind: "underground_mine" });
    const list = d.deps.repos.liveBindings.listOfFacility.bind(d.deps.repos.liveBindings);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bindings = vi.spyOn(d.deps.repos.liveBindings, "listOfFacility").mockImplementation(async (company, id) => {
      if (id === facility.id) await held;
      return list(company, id);
    });
    try {
      const change = (id: string, sensor: string) => ({
        company: staff.company,
        facility: id,
        readings: [{ sensor, times: Float64Array.of(END), values: Float64Array.of(0.5) }],
      });
      const bound = forecastReadingsWritten(d.deps, change(facility.id, "М-1"));
      let otherComputed = false;
      const unbound = forecastReadingsWritten(d.deps, change(other.id, "М-1")).then(() => (otherComputed = true));
      await vi.waitFor(() => expect(otherComputed).toBe(true), { timeout: 5_000 });
      release();
      await Promise.all([bound, unbound]);
      await forecastsIdle(d.deps);
    } finally {
      release();
      bindings.mockRestore();
    }
  });
});

// the tile read the last 24 h by the wall clock, so a feed behind it (a gateway
// catching up) got a forecast from rows empty at their start.
describe("a feed behind the clock", () => {
  it("forecasts from the 24 h before the meter's latest reading, not the clock's", async () => {
    const late = await d.facility(staff, { name: "Шахта «Догоняющая»", kind: "underground_mine" });
    const point = (
      await d.write(() => createPoint(d.deps, staff, late.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
    ).id;
    for (const [code, kind, extra] of [
      ["М-1", "methane", { warning: 1, alarm: 1.5 }],
      ["V-1", "air_velocity", { area_m2: 12 }],
    ] as const) {
      const body = parseWith(sensorCreateSchema, { code, kind, point, working: "Лава 3", ...extra });
      await d.write(() => createSensor(d.deps, staff, late.id, body));
    }
    await bindLiveModel(d.deps, staff, { facility: late.id, working: "Лава 3", horizon: 60, model: "xgboost-h60" });
    // 26 hours of minutes ending 6 hours before the clock.
    const last = END - 6 * 60 * MINUTE_MS;
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let k = 26 * 60; k >= 0; k--) {
      const t = new Date(last - k * MINUTE_MS).toISOString();
      readings.push({ sensor: "М-1", t, value: 0.5 + (k % 13) / 100 }, { sensor: "V-1", t, value: 2 + (k % 7) / 10 });
    }
    await storeBatch(d.deps, staff.company, late.id, { json: { readings } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, late.id);
    expect(stored.issued).toBe(last);
    // The rows of the 24 h before the latest reading, every one with its y.
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, late.id);
    const meter = sensors.find((s) => s.code === "М-1")!;
    const all = new Map();
    for (const s of sensors) all.set(s.id, await readingsBetween(d.deps, staff.company, s.id, last - 25 * 3_600_000, last + MINUTE_MS));
    const rows = forecastRowsAt(sensors, meter, all, last);
    expect(rows.every((r) => typeof r.y === "number")).toBe(true);
    const [binding] = await d.deps.repos.liveBindings.listOfFacility(staff.company, late.id);
    expect(stored.rows_key).toBe(forecastRowsKey(binding, meter, rows));
    const run = await forecastRun(d.deps, staff.company, "xgboost", { level: 90, ...forecastLevels(meter), horizon: 60 }, "xgboost-h60");
    const row = (await runForecast(d.deps, run, forecastRowsFromJson(rows))).rows.at(-1)!;
    expect(Object.is(stored.forecast.result, row.result)).toBe(true);
    expect(stored.forecast.lo).toBe(row.lo ?? null);
    // The tiles read the same rows.
    const tile = (await liveView(d.deps, staff, late.id)).tiles[0];
    expect(tile.forecasts).toEqual([stored.forecast]);
  });
});
