// D65's forecast events on the in-memory repositories, against an independent computation: a meter's
// forecasts minute by minute (P at 30 minutes ahead) open an event at the first P ≥ 0,5 and close it at
// the first P below 0,3 (hysteresis); «сбылся» is set once 30 minutes passed after its start, true where a minute in
// [start, start + 30] reached the limit (A = 2 %). A horizon whose rule is «current ≥ 0,9·limit» raises
// none; the same forecast again writes nothing; the events list and its kind filter show them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { listEvents } from "./events";
import { createWebhook, listDeliveries } from "./webhooks";
import { shiftReport } from "./shift-report";
import { FORECAST_EVENT_CLOSE_P, FORECAST_EVENT_P, recordForecast } from "./forecast-events";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import type { Sensor } from "../../../ports";

const AT = Date.UTC(2026, 2, 1, 2, 0); // 01.03.2026 09:00 in Kemerovo
const HORIZON = 30;
const LIMIT = 2;
const MINUTES = 100;
const iso = (t: number) => new Date(t).toISOString();

/** The meter's value at minute m: 1,0 %, 2,3 % at minutes 20–22 (the first forecast's crossing), 1,9 % at 70. */
const valueAt = (m: number) => (m >= 20 && m <= 22 ? 2.3 : m === 70 ? 1.9 : 1.0);
/** The forecast's P at minute m: two rises above 0,5 (5–8, 40–42), one touching it (60), noise below. */
const pAt = (m: number) => (m >= 5 && m <= 8 ? 0.7 : m >= 40 && m <= 42 ? 0.6 : m === 60 ? FORECAST_EVENT_P : 0.1 + (m % 7) / 20);

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let meter: Sensor;
let hook: string;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"), { webhookAllowedReceivers: ["127.0.0.1"] });
  staff = await d.actor("ООО «Прогнозы»");
  facility = (await d.facility(staff, { name: "Шахта «Прогнозная»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  meter = await d.write(() =>
    createSensor(
      d.deps,
      staff,
      facility,
      parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", point: point.id, working: "Лава 12-1", warning: 1, alarm: LIMIT }),
    ),
  );
  const readings = Array.from({ length: MINUTES }, (_, m) => ({ sensor: "М-7", t: iso(AT + m * MINUTE_MS + 20_000), value: valueAt(m) }));
  await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  // A receiver that is not there (the discard port): the deliveries are made and wait.
  hook = (await createWebhook(d.deps, staff, { url: "http://127.0.0.1:9/agk", label: "Диспетчерская" })).id;
});
afterAll(() => d.webhooks.close());

const forecast = (m: number, p: number | null, ruleOn = true, horizon = HORIZON) =>
  recordForecast(d.deps, { company: staff.company, facility, meter, horizon, limit: LIMIT, at: AT + m * MINUTE_MS + 20_000, p, ruleOn });

/** The events as D65 states them, computed from pAt and valueAt alone. */
function expected() {
  const out: { start: string; end: string | null; minutes: number; probability: number; came_true: boolean | null }[] = [];
  let open: number | null = null;
  for (let m = 0; m < MINUTES; m++) {
    if (open === null && pAt(m) >= 0.5) open = m;
    else if (open !== null && pAt(m) < 0.3) {
      out.push({
        start: iso(AT + open * MINUTE_MS),
        end: iso(AT + m * MINUTE_MS),
        minutes: m - open,
        probability: pAt(open),
        came_true: null,
      });
      open = null;
    }
  }
  const last = MINUTES - 1;
  return out.map((e) => {
    const s = (Date.parse(e.start) - AT) / MINUTE_MS;
    if (last < s + HORIZON) return e;
    let reached = false;
    for (let m = s; m <= s + HORIZON; m++) if (valueAt(m) >= LIMIT) reached = true;
    return { ...e, came_true: reached };
  });
}

describe("forecast events (D65)", () => {
  it("open at P ≥ 0,5, close at the first P below 0,3, and say whether they came true once the horizon passed", async () => {
    for (let m = 0; m < MINUTES; m++) await forecast(m, pAt(m));
    const { results } = await listEvents(d.deps, staff, { facility, kind: "forecast", from: "2026-03-01", to: "2026-03-02" });
    expect(
      results.map((e) => ({
        start: e.start,
        end: e.end,
        minutes: e.minutes_above,
        probability: e.forecast?.probability,
        came_true: e.forecast?.came_true,
      })),
    ).toEqual(expected());
    // 05–08 reached 2,3 % at 20; 40–42 saw at most 1,0 %; 60 saw 1,9 % at 70, under the limit.
    expect(results.map((e) => e.forecast?.came_true)).toEqual([true, false, false]);
    expect(results[0]).toMatchObject({ kind: "forecast", level: "alarm", threshold: LIMIT, sensor_code: "М-7", working: "Лава 12-1" });
    expect(results[0].forecast?.horizon_min).toBe(HORIZON);
  });

  it("are the shift report's forecast events, apart from its threshold and stale ones", async () => {
    // 02:00 UTC is 09:00 in Kemerovo: the 01.03's second shift.
    const report = await shiftReport(d.deps, staff, { facility, date: "2026-03-01", shift: "2" });
    expect(report.forecasts.map((e) => [e.start, e.forecast?.came_true])).toEqual(expected().map((e) => [e.start, e.came_true]));
    expect(report.events.some((e) => e.kind === "forecast")).toBe(false);
  });

  it("are posted to the company's webhooks when they open and when they close, once each", async () => {
    const keys = (await listDeliveries(d.deps, staff, hook)).map((x) => x.key).filter((k) => k.includes(".f.alarm."));
    const ids = (await listEvents(d.deps, staff, { facility, kind: "forecast", from: "2026-03-01", to: "2026-03-02" })).results.map(
      (e) => e.id,
    );
    expect(keys.sort()).toEqual(ids.flatMap((id) => [`${id}.closed`, `${id}.open`]).sort());
  });

  it("writes nothing for the same forecast again", async () => {
    expect(await forecast(MINUTES - 1, pAt(MINUTES - 1))).toEqual([]);
  });

  it("raises none at a horizon whose rule is «current ≥ 0,9·limit», nor without a probability", async () => {
    expect(await forecast(5, 0.9, false, 60)).toEqual([]);
    expect(await forecast(6, null, true, 60)).toEqual([]);
    const { results } = await listEvents(d.deps, staff, { facility, kind: "forecast", from: "2026-03-01", to: "2026-03-02" });
    expect(results.every((e) => e.forecast?.horizon_min === HORIZON)).toBe(true);
  });

  // an event opened and closed at every crossing of 0,5 (6 events in 18 h for two
  // rises, three 1–2 minutes long).
  it("stay one event while P wavers about 0,5, closing only below 0,3", async () => {
    const at = (m: number) => AT + m * MINUTE_MS;
    for (const [m, p] of [
      [80, 0.6],
      [81, 0.45],
      [82, 0.55],
      [83, 0.48],
      [84, 0.52],
      [85, 0.31],
      [86, 0.2],
    ] as const) {
      await recordForecast(d.deps, {
        company: staff.company,
        facility,
        meter,
        horizon: 120,
        limit: LIMIT,
        at: at(m) + 20_000,
        p,
        ruleOn: true,
      });
    }
    const { results } = await listEvents(d.deps, staff, { facility, kind: "forecast", from: "2026-03-01", to: "2026-03-02" });
    const waver = results.filter((e) => e.forecast?.horizon_min === 120);
    expect(waver.map((e) => [e.start, e.end, e.minutes_above])).toEqual([[iso(at(80)), iso(at(86)), 6]]);
    expect(FORECAST_EVENT_CLOSE_P).toBe(0.3);
  });

  it("keeps an event of another horizon opening at the same minute apart", async () => {
    const [opened] = await forecast(5, 0.8, true, 60);
    expect(opened.id).not.toBe(
      (await listEvents(d.deps, staff, { facility, kind: "forecast", from: "2026-03-01", to: "2026-03-02" })).results[0].id,
    );
    expect(opened).toMatchObject({
      start: iso(AT + 5 * MINUTE_MS),
      end: null,
      forecast: { horizon_min: 60, probability: 0.8, came_true: null },
    });
  });
});
