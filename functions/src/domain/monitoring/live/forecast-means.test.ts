// a bound working's forecast reads its kept minute means, not 24 h of minutes. On the
// in-memory repositories: a round after a push reads the same few items of storage whether the facility
// keeps 8 or 24 h of minutes (it read 1 440 minute items of the 24-hour mine each round, 481 of the
// 8-hour one), and the rows it forecasts from are those of the readings bit for bit, a late correction of an
// earlier minute taken in.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { minuteMeans } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { readingsBetween } from "../ingest/stored-readings";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { forecastReadingsWritten, monitoringIdle } from "./forecaster";
import { KEEP_LAG_MINUTES, meansWith } from "./forecast-means";
import { bindLiveModel, forecastRowsAt, forecastRowsKey, liveChart, type Readings } from "./live";

let d: MemoryDomain;
let staff: Actor;
/** The test's clock, moved as the minutes come. */
let now = Date.parse("2026-11-16T21:00:00Z");
const HOUR = 60 * MINUTE_MS;

const value = (sensor: string, t: number) =>
  sensor === "V-1" ? 2 + ((t / MINUTE_MS) % 5) / 10 : (sensor === "М-1" ? 0.5 : 0.3) + ((t / MINUTE_MS) % 11) / 100;
const minuteOf = (t: number) => [
  { sensor: "М-1", t, value: value("М-1", t) },
  { sensor: "М-2", t, value: value("М-2", t) },
  { sensor: "V-1", t, value: value("V-1", t) },
];

async function push(facility: string, readings: { sensor: string; t: number; value: number }[]) {
  const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
  await storeBatch(d.deps, staff.company, facility, body);
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

/** A mine of one bound working (the forecast's methane meter, another the chart draws, an anemometer and a
 *  silent flow meter) with `hours` of minutes up to a minute ago. */
async function mine(name: string, hours: number): Promise<string> {
  const facility = await d.facility(staff, { name, kind: "underground_mine" });
  const point = (
    await d.write(() => createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  // A drainage flow meter without a reading yet: a column the model reads, whose window is not read again each round.
  for (const [code, kind, extra] of [
    ["М-1", "methane", { warning: 1, alarm: 1.5 }],
    ["М-2", "methane", { warning: 1, alarm: 1.5 }],
    ["V-1", "air_velocity", { area_m2: 12 }],
    ["Q-1", "flow", {}],
  ] as const) {
    const body = parseWith(sensorCreateSchema, { code, kind, point, working: "Лава 1", ...extra });
    await d.write(() => createSensor(d.deps, staff, facility.id, body));
  }
  await bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 1", horizon: 60, model: "xgboost-h60" });
  const history = [];
  for (let k = hours * 60; k >= 1; k--) history.push(...minuteOf(Math.floor(now / MINUTE_MS) * MINUTE_MS - k * MINUTE_MS));
  await push(facility.id, history);
  return facility.id;
}

/** The readings of the facility's sensors as stored, and the rows key of its working's forecast from them. */
async function rowsKeyOfReadings(facility: string, last: number) {
  const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
  const readings = new Map<string, Readings>();
  for (const s of sensors) readings.set(s.id, await readingsBetween(d.deps, staff.company, s.id, last - 25 * HOUR, last + MINUTE_MS));
  const meter = sensors.find((s) => s.code === "М-1")!;
  const [binding] = await d.deps.repos.liveBindings.listOfFacility(staff.company, facility);
  return { key: forecastRowsKey(binding, meter, forecastRowsAt(sensors, meter, readings, last)), readings, sensors };
}

let day: string;
let eight: string;

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  staff = await d.actor("ООО «Хранитель средних»");
  day = await mine("Шахта «Сутки»", 24);
  eight = await mine("Шахта «Восемь часов»", 8);
}, 120_000);

describe("a bound working's forecast round", () => {
  it("reads the same few items of storage whatever hours of minutes the facility keeps", async () => {
    const read = async (facility: string) => {
      now += MINUTE_MS;
      const t = Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
      // The round the forecaster makes of that push, its reads of storage's readings counted.
      const monitoring = d.deps.repos.monitoring;
      const counted = { calls: 0, items: 0 };
      const count = <T>(found: T): T => {
        counted.calls++;
        counted.items += Array.isArray(found) ? found.length : found ? 1 : 0;
        return found;
      };
      const spies = [
        vi.spyOn(monitoring, "minutesOf").mockImplementation(async (...a) => count(await minutesOf(...a))),
        vi.spyOn(monitoring, "getMinute").mockImplementation(async (...a) => count(await getMinute(...a))),
        vi.spyOn(monitoring, "getDays").mockImplementation(async (...a) => count(await getDays(...a))),
        vi.spyOn(monitoring, "getDay").mockImplementation(async (...a) => count(await getDay(...a))),
      ];
      try {
        const readings = minuteOf(t).map((r) => ({ sensor: r.sensor, times: Float64Array.of(r.t), values: Float64Array.of(r.value) }));
        const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
        const ids = new Map(sensors.map((s) => [s.code, s.id]));
        await push(facility, minuteOf(t));
        // The forecaster's own round of the push, once more, alone.
        counted.calls = 0;
        counted.items = 0;
        await forecastReadingsWritten(d.deps, {
          company: staff.company,
          facility,
          readings: readings.map((r) => ({ ...r, sensor: ids.get(r.sensor)! })),
        });
        await monitoringIdle(d.deps);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      return { ...counted, t };
    };
    const monitoring = d.deps.repos.monitoring;
    const minutesOf = monitoring.minutesOf.bind(monitoring);
    const getMinute = monitoring.getMinute.bind(monitoring);
    const getDays = monitoring.getDays.bind(monitoring);
    const getDay = monitoring.getDay.bind(monitoring);
    const { t, ...ofDay } = await read(day);
    const { t: _, ...ofEight } = await read(eight);
    // Before: the 24-hour mine's round read 1 440 minute items of storage, the 8-hour one's 481.
    expect(ofDay.items).toBeLessThanOrEqual(4);
    expect(ofDay).toEqual(ofEight);
    // And the forecast is still of the latest minute.
    const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, day);
    expect(stored.issued).toBe(t);
  });

  it("forecasts from the rows of the readings bit for bit, a late correction of an earlier minute taken in", async () => {
    now += MINUTE_MS;
    const last = Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
    await push(day, minuteOf(last));
    const [before] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, day);
    expect(before.rows_key).toBe((await rowsKeyOfReadings(day, last)).key);
    // A sampled minute 3 h back (a row's), corrected by a gateway's late reading: another value at its instant.
    const earlier = last - 18 * 10 * MINUTE_MS;
    await push(day, [{ sensor: "М-1", t: earlier, value: 1.25 }]);
    const [after] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, day);
    const { key, readings, sensors } = await rowsKeyOfReadings(day, last);
    expect(after.rows_key).toBe(key);
    expect(after.rows_key).not.toBe(before.rows_key);
    // The kept means are the readings' minute means, to the bit.
    const kept = await d.deps.repos.monitoring.getForecastMeans(staff.company, day, "Лава 1");
    for (const sensor of sensors) {
      const means = kept!.sensors[sensor.id];
      const r = readings.get(sensor.id)!;
      const fold = minuteMeans(sensor.kind, r.times, r.values, means.from, means.means.length).values;
      expect(means.means).toEqual(fold);
      // The silent flow meter: no means, no latest reading.
      expect([means.at, means.value]).toEqual(
        r.times.length > 0 ? [r.times.at(-1), r.values.at(-1)] : [Number.NEGATIVE_INFINITY, Number.NaN],
      );
    }
    expect(kept!.sensors[sensors.find((s) => s.code === "Q-1")!.id].means).toHaveLength(0);
  });
});

// GET v1/telemetry/live/chart/ folded the facility's every sensor's day of minutes.
describe("a bound working's day chart", () => {
  it("reads its kept means and the minutes since, the same few items whatever hours the facility keeps", async () => {
    const monitoring = d.deps.repos.monitoring;
    const minutesOf = monitoring.minutesOf.bind(monitoring);
    const getDays = monitoring.getDays.bind(monitoring);
    const chartOf = async (facility: string) => {
      const counted = { items: 0 };
      const spies = [
        vi.spyOn(monitoring, "minutesOf").mockImplementation(async (...a) => {
          const found = await minutesOf(...a);
          counted.items += found.length;
          return found;
        }),
        vi.spyOn(monitoring, "getDays").mockImplementation(async (...a) => {
          const found = await getDays(...a);
          counted.items += found.length;
          return found;
        }),
      ];
      try {
        return { chart: await liveChart(d.deps, staff, facility, "Лава 1"), items: counted.items };
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    };
    const ofDay = await chartOf(day);
    const ofEight = await chartOf(eight);
    // Before: 1 439 items of the 24-hour mine: every sensor's day of minutes, 17 h of it from storage. Now
    // the minutes since the kept item's latest, which lags the clock by less than KEEP_LAG_MINUTES. D108 (c):
    // the day its forecast's rows are banded on, before the kept means, is all it reads of storage besides.
    for (const chart of [ofDay, ofEight]) expect(chart.items).toBeLessThanOrEqual(4 + KEEP_LAG_MINUTES);
    // Its meters' minute means (the forecast's and the other) are the readings' of the chart's 24 h, bit for bit.
    const start = Date.parse(ofDay.chart.from);
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, day);
    expect(ofDay.chart.meters.map((m) => m.code)).toEqual(["М-1", "М-2"]);
    for (const drawn of ofDay.chart.meters) {
      const meter = sensors.find((s) => s.code === drawn.code)!;
      const r = await readingsBetween(d.deps, staff.company, meter.id, start, now + MINUTE_MS);
      const fold = minuteMeans(meter.kind, r.times, r.values, start, 24 * 60 + 1).values;
      expect(drawn.v).toEqual([...fold].filter((v) => Number.isFinite(v)));
      expect(drawn.t.at(-1)).toBe(new Date(Math.floor(r.times.at(-1)! / MINUTE_MS) * MINUTE_MS).toISOString());
    }
    expect(ofDay.chart.forecasts).toHaveLength(1);
    // Its forecast's rows with their day before (D108 c) are those of the readings: without the kept item, the same.
    const unkept = vi.spyOn(monitoring, "getForecastMeans").mockResolvedValue(undefined);
    try {
      expect((await liveChart(d.deps, staff, day, "Лава 1")).forecasts).toEqual(ofDay.chart.forecasts);
    } finally {
      unkept.mockRestore();
    }
  });
});

// The D65 alert rule of each bound working is judged again on its 7 days as the ten-minute grid moves on:
// each working read the facility's minutes of those days for itself, 20 times over in the monitoring bench.
describe("a round whose alert rules are judged again", () => {
  it("reads each stretch of the facility's minutes once, however many workings judge theirs", async () => {
    const facility = await d.facility(staff, { name: "Шахта «Две лавы»", kind: "underground_mine" });
    const point = (
      await d.write(() =>
        createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
      )
    ).id;
    for (const [code, working] of [
      ["М-1", "Лава 1"],
      ["М-2", "Лава 2"],
    ] as const) {
      const body = parseWith(sensorCreateSchema, { code, kind: "methane", point, working, warning: 1, alarm: 1.5 });
      await d.write(() => createSensor(d.deps, staff, facility.id, body));
      await bindLiveModel(d.deps, staff, { facility: facility.id, working, horizon: 60, model: "xgboost-h60" });
    }
    const at = (t: number) => [
      { sensor: "М-1", t, value: value("М-1", t) },
      { sensor: "М-2", t, value: value("М-2", t) },
    ];
    const history = [];
    for (let k = 10 * 60; k >= 1; k--) history.push(...at(Math.floor(now / MINUTE_MS) * MINUTE_MS - k * MINUTE_MS));
    await push(facility.id, history);
    // Ten minutes on: the grid has moved, both rules are judged again in the round of the next push.
    now += 10 * MINUTE_MS;
    const monitoring = d.deps.repos.monitoring;
    const minutesOf = monitoring.minutesOf.bind(monitoring);
    const asked: string[] = [];
    const spy = vi.spyOn(monitoring, "minutesOf").mockImplementation(async (...a) => {
      if (a[1] === facility.id) asked.push(a.slice(2).join(" "));
      return minutesOf(...a);
    });
    try {
      await push(facility.id, at(Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS));
    } finally {
      spy.mockRestore();
    }
    // Before: every stretch asked twice, once for each working.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((key, i) => asked.indexOf(key) !== i)).toEqual([]);
    const forecasts = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
    expect(forecasts.map((f) => f.issued)).toEqual([
      Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS,
      Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS,
    ]);
  });
});

describe("an item storage cannot hold", () => {
  it("is not kept, and the working's forecast is still computed from what the round read", async () => {
    const put = vi
      .spyOn(d.deps.repos.monitoring, "putForecastMeans")
      .mockRejectedValue(new Error("Item size has exceeded the maximum allowed size"));
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      now += MINUTE_MS;
      const last = Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
      await push(eight, minuteOf(last));
      const [stored] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, eight);
      expect(stored.issued).toBe(last);
      expect(stored.rows_key).toBe((await rowsKeyOfReadings(eight, last)).key);
      expect(error.mock.calls.some(([line]) => String(line).includes("forecast_means_not_kept"))).toBe(true);
    } finally {
      put.mockRestore();
      error.mockRestore();
    }
  });
});

describe("meansWith", () => {
  it("keeps the means before the minute read from, and takes the readings' from it on", () => {
    const from = Date.parse("2026-11-16T00:00:00Z");
    const checked = from + 5 * MINUTE_MS;
    const kept = { from, means: Float64Array.of(1, 2, 3), at: from + 2 * MINUTE_MS + 5_000, value: 3, checked: from + 3 * MINUTE_MS };
    const readings = { times: Float64Array.of(from + 2 * MINUTE_MS + 5_000, from + 4 * MINUTE_MS), values: Float64Array.of(0.4, 0.6) };
    const next = meansWith("methane", kept, from + 2 * MINUTE_MS, readings, checked);
    expect(next.from).toBe(from);
    expect([...next.means]).toEqual([1, 2, 0.4, Number.NaN, 0.6]);
    expect([next.at, next.value, next.checked]).toEqual([from + 4 * MINUTE_MS, 0.6, checked]);
    // Nothing read since: the kept latest stays.
    const none = { times: new Float64Array(0), values: new Float64Array(0) };
    expect(meansWith("methane", kept, from + 3 * MINUTE_MS, none, checked)).toEqual({ ...kept, checked });
    // A sensor without a reading: no means, and where it was read up to.
    expect(meansWith("methane", undefined, from, none, checked)).toEqual({
      from,
      means: new Float64Array(0),
      at: Number.NEGATIVE_INFINITY,
      value: Number.NaN,
      checked,
    });
  });
});

// the kept means, 24 h of a working's sensors' means in one item, were rewritten whole at
// every push: after the live heads, the largest part of what the local store wrote a reading late in the day.
describe("a bound working's kept means", () => {
  it("writes its kept means again once they lag by KEEP_LAG_MINUTES, or at once when a minute they hold is corrected", async () => {
    const monitoring = d.deps.repos.monitoring;
    const latestKept = async () => {
      const kept = await monitoring.getForecastMeans(staff.company, eight, "Лава 1");
      const m = Object.values(kept!.sensors).find((s) => s.means.length > 0)!;
      return { version: kept!.version, latest: m.from + (m.means.length - 1) * MINUTE_MS };
    };
    const pushMinute = async () => {
      now += MINUTE_MS;
      const t = Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
      await push(eight, minuteOf(t));
      return t;
    };
    let t = await pushMinute();
    const start = await latestKept();
    const writes: number[] = [];
    for (let k = 0; k < 2 * KEEP_LAG_MINUTES; k++) {
      const before = (await latestKept()).version;
      t = await pushMinute();
      if ((await latestKept()).version !== before) writes.push(t);
      // Kept or not, the forecast is of the latest minute.
      const [forecast] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, eight);
      expect(forecast.issued).toBe(t);
    }
    // Two writes in twenty minutes, each once the item lagged KEEP_LAG_MINUTES behind, not one a push.
    expect(writes).toHaveLength(2);
    expect(start.latest).toBeLessThan(writes[0]);
    expect((writes[1] - writes[0]) / MINUTE_MS).toBe(KEEP_LAG_MINUTES);
    // A late reading of a minute the item holds is written at once, and the rows are still the readings'.
    const { version } = await latestKept();
    await push(eight, [{ sensor: "М-1", t: t - 3 * HOUR, value: 1.4 }]);
    expect((await latestKept()).version).toBe(version + 1);
    const [forecast] = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, eight);
    expect(forecast.rows_key).toBe((await rowsKeyOfReadings(eight, t)).key);
  });
});
