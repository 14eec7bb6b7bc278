// the chance of reaching the limit a forecast shows is judged against the base rate
// (the calibration's share of rows at the limit). A calibration stores the check of its later half
// by its earlier half; a forecast with facts is judged on its own back-test, one without by the
// calibration's check; where the chance is no better than the base rate the answer says so.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel, type Backtest } from "@core/gbdt";
import { longwallHistory, seeded, type LongwallHistory } from "@core/gbdt/longwall-history";
import { finishForecast, forecastRowsFromTable, forecastRun, forecastSpec, predictRows } from "@server/domain/forecast/forecast";
import { calibrateOnRows } from "@server/domain/forecast/calibrating";
import { parseTable, type UploadedFile } from "@server/files/tabular";
import type { ForecastKeptRow } from "@server/ports";
import { createHarness, type Harness } from "../support/harness";
import { historyCsv } from "../support/longwall-csv";
import { modelFixture } from "../support/models";

let h: Harness;
let company: string;
let history: LongwallHistory;
let rows: ForecastKeptRow[];

const file = (text: string): UploadedFile => ({ name: "история.csv", bytes: new TextEncoder().encode(text) });
const LIMIT = 1;
const HALF = 1_500;

beforeAll(async () => {
  h = await createHarness();
  company = (await h.signedInUser("Шахта Вероятность")).companyId;
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  // y = the model's forecast + N(0, 0,1²): the calibrated chance is right, and rows reach 1 %.
  history = longwallHistory(model, 2 * HALF, 0.1);
  rows = forecastRowsFromTable(await parseTable(file(historyCsv(history)), forecastSpec()));
  const run = await forecastRun(h.deps, company, "xgboost", { level: 90, limit: LIMIT, warning: 0.8, horizon: 0 });
  const actor = { id: "u", company, email: "staff@example.com", role: "staff" as const };
  await calibrateOnRows(h.deps, actor, run.version, rows.slice(0, HALF), "company", "история.csv");
}, 120_000);
afterAll(() => h.close());

async function forecast(of: ForecastKeptRow[], limit = LIMIT) {
  const run = await forecastRun(h.deps, company, "xgboost", { level: 90, limit, warning: 0.8, horizon: 0 });
  return { run, done: finishForecast(run, await predictRows(h.deps, run.version, of)) };
}

describe("the chance of reaching the limit against the base rate", () => {
  it("the calibration stores its later half's check by its earlier half", async () => {
    const { run } = await forecast(rows.slice(HALF));
    const check = run.calibration?.probability;
    expect(check?.rows).toBe(HALF / 2);
    expect(check?.limit).toBe(LIMIT);
    expect(check?.base_source).toBe("calibration");
    const early = history.measured.subarray(0, HALF / 2);
    expect(check?.base_rate).toBeCloseTo(early.filter((y) => y >= LIMIT).length / early.length, 12);
    expect(check?.events).toBeGreaterThan(20);
    expect(check?.reliable).toBe(true);
  });

  it("a forecast with facts is judged on its back-test, whose Brier scores equal a computation row by row", async () => {
    const { run, done } = await forecast(rows.slice(HALF));
    const check = (done.summary.backtest as Backtest).probability!;
    // The nowcast's back-test scores the rows with a fact, a forecast and the row before's fact.
    const scored = done.rows.filter((r, i) => i > 0 && typeof r.y === "number" && typeof r.p_exceed === "number");
    const base = run.calibration!.probability!.base_rate;
    const outcome = (r: ForecastKeptRow) => ((r.y as number) >= LIMIT ? 1 : 0);
    const brier = scored.reduce((s, r) => s + ((r.p_exceed as number) - outcome(r)) ** 2, 0) / scored.length;
    const baseBrier = scored.reduce((s, r) => s + (base - outcome(r)) ** 2, 0) / scored.length;
    expect(check.rows).toBe(scored.length);
    expect(check.brier).toBeCloseTo(brier, 12);
    expect(check.base_brier).toBeCloseTo(baseBrier, 12);
    expect(check.base_source).toBe("calibration");
    expect(done.summary.probability).toMatchObject({ judged_on: "history", reliable: true, note: null });
  });

  it("where the chance is no better than the base rate the answer marks it and says so, its figures kept", async () => {
    // The facts shuffled among the rows: the forecast knows nothing of them.
    const random = seeded(7);
    const facts = rows.slice(HALF).map((r) => r.y);
    for (let i = facts.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [facts[i], facts[j]] = [facts[j], facts[i]];
    }
    const { done } = await forecast(rows.slice(HALF).map((r, i) => ({ ...r, y: facts[i] })));
    const judged = done.summary.probability as NonNullable<typeof done.summary.probability> & { brier: number; base_brier: number };
    expect(judged.judged_on).toBe("history");
    expect(judged.brier).toBeGreaterThanOrEqual(judged.base_brier);
    expect(judged.reliable).toBe(false);
    // D108 (b): why, in one line — the day-block bootstrap's interval of Brier − base Brier not below zero.
    expect(judged.note).toMatch(
      /^Вероятность превышения не показывается: разность Brier с долей [−+]\d,\d+…[−+]\d,\d+ \(90 %, бутстреп по \d+ сут\.\) не ниже нуля\.$/,
    );
    expect(done.rows.some((r) => typeof r.p_exceed === "number")).toBe(true);
  });

  it("a forecast without facts is judged by the calibration's check at its limit, not at another", async () => {
    const without = rows.slice(HALF).map(({ y: _y, ...r }) => r);
    const { run, done } = await forecast(without);
    expect(done.summary.probability).toMatchObject({
      judged_on: "calibration",
      reliable: true,
      brier: run.calibration!.probability!.brier,
    });
    // At another limit nothing judges it: too early, and not shown.
    expect((await forecast(without, 0.9)).done.summary.probability).toMatchObject({
      judged_on: null,
      judgement: "too_early",
      reliable: false,
      note: "Вероятность превышения не показывается: судить рано — её не с чем сравнить: нет строк с фактом.",
    });
  });

  // with fewer than 20 facts at the limit in the back-test and no verdict of the
  // calibration, the chance was shown («too early» counted as not judged against it).
  it("a chance too early to judge is not shown, with the reason", async () => {
    const quiet = rows.slice(HALF, HALF + 400).map((r) => ({ ...r, y: Math.min(r.y as number, 0.9) }));
    const run = await forecastRun(h.deps, company, "xgboost", { level: 90, limit: LIMIT, warning: 0.8, horizon: 0 });
    const tooFew = { ...run, calibration: { ...run.calibration!, probability: { ...run.calibration!.probability!, reliable: null } } };
    const done = finishForecast(tooFew, await predictRows(h.deps, run.version, quiet));
    expect((done.summary.backtest as Backtest).probability?.reliable).toBeNull();
    expect(done.summary.probability).toMatchObject({ judged_on: "history", judgement: "too_early", reliable: false, events: 0 });
    expect(done.summary.probability?.note).toMatch(
      /^Вероятность превышения не показывается: судить рано.*из них от предела 0; нужно не меньше 200 и 20\.$/,
    );
  });
});
