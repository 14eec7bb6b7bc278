// an earlier round's rules on the in-memory repositories: a meter's state against 0,9·W, W and A in words, a
// channel stale after two missed intervals (D65), readings merged by instant, D65's choice of the alert
// rule on a hand-worked history (the forecast's rule on only where it catches as many events earlier at
// no more false alerts), and the watch of a facility pushing the tiles again after a batch is applied,
// with the bound model's forecast. Over HTTP, with the forecast route bit for bit, another company and a
// gateway key: tests/integration/monitoring-live.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { Forbidden, Invalid } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "./forecaster";
import { createSensor } from "../ingest/register";
import { storeBatch } from "../ingest/readings";
import {
  NO_MODEL_NOTE,
  bindLiveModel,
  chooseAlertRule,
  forecastRowsAt,
  levelState,
  meterState,
  liveView,
  onsetsNeeded,
  staleMinutes,
  withChanceJudged,
  type LiveView,
} from "./live";
import { mergeReadings, watchLive } from "./live-watch";

describe("a meter's state and staleness", () => {
  it("reads 0,9·W, W and A in words", () => {
    expect(levelState(null, 1, 1.5)).toEqual({ state: "none", state_label: "нет показаний за сутки" });
    expect(levelState(0.89, 1, 1.5)).toEqual({ state: "normal", state_label: "норма" });
    expect(levelState(0.9, 1, 1.5)).toEqual({ state: "pre_warning", state_label: "≥ 0,9·W (0,9 %): близко к предупредительному" });
    expect(levelState(1, 1, 1.5)).toEqual({ state: "warning", state_label: "≥ W (1 %): предупредительный" });
    expect(levelState(1.5, 1, 1.5)).toEqual({ state: "alarm", state_label: "≥ A (1,5 %): аварийный" });
    expect(levelState(3, null, null).state).toBe("normal");
  });

  // a meter silent for 27 minutes kept a green «норма» beside «нет данных 27 мин».
  it("never calls a silent meter normal, and keeps a level it last reached", () => {
    expect(meterState(0.5, 1, 1.5, 27)).toEqual({ state: "none", state_label: "нет данных 27 мин" });
    expect(meterState(0.5, 1, 1.5, null)).toEqual({ state: "normal", state_label: "норма" });
    expect(meterState(1.1, 1, 1.5, 27)).toEqual({ state: "warning", state_label: "≥ W (1 %): предупредительный" });
    expect(meterState(null, 1, 1.5, null)).toEqual({ state: "none", state_label: "нет показаний за сутки" });
  });

  it("is stale after two expected intervals without a reading, in whole minutes", () => {
    const times = Float64Array.from({ length: 10 }, (_, i) => i * MINUTE_MS);
    const last = 9 * MINUTE_MS;
    expect(staleMinutes(times, last + 2 * MINUTE_MS)).toBeNull();
    expect(staleMinutes(times, last + 2 * MINUTE_MS + 1)).toBe(2);
    expect(staleMinutes(times, last + 17.5 * MINUTE_MS)).toBe(17);
    // A channel read every 5 minutes is fresh for 10.
    const slow = Float64Array.from({ length: 10 }, (_, i) => i * 5 * MINUTE_MS);
    expect(staleMinutes(slow, 45 * MINUTE_MS + 10 * MINUTE_MS)).toBeNull();
    expect(staleMinutes(slow, 45 * MINUTE_MS + 11 * MINUTE_MS)).toBe(11);
    expect(staleMinutes(new Float64Array(0), 0)).toBeNull();
  });

  it("merges readings by instant, a later value replacing the one held, older than the window dropped", () => {
    const held = { times: Float64Array.of(1, 2, 3), values: Float64Array.of(0.1, 0.2, 0.3) };
    const merged = mergeReadings(
      held,
      [
        { times: Float64Array.of(4, 2), values: Float64Array.of(0.4, 0.25) },
        { times: Float64Array.of(0), values: Float64Array.of(9) },
      ],
      1,
    );
    expect([...merged.times]).toEqual([1, 2, 3, 4]);
    expect([...merged.values]).toEqual([0.1, 0.25, 0.3, 0.4]);
  });
});

describe("D65: which alert rule is on", () => {
  const STEP = 10 * MINUTE_MS;
  const rows = 1008; // seven days of 10-minute rows
  const time = Array.from({ length: rows }, (_, i) => i * STEP);
  // Six onsets above 1 %, each at row o; the reading reaches 0,9 % one row before it.
  const ONSETS = [100, 250, 400, 550, 700, 850];
  const history = (onsets: readonly number[]) =>
    Array.from({ length: rows }, (_, i) => (onsets.includes(i + 1) ? 0.95 : onsets.some((o) => i >= o && i <= o + 5) ? 1.2 : 0.5));
  const measured = history(ONSETS);
  const p = (alerts: number[]) => Array.from({ length: rows }, (_, i) => (alerts.includes(i) ? 0.7 : 0.1));
  /** Alerts from `ahead` rows before each onset to it. */
  const alertsAhead = (onsets: readonly number[], ahead = 6) =>
    onsets.flatMap((o) => Array.from({ length: ahead + 1 }, (_, k) => o - ahead + k));

  it("turns the forecast's rule on where it warns earlier on enough onsets, at no more false alerts", () => {
    const chosen = chooseAlertRule({ measured, pExceed: p(alertsAhead(ONSETS)), time, horizon: 60, limit: 1 });
    expect(chosen).toMatchObject({
      rule: "forecast",
      days: 7,
      events: 6,
      forecast: { caught: 6, missed: 0, lead_median: 60, false_per_day: 0 },
      reading: { caught: 6, missed: 0, lead_median: 10, false_per_day: 0 },
    });
    expect(chosen.reason).toBe(
      "Оповещение по прогнозу включено: на истории выработки за 7 сут. оно раньше на 6 из 6 превышений, где правила различаются, " +
        "нужно не менее 6, при не большем числе ложных " +
        "(«прогноз P ≥ 0,5»: поймано 6 из 6, медиана 60 мин, ложных 0 в сутки; «текущее ≥ 0,9·предела»: поймано 6 из 6, медиана 10 мин, ложных 0 в сутки).",
    );
  });

  // ML M2: «P ≥ 0,5» was turned on where it beat the reading on a week of 3–9 onsets.
  it("offers no rule on too few onsets, and none where the forecast was earlier on too few of them", () => {
    const three = ONSETS.slice(0, 3);
    const few = chooseAlertRule({ measured: history(three), pExceed: p(alertsAhead(three)), time, horizon: 60, limit: 1 });
    expect(few).toMatchObject({ rule: "reading", events: 3 });
    expect(few.reason).toMatch(
      /^Недостаточно событий для выбора правила: на истории выработки за 7 сут\. превышений предела 1 %: 3, правила различаются на 3 из них, а выигрыш прогноза проверяется не менее чем на 5 /,
    );
    // Earlier on 5 of the 6 onsets, later on one: 5 of 6 is not enough (6 needed).
    const mixed = chooseAlertRule({ measured, pExceed: p([...alertsAhead(ONSETS.slice(0, 5)), ONSETS[5]]), time, horizon: 60, limit: 1 });
    expect(mixed.rule).toBe("reading");
    expect(mixed.reason).toMatch(/прогноз предупреждал раньше на 5 из 6 превышений, где правила различаются, нужно не менее 6/);
  });

  it("keeps the reading's rule where the forecast raises more false alerts, misses events or has no probability", () => {
    const noisy = chooseAlertRule({ measured, pExceed: p([...alertsAhead(ONSETS), 20, 21]), time, horizon: 60, limit: 1 });
    expect(noisy).toMatchObject({ rule: "reading", forecast: { caught: 6 } });
    expect(noisy.forecast?.false_per_day).toBeCloseTo(1 / 7, 10);
    expect(noisy.reason).toMatch(
      /^Оповещение по прогнозу не включено: на истории выработки за 7 сут\. у прогноза больше ложных оповещений/,
    );
    expect(noisy.reason).toMatch(/действует правило «текущее значение ≥ 0,9·предела» \(0,9 %\)\.$/);
    const late = chooseAlertRule({ measured, pExceed: p([]), time, horizon: 60, limit: 1 });
    expect(late.reason).toMatch(/прогноз поймал меньше событий/);
    const none = chooseAlertRule({ measured, pExceed: measured.map(() => null), time, horizon: 60, limit: 1 });
    expect(none).toMatchObject({ rule: "reading", forecast: null });
    expect(none.reason).toMatch(/модель не откалибрована/);
    const calm = chooseAlertRule({ measured: measured.map(() => 0.5), pExceed: p([]), time, horizon: 60, limit: 1 });
    expect(calm.reason).toMatch(/не было превышений предела 1 %, выигрыш не доказан/);
  });

  // the reading's rule was judged with the forecast's horizon — an alert counted as caught up to
  // h + 1 h before its onset and false only past that — so one rule on one history read differently at 10 min and
  // 6 h on the same tile. It forecasts nothing ahead: the same figures, the same words, whatever the horizon.
  it("judges the reading's rule with no horizon: the same figures and words at 10 min as at 6 h", () => {
    // Besides the six onsets, the reading at 0,92 % over 3 h before a seventh: within 6 h + 1 h of it, not within an
    // hour — a false alert of the reading's rule, whatever horizon the forecast beside it has.
    const seventh = 950;
    const long = measured.map((v, i) => (i >= seventh - 20 && i <= seventh - 19 ? 0.92 : i >= seventh && i <= seventh + 5 ? 1.2 : v));
    const pExceed = p(alertsAhead([...ONSETS, seventh]));
    const at = (horizon: number) => chooseAlertRule({ measured: long, pExceed, time, horizon, limit: 1 });
    const [ten, six] = [at(10), at(360)];
    expect(ten.events).toBe(7);
    expect(ten.reading).toEqual(six.reading);
    expect(ten.reading).toMatchObject({ caught: 7, missed: 0, lead_median: 10 });
    expect(ten.reading?.false_per_day).toBeCloseTo(1 / 7, 10);
    const readingPart = (reason: string) => /«текущее ≥ 0,9·предела»: [^)]*/.exec(reason)?.[0];
    expect(readingPart(ten.reason)).toBe("«текущее ≥ 0,9·предела»: поймано 7 из 7, медиана 10 мин, ложных 0,14 в сутки");
    expect(readingPart(six.reason)).toBe(readingPart(ten.reason));
  });

  it("needs 5 of 5, 6 of 6, 7 of 8, 8 of 9, 9 of 10 and 17 of 24 onsets (one-sided sign test at 5 %)", () => {
    expect([1, 4, 5, 6, 8, 9, 10, 24].map(onsetsNeeded)).toEqual([null, null, 5, 6, 7, 8, 9, 17]);
  });
});

describe("a facility's tiles on the in-memory repositories", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: { id: string; name: string };
  const sensors: Record<string, string> = {};
  /** The test's clock: the tiles read the minutes up to it. */
  const NOW = Date.parse("2026-11-16T03:00:00Z");
  const END = NOW - MINUTE_MS;

  async function push(readings: { sensor: string; t: number; value: number }[]) {
    const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
    await storeBatch(d.deps, staff.company, facility.id, body);
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  }

  beforeAll(async () => {
    d = await memoryDomain(clockAt(NOW));
    staff = await d.actor("ООО «Плитки»");
    facility = await d.facility(staff, { name: "Шахта «Плитка»", kind: "underground_mine" });
    const point = (
      await d.write(() =>
        createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
      )
    ).id;
    for (const [code, kind, extra] of [
      ["М-1", "methane", { warning: 1, alarm: 1.5 }],
      ["V-1", "air_velocity", { area_m2: 12 }],
      ["Q-1", "flow", {}],
    ] as const) {
      const body = parseWith(sensorCreateSchema, { code, kind, point, working: "Лава 5", ...extra });
      sensors[code] = (await d.write(() => createSensor(d.deps, staff, facility.id, body))).id;
    }
    const readings = [];
    for (let k = 0; k < 180; k++) {
      const t = END - (179 - k) * MINUTE_MS;
      readings.push({ sensor: "М-1", t, value: 0.5 + k / 1000 }, { sensor: "V-1", t, value: 2 }, { sensor: "Q-1", t, value: 30 });
    }
    await push(readings);
  });

  it("builds the forecast's rows as the forecast route takes them: 10-minute steps, the minute's values", async () => {
    const all = await d.deps.repos.sensors.listOfFacility(staff.company, facility.id);
    const meter = all.find((s) => s.code === "М-1")!;
    const readings = new Map([[meter.id, { times: Float64Array.of(END - 10 * MINUTE_MS, END), values: Float64Array.of(0.6, 0.7) }]]);
    expect(forecastRowsAt(all, meter, readings, END, 3)).toEqual([
      { t: new Date(END - 20 * MINUTE_MS).toISOString().slice(0, 16) },
      { t: new Date(END - 10 * MINUTE_MS).toISOString().slice(0, 16), y: 0.6 },
      { t: new Date(END).toISOString().slice(0, 16), y: 0.7 },
    ]);
  });

  it("shows the working without a model, then its forecast once bound, and pushes the tiles again after a batch", async () => {
    const before = await liveView(d.deps, staff, facility.id);
    expect(before.tiles).toHaveLength(1);
    expect(before.tiles[0]).toMatchObject({
      working: "Лава 5",
      forecasts: [],
      forecast_note: NO_MODEL_NOTE,
      air_flow: { code: "V-1", value: 2 * 12 * 60 },
      drainage_flow: { code: "Q-1", value: 30 },
    });
    await expect(
      bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 45, model: "xgboost-h60" }),
    ).rejects.toThrow(Invalid);
    await expect(
      bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 30, model: "xgboost-h60" }),
    ).rejects.toThrow("model_id: модель прогнозирует на 1 ч вперед, а выбран горизонт 30 мин");
    const reviewer = await d.actor("ООО «Проверка плиток»", "reviewer");
    await expect(
      bindLiveModel(
        d.deps,
        { ...reviewer, company: staff.company },
        { facility: facility.id, working: "Лава 5", horizon: 60, model: null },
      ),
    ).rejects.toThrow(Forbidden);
    const bound = await bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
    expect(bound).toMatchObject([{ working: "Лава 5", horizon: 60, method: "xgboost", model: "xgboost-h60", sensor: null }]);

    const seen: LiveView[] = [];
    let wake: (() => void) | undefined;
    const stop = watchLive(d.deps, staff.company, facility, (view) => {
      seen.push(view);
      wake?.();
    });
    const next = (n: number) =>
      new Promise<void>((resolve) => (seen.length >= n ? resolve() : (wake = () => seen.length >= n && resolve())));
    await next(1);
    expect(seen[0].tiles[0].forecasts[0]).toMatchObject({ horizon: 60, issued_at: new Date(END).toISOString(), limit: 1.5 });
    expect(typeof seen[0].tiles[0].forecasts[0].result).toBe("number");
    await push([{ sensor: "М-1", t: END + MINUTE_MS, value: 1.1 }]);
    await next(2);
    expect(seen[1].tiles[0].meters[0]).toMatchObject({ value: 1.1, state: "warning" });
    expect(seen[1].etag).not.toBe(seen[0].etag);
    // The forecaster's forecast of the new minute, stored (forecaster.ts), is pushed to the page once in.
    const issued = (view: LiveView) => view.tiles[0].forecasts[0].issued_at;
    const forecastAt = new Date(END + MINUTE_MS).toISOString();
    await new Promise<void>((resolve) =>
      seen.some((v) => issued(v) === forecastAt) ? resolve() : (wake = () => seen.some((v) => issued(v) === forecastAt) && resolve()),
    );
    stop();
    const stored = await d.deps.repos.liveBindings.forecastsOfFacility(staff.company, facility.id);
    expect(stored.map((f) => [f.working, f.horizon, f.issued])).toEqual([["Лава 5", 60, END + MINUTE_MS]]);
    expect(seen.find((v) => issued(v) === forecastAt)?.tiles[0].forecasts[0]).toEqual(stored[0].forecast);

    const unbound = await bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 60, model: null });
    expect(unbound).toEqual([]);
  });
});

// the rule «P ≥ 0,5» acted (and the webhook got its events) while P was judged no better
// than the base rate, or too early to judge.
describe("the forecast's alert rule and the judgement of P", () => {
  const on = { rule: "forecast" as const, reason: "Оповещение по прогнозу включено: …", days: 7, events: 9, forecast: null, reading: null };
  it("keeps «P ≥ 0,5» only where P was judged better than the base rate", () => {
    expect(withChanceJudged(on, { reliable: true, note: null })).toBe(on);
    const early = withChanceJudged(on, {
      reliable: false,
      note: "Вероятность превышения не показывается: судить рано, точнее ли она доли случаев превышения — строк с фактом 800, из них от предела 19; нужно не меньше 200 и 20.",
    });
    expect(early.rule).toBe("reading");
    expect(early.reason).toBe(
      "Оповещение по прогнозу не включено: вероятность превышения не показывается: судить рано, точнее ли она доли случаев превышения — " +
        "строк с фактом 800, из них от предела 19; нужно не меньше 200 и 20. Действует правило «текущее значение ≥ 0,9·предела».",
    );
    expect(withChanceJudged(on, null).rule).toBe("reading");
    const reading = { ...on, rule: "reading" as const };
    expect(withChanceJudged(reading, { reliable: false, note: "…" })).toBe(reading);
  });
});
