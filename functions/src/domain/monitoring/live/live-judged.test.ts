// Issue 108, items 1 and 6, on the in-memory repositories: the tile judges the chance of reaching the limit
// on the working's rows after the model's own period, on the 10-minute grid of the clock — sampled at
// 11:23 or at 11:25 the same readings are the same rows and give the same judgement (the 7-day check read
// 18, 20, 19 facts at the limit as the minute moved, and flipped «не показывается» to a bare «100 %»).
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/monitoring";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { calibrateOnRows } from "../../forecast/calibrating";
import { forecastRowsFromJson, forecastRun } from "../../forecast/forecast";
import { drainTelemetry } from "../days/consumer";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { readingsBetween } from "../ingest/stored-days";
import { telemetryIdle } from "./forecaster";
import { bindLiveModel, forecastWorking, liveWindow, modelPeriodEnd, type Readings } from "./live";

const DAY_MS = 86_400_000;
const PERIOD = 240;
/** The meter k minutes into a 4-hour rise: 0,5 % for 48 minutes, then +0,25 % an hour to 1,3 %, then back. */
const sawtooth = (k: number) => (k < 48 ? 0.5 : Math.round((0.5 + ((k - 48) * 0.25) / 60) * 1000) / 1000);
/** A minute 3 past a ten: the sampling minute of the first look; the second is two minutes on. */
const SAMPLED = Math.floor(Date.now() / (10 * MINUTE_MS)) * 10 * MINUTE_MS - 10 * MINUTE_MS + 3 * MINUTE_MS;
const FIRST = SAMPLED - 8 * DAY_MS;
const meterAt = (t: number) => sawtooth(((((t - FIRST) / MINUTE_MS) % PERIOD) + PERIOD) % PERIOD);

let now = SAMPLED;
let d: MemoryDomain;
let staff: Actor;
let facility: string;

beforeAll(async () => {
  d = await memoryDomain({}, { now: () => new Date(now) });
  staff = await d.actor("ООО «Судья»");
  facility = (await d.facility(staff, { name: "Шахта «Ровная»", kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  const body = parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", point, working: "Лава 1", warning: 0.8, alarm: 1 });
  await d.write(() => createSensor(d.deps, staff, facility, body));
  const readings = [];
  for (let t = FIRST; t <= SAMPLED + 2 * MINUTE_MS; t += MINUTE_MS) readings.push({ sensor: "М-1", t, value: meterAt(t) });
  for (let i = 0; i < readings.length; i += 5000) {
    const batch = readings.slice(i, i + 5000).map((r) => ({ ...r, t: new Date(r.t + 20_000).toISOString() }));
    await storeBatch(d.deps, staff.company, facility, { json: { readings: batch } });
  }
  void drainTelemetry(d.deps);
  await telemetryIdle(d.deps);
  // The 30-minute model calibrated for the company on the first four days' 10-minute rows.
  const run = await forecastRun(d.deps, staff.company, "xgboost", { level: 90, limit: 1, warning: 0.8, horizon: 30 }, "xgboost-h30");
  const rows = [];
  for (let t = FIRST; t < FIRST + 4 * DAY_MS; t += 10 * MINUTE_MS) rows.push({ t: new Date(t).toISOString().slice(0, 16), y: meterAt(t) });
  await calibrateOnRows(d.deps, staff, run.version, forecastRowsFromJson(rows), "company", "история.csv");
  await bindLiveModel(d.deps, staff, { facility, working: "Лава 1", horizon: 30, model: "xgboost-h30" });
}, 120_000);

/** The tile's forecast as computed at `at`, from the readings up to it (the alert rules' memo cleared). */
async function tileAt(at: number) {
  now = at + 30_000;
  d.deps.runtime.alertRules.clear();
  const sensors = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).filter((s) => s.working === "Лава 1");
  const { from } = liveWindow(now);
  const readings = new Map<string, Readings>();
  for (const s of sensors) readings.set(s.id, await readingsBetween(d.deps, staff.company, s, from, at + MINUTE_MS));
  const [binding] = await d.deps.repos.liveBindings.listOfFacility(staff.company, facility);
  return (await forecastWorking(d.deps, staff.company, binding, sensors, readings))!.forecast;
}

describe("the tile's judgement of P", () => {
  it("is made on the rows after the model's own period", async () => {
    const run = await forecastRun(d.deps, staff.company, "xgboost", { level: 90, limit: 1, warning: 0.8, horizon: 30 }, "xgboost-h30");
    const end = modelPeriodEnd(run)!;
    expect(end).toBe(FIRST + 4 * DAY_MS - 10 * MINUTE_MS);
    const tile = await tileAt(SAMPLED);
    expect(tile.probability?.judged_after).toBe(new Date(end).toISOString());
    expect(tile.probability?.judged_on).toBe("history");
    // Seven days back from 11:20 on the 10-minute grid, of which the rows after the calibration's last (4 days back less 10 minutes).
    expect(tile.probability!.rows).toBeLessThanOrEqual(4 * 144);
    expect(tile.probability!.rows).toBeGreaterThan(4 * 144 - 10);
  });

  it("does not flip with the minute it is sampled at", async () => {
    const first = await tileAt(SAMPLED);
    const second = await tileAt(SAMPLED + 2 * MINUTE_MS);
    expect(second.probability).toEqual(first.probability);
    expect(second.alert.rule).toBe(first.alert.rule);
    expect(second.alert.events).toBe(first.alert.events);
  });
});
