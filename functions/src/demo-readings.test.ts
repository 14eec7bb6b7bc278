// The demo mine's АГК (demo-readings.ts) on the in-memory repositories: the simulator gives the same
// readings for the same window and seed, with what section 12 has to show — crossings of the longwall
// meters' warning and alarm levels (D64), a gap and a stuck stretch of the shaft's methane meter that
// D58 flags and D60 substitutes, a gap of the drainage flow — and the demo year's seed stores them per
// sensor and UTC day, whose offers are the shaft's own meters' and say «демонстрационные данные».
// The feed's long spans (the seed's 30 days resumed minute by minute, a stop of 40 days filled) are in
// the deep tier, demo-readings.deep.test.ts; here the same over two days and a few minutes.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Flag, flagQuality, minuteMeans, rollUp, sensorMinutes } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../tests/support/memory-domain";
import { offerAcceptSchema } from "./contract/schemas/monitoring";
import { parseWith } from "./http/validate";
import type { Actor } from "./domain/context";
import { acceptOffers, listOffers } from "./domain/monitoring/minutes/offers";
import { sensorGaps } from "./domain/monitoring/minutes/sensor-data";
import { listEvents } from "./domain/monitoring/derive/events";
import { listLiveModels, liveView, NO_MODEL_NOTE } from "./domain/monitoring/live/live";
import { liveFromHeads } from "./domain/monitoring/live/live-head";
import { DEMO_BATCH, readingsBetween } from "./domain/monitoring/ingest/stored-readings";
import { seedDemoYear } from "./demo-year";
import { cutoffEpisodes, listCutoffs } from "./domain/monitoring/derive/cutoff-audit";
import { demoFeedRounds, demoReadingsFromEnv } from "./local/demo-feed";
import { monitoringIdle } from "./domain/monitoring/live/forecaster";
import {
  DEMO_DAYS,
  DEMO_SEED,
  DEMO_SENSORS,
  demoWindow,
  feedDemoReadings,
  initialDemoState,
  production,
  simulateMinutes,
  simulateReadings,
} from "./demo-readings";

const ZONE = "Asia/Novokuznetsk";
const NOW = new Date("2026-03-20T05:00:30Z");
const { start, minutes } = demoWindow(NOW);
const series = simulateReadings(start, minutes, ZONE);
const of = (code: string) => series.find((s) => s.sensor.register.code === code)!;
/** A sensor's readings as the seed stores them: a reading a minute, none in a gap. */
function readings(code: string) {
  const values = of(code).values;
  const kept = [...values.keys()].filter((m) => !Number.isNaN(values[m]));
  return [Float64Array.from(kept, (m) => start + m * MINUTE_MS), Float64Array.from(kept, (m) => values[m])] as const;
}
/** The hash of each sensor's first `upTo` minutes. */
const digest = (made: typeof series, upTo: number) => {
  const hash = createHash("sha256");
  for (const s of made) hash.update(new Uint8Array(s.values.buffer, s.values.byteOffset, upTo * s.values.BYTES_PER_ELEMENT));
  return hash.digest("hex");
};

describe("the simulator", () => {
  it("gives the same readings for the same window and seed, other noise for another seed", () => {
    expect(minutes).toBe(DEMO_DAYS * 1440);
    // Made again over two days: a stretch begins as a longer one does (the feed's test below), so the
    // seed's two days are the 30 days' first two, bit for bit, and another seed's are not.
    const twoDays = 2 * 1440;
    expect(digest(simulateReadings(start, twoDays, ZONE, 20_260_301), twoDays)).toBe(digest(series, twoDays));
    expect(digest(simulateReadings(start, twoDays, ZONE, 7), twoDays)).not.toBe(digest(series, twoDays));
    // At the meters' resolution, as the dispatch server keeps them.
    expect(of("М-11").values.every((v) => Number.isNaN(v) || Number(v.toFixed(2)) === v)).toBe(true);
  });

  it("follows the shifts: the cutting shifts' methane above the repair shift's", () => {
    expect(production(60)).toBe(0.3);
    expect(production(8 * 60 + 120)).toBe(1);
    const local = (m: number) => Math.floor(((start + m * MINUTE_MS + 7 * 3_600_000) % 86_400_000) / MINUTE_MS);
    const mean = (code: string, shift: number) => {
      const values = of(code).values.filter((v, m) => !Number.isNaN(v) && Math.floor(local(m) / 480) === shift && local(m) % 480 > 120);
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    expect(mean("М-11", 1) - mean("М-11", 0)).toBeGreaterThan(0.15);
  });

  it("crosses the longwall meters' warning and alarm levels a few times (D64)", () => {
    for (const code of ["М-11", "М-12"]) {
      const sensor = of(code);
      const minutesOf = sensorMinutes("methane", ...readings(code), start, minutes);
      const { days: all, months } = rollUp(minutesOf, ZONE, sensor.sensor.register);
      const month = months[months.length - 1];
      const above = (level: "above_warning" | "above_alarm") => all.filter((d) => d[level] > 0).length;
      expect(month.count, code).toBeGreaterThan(0);
      expect(above("above_warning"), code).toBeGreaterThanOrEqual(2);
      expect(above("above_warning"), code).toBeLessThanOrEqual(4);
      expect(above("above_alarm"), code).toBe(1);
    }
  });

  it("has a gap and a stuck stretch of the shaft's methane meter, flagged and substituted (D58, D60)", () => {
    const velocity = sensorMinutes("air_velocity", ...readings("ВС2-V"), start, minutes);
    const means = flagQuality("methane", minuteMeans("methane", ...readings("ВС2-CH4"), start, minutes), {
      paired: velocity.values,
    });
    const count = (flag: number) => means.flags.filter((f) => f === flag).length;
    expect(count(Flag.NONE)).toBe(25);
    expect(count(Flag.STUCK)).toBeGreaterThanOrEqual(95);
    expect(count(Flag.STUCK)).toBeLessThan(100);
    const substituted = sensorMinutes("methane", ...readings("ВС2-CH4"), start, minutes, { paired: velocity.values });
    expect(substituted.substituted).toBe(count(Flag.NONE) + count(Flag.STUCK));
    expect(substituted.missing).toBe(0);
    expect(of("ДГ-Q").values.filter(Number.isNaN).length).toBe(40);
  });
});

// The demo year seeded once for the file, on a clock the feed's tests move on.
let now = NOW.getTime();
let d: MemoryDomain;
let actor: Actor;
let mine: string;

describe("the simulator's readings questioned (D102, D104)", () => {
  it("holds the longwall return's meter for 90 minutes while the face's moves", () => {
    const m12 = of("М-12").values;
    const m11 = of("М-11").values;
    // The longest run of one value of М-12, and how far М-11 moved over it.
    let best = { from: 0, length: 0 };
    for (let m = 1, from = 0; m < m12.length; m++) {
      if (m12[m] !== m12[m - 1]) from = m;
      else if (m - from + 1 > best.length) best = { from, length: m - from + 1 };
    }
    expect(best.length).toBeGreaterThanOrEqual(90);
    const face = m11.slice(best.from, best.from + best.length);
    expect(Math.max(...face) - Math.min(...face)).toBeGreaterThan(0.05);
  });

  it("makes one cut-off not made: М-11 over its alarm while the shearer's run channel reads 1; М-12's alarm cuts it", () => {
    const run = of("РК-24").values;
    expect(run.every((v) => v === 0 || v === 1)).toBe(true);
    const found = (code: string) => cutoffEpisodes({ start, values: of(code).values }, 1, run);
    expect(found("М-11")).toHaveLength(1);
    expect(found("М-11")[0].run_minutes).toBeGreaterThanOrEqual(2);
    expect(found("М-12")).toEqual([]);
    // М-12 does reach its alarm (day 16): the run channel reads 0 then.
    expect(of("М-12").values.some((v) => v >= 1)).toBe(true);
  });
});

describe("the demo year's seed", () => {
  beforeAll(async () => {
    d = await memoryDomain({ now: () => new Date(now) });
    actor = await d.actor("Демо-компания");
    await d.write(() => seedDemoYear(d.deps, actor));
    mine = (await d.deps.repos.facilities.list(actor.company)).find((f) => f.kind === "underground_mine")!.id;
  });

  it("registers the mine's sensors and packs their readings per sensor and UTC day", async () => {
    const sensors = await d.deps.repos.sensors.listOfFacility(actor.company, mine);
    expect(sensors.map((s) => s.code).sort()).toEqual(DEMO_SENSORS.map((s) => s.register.code).sort());
    expect(sensors.find((s) => s.code === "М-11")).toMatchObject({ working: "Лава 24-15", warning: 0.8, alarm: 1, role: "cut_off" });
    const velocity = sensors.find((s) => s.code === "ВС2-V")!;
    const days: string[] = [];
    for (let t = start; t < start + minutes * MINUTE_MS; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
    days.push(new Date(start + minutes * MINUTE_MS - 1).toISOString().slice(0, 10));
    const stored = await d.deps.repos.monitoring.getDays(actor.company, velocity.id, [...new Set(days)]);
    expect(stored).toHaveLength(31);
    expect(stored.every((day) => DEMO_BATCH in day.applied)).toBe(true);
    // The days still open at the seed's end (yesterday's and today's, 1 740 minutes) are moved into the
    // mine's minute items by their first read (an earlier round's upgrade of a day item); a read of the window
    // takes both, each minute once, and knows them for the demo's.
    const read = await readingsBetween(d.deps, actor.company, velocity, start, start + minutes * MINUTE_MS);
    expect(read.times.length).toBe(minutes);
    expect(new Set(read.times).size).toBe(minutes);
    expect(read.demo).toBe(true);
  });

  it("binds the platform's default model of each horizon to the longwall: «Мониторинг» shows its forecast from the first look", async () => {
    const bindings = await listLiveModels(d.deps, actor, mine);
    expect(bindings.map((b) => [b.working, b.horizon, b.method, b.model])).toEqual(
      [10, 30, 60, 120, 360].map((h) => ["Лава 24-15", h, "xgboost", `xgboost-h${h}`]),
    );
    const tile = (await liveView(d.deps, actor, mine)).tiles.find((t) => t.working === "Лава 24-15")!;
    expect(tile.forecast_note).not.toBe(NO_MODEL_NOTE);
    expect(tile.forecasts.map((f) => f.horizon)).toEqual([10, 30, 60, 120, 360]);
    // Calibrated for the demo company on the longwall's first 23 days: each forecast has its interval
    // and P(exceed), and says which alert rule the back-test of the last 7 days left on, and why.
    for (const f of tile.forecasts) {
      // The drainage station (x7, x8) and the mine's return (x12, x13) are fed from their sensors; the
      // longwall's air measured daily (x2) and a methane flow (x15) have none, and the note says so
      // (ML M1).
      expect(f.columns?.filter((c) => c.sensor === null).map((c) => c.column)).toEqual(["x2", "x15"]);
      expect(f.columns?.find((c) => c.column === "x12")?.sensor).toBe("ВС2-CH4");
      expect(f.note).toMatch(/^Модель обучена на столбцах, для которых не задан датчик: x2 \(/);
      expect(f.lo).toBeLessThanOrEqual(f.result!);
      expect(f.hi).toBeGreaterThanOrEqual(f.result!);
      // D108 (c): the chance only where it is shown (judged better than the base rate), else none in the data.
      if (f.probability?.reliable) expect(f.p_exceed).toBeGreaterThanOrEqual(0);
      else expect(f.p_exceed).toBeNull();
      expect(f.alert.reason).toMatch(
        /^(Оповещение по прогнозу (не )?включено|Недостаточно событий для выбора правила): на истории выработки за 7 сут\. /,
      );
    }
    // the tiles from the seed's kept heads, once the first view stored the forecasts, are the
    // tiles the fold of the day's minutes gives.
    const facility = (await d.deps.repos.facilities.get(actor.company, mine))!;
    expect(await liveFromHeads(d.deps, actor.company, facility)).toEqual(await liveView(d.deps, actor, mine));
    const calibrations = await Promise.all(
      [10, 30, 60, 120, 360].map((h) => d.deps.repos.forecastCalibrations.get(`xgboost-h${h}`, actor.company)),
    );
    expect(calibrations.map((c) => [c?.scope, c?.calibrated_by])).toEqual([10, 30, 60, 120, 360].map(() => [actor.company, actor.email]));
  });

  it("hands the days to D65's detector: the longwall meters' crossings and the two gaps are events", async () => {
    const sensors = await d.deps.repos.sensors.listOfFacility(actor.company, mine);
    const events = await d.deps.repos.sensorEvents.listOfFacility(actor.company, mine, "2026-02-01T00:00:00Z", "2026-04-01T00:00:00Z");
    const code = (id: string) => sensors.find((s) => s.id === id)?.code;
    const listed = events
      .map((e) => `${code(e.sensor)} ${e.kind}${e.level ? ` ${e.level}` : ""}${e.suspect ? ` ${e.suspect.reason}` : ""}`)
      .sort();
    expect(listed).toEqual([
      "ВС2-CH4 stale",
      "ДГ-Q stale",
      "М-11 threshold alarm",
      "М-11 threshold pre_warning",
      "М-11 threshold pre_warning",
      "М-11 threshold pre_warning",
      "М-11 threshold warning",
      "М-11 threshold warning",
      "М-11 threshold warning",
      "М-12 suspect stuck",
      "М-12 threshold alarm",
      "М-12 threshold pre_warning",
      "М-12 threshold pre_warning",
      "М-12 threshold warning",
      "М-12 threshold warning",
    ]);
    // D102: the longwall return's meter held 90 minutes while the face's moved is one stuck event, its minutes in doubt.
    expect(events.filter((e) => e.kind === "suspect").map((e) => [e.start, e.end, e.minutes_above])).toEqual([
      ["2026-03-05T01:50:00.000Z", "2026-03-05T03:20:00.000Z", 90],
    ]);
    // «События» lists them as the demo's.
    const page = await listEvents(d.deps, actor, { facility: mine, from: "2026-02-19", to: "2026-03-20" });
    expect(page).toMatchObject({ count: events.length, demo: true });
  });

  it("lists the cut-off not made on «Мониторинг» (D104)", async () => {
    const { results } = await listCutoffs(d.deps, actor, mine, {});
    expect(results.map((r) => [r.sensor_code, r.run_code, r.setpoint, r.state])).toEqual([["М-11", "РК-24", 1, "open"]]);
  });

  it("shows the shaft meter's gap and stuck stretch as substituted on «Пропуски и замещения», labelled as the demo's", async () => {
    const sensor = (await d.deps.repos.sensors.listOfFacility(actor.company, mine)).find((s) => s.code === "ВС2-CH4")!;
    const march = await sensorGaps(d.deps, actor, mine, sensor.id, { month: "2026-03" });
    expect(march.demo).toBe(true);
    const substituted = march.gaps.filter((g) => g.state === "substituted");
    expect(substituted.map((g) => [g.minutes, g.rule])).toEqual(
      expect.arrayContaining([
        [25, "mean"],
        [expect.any(Number), "mean"],
      ]),
    );
    expect(substituted.find((g) => g.flags.stuck > 0)?.flags.stuck).toBeGreaterThanOrEqual(95);
    expect(substituted.find((g) => g.minutes === 25)?.flags.none).toBe(25);
  });

  it("offers the shaft's month from its own meters, labelled «демонстрационные данные» and accepted as such", async () => {
    const offers = await listOffers(d.deps, actor, mine, 2026);
    const points = await d.deps.repos.emissionPoints.listOfFacility(actor.company, mine);
    const shaft = points.find((p) => p.kind === "ventilation_shaft")!;
    const march = offers.find((o) => o.point === shaft.id && o.month === "2026-03")!;
    expect(offers.every((o) => o.demo)).toBe(true);
    expect(offers.map((o) => `${o.point_name} ${o.month}`).sort()).toEqual([
      "Вентиляционный ствол № 2 2026-02",
      "Вентиляционный ствол № 2 2026-03",
      "Поверхностная дегазационная установка 2026-02",
      "Поверхностная дегазационная установка 2026-03",
    ]);
    // The shaft's anemometer (2,4 m/s over 12,6 m²: about 1 814 m³/min), not the longwall's (1 197).
    const perMinute = (march.volume_thousand_m3 * 1000) / (march.minutes.valid + march.minutes.substituted);
    expect(perMinute).toBeGreaterThan(1_750);
    expect(perMinute).toBeLessThan(1_880);
    expect(march.ef_ch4).toBeGreaterThan(0.45);
    expect(march.ef_ch4).toBeLessThan(0.56);
    expect(march.completeness).toBe(1);
    expect(march.minutes.substituted).toBeGreaterThanOrEqual(120);
    const drainage = offers.find((o) => o.point_name === "Поверхностная дегазационная установка" && o.month === "2026-03")!;
    expect(drainage.minutes.substituted).toBe(40);
    expect(drainage.ef_ch4).toBeGreaterThan(36);

    const project = await d.project(actor, { name: "2026", start_date: "2026-01-01", end_date: "2026-12-31", facility: mine });
    const accept = (month: string) =>
      d.write(() =>
        acceptOffers(
          d.deps,
          actor,
          parseWith(offerAcceptSchema, { facility: mine, point: shaft.id, months: [month], project: project.id, reason: "Демонстрация" }),
        ),
      );
    // March still runs on the company's clock: shown, not accepted.
    expect(march.in_progress).toBe(true);
    await expect(accept("2026-03")).rejects.toThrow("Месяцы: месяц 03.2026 еще идет");
    const [accepted] = await accept("2026-02");
    const calculation = await d.deps.repos.calculations.get(actor.company, "underground", accepted.accepted!.calculation);
    expect(calculation?.name).toBe("Вентиляционный ствол № 2: по данным АГК, 02.2026 (демонстрационные данные)");
  });
});

describe("the demo's feed while the server runs", () => {
  const bytes = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

  // Over two days here; over the seed's 30 days and a cycle after them in demo-readings.deep.test.ts.
  it("makes a minute the same in one stretch or resumed from the state stored after any minute before it, bit for bit (two days)", () => {
    const simulation = { seed: DEMO_SEED, zone: ZONE, anchor: start };
    const span = 2 * 1440 + 17;
    const whole = simulateMinutes(simulation, initialDemoState(simulation), span).series;
    // Minutes one by one, then in stretches of 7 and of 50, the state passed through JSON as the table stores it.
    let state = initialDemoState(simulation);
    const parts: Float64Array[][] = [];
    const steps = [1, 1, 1, 7, 7, ...Array(Math.floor((span - 17) / 50)).fill(50)];
    steps.push(span - steps.reduce((a, b) => a + b, 0));
    for (const step of steps) {
      const made = simulateMinutes(simulation, state, step);
      parts.push(made.series.map((s) => s.values));
      state = JSON.parse(JSON.stringify(made.state));
    }
    for (let i = 0; i < DEMO_SENSORS.length; i++) {
      const live = Buffer.concat(parts.map((p) => bytes(p[i])));
      expect(live.equals(bytes(whole[i].values)), DEMO_SENSORS[i].register.code).toBe(true);
    }
    // And the seed's own minutes begin as the one stretch does.
    expect(bytes(series[3].values.subarray(0, span)).equals(bytes(whole[3].values))).toBe(true);
  });

  it("runs its rounds one at a time, logs a failed round and goes on", async () => {
    // The demo year's seed above, its clock moved on.
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const feeds = d.deps.repos.monitoring.demoFeeds;
    let fail = true;
    d.deps.repos.monitoring.demoFeeds = () => (fail ? Promise.reject(new Error("диск недоступен")) : feeds());
    try {
      const feed = demoFeedRounds(d.deps);
      // A round failed: logged as the server's error line.
      expect(await feed.tick()).toBeUndefined();
      expect(JSON.parse(String(errors.mock.calls[0][0]))).toMatchObject({ level: "error", event: "demo_feed" });
      fail = false;
      now += 2 * MINUTE_MS;
      // A second round asked while one runs starts after it: the minutes are fed once.
      const [first, second] = await Promise.all([feed.tick(), feed.tick()]);
      expect([first, second]).toEqual([
        { batches: 1, readings: 3 * DEMO_SENSORS.length },
        { batches: 0, readings: 0 },
      ]);
      await feed.settled();
      await monitoringIdle(d.deps);
      // Nothing due within the same minute.
      now += 20_000;
      expect(await feedDemoReadings(d.deps)).toEqual({ batches: 0, readings: 0 });
    } finally {
      d.deps.repos.monitoring.demoFeeds = feeds;
      errors.mockRestore();
    }
  });

  it("is on unless DEMO_READINGS=0", () => {
    expect(demoReadingsFromEnv({})).toBe(true);
    expect(demoReadingsFromEnv({ DEMO_READINGS: "1" })).toBe(true);
    expect(demoReadingsFromEnv({ DEMO_READINGS: "0" })).toBe(false);
    expect(demoReadingsFromEnv({ DEMO_READINGS: " 0 " })).toBe(false);
  });
});
