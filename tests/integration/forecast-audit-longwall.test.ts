// the ML audit's shape as a test. A longwall of the audit's kind (tests/support/audit-longwall.ts:
// three weeks of 10-minute rows, a shearer's cycle and a weekly rhythm, a drifting meter recalibrated once,
// 12 gas episodes reaching 1 % on the return, under 2 % of the rows) trains the company's 1-hour model through
// the API on its first two weeks, and the third week is forecast with it. With few facts at the limit (D108: of
// the hour's maximum) the chance of its first three days is too early to judge: not shown, with the reason; the band near the limit is reported
// (backtest.interval.near_limit) and is either within 85–95 % on enough rows or said not to be trusted; the
// verdict names the model, persistence and the training mean, and the forecast shown is the best of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import ExcelJS from "exceljs";
import { AUDIT_ROWS, auditCsv, auditLongwall } from "../support/audit-longwall";

type Score = { rows: number; rmse: number; high_coverage: { rows: number; coverage: number } | null };
interface Stored {
  id: string;
  project: string;
  version: number;
  warning: number;
  data: Array<{ result: number; lo: number | null; hi: number | null; p_exceed: number | null }>;
  backtest: {
    model: Score;
    persistence: Score;
    mean: Score;
    verdict: string;
    shown: "model" | "persistence" | "mean";
    interval: {
      coverage: number;
      near_limit: { rows: number; coverage: number | null; reliable: boolean };
      sentence: string;
    } | null;
    probability: { rows: number; events: number; reliable: boolean | null } | null;
    lead_note: string | null;
    seen_rows?: number;
    seen_note?: string | null;
  };
  probability: { reliable: boolean; judgement: string; note: string | null } | null;
}

const history = auditLongwall();
const WEEK = AUDIT_ROWS / 3;
let h: Harness;
let token: string;
let done: Stored;
let sixHours: Stored;
/** The model trained for each horizon, by minutes. */
const trainedModels = new Map<number, string>();

/** The company's model trained `horizon` minutes ahead on the first two weeks, forecasting the third. */
async function thirdWeek(horizon: number): Promise<Stored> {
  const form = new FormData();
  form.set("horizon", String(horizon));
  form.set("file", new File([auditCsv(history, 0, 2 * WEEK)], "две недели.csv", { type: "text/csv" }));
  const trained = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token, body: form });
  expect(trained.status, await trained.clone().text()).toBe(201);
  const model = (await trained.json()) as { id: string; training: { calibration_rows: number } };
  expect(model.training.calibration_rows).toBeGreaterThan(0);
  trainedModels.set(horizon, model.id);
  return forecastOf(model.id, horizon, 2 * WEEK);
}

/** The rows from `from` to `to` of the audit's history forecast by `model`. */
async function forecastOf(model: string, horizon: number, from: number, to?: number): Promise<Stored> {
  const project = await h.newProject(token, "Лава аудита");
  const forecast = new FormData();
  forecast.set("name", `Строки ${from}–${to ?? AUDIT_ROWS}, ${horizon} мин`);
  forecast.set("project", project.id);
  forecast.set("method", "xgboost");
  forecast.set("horizon", String(horizon));
  forecast.set("model_id", model);
  forecast.set("file_data", new Blob([auditCsv(history, from, to)]), "история.csv");
  const res = await h.request("/api/v1/regres_methane/", { method: "POST", token, body: forecast });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token })).json()) as Stored;
}

beforeAll(async () => {
  h = await createHarness();
  token = (await h.signedInUser("Шахта «Аудит»")).token;
  done = await thirdWeek(60);
  sixHours = await thirdWeek(360);
}, 300_000);
afterAll(() => h.close());

describe("the audit's longwall, its third week forecast 1 h ahead by its own model", () => {
  it("has rare exceedances: under 2 % of the rows, 12 episodes", () => {
    const at = history.y.filter((v) => v >= 1).length;
    expect(at / AUDIT_ROWS).toBeGreaterThan(0.01);
    expect(at / AUDIT_ROWS).toBeLessThan(0.02);
  });

  // D108 (a): the chance is of any 10-minute row at or above 1 % within the hour (the window's maximum). The third
  // week's three episodes make 31 such rows (11 rows at 1 % themselves): enough to judge, the whole week is judged.
  // Its first 440 rows (three days) hold one episode, 9 rows of the event: too few, too early to judge.
  it("shows no chance until it is judged: too early, with the reason", async () => {
    const judged = done.backtest.probability!;
    expect(judged.events).toBeGreaterThanOrEqual(20);
    expect(judged.reliable).not.toBeNull();
    expect(done.probability!.judgement).not.toBe("too_early");
    const early = await forecastOf(trainedModels.get(60)!, 60, 2 * WEEK, 2 * WEEK + 440);
    const check = early.backtest.probability!;
    expect(check.rows).toBeGreaterThanOrEqual(200);
    expect(check.events).toBeGreaterThan(0);
    expect(check.events).toBeLessThan(20);
    expect(check.reliable).toBeNull();
    expect(early.probability).toMatchObject({ reliable: false, judgement: "too_early" });
    expect(early.probability!.note).toMatch(/^Вероятность превышения не показывается: судить рано/);
    // …and the rows carry no chance shown: the xlsx leaves it empty with that reason.
    const { header, rows } = await exportedRows(early.project);
    const [chance, note] = ["Вероятность достичь предела, доля", "Примечание"].map((c) => header.indexOf(c));
    expect(rows.every((r) => r[chance] === null || r[chance] === undefined)).toBe(true);
    expect(rows[0][note]).toBe(early.probability!.note);
  }, 60_000);

  // D96 a: the band conditioned on the forecast's level, its scales fitted
  // once on the calibration's rows (no longer updated on the third week's own facts), holds ≈ 90 % of all rows
  // (91,0 %) and is judged near the limit by its rule: on the 51 rows forecast at or above 0,8 % it held 98,0 %,
  // wider than 85–95 % — not certified there, and said so (updated on the week's facts it had read 89,1 %).
  it("holds ≈ 90 % of all rows at 1 h, and near the limit is certified only within 85–95 % on enough rows", () => {
    const interval = done.backtest.interval!;
    const near = interval.near_limit;
    expect(near.rows).toBe(done.backtest.model.high_coverage?.rows ?? 0);
    expect(near.rows).toBeGreaterThanOrEqual(50);
    expect(near.reliable).toBe(Math.abs(near.coverage! - 0.9) <= 0.05);
    expect(/не доверять/.test(interval.sentence)).toBe(!near.reliable);
    expect(interval.coverage).toBeGreaterThanOrEqual(0.88);
    expect(interval.coverage).toBeLessThanOrEqual(0.94);
  });

  it("at 6 h, with too few rows forecast near the limit, says the band is not to be trusted there", () => {
    const interval = sixHours.backtest.interval!;
    expect(interval.near_limit.rows).toBeLessThan(50);
    expect(interval.near_limit.reliable).toBe(false);
    expect(interval.sentence).toMatch(/Интервалу 90 % у предела не доверять: строк с прогнозом от 0,8 % \d+/);
    // D96 (a): the band from the scales fitted on the 198 calibration rows, updated on each row's day before it, held
    // 83,0 % of the third week's facts at 6 h: the sentence says what it held.
    expect(interval.sentence).toContain(`накрыл факт в ${(interval.coverage * 100).toFixed(1).replace(".", ",")} % строк`);
  });

  // D96 (d), at 6 h the model is shown only where the day-block bootstrap's 90 % interval of its
  // RMSE minus the best baseline's lies below zero; on the audit's third week it does not: the training mean is shown.
  it("at 6 h shows the training mean, the model's advantage not holding in the day-block bootstrap", () => {
    const gain = (sixHours.backtest as unknown as { model_gain: { baseline: string; holds: boolean; blocks: number; hi: number } })
      .model_gain;
    expect(sixHours.backtest.shown).toBe("mean");
    expect(gain).toMatchObject({ baseline: "mean", holds: false, blocks: 7 });
    expect(gain.hi).toBeGreaterThanOrEqual(0);
    expect(sixHours.backtest.verdict).not.toMatch(/модель точнее/);
  });

  it("names the three forecasts in the verdict and shows the best of them", () => {
    const { model, persistence, mean, shown, verdict } = done.backtest;
    expect(verdict).toMatch(/модел/);
    expect(verdict).toMatch(/инерционн/);
    expect(verdict).toMatch(/среднего за период обучения|среднее за период обучения/);
    // The model only where its advantage holds (D96 d), else the better baseline.
    const baseline = Math.min(persistence.rmse, mean.rmse);
    if (shown === "model") expect(model.rmse).toBeLessThan(baseline);
    else expect({ persistence, mean }[shown].rmse).toBe(baseline);
  });
});

// D96 b: the audit's scenario — a model trained on the first weeks, the whole history forecast:
// the rows of its training and calibration period are counted apart and the verdict is the held-out week's alone.
describe("the audit's whole history forecast by the model trained on its first two weeks", () => {
  let whole: Stored;
  // The third week with the day and the hour before it (the day its first rows' bands read, the hour their lags
  // read), both inside the model's period.
  let recent: Stored;
  let third: Stored["data"];
  let alone: Stored["data"];
  /** `count` rows of a forecast from `offset`, as stored (the rows' pages). */
  const rowsOf = async (id: string, offset: number, count: number) => {
    const out: Stored["data"] = [];
    for (let at = offset; at < offset + count; at += 100) {
      const page = await h.request(`/api/v1/regres_methane/${id}/rows/?limit=100&offset=${at}`, { token });
      out.push(...((await page.json()) as { results: Stored["data"] }).results);
    }
    return out.slice(0, count);
  };
  beforeAll(async () => {
    whole = await forecastOf(trainedModels.get(60)!, 60, 0);
    recent = await forecastOf(trainedModels.get(60)!, 60, 2 * WEEK - 150);
    third = await rowsOf(whole.id, 2 * WEEK, WEEK);
    alone = await rowsOf(recent.id, 150, WEEK);
  }, 120_000);

  it("counts the two weeks' rows apart, saying so, and judges the third week alone", () => {
    const bt = whole.backtest;
    expect(bt.seen_rows).toBe(history.y.slice(0, 2 * WEEK).filter(Number.isFinite).length);
    expect(bt.seen_note).toMatch(/^Строки периода обучения: [\d\u00a0]+ — не оцениваются$/);
    expect(done.backtest.seen_rows).toBe(0);
    expect(recent.backtest.seen_rows).toBe(150);
    // D96 (a): the weight and the band fitted on the calibration — each row of the third week forecast alike,
    // bit for bit, with the two weeks before it or without them.
    const figures = (rows: Stored["data"]) => rows.map((r) => [r.result, r.lo, r.hi, r.p_exceed]);
    expect(figures(third)).toEqual(figures(alone));
    // the rows' table carries no chance where it is not shown (too early to judge here).
    expect(whole.probability!.reliable).toBe(false);
    expect(third.every((r) => !("p_exceed" in r))).toBe(true);
    // …so the back-test of the whole history is the third week's alone, its verdict, band near the limit and chance.
    const apart = ({ seen_rows: _r, seen_note: _n, ...judged }: Stored["backtest"]) => judged;
    expect(apart(bt)).toEqual(apart(recent.backtest));
    expect(whole.probability).toEqual(recent.probability);
  });
});

/** The project's detailed xlsx export: the forecast rows' sheet as header → column values, by the rows' order. */
async function exportedRows(project: string): Promise<{ header: string[]; rows: unknown[][] }> {
  const res = await h.request(`/api/v1/projects/${project}/export_to_xlsx/?detail=true`, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const sheet = wb.worksheets.find((ws) => ws.name.startsWith("Строки. Прогноз"))!;
  const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
  const header = values(2) as string[];
  const rows = Array.from({ length: sheet.rowCount - 2 }, (_, k) => values(3 + k));
  return { header, rows };
}

// the spreadsheet follows the screen's rule — the chance only where judged better than the
// base rate, else empty with the reason; the band marked where it is not to be trusted near the limit.
describe("the audit's forecast in the project's xlsx export", () => {
  it("leaves the chance empty with the reason where it is too early to judge, every row", async () => {
    const { header, rows } = await exportedRows(done.project);
    const [chance, note, hi] = ["Вероятность достичь предела, доля", "Примечание", "Верхняя граница интервала, %"].map((c) =>
      header.indexOf(c),
    );
    expect(chance).toBeGreaterThan(0);
    expect(rows).toHaveLength((done as unknown as { data_count: number }).data_count);
    // The rows carry a chance (the model is calibrated) and the screen would not show it: none is written.
    expect(done.data.every((r) => typeof r.p_exceed === "number")).toBe(true);
    expect(rows.every((r) => r[chance] === null || r[chance] === undefined)).toBe(true);
    expect(rows[0][note]).toBe(done.probability!.note);
    // Every row's band is written; the rows forecast from the warning on are marked only where the band was not
    // certified near the limit (D96 a: at 1 h it held 98,0 % there, wider than 85–95 %).
    expect(done.data.every((r, k) => rows[k][hi] === r.hi)).toBe(true);
    const marked = rows
      .slice(0, done.data.length)
      .map((r) => typeof r[note] === "string" && (r[note] as string).includes("интервал у предела не проверен"));
    const certified = done.backtest.interval!.near_limit.reliable;
    expect(marked).toEqual(done.data.map((r) => !certified && r.result >= done.warning));
  });

  it("marks the band from the warning on where it did not hold there on the history", async () => {
    // The 1 h forecast with its warning at 0,9 %: its band near the limit judged on too few rows, not to be trusted.
    const res = await h.request(`/api/v1/regres_methane/${done.id}/`, {
      method: "PATCH",
      token,
      json: { warning: 0.9, version: done.version },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const edited = (await (await h.request(`/api/v1/regres_methane/${done.id}/single_calc/1/`, { token })).json()) as Stored;
    expect(edited.backtest.interval!.near_limit.rows).toBeLessThan(50);
    const near = edited.backtest.interval!.near_limit;
    expect(near.reliable).toBe(false);
    const { header, rows } = await exportedRows(edited.project);
    const [note, hi] = ["Примечание", "Верхняя граница интервала, %"].map((c) => header.indexOf(c));
    const marked = rows.map((r) => typeof r[note] === "string" && (r[note] as string).includes("интервал у предела не проверен"));
    const atWarning = edited.data.map((r) => r.result >= 0.9);
    expect(atWarning.some(Boolean)).toBe(true);
    expect(marked.slice(0, edited.data.length)).toEqual(atWarning);
    // The band itself is still written, beside its mark.
    expect(edited.data.every((r, k) => rows[k][hi] === r.hi)).toBe(true);
  });
});
