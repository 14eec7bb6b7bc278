// The forecast's bar against the last reading, through the API on dynalite: on four
// generated longwalls of the bar's own (tests/support/longwall-scenarios.ts), at every offered
// horizon, what the forecast shows as its `result` has an RMSE at most 1.02 × persistence's on the
// back-test's rows, computed here from the stored rows without the product's back-test; with the
// platform's default models and with models the company trained on the same longwall's first 60 %.
// Ahead, the platform's models' own figures are within 2 % of persistence's as well.
// Where the model lost to persistence the rows show persistence and keep the model's figure beside
// it, and the back-test's sentence says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HORIZONS } from "@core/gbdt/horizon";
import { createHarness, type Harness } from "../support/harness";
import {
  eventsByHand,
  longwallScenario,
  rmseAgainstPersistence,
  SCENARIOS,
  scenarioCsv,
  type Scenario,
} from "../support/longwall-scenarios";

const ROWS = 2400;
const TRAIN = Math.round(ROWS * 0.6);

type Score = { rows: number; rmse: number | null };
type Row = {
  id: number;
  t: string;
  y?: number;
  result: number | null;
  model_result?: number | null;
  lo?: number | null;
  hi?: number | null;
  p_exceed?: number | null;
};
type Rule = { caught: number; missed: number; lead_median: number | null; false_alerts: number; false_per_day: number };
type Stored = {
  id: string;
  backtest: {
    model: Score;
    persistence: Score;
    verdict: string;
    shown: "model" | "persistence" | "mean";
    model_gain?: { baseline: string; holds: boolean } | null;
    interval?: {
      limit_coverage: { rows: number; coverage: number } | null;
      sentence: string;
      near_limit?: {
        reliable: boolean;
        by_forecast?: { rows: number; coverage: number | null };
        by_fact?: { rows: number; coverage: number | null };
      };
    };
    events: { events: number; level: number; warning: number; window: number; model: Rule; current: Rule };
    probability?: { rows: number; events: number; brier: number; base_brier: number; reliable: boolean | null } | null;
  };
  probability?: { reliable: boolean; judged_on: "history" | "calibration" } | null;
  data: Row[];
  data_count: number;
};

let h: Harness;
const ratios: string[] = [];
const eventRows: string[] = [];
const coverage: string[] = [];
const chances: string[] = [];

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  if (ratios.length)
    console.info(
      `RMSE / persistence's (shown; the model's own):\n${ratios.join("\n")}\n${eventRows.join("\n")}\n${coverage.join("\n")}\n${chances.join("\n")}`,
    );
  await h.close();
});

async function forecast(user: { token: string }, text: string, horizon: number, modelId?: string): Promise<Stored> {
  // A project of its own: a project holds at most 10 forecasts.
  const project = await h.newProject(user.token, `Лава 5, ${horizon} мин`);
  const form = new FormData();
  form.set("name", `Лава 5, ${horizon} мин`);
  form.set("project", project.id);
  form.set("method", "xgboost");
  form.set("horizon", String(horizon));
  if (modelId) form.set("model_id", modelId);
  form.set("file_data", new Blob([text]), "история.csv");
  const res = await h.request("/api/v1/regres_methane/", { method: "POST", token: user.token, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const data: Row[] = [];
  let first: Stored | undefined;
  for (let offset = 0; first === undefined || offset < first.data_count; offset += 1000) {
    const page = (await (
      await h.request(`/api/v1/regres_methane/${id}/single_calc/1/?offset=${offset}`, { token: user.token })
    ).json()) as Stored;
    first ??= page;
    data.push(...page.data);
  }
  return { ...first!, data };
}

function checkBar(done: Stored, y: Float64Array, horizon: number, what: string) {
  const steps = horizon / 10;
  const shown = Float64Array.from(done.data, (r) => r.result ?? Number.NaN);
  const bar = rmseAgainstPersistence(shown, y, steps);
  // The model's own figure: the row's `model_result` where persistence is shown.
  const own = Float64Array.from(done.data, (r) =>
    r.model_result !== undefined ? (r.model_result ?? Number.NaN) : (r.result ?? Number.NaN),
  );
  const model = rmseAgainstPersistence(own, y, steps);
  ratios.push(
    `${what} h=${horizon}: ${(bar.model / bar.persistence).toFixed(3)}; ${(model.model / model.persistence).toFixed(3)} (${done.backtest.shown})`,
  );
  // the chance against the base rate; where the history judges it, the summary says what it found.
  const chance = done.backtest.probability;
  if (chance) {
    const verdict = chance.reliable === null ? "too early" : chance.reliable ? "shown" : "not shown";
    chances.push(
      `${what} h=${horizon}: Brier ${chance.brier.toFixed(3)} vs ${chance.base_brier.toFixed(3)}, ${chance.events} of ${chance.rows} at 1 % (${verdict})`,
    );
    if (chance.reliable !== null) expect(done.probability, what).toMatchObject({ judged_on: "history", reliable: chance.reliable });
  }
  expect(bar.rows).toBeGreaterThan(500);
  // The event table: the model's rule (its own figure, as issued) and the current reading's, by brute force.
  const time = Float64Array.from(done.data, (r) => Date.parse(`${r.t}Z`));
  const facts = Float64Array.from(done.data, (r) => r.y ?? Number.NaN);
  const events = eventsByHand(facts, own, time, horizon, 1, 0.8, 600_000);
  expect(done.backtest.events).toMatchObject({ level: 1, warning: 0.8, window: horizon + 60, events: events.events });
  for (const rule of ["model", "current"] as const) {
    const { false_per_day, ...counts } = events[rule];
    expect(done.backtest.events[rule], `${what} ${rule}`).toMatchObject(counts);
    expect(done.backtest.events[rule].false_per_day).toBeCloseTo(false_per_day, 12);
  }
  // The 90 % interval on the rows whose fact is at or above 1 %: the interval issued h before the fact.
  let high = 0;
  let held = 0;
  let all = 0;
  let allHeld = 0;
  for (let r = 0; r + steps < done.data.length; r++) {
    const { lo, hi } = done.data[r];
    const fact = done.data[r + steps].y;
    if (typeof lo !== "number" || typeof hi !== "number" || typeof fact !== "number") continue;
    all += 1;
    if (lo <= fact && fact <= hi) allHeld += 1;
    if (fact < 1) continue;
    high += 1;
    if (lo <= fact && fact <= hi) held += 1;
  }
  // D96 (a, c), the band starts from the scales the calibration fitted and is updated on the facts of each
  // row's day before it (one band for one row, whatever rows come with it), no longer on the whole history. From
  // 10 min to 2 h it holds 85–95 % of all the facts on every longwall (89,0–93,4 %); the nowcast (91,3–98,4 %) and
  // 6 h (83,8–92,5 %) are reported as they hold. Near the limit it is certified only where it held 85–95 % of the
  // rows forecast at or above W (100 or more) and of the facts at or above 1 % (30 or more): the advancing longwall's
  // 2 h and 6 h held 84,1 % and 81,2 % of their 309 facts there (88–90 % when updated on the whole history) and
  // are not certified.
  const near = done.backtest.interval?.near_limit;
  if (near && high >= 30 && Math.abs(held / high - 0.9) > 0.05) expect(near.reliable, what).toBe(false);
  if (near?.reliable) {
    expect(high, what).toBeGreaterThanOrEqual(30);
    expect(Math.abs(held / high - 0.9), what).toBeLessThanOrEqual(0.05 + 1e-12);
    expect(near.by_forecast!.rows, what).toBeGreaterThanOrEqual(100);
  }
  if (near) expect(near.by_fact, what).toEqual({ rows: high, coverage: high > 0 ? held / high : null });
  // The back-test reports that coverage as this loop computes it, and says so where the rows are too few.
  if (high > 0) {
    expect(done.backtest.interval?.limit_coverage, what).toEqual({ rows: high, coverage: held / high });
    expect(done.backtest.interval?.sentence, what).toMatch(
      high >= 200
        ? `из ${high} строк с фактом от 1 %`
        : `о покрытии на пределе судить рано: строк с фактом от 1 % ${high}, нужно не меньше 200`,
    );
  }
  if (all > 0 && horizon >= 10 && horizon <= 120) {
    expect(allHeld / all, what).toBeGreaterThanOrEqual(0.85);
    expect(allHeld / all, what).toBeLessThanOrEqual(0.95);
  }
  coverage.push(
    `${what} h=${horizon}: all ${all ? (allHeld / all).toFixed(3) : "-"} (${all}); y ≥ 1 % ${high ? (held / high).toFixed(3) : "-"} (${high})`,
  );
  eventRows.push(
    `${what} h=${horizon}: ${events.events} events; model ${events.model.caught} caught, lead ${events.model.lead_median}, false/24 h ${events.model.false_per_day.toFixed(2)}; current ${events.current.caught}, ${events.current.lead_median}, ${events.current.false_per_day.toFixed(2)}`,
  );
  expect(bar.model / bar.persistence, what).toBeLessThanOrEqual(1.02);
  // The platform's models ahead start from the last reading (fromPersistence): their own figure is
  // within 2 % of persistence's too (1,01-1,67 × when their change was added in full).
  if (horizon > 0 && what.endsWith("default")) expect(model.model / model.persistence, what).toBeLessThanOrEqual(1.02);
  // The back-test scores the same rows as this loop does.
  expect(done.backtest.persistence.rows).toBe(bar.rows);
  if (done.backtest.shown === "persistence" && model.model <= model.persistence) {
    // D96 (d): the model's lower RMSE not confirmed by the day-block bootstrap — it adds nothing here, and says so.
    expect(done.backtest.verdict).toMatch(
      /модель (не точнее инерционного прогноза с уверенностью|точнее инерционного прогноза без уверенности): .*\(90 %, бутстреп по суткам, \d+ сут\.\) не ниже нуля — модель на этом горизонте ничего не добавляет\. Прогнозом показан инерционный/,
    );
    expect(done.backtest.model_gain).toMatchObject({ baseline: "persistence", holds: false });
  } else if (done.backtest.shown === "persistence") {
    expect(model.model).toBeGreaterThan(model.persistence);
    // The history's own mean may be named the best (it knew the answer): it is never shown.
    expect(done.backtest.verdict).toMatch(/точнее .*модели.*: RMSE .*ошибка модели на .* больше\. Прогнозом показан инерционный/);
    expect(done.data.some((r) => r.model_result !== undefined)).toBe(true);
  } else if (done.backtest.shown === "mean") {
    // the training mean beat both on this history, and is shown.
    expect(done.backtest.verdict).toMatch(/среднее за период обучения точнее .*ошибка модели на .* больше\. Прогнозом показано среднее/);
    expect(done.data.some((r) => r.model_result !== undefined)).toBe(true);
  } else {
    expect(done.data.every((r) => r.model_result === undefined)).toBe(true);
  }
}

describe.each(SCENARIOS)("the «%s» longwall", (kind: Scenario) => {
  const history = longwallScenario(kind, ROWS);
  const test = { ...history, y: history.y.subarray(TRAIN), time: history.time.subarray(TRAIN) };
  const testCsv = scenarioCsv(history, TRAIN);
  // A company per longwall: a company's own models have a cap of bytes.
  let user: { token: string };
  beforeAll(async () => {
    user = await h.signedInUser(`Шахта «${kind}»`);
  });

  it.each(HORIZONS)("with the platform's default model at %i min, shows no worse than persistence", async (horizon) => {
    checkBar(await forecast(user, testCsv, horizon), test.y, horizon, `${kind}, default`);
  });

  it.each(HORIZONS)("with the company's model trained for %i min, shows no worse than persistence", async (horizon) => {
    const form = new FormData();
    form.set("params", JSON.stringify({ n_estimators: 60, max_depth: 4 }));
    form.set("horizon", String(horizon));
    form.set("description", `${kind}, ${horizon} мин`);
    form.append("file", new File([scenarioCsv(history, 0, TRAIN)], "лава 5.csv", { type: "text/csv" }));
    const res = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: user.token, body: form });
    expect(res.status, await res.clone().text()).toBe(201);
    const trained = (await res.json()) as { id: string; horizon: number };
    expect(trained.horizon).toBe(horizon);
    checkBar(await forecast(user, testCsv, horizon, trained.id), test.y, horizon, `${kind}, trained`);
  });
});
