// Calibrating a forecast model version on a longwall's history (docs/api.md, «Forecast history and
// calibration»), through the API on dynalite: a company's staff for their company, an admin for all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import {
  windowedIntervalColumns,
  eventChances,
  type FittedScales,
  airNeeded,
  calibrate,
  levelBin,
  binHalfWidth,
  loadModel,
  whatIf,
  type Calibration as CoreCalibration,
} from "@core/gbdt";
import { HISTORY_FEATURES, longwallHistory } from "@core/gbdt/longwall-history";
import { createFreshHarness, type Harness } from "../support/harness";
import { signedInAdmin, type SignedIn } from "../support/admin";
import { modelFixture } from "../support/models";
import { fieldName } from "@server/contract/field-names";

type Calibration = {
  model_id: string;
  model_version: number;
  scope: "company" | "all";
  rows: number;
  period: { from: string | number; to: string | number } | null;
  quantiles: Record<"80" | "90" | "95", number | null>;
  residuals?: number[];
  ranges?: Record<string, [number, number]>;
};

const HEADERS = [
  "Время",
  "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
  "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин",
  "Концентрация метана в каптируемой смеси, %",
  "Расход смеси, извлекаемой установкой, м³/мин",
  "Средняя концентрация CH4 в исходящей струе шахты, %",
  "Расход воздуха в исходящей струе шахты, м³/мин",
  "Расход метана, извлекаемого установкой, м³/мин",
  "Концентрация CH4 в исходящей струе лавы, факт, %",
];

let h: Harness;
let staff: { token: string; companyId: string };
let other: { token: string };
let admin: SignedIn;
let modelId: string;
let history: ReturnType<typeof longwallHistory>;

const two = (n: number) => String(n).padStart(2, "0");
/** «01.01.2025 08:10», as a monitoring system's export writes it. */
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};

/** Rows [from, to) of the history as a CSV with Russian headers and decimal commas (semicolons). */
function csv(from: number, to: number, withY = true): string {
  const lines = [HEADERS.slice(0, withY ? 9 : 8).join(";")];
  for (let r = from; r < to; r++) {
    const cells = [typed(history.time[r]), ...HISTORY_FEATURES.map((f) => String(history.columns[f][r]).replace(".", ","))];
    if (withY) cells.push(String(history.measured[r]).replace(".", ","));
    lines.push(cells.join(";"));
  }
  return lines.join("\n");
}

function calibrateFile(token: string, text: string, fields: Record<string, string> = {}, id = modelId) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new Blob([text]), "история.csv");
  return h.request(`/api/v1/forecast_models/${id}/calibration/`, { method: "POST", token, body: form });
}

beforeAll(async () => {
  // A table of its own: an admin's calibration for all companies serves every company of the table.
  h = await createFreshHarness();
  staff = await h.signedInUser("Шахта Калибровочная");
  other = await h.signedInUser("Шахта Соседняя");
  admin = await signedInAdmin(h);
  const list = (await (await h.request("/api/v1/forecast_models/", { token: staff.token })).json()) as {
    results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean }> }>;
  };
  modelId = list.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.is_active)!.id;
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  history = longwallHistory(model, 3000, 0.06);
}, 60_000);
afterAll(() => h.close());

describe("POST v1/forecast_models/{id}/calibration/", () => {
  it("stores the split-conformal quantiles of a staff user's history for their company, with rows and period", async () => {
    const res = await calibrateFile(staff.token, csv(0, 2000));
    expect(res.status, await res.clone().text()).toBe(201);
    const stored = (await res.json()) as Calibration;
    // The same rows through the core directly: the forecast is the model's, so the quantiles agree.
    const expected = calibrate(history.forecast.subarray(0, 2000), history.measured.subarray(0, 2000));
    expect(stored).toMatchObject({ model_id: modelId, model_version: 1, scope: "company", rows: 2000 });
    for (const level of ["80", "90", "95"] as const) expect(stored.quantiles[level]).toBeCloseTo(expected.quantiles[level]!, 6);
    expect(stored.period).toEqual({ from: "2025-01-01T00:00:00", to: "2025-01-14T21:10:00" });
    expect(stored.residuals).toHaveLength(2000);
    expect(stored.ranges?.x1[0]).toBeCloseTo(Math.min(...history.columns.x1.subarray(0, 2000)), 6);

    const read = (await (await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })).json()) as Calibration;
    expect(read.quantiles).toEqual(stored.quantiles);
    const list = (await (await h.request("/api/v1/forecast_models/", { token: staff.token })).json()) as {
      results: Array<{ method: string; versions: Array<{ id: string; calibration: Calibration | null }> }>;
    };
    const listed = list.results.flatMap((r) => r.versions).find((v) => v.id === modelId)!;
    expect(listed.calibration).toMatchObject({ rows: 2000, scope: "company", quantiles: stored.quantiles });
    expect(listed.calibration).not.toHaveProperty("residuals");
  });

  it("keeps one company's calibration from another: it stays uncalibrated until an admin calibrates for all", async () => {
    const none = await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: other.token });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { detail: string }).detail).toMatch(/не откалибрована/);

    const staffForAll = await calibrateFile(other.token, csv(0, 500), { for: "all" });
    expect(staffForAll.status).toBe(403);
    expect(((await staffForAll.json()) as { detail: string }).detail).toMatch(/администратор/);

    const forAll = await calibrateFile(admin.token, csv(2000, 3000));
    expect(forAll.status, await forAll.clone().text()).toBe(201);
    expect(((await forAll.json()) as Calibration).scope).toBe("all");
    const seen = (await (await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: other.token })).json()) as Calibration;
    expect(seen).toMatchObject({ scope: "all", rows: 1000 });
    // The company with its own keeps it.
    const own = (await (await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })).json()) as Calibration;
    expect(own).toMatchObject({ scope: "company", rows: 2000 });
  });

  it("refuses a history without enough measured rows, a bad time and an unknown version, in Russian", async () => {
    const noY = await calibrateFile(staff.token, csv(0, 100, false));
    expect(noY.status).toBe(400);
    expect(((await noY.json()) as { detail: string }).detail).toMatch(/не меньше 50 строк с фактической концентрацией.*в файле 0/);
    const badTime = await calibrateFile(staff.token, csv(0, 60).replace("01.01.2025 00:10", "32.01.2025 00:10"));
    expect(badTime.status).toBe(400);
    expect(((await badTime.json()) as { detail: string }).detail).toMatch(/строка 3, столбец «Время»: ожидается дата и время/);
    const unknown = await calibrateFile(staff.token, csv(0, 60), {}, "0190aa00-0000-7000-8000-000000000000");
    expect(unknown.status).toBe(404);
    const noFile = await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, {
      method: "POST",
      token: staff.token,
      body: new FormData(),
    });
    expect(noFile.status).toBe(400);
  });
});

type Summary = {
  rows: number;
  level: number;
  limit: number;
  warning: number;
  calibration: { rows: number; scope: string } | null;
  backtest: {
    limit: number;
    shown: "model" | "persistence";
    warning: number;
    model: { rows: number; mae: number; rmse: number; coverage: number | null; unit: string; caught: number; missed: number };
    persistence: { rows: number; mae: number; rmse: number; coverage: number | null };
  } | null;
  data: Array<{ id: number; y?: number; t?: string; result: number; lo?: number | null; hi?: number | null; p_exceed?: number | null }>;
};

describe("a forecast of a calibrated model on a history", () => {
  async function forecastFile(token: string, projectId: string, text: string, fields: Record<string, string> = {}) {
    const form = new FormData();
    form.set("name", "Лава 7, история");
    form.set("project", projectId);
    form.set("method", "xgboost");
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set("file_data", new Blob([text]), "история.csv");
    const res = await h.request("/api/v1/regres_methane/", { method: "POST", token, body: form });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    return (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token })).json()) as Summary & {
      id: string;
      version: number;
    };
  }

  it("gives each row its interval and chance of reaching 1 %, and back-tests the model against persistence", async () => {
    const project = await h.newProject(staff.token, "Лава 7");
    const forecast = await forecastFile(staff.token, project.id, csv(2000, 3000));
    expect(forecast).toMatchObject({ rows: 1000, level: 90, limit: 1, warning: 0.8, calibration: { rows: 2000, scope: "company" } });
    // A steady history: the interval still holds on the latest rows, the calibration is not stale.
    expect((forecast as { calibration_stale?: boolean }).calibration_stale).toBe(false);
    const calibration = (await (
      await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })
    ).json()) as Calibration;
    // Each row's interval from the bin of its forecast's level, from the scales the calibration fitted (D96 a) updated
    // on the facts of the day before it, as the core gives it.
    const results = Float64Array.from(forecast.data, (r) => r.result);
    const fitted = (calibration as unknown as { scales: FittedScales }).scales;
    expect(fitted.limit).toBe(1);
    const expected = windowedIntervalColumns(
      results,
      calibration as unknown as CoreCalibration,
      90,
      1,
      {
        targets: Float64Array.from(forecast.data, (r) => r.y ?? Number.NaN),
        time: Float64Array.from(forecast.data, (r) => Date.parse(`${r.t}Z`)),
      },
      fitted,
    );
    expect(forecast).toMatchObject({ interval_method: "daily" });
    // D108 (a): the chance is of the calibration's event (any minute at or above 1 % within the horizon, the window's
    // maximum), fitted once on the calibration's rows — not the band's chance of the value at the target minute.
    const event = (calibration as unknown as { event: CoreCalibration }).event;
    expect(event).toBeTruthy();
    const chance = eventChances(results, { ...event, ranges: {} }, 1);
    forecast.data.forEach((row, i) => {
      expect(row.result).toBeCloseTo(history.forecast[2000 + i], 6);
      expect(row.hi).toBeCloseTo(expected.hi[i], 12);
      expect(row.lo).toBeCloseTo(expected.lo[i], 12);
      expect(row.p_exceed).toBeCloseTo(chance[i], 12);
    });
    // The first row has no fact before it: its bin's half-width as calibrated (a share of its level).
    const core = calibration as unknown as CoreCalibration;
    const width = (p: number, level: 90 | 95) => binHalfWidth(core, levelBin(core, p), level, p)!;
    expect(forecast.data[0].hi).toBeCloseTo(forecast.data[0].result + width(forecast.data[0].result, 90), 12);
    // The back-test against an independent computation over the rows as stored.
    const bt = forecast.backtest!;
    // The model on the rows persistence scores too: all but the first, which has no fact before it.
    expect(bt.shown).toBe("model");
    const scored = forecast.data.slice(1);
    const errors = scored.map((r) => r.y! - r.result);
    expect(bt.model.rows).toBe(999);
    expect(bt.model.mae).toBeCloseTo(errors.reduce((s, e) => s + Math.abs(e), 0) / 999, 12);
    expect(bt.model.rmse).toBeCloseTo(Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / 999), 12);
    const inside = scored.filter((r) => r.lo! <= r.y! && r.y! <= r.hi!).length;
    expect(bt.model.coverage).toBeCloseTo(inside / 999, 12);
    expect(bt.model.unit).toBe("shift");
    const steps = forecast.data.slice(1).map((r, i) => r.y! - forecast.data[i].y!);
    expect(bt.persistence.rows).toBe(999);
    expect(bt.persistence.mae).toBeCloseTo(steps.reduce((s, e) => s + Math.abs(e), 0) / 999, 12);
    expect(bt.persistence.coverage).toBeNull();

    // Its own limit and warning level: an edit changes them and recomputes.
    const edit = await h.request(`/api/v1/regres_methane/${forecast.id}/`, {
      method: "PATCH",
      token: staff.token,
      json: { limit: 0.9, warning: 0.7, level: 95, version: forecast.version },
    });
    expect(edit.status, await edit.clone().text()).toBe(200);
    const edited = (await (
      await h.request(`/api/v1/regres_methane/${forecast.id}/single_calc/1/`, { token: staff.token })
    ).json()) as Summary;
    expect(edited).toMatchObject({ level: 95, limit: 0.9, warning: 0.7, backtest: { limit: 0.9, warning: 0.7 } });
    expect(edited.data[0].hi).toBeCloseTo(edited.data[0].result + width(edited.data[0].result, 95), 12);

    const refused = await h.request("/api/v1/regres_methane/", {
      method: "POST",
      token: staff.token,
      json: { name: "Прогноз", project: project.id, method: "xgboost", warning: 1.2, data: [{ x1: 1300 }] },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /Предупредительный уровень W: уровень предупреждения .* не больше предела/,
    );
  });

  it("exports the back-test as the sheet «Проверка на истории», in Russian, beside the rows with their interval", async () => {
    const project = await h.newProject(staff.token, "Лава 9");
    const forecast = await forecastFile(staff.token, project.id, csv(2000, 2300));
    const res = await h.request(`/api/v1/projects/${project.id}/export_to_xlsx/?detail=true`, { token: staff.token });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.getWorksheet("Проверка на истории")!;
    expect(sheet).toBeDefined();
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const text = JSON.stringify(rows);
    expect(text).toContain("Последнее значение");
    expect(text).not.toMatch(/\bx1\b|xgboost|\.json/);
    const mae = rows.find((r) => String(r[1]).startsWith("Средняя абсолютная ошибка"))!;
    expect(mae[0]).toBe("Лава 7, история");
    expect(mae[2]).toBeCloseTo(forecast.backtest!.model.mae, 3);
    expect(mae[3]).toBeCloseTo(forecast.backtest!.persistence.mae, 3);
    const detail = JSON.stringify(wb.worksheets.map((w) => w.getRow(2).values));
    expect(detail).toContain("Верхняя граница интервала, %");
    // Russian labels only, in every sheet: no column by its field's code, no model key or file name.
    const texts: string[] = [];
    for (const w of wb.worksheets) {
      texts.push(w.name);
      w.eachRow((row) => row.eachCell((cell) => typeof cell.value === "string" && texts.push(cell.value)));
    }
    const codes = texts.filter((t) => /^(x\d+|y|t|lo|hi|p_exceed|result|data|id|method|level|limit|warning)$/i.test(t.trim()));
    expect(codes).toEqual([]);
    expect(texts.filter((t) => /\.json\b|methane-(xgboost|lightgbm)|\bxgboost\b|\blightgbm\b|backtest|persistence/.test(t))).toEqual([]);
    expect(texts).toContain("Расход воздуха в исходящей струе лавы (телеметрия), м³/мин");
  });

  it("says a model without calibration has no interval, and back-tests it all the same", async () => {
    const project = await h.newProject(staff.token, "Лава 8");
    const form = new FormData();
    form.set("name", "Без калибровки");
    form.set("project", project.id);
    form.set("method", "lightgbm");
    form.set("file_data", new Blob([csv(0, 200)]), "история.csv");
    const res = await h.request("/api/v1/regres_methane/", { method: "POST", token: staff.token, body: form });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const forecast = (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token: staff.token })).json()) as Summary;
    expect(forecast.calibration).toBeNull();
    expect(forecast.data[0]).not.toHaveProperty("hi");
    expect(forecast.backtest?.model.rows).toBe(199);
    expect(forecast.backtest?.model.coverage).toBeNull();
  });
});

describe("POST v1/forecast/what_if/ and v1/forecast/air_needed/", () => {
  const row = () => Object.fromEntries(HISTORY_FEATURES.map((f) => [f, history.columns[f][2500]]));

  it("forecasts a row along the air flow as the core does with the company's calibration", async () => {
    const res = await h.request("/api/v1/forecast/what_if/", {
      method: "POST",
      token: staff.token,
      json: { model: modelId, row: row(), vary: { feature: "x1", from: 1000, to: 1700, steps: 7 }, limit: 1 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as {
      model: Record<string, unknown>;
      points: Array<{ value: number; result: number; hi: number; p_exceed: number }>;
    };
    expect(answer.model).not.toHaveProperty("file_name");
    const calibration = (await (
      await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })
    ).json()) as Calibration;
    const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
    const expected = whatIf(model, row(), { feature: "x1", from: 1000, to: 1700, steps: 7 }, calibration as never, 90, 1);
    expect(answer.points).toEqual(expected);
    expect(answer.points.map((p) => p.value)).toEqual([1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700]);

    const bad = await h.request("/api/v1/forecast/what_if/", {
      method: "POST",
      token: staff.token,
      json: { model: modelId, row: { ...row(), x7: 120 }, vary: { feature: "x1", from: 1000, to: 1700 } },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/row\.x7: концентрация не больше 100 %/);
  });

  it("names the least air flow whose upper bound stays below the limit, or says it is out of reach", async () => {
    const ask = (token: string, body: Record<string, unknown>) =>
      h.request("/api/v1/forecast/air_needed/", { method: "POST", token, json: { model: modelId, row: row(), ...body } });
    // A row that needs more air than the least observed, found by the core with the same calibration.
    const calibration = (await (
      await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })
    ).json()) as Calibration;
    const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
    const rowAt = (r: number) => Object.fromEntries(HISTORY_FEATURES.map((f) => [f, history.columns[f][r]]));
    let chosen = -1;
    for (let r = 2000; r < 3000 && chosen < 0; r += 7) {
      const core = airNeeded(model, rowAt(r), calibration as never, 90, 1);
      if (core.reachable && core.value > calibration.ranges!.x1[0]) chosen = r;
    }
    expect(chosen).toBeGreaterThanOrEqual(0);
    const res = await ask(staff.token, { row: rowAt(chosen), limit: 1, confidence: 90 });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as { reachable: boolean; x1: number; at: { hi: number }; below: { hi: number }; detail: string };
    expect(answer.reachable).toBe(true);
    expect(answer.x1).toBe(airNeeded(model, rowAt(chosen), calibration as never, 90, 1).value);
    expect(answer.at.hi).toBeLessThan(1);
    expect(answer.below.hi).toBeGreaterThanOrEqual(1);
    expect(answer.detail).toMatch(/не меньше [\d\u00a0]+ м³\/мин/);
    // A limit no air flow reaches: out of reach in the observed range, said in Russian.
    const out = (await (await ask(staff.token, { limit: 0.1 })).json()) as { reachable: boolean; x1: null; detail: string };
    expect(out).toMatchObject({ reachable: false, x1: null });
    expect(out.detail).toMatch(/^недостижимо в диапазоне [\d\u00a0]+–[\d\u00a0]+ м³\/мин/);

    const lightgbm = (
      (await (await h.request("/api/v1/forecast_models/", { token: staff.token })).json()) as {
        results: Array<{ method: string; versions: Array<{ id: string }> }>;
      }
    ).results.find((r) => r.method === "lightgbm")!.versions[0].id;
    const uncalibrated = await h.request("/api/v1/forecast/air_needed/", {
      method: "POST",
      token: staff.token,
      json: { model: lightgbm, row: row() },
    });
    expect(uncalibrated.status).toBe(409);
    expect(((await uncalibrated.json()) as { detail: string }).detail).toMatch(/не откалибрована/);
  });

  it("recommends the air of the ventilation formula with the interval's margin, on 20 rows as a hand computation gives it", async () => {
    const calibration = (await (
      await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })
    ).json()) as Calibration;
    const q90 = calibration.quantiles["90"]!;
    const ask = (body: Record<string, unknown>) =>
      h.request("/api/v1/forecast/air_needed/", { method: "POST", token: staff.token, json: { model: modelId, confidence: 90, ...body } });
    for (let k = 0; k < 20; k++) {
      const r = 2000 + 37 * k;
      const readings = Object.fromEntries(HISTORY_FEATURES.map((f) => [f, history.columns[f][r]]));
      const y = history.measured[r];
      const x1 = history.columns.x1[r];
      const intake = k % 2 === 0 ? 0 : 0.05;
      const res = await ask({ row: { ...readings, y }, limit: 1, intake });
      expect(res.status, await res.clone().text()).toBe(200);
      const answer = (await res.json()) as {
        recommended: number;
        recommended_by: string;
        model_below_formula: boolean;
        reachable: boolean;
        x1: number | null;
        detail: string;
        formula: { inflow: number; margin: number; inflow_source: string; needed: number };
      };
      // Q = 100·(q + margin)/(C_limit − C_in): q = y·x1/100, margin = the 90 % half-width · x1/100.
      const expected = (100 * ((y * x1) / 100 + (q90 * x1) / 100)) / (1 - intake);
      expect(answer.formula.inflow_source).toBe("concentration");
      expect(answer.formula.needed).toBeCloseTo(expected, 9);
      // Never below the formula; the model's figure raises it where it asks for more.
      const byModel = answer.reachable && answer.x1 !== null && answer.x1 > answer.formula.needed;
      expect(answer.recommended_by).toBe(byModel ? "model" : "formula");
      expect(answer.recommended).toBeCloseTo(byModel ? answer.x1! : expected, 9);
      expect(answer.model_below_formula).toBe(answer.reachable && answer.x1! < answer.formula.needed);
      if (answer.model_below_formula) expect(answer.detail).toMatch(/меньше, чем по формуле: это не нижняя граница/);
    }
    // A measured inflow is taken as it is.
    const measured = (await (await ask({ row: row(), inflow: 12, intake: 0.1, limit: 1 })).json()) as { recommended: number };
    expect(measured.recommended).toBeCloseTo((100 * (12 + (q90 * history.columns.x1[2500]) / 100)) / 0.9, 9);
  });

  it("flags the model's what-if points outside its training range, honours the user's range and refuses a row without readings", async () => {
    const calibration = (await (
      await h.request(`/api/v1/forecast_models/${modelId}/calibration/`, { token: staff.token })
    ).json()) as Calibration;
    const [low, high] = calibration.ranges!.x1;
    const res = await h.request("/api/v1/forecast/air_needed/", {
      method: "POST",
      token: staff.token,
      json: { model: modelId, row: row(), range: [low - 200, high + 200] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as {
      what_if: Array<{ value: number; outside: boolean }>;
      outside_label: string;
      range: [number, number];
    };
    expect(answer.outside_label).toBe("вне данных обучения");
    expect(answer.what_if).toHaveLength(21);
    for (const point of answer.what_if) expect(point.outside).toBe(point.value < low || point.value > high);
    expect(answer.what_if[0].outside).toBe(true);
    // The model's search stays inside the data it learned from.
    expect(answer.range).toEqual([low, high]);
    const empty = await h.request("/api/v1/forecast/air_needed/", {
      method: "POST",
      token: staff.token,
      json: { model: modelId, row: Object.fromEntries(HISTORY_FEATURES.map((f) => [f, null])) },
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { detail: string }).detail).toBe(
      `${fieldName("row")}: в строке нет ни одного показания датчиков: прогнозировать не из чего`,
    );
  });
});
