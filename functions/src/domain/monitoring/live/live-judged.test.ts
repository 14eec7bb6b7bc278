// on the in-memory repositories: the tile judges the chance of reaching the limit
// on the working's rows after the model's own period, on the 10-minute grid of the clock — sampled at
// 11:23 or at 11:25 the same readings are the same rows and give the same judgement (the 7-day check read
// 18, 20, 19 facts at the limit as the minute moved, and flipped «не показывается» to a bare «100 %»).
import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { calibrateOnRows } from "../../forecast/calibrating";
import { trainForecastModel, trainingParams } from "../../forecast/training";
import { Invalid } from "../../errors";
import { forecastRowsFromJson, forecastRun, runForecast } from "../../forecast/forecast";
import { drainReadings } from "../minutes/consumer";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { readingsBetween } from "../ingest/stored-readings";
import { monitoringIdle } from "./forecaster";
import { alertRules, bindLiveModel, forecastRowsAt, forecastWorking, liveWindow, modelPeriodEnd, type Readings } from "./live";
import { AUDIT_ROWS, AUDIT_STEP_MS, auditLongwall } from "../../../../../tests/support/audit-longwall";

const PERIOD = 240;
/** The meter k minutes into a 4-hour rise: 0,5 % for 48 minutes, then +0,25 % an hour to 1,3 %, then back. */
const sawtooth = (k: number) => (k < 48 ? 0.5 : Math.round((0.5 + ((k - 48) * 0.25) / 60) * 1000) / 1000);
/** A minute 3 past a ten: the sampling minute of the first look; the second is two minutes on. */
const SAMPLED = Date.parse("2026-11-16T02:53:00Z");
const FIRST = SAMPLED - 8 * DAY_MS;
const meterAt = (t: number) => sawtooth(((((t - FIRST) / MINUTE_MS) % PERIOD) + PERIOD) % PERIOD);

let now = SAMPLED;
let d: MemoryDomain;
let staff: Actor;
let facility: string;

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
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
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  // The 30-minute model calibrated for the company on the first four days' 10-minute rows.
  const run = await forecastRun(d.deps, staff.company, "xgboost", { level: 90, limit: 1, warning: 0.8, horizon: 30 }, "xgboost-h30");
  const rows = [];
  for (let t = FIRST; t < FIRST + 4 * DAY_MS; t += 10 * MINUTE_MS) rows.push({ t: new Date(t).toISOString().slice(0, 16), y: meterAt(t) });
  await calibrateOnRows(d.deps, staff, run.version, forecastRowsFromJson(rows), "company", "история.csv");
  await bindLiveModel(d.deps, staff, { facility, working: "Лава 1", horizon: 30, model: "xgboost-h30" });
}, 120_000);

/** The tile's forecast of `working` as computed at `at`, from the readings up to it (the alert rules' memo cleared). */
async function tileAt(at: number, who = staff, where = facility, working = "Лава 1") {
  now = at + 30_000;
  d.deps.runtime.kept(alertRules).clear();
  const sensors = (await d.deps.repos.sensors.listOfFacility(who.company, where)).filter((s) => s.working === working);
  const { from } = liveWindow(now);
  const readings = new Map<string, Readings>();
  for (const s of sensors) readings.set(s.id, await readingsBetween(d.deps, who.company, s, from, at + MINUTE_MS));
  const [binding] = await d.deps.repos.liveBindings.listOfFacility(who.company, where);
  return (await forecastWorking(d.deps, who.company, binding, sensors, readings))!.forecast;
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

// The audit's shape on the tile: the last 9 days of the audit's longwall (rare exceedances, under 2 %
// of the rows) as a meter's minutes up to the clock, the platform's 1-hour model calibrated on the two days
// before the tile's seven: P is not shown until judged, and the band near the limit is reported — within
// 85–95 % on enough rows, or not to be trusted.
describe("the tile on the audit's longwall", () => {
  it("shows no P until judged, and reports the band near the limit", async () => {
    const audit = auditLongwall();
    const owner = await d.actor("ООО «Аудит»");
    const where = (await d.facility(owner, { name: "Шахта «Аудит»", kind: "underground_mine" })).id;
    const point = (
      await d.write(() => createPoint(d.deps, owner, where, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
    ).id;
    const body = parseWith(sensorCreateSchema, { code: "М-2", kind: "methane", point, working: "Лава аудита", warning: 0.8, alarm: 1 });
    await d.write(() => createSensor(d.deps, owner, where, body));
    // Row r of the audit at SAMPLED − (last − r)·10 min, each held for its ten minutes.
    const first = AUDIT_ROWS - 9 * 144;
    const timeOf = (r: number) => SAMPLED - (AUDIT_ROWS - 1 - r) * AUDIT_STEP_MS;
    const minutes = [];
    for (let r = first; r < AUDIT_ROWS; r++)
      for (let m = 0; m < 10 && timeOf(r) + m * MINUTE_MS <= SAMPLED; m++)
        minutes.push({ sensor: "М-2", t: new Date(timeOf(r) + m * MINUTE_MS + 20_000).toISOString(), value: audit.y[r] });
    for (let i = 0; i < minutes.length; i += 5000)
      await storeBatch(d.deps, owner.company, where, { json: { readings: minutes.slice(i, i + 5000) } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    const run = await forecastRun(d.deps, owner.company, "xgboost", { level: 90, limit: 1, warning: 0.8, horizon: 60 }, "xgboost-h60");
    const rows = [];
    for (let r = first; r < first + 2 * 144; r++) rows.push({ t: new Date(timeOf(r)).toISOString().slice(0, 16), y: audit.y[r] });
    await calibrateOnRows(d.deps, owner, run.version, forecastRowsFromJson(rows), "company", "аудит.csv");
    await bindLiveModel(d.deps, owner, { facility: where, working: "Лава аудита", horizon: 60, model: "xgboost-h60" });
    const tile = await tileAt(SAMPLED, owner, where, "Лава аудита");
    // Too early to judge (or judged no better by the day-block bootstrap, D108 b): not shown — the tile's data carries
    // no chance (D108 c) — the reason said, and no alert rule on it.
    expect(tile.probability?.reliable).toBe(false);
    expect(tile.probability?.event).toBe("window_max");
    expect(tile.p_exceed).toBeNull();
    expect(tile.note).toMatch(/Вероятность превышения не показывается: /);
    expect(tile.alert.rule).toBe("reading");
    const near = tile.near_limit!;
    // The forecast shown may be a baseline that never reaches the warning level (D108 e: the time-of-day mean): then
    // no row is near the limit by the forecast, and the band is judged by the fact alone.
    expect(near.rows).toBeGreaterThanOrEqual(0);
    if (near.reliable) {
      expect(near.rows).toBeGreaterThanOrEqual(100);
      expect(Math.abs(near.coverage! - 0.9)).toBeLessThanOrEqual(0.05);
    } else expect(tile.note).toMatch(/Интервалу 90 % у предела не доверять/);
    // D96 (c): judged by the fact too — the rows whose fact reached the limit; under 85 % there, never certified.
    expect(near.by_fact!.rows).toBeGreaterThan(0);
    if (near.by_fact!.coverage! < 0.85) expect(near.reliable).toBe(false);

    // D96 (a), the tile's band and chance at its minute are those of a week's request whose last row
    // is that minute (the route's), bit for bit: the calibration's weight and scales, the day before the row.
    const sensors = (await d.deps.repos.sensors.listOfFacility(owner.company, where)).filter((s) => s.working === "Лава аудита");
    const at = Date.parse(tile.issued_at!);
    const readings = new Map<string, Readings>();
    for (const s of sensors) readings.set(s.id, await readingsBetween(d.deps, owner.company, s, at - 8 * DAY_MS, at + MINUTE_MS));
    const week = forecastRowsAt(sensors, sensors[0], readings, at, 7 * 144);
    const routed = await runForecast(
      d.deps,
      await forecastRun(d.deps, owner.company, "xgboost", run.settings, "xgboost-h60"),
      forecastRowsFromJson(week),
    );
    const last = routed.rows.at(-1)!;
    expect(routed.backtest?.shown).toBe(tile.shown);
    expect([tile.result, tile.lo, tile.hi]).toEqual([last.result, last.lo, last.hi]);
  });
});

// D96 (e), the audit's held-out week crossed 1 % three times, once from 13:34 to 13:39, between
// two sampled minutes of the 10-minute grid, and the tile's back-test counted two. Events read each interval's
// highest minute: a meter at 0,5 % with 5-minute spikes to 1,2 % between the grid's minutes has every spike counted.
describe("the tile's events, from the meter's minutes", () => {
  it("counts a crossing between two sampled minutes", async () => {
    const owner = await d.actor("ООО «Минуты»");
    const where = (await d.facility(owner, { name: "Шахта «Минутная»", kind: "underground_mine" })).id;
    const point = (
      await d.write(() => createPoint(d.deps, owner, where, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
    ).id;
    const body = parseWith(sensorCreateSchema, { code: "М-5", kind: "methane", point, working: "Лава 5", warning: 0.8, alarm: 1 });
    await d.write(() => createSensor(d.deps, owner, where, body));
    // SAMPLED is 3 past a ten; the spikes run from 4 to 8 past a ten, every 12 h from 6 h 34 min into the days.
    const first = SAMPLED - 9 * DAY_MS - 3 * MINUTE_MS;
    const spikes: number[] = [];
    for (let t = first + 6 * 3_600_000 + 34 * MINUTE_MS; t < SAMPLED - 60 * MINUTE_MS; t += 12 * 3_600_000) spikes.push(t);
    const value = (t: number) => (spikes.some((s) => t >= s && t < s + 5 * MINUTE_MS) ? 1.2 : 0.5);
    const minutes = [];
    for (let t = first; t <= SAMPLED; t += MINUTE_MS)
      minutes.push({ sensor: "М-5", t: new Date(t + 20_000).toISOString(), value: value(t) });
    for (let i = 0; i < minutes.length; i += 5000)
      await storeBatch(d.deps, owner.company, where, { json: { readings: minutes.slice(i, i + 5000) } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
    // Calibrated on the first day's 10-minute rows: the grid's minutes, none of them in a spike.
    const run = await forecastRun(d.deps, owner.company, "xgboost", { level: 90, limit: 1, warning: 0.8, horizon: 30 }, "xgboost-h30");
    const rows = [];
    for (let t = first + 3 * MINUTE_MS; t < first + DAY_MS; t += 10 * MINUTE_MS)
      rows.push({ t: new Date(t).toISOString().slice(0, 16), y: value(t) });
    expect(rows.every((r) => r.y === 0.5)).toBe(true);
    await calibrateOnRows(d.deps, owner, run.version, forecastRowsFromJson(rows), "company", "минуты.csv");
    await bindLiveModel(d.deps, owner, { facility: where, working: "Лава 5", horizon: 30, model: "xgboost-h30" });
    const tile = await tileAt(SAMPLED, owner, where, "Лава 5");
    // The tile's seven days on the 10-minute grid after the calibration's period: every spike in them is an event.
    const anchor = Math.floor(SAMPLED / (10 * MINUTE_MS)) * 10 * MINUTE_MS;
    const end = modelPeriodEnd(await forecastRun(d.deps, owner.company, "xgboost", run.settings, "xgboost-h30"))!;
    const counted = spikes.filter((s) => s > Math.max(end, anchor - 7 * DAY_MS) + 10 * MINUTE_MS && s <= anchor).length;
    expect(counted).toBeGreaterThanOrEqual(13);
    expect(tile.alert.events).toBe(counted);
  });
});

// the tile feeds 10-minute rows; a model ahead trained on rows a minute apart is not bound to
// them (its lags would read 10 minutes as one): 400 naming both steps.
describe("binding a model trained on another step", () => {
  it("is refused, naming the model's step and the tile's", async () => {
    const lines = ["Время;Концентрация метана в каптируемой смеси, %;Концентрация CH4 в исходящей струе лавы, факт, %"];
    for (let i = 0; i < 600; i++) {
      const t = new Date(Date.UTC(2025, 0, 1) + i * MINUTE_MS).toISOString();
      const y = (0.5 + 0.01 * (i % 7)).toFixed(3).replace(".", ",");
      lines.push(`${t.slice(8, 10)}.${t.slice(5, 7)}.${t.slice(0, 4)} ${t.slice(11, 16)};${20 + (i % 11)};${y}`);
    }
    const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
    const model = await trainForecastModel(
      d.deps,
      staff,
      { name: "минуты.csv", bytes },
      {
        params: trainingParams(JSON.stringify({ n_estimators: 20, max_depth: 3 })),
        horizon: 10,
        features: [],
        description: "",
        activate: false,
      },
    );
    expect(model.training?.step).toBe(1);
    const refused = await bindLiveModel(d.deps, staff, { facility, working: "Лава 1", horizon: 10, model: model.id }).then(
      () => null,
      (e: unknown) => e as Invalid,
    );
    expect(refused).toBeInstanceOf(Invalid);
    expect(refused!.detail).toBe(
      "Модель: модель обучена на строках с шагом 1 мин, а строки идут с шагом 10 мин: ее лаги прочитались бы неверно — " +
        "подайте строки с шагом 1 мин или обучите модель на строках с шагом 10 мин",
    );
  });
});
