// «Мониторинг»'s 24 hours of a working (GET v1/telemetry/live/chart/, domain/monitoring/live/live.ts liveChart)
// and the binding of a model to a working, on the in-memory repositories at a fixed clock: each methane
// meter's minute means with its W and A, a meter without readings empty, the bound model's forecasts
// over 144 ten-minute rows each at the time it is for (issued + 1 h), a working that is not on the
// facility refused in Russian; a binding refused for a horizon it does not offer, a working without
// sensors and a sensor not in the working, each naming the field; one watch shared by two pages, read
// again for both when a binding changes, and given up after the last. The tiles and a batch pushed to
// the watch: live.test.ts; over HTTP: tests/integration/monitoring-live.test.ts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { Invalid, NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "./forecaster";
import { bindLiveModel, liveChart, type LiveView } from "./live";
import { watchLive, watchedView } from "./live-watch";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

/** 02.03.2026 05:00:30 UTC (12:00 in Kemerovo). */
const NOW = Date.UTC(2026, 2, 2, 5, 0, 30);
/** The last whole minute read: 04:59. */
const LAST = Date.UTC(2026, 2, 2, 4, 59);

let d: MemoryDomain;
let staff: Actor;
let facility: string;
const sensors: Record<string, string> = {};

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  staff = await d.actor("ООО «График выработки»");
  facility = (await d.facility(staff, { name: "Шахта «Сутки»", kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  for (const [code, working, extra] of [
    ["М-1", "Лава 5", { warning: 1, alarm: 1.5 }],
    ["М-2", "Лава 5", {}],
    ["М-3", "Лава 7", { warning: 1, alarm: 2 }],
  ] as const) {
    const body = parseWith(sensorCreateSchema, { code, kind: "methane", point, working, ...extra });
    sensors[code] = (await d.write(() => createSensor(d.deps, staff, facility, body))).id;
  }
  // Three hours of М-1, a reading 15 s into each minute: 0,500 rising by 0,001 a minute.
  const readings = Array.from({ length: 180 }, (_, k) => ({
    sensor: "М-1",
    t: new Date(LAST - (179 - k) * MINUTE_MS + 15_000).toISOString(),
    value: 0.5 + k / 1000,
  }));
  await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
});

describe("a working's 24 hours", () => {
  it("gives each methane meter's minute means with its levels, and nothing for a meter without readings", async () => {
    const chart = await liveChart(d.deps, staff, facility, "Лава 5");
    expect(chart).toMatchObject({ working: "Лава 5", from: "2026-03-01T05:00:00.000Z", to: "2026-03-02T05:00:30.000Z", forecasts: [] });
    const [m1, m2] = chart.meters;
    expect(m1).toMatchObject({ code: "М-1", warning: 1, alarm: 1.5 });
    expect(m1.t).toHaveLength(180);
    expect(m1.t[0]).toBe("2026-03-02T02:00:00.000Z");
    expect(m1.t[179]).toBe("2026-03-02T04:59:00.000Z");
    expect(m1.v[0]).toBeCloseTo(0.5, 9);
    expect(m1.v[179]).toBeCloseTo(0.679, 9);
    expect(m2).toEqual({ code: "М-2", warning: null, alarm: null, gassing: null, t: [], v: [] });
  });

  it("gives the bound model's forecasts over 144 ten-minute rows, each at the time it is for", async () => {
    await bindLiveModel(d.deps, staff, { facility, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
    const chart = await liveChart(d.deps, staff, facility, "Лава 5");
    expect(chart.forecasts).toHaveLength(1);
    const [forecast] = chart.forecasts;
    expect(forecast).toMatchObject({ horizon: 60, horizon_label: "1 ч", sensor: "М-1" });
    expect(forecast.t).toHaveLength(144);
    // The last row is the last reading's minute; its forecast is for an hour later.
    expect(forecast.t[143]).toBe("2026-03-02T05:59:00.000Z");
    expect(Date.parse(forecast.t[143]) - Date.parse(forecast.t[142])).toBe(10 * MINUTE_MS);
    expect(forecast.result).toHaveLength(144);
    expect(typeof forecast.result[143]).toBe("number");
    expect(forecast.lo).toHaveLength(144);
    expect(forecast.hi).toHaveLength(144);
    await bindLiveModel(d.deps, staff, { facility, working: "Лава 5", horizon: 60, model: null });
  });

  it("refuses a working that is not on the facility", async () => {
    await expect(liveChart(d.deps, staff, facility, "Лава 9")).rejects.toThrow(NotFound);
    await expect(liveChart(d.deps, staff, facility, "Лава 9")).rejects.toThrow("На площадке нет выработки «Лава 9» с датчиками в работе");
  });
});

describe("binding a model to a working", () => {
  const refusal = async (body: Parameters<typeof bindLiveModel>[2]) => {
    const error = await bindLiveModel(d.deps, staff, body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Invalid);
    return (error as Invalid).detail;
  };

  it("names the field of each refusal", async () => {
    expect(await refusal({ facility, working: "Лава 5", horizon: 0, model: "xgboost-h60" })).toBe(
      "Горизонт прогноза: горизонт прогноза 10 мин, 30 мин, 1 ч, 2 ч, 6 ч (в минутах: 10, 30, 60, 120, 360)",
    );
    expect(await refusal({ facility, working: "Лава 9", horizon: 60, model: "xgboost-h60" })).toBe(
      "Выработка: на площадке нет выработки «Лава 9» с датчиками в работе",
    );
    expect(await refusal({ facility, working: "Лава 7", horizon: 60, model: "xgboost-h60", sensor: sensors["М-1"] })).toBe(
      "Датчик: такого датчика метана нет в выработке",
    );
    expect(await d.deps.repos.liveBindings.listOfFacility(staff.company, facility)).toEqual([]);
  });
});

describe("one watch of the facility shared by its pages", () => {
  it("hands the second page the tiles at once, reads them again for both when a binding changes, and stops after the last", async () => {
    const head = { id: facility, name: "Шахта «Сутки»" };
    const first: LiveView[] = [];
    const second: LiveView[] = [];
    let wake: (() => void) | undefined;
    const until = (ready: () => boolean) => new Promise<void>((resolve) => (ready() ? resolve() : (wake = () => ready() && resolve())));
    const stopFirst = watchLive(d.deps, staff.company, head, (view) => {
      first.push(view);
      wake?.();
    });
    await until(() => first.length === 1);
    expect(first[0].tiles.find((t) => t.working === "Лава 5")?.forecasts).toEqual([]);
    const stopSecond = watchLive(d.deps, staff.company, head, (view) => second.push(view));
    expect(second).toEqual([first[0]]);
    // A GET answers from the watch once it has finished computing.
    await vi.waitFor(() => expect(watchedView(d.deps, staff.company, facility)).toBe(first[0]));

    await bindLiveModel(d.deps, staff, { facility, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
    await d.deps.runtime.changes.publish({ type: "BindingChanged", company: staff.company, facility });
    await until(() => first.length === 2);
    expect(first[1].tiles.find((t) => t.working === "Лава 5")?.forecasts[0]).toMatchObject({ horizon: 60, sensor: "М-1" });
    expect(second[1]).toBe(first[1]);

    await vi.waitFor(() => expect(watchedView(d.deps, staff.company, facility)).toBe(first[1]));
    stopFirst();
    expect(watchedView(d.deps, staff.company, facility)).toBe(first[1]);
    stopSecond();
    expect(watchedView(d.deps, staff.company, facility)).toBeUndefined();
    await bindLiveModel(d.deps, staff, { facility, working: "Лава 5", horizon: 60, model: null });
  });
});
