// the working's own channels as the model's inputs. A model trained through the API with
// `features` naming two of the history's own columns (the face meter and the shearer's run status, beyond
// x1…x15) keeps them by name in its file and its version; the forecast route takes rows carrying those names,
// from JSON or a file, and forecasts what the real XGBoost (Debian's python3-xgboost) predicts from the model's
// file on the same columns, bit for bit; a row or a file without one is refused naming it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { AUDIT_CHANNEL_HEADERS, AUDIT_ROWS, AUDIT_X, auditCsv, auditLongwall } from "../support/audit-longwall";
import { pythonWithXGBoost } from "../support/python-xgboost";

const FACE = AUDIT_CHANNEL_HEADERS.face_ch4;
const RUN = AUDIT_CHANNEL_HEADERS.shearer_run;
const history = auditLongwall();
const WEEK = AUDIT_ROWS / 3;

/** The audit's CSV with the face meter and the shearer's run status under the mine's own headers. */
const csv = (from: number, to: number) => auditCsv(history, from, to, ["face_ch4", "shearer_run"]);

/** The third week's first rows as the forecast route takes them: x columns and the two named ones, no y. */
const rows = Array.from({ length: 300 }, (_, k) => {
  const r = 2 * WEEK + k;
  const row: Record<string, number | null> = Object.fromEntries(AUDIT_X.map((c) => [c, history.x[c][r]]));
  row[FACE] = history.channels.face_ch4[r];
  // A missing value of its own: the trees' default branch, as XGBoost's.
  row[RUN] = k % 50 === 7 ? null : history.channels.shearer_run[r];
  return row;
});

interface Version {
  id: string;
  features?: string[];
  feature_names: string[];
}

let h: Harness;
let token: string;
let project: { id: string };
let model: Version;

const forecast = (fields: Record<string, string | Blob>, name?: string) => {
  const form = new FormData();
  form.set("name", "Лава, свои каналы");
  form.set("project", project.id);
  form.set("method", "xgboost");
  form.set("model_id", model.id);
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.set(key, value, name);
    else form.set(key, value);
  }
  return h.request("/api/v1/regres_methane/", { method: "POST", token, body: form });
};

async function resultsOf(res: Response): Promise<number[]> {
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const read = (await (await h.request(`/api/v1/regres_methane/${id}/?limit=1000`, { token })).json()) as {
    data: Array<{ result: number; model_result?: number; features?: Record<string, number | null> }>;
  };
  expect(read.data[0].features).toHaveProperty([FACE]);
  // The model's own figure (a history with facts may show persistence or the mean instead).
  return read.data.map((r) => r.model_result ?? r.result);
}

beforeAll(async () => {
  h = await createHarness();
  token = (await h.signedInUser("Шахта «Свои каналы»")).token;
  const form = new FormData();
  form.set("features", JSON.stringify([FACE, RUN]));
  form.set("params", JSON.stringify({ n_estimators: 80, max_depth: 5 }));
  form.set("file", new File([csv(0, 2 * WEEK)], "две недели.csv", { type: "text/csv" }));
  const trained = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token, body: form });
  expect(trained.status, await trained.clone().text()).toBe(201);
  model = (await trained.json()) as Version;
  project = await h.newProject(token, "Лава с каналами");
}, 300_000);
afterAll(() => h.close());

describe("a model trained with the working's own channels", () => {
  it("keeps the named columns by name, in its version and in its file", () => {
    expect(model.features).toEqual([FACE, RUN]);
    expect(model.feature_names).toEqual([...AUDIT_X, FACE, RUN]);
  });

  it("forecasts from rows carrying them what native XGBoost predicts from its file, bit for bit", async () => {
    const ours = await resultsOf(await forecast({ data: JSON.stringify(rows) }));
    const file = await h.request(`/api/v1/forecast_models/xgboost/${model.id}/file/`, { token });
    expect(file.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "named-features-"));
    writeFileSync(join(dir, "model.json"), await file.text());
    writeFileSync(join(dir, "rows.json"), JSON.stringify(rows));
    const script = `
import json, sys
import numpy as np, xgboost as xgb
booster = xgb.Booster(model_file=sys.argv[1])
rows = json.load(open(sys.argv[2]))
matrix = np.array([[np.nan if r[name] is None else r[name] for name in booster.feature_names] for r in rows], dtype=np.float64)
pred = booster.predict(xgb.DMatrix(matrix, feature_names=booster.feature_names, missing=np.nan))
print(json.dumps({"names": booster.feature_names, "pred": [float(v) for v in pred]}))
`;
    const run = spawnSync(pythonWithXGBoost(), ["-c", script, join(dir, "model.json"), join(dir, "rows.json")], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const native = JSON.parse(run.stdout) as { names: string[]; pred: number[] };
    expect(native.names).toEqual([...AUDIT_X, FACE, RUN]);
    expect(ours).toHaveLength(rows.length);
    expect(ours).toEqual(native.pred);
    // The channels are read: the same rows without the face's methane forecast otherwise.
    const blind = await resultsOf(await forecast({ data: JSON.stringify(rows.map((r) => ({ ...r, [FACE]: null }))) }));
    expect(blind).not.toEqual(ours);
  });

  it("shows them in the project's xlsx export, each a column by its name with the rows' values", async () => {
    const made = await forecast({ data: JSON.stringify(rows.slice(0, 40)) });
    expect(made.status, await made.clone().text()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const stored = (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token })).json()) as {
      model: { features?: string[] };
    };
    expect(stored.model.features).toEqual([FACE, RUN]);
    const res = await h.request(`/api/v1/projects/${project.id}/export_to_xlsx/?detail=true`, { token });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.worksheets.find((ws) => ws.name.startsWith("Строки. Прогноз"))!;
    const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
    const header = values(2) as string[];
    const [face, run, x15, result] = [FACE, RUN, "Расход метана, извлекаемого установкой, м³/мин", "Концентрация метана, %"].map((c) =>
      header.indexOf(c),
    );
    // After x1 … x15, before the forecast, as on the screen's rows table.
    expect([face > x15, run === face + 1, result > run]).toEqual([true, true, true]);
    const mine = Array.from({ length: sheet.rowCount - 2 }, (_, k) => values(3 + k)).filter((r) => r[0] === "Лава, свои каналы");
    expect(mine.length).toBeGreaterThanOrEqual(40);
    const last = mine.slice(-40);
    expect(last.map((r) => r[face])).toEqual(rows.slice(0, 40).map((r) => r[FACE]));
    // A missing value of its own is an empty cell, as the screen's «—».
    expect(last.map((r) => r[run] ?? null)).toEqual(rows.slice(0, 40).map((r) => r[RUN]));
  });

  it("reads them from a file's columns as from JSON rows", async () => {
    // The file's cells as auditCsv writes them (four decimals), sent as JSON rows.
    const four = (v: number) => Math.round(v * 10_000) / 10_000;
    const same = Array.from({ length: 100 }, (_, k) => {
      const r = 2 * WEEK + k;
      const row: Record<string, number> = Object.fromEntries(AUDIT_X.map((c) => [c, four(history.x[c][r])]));
      row[FACE] = four(history.channels.face_ch4[r]);
      row[RUN] = history.channels.shearer_run[r];
      return row;
    });
    const fromJson = await resultsOf(await forecast({ data: JSON.stringify(same) }));
    const fromFile = await resultsOf(await forecast({ file_data: new Blob([csv(2 * WEEK, 2 * WEEK + 100)]) }, "неделя.csv"));
    expect(fromFile).toHaveLength(100);
    expect(fromFile).toEqual(fromJson);
  });

  it("varies a row carrying them in a what-if as the forecast route forecasts it, and refuses one without", async () => {
    const row = rows[0];
    const what = (body: Record<string, unknown>) => h.request("/api/v1/forecast/what_if/", { method: "POST", token, json: body });
    const x1 = row.x1 as number;
    const res = await what({ model: model.id, row, vary: { feature: "x1", from: x1, to: x1 + 100, steps: 1 } });
    expect(res.status, await res.clone().text()).toBe(200);
    const { points } = (await res.json()) as { points: Array<{ value: number; result: number }> };
    const [own] = await resultsOf(await forecast({ data: JSON.stringify([row]) }));
    expect(points[0].result).toBe(own);
    const { [FACE]: _face, ...lacking } = row;
    const refused = await what({ model: model.id, row: lacking, vary: { feature: "x1", from: x1, to: x1 + 100 } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toContain(`нет столбца «${FACE}», который читает модель`);
  });

  it("refuses a row without one, naming the column", async () => {
    const { [RUN]: _run, ...lacking } = rows[3];
    const res = await forecast({ data: JSON.stringify([rows[0], lacking]) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain(`нет столбца «${RUN}», который читает модель`);
  });

  it("refuses a file without one, naming the column", async () => {
    const text = auditCsv(history, 2 * WEEK, 2 * WEEK + 20, ["face_ch4"]);
    const res = await forecast({ file_data: new Blob([text]) }, "без комбайна.csv");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain(`нет столбца «${RUN}»`);
  });

  it("refuses as features a column the forecast already reads, or one the file lacks", async () => {
    for (const [features, said] of [
      [["Время"], "уже читается как столбец данных прогноза"],
      [["x1"], "уже читается как столбец данных прогноза"],
      [["Положение комбайна"], "нет столбца «Положение комбайна»"],
    ] as const) {
      const form = new FormData();
      form.set("features", JSON.stringify(features));
      form.set("file", new File([csv(0, 500)], "история.csv", { type: "text/csv" }));
      const res = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token, body: form });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain(said);
    }
  });
});

// a forecast file needs only the columns its model reads. A model trained on a history without
// x2 and x13 forecasts from a file without them (it was refused for x2, a column the model never reads), the
// preview as the save; a file without columns the model does read is refused naming every one of them.
describe("a forecast file with only the columns its model reads", () => {
  /** The CSV without the file's columns at these positions (0: the time; x1 … x15 from 1; then the channels). */
  const without = (text: string, drop: readonly number[]) =>
    text
      .trimEnd()
      .split("\n")
      .map((line) =>
        line
          .split(";")
          .filter((_, i) => !drop.includes(i))
          .join(";"),
      )
      .join("\n");
  // Время; x1, x2, x7, x8, x12, x13, x15; the face; the run; y.
  const [X1, X2, X7, X13] = [1, 2, 3, 6];
  const RUN_AT = 9;
  let narrow: Version;

  beforeAll(async () => {
    const form = new FormData();
    form.set("features", JSON.stringify([FACE, RUN]));
    form.set("params", JSON.stringify({ n_estimators: 20, max_depth: 3 }));
    form.set("file", new File([without(csv(0, WEEK), [X2, X13])], "без x2 и x13.csv", { type: "text/csv" }));
    const trained = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token, body: form });
    expect(trained.status, await trained.clone().text()).toBe(201);
    narrow = (await trained.json()) as Version;
  }, 300_000);

  const send = (text: string, dry = false) => {
    const form = new FormData();
    form.set("name", "Лава, не все столбцы");
    form.set("project", project.id);
    form.set("method", "xgboost");
    form.set("model_id", narrow.id);
    form.set("file_data", new Blob([text]), "неделя.csv");
    return h.request(`/api/v1/regres_methane/${dry ? "?dry_run=1" : ""}`, { method: "POST", token, body: form });
  };

  it("reads only what the model was trained on", () => {
    expect(narrow.feature_names).toEqual(["x1", "x7", "x8", "x12", "x15", FACE, RUN]);
  });

  it("forecasts from a file without the columns the model does not read, and previews it without a problem", async () => {
    const text = without(csv(2 * WEEK, 2 * WEEK + 50), [X2, X13]);
    const preview = await send(text, true);
    expect(preview.status, await preview.clone().text()).toBe(200);
    expect(((await preview.json()) as { errors: unknown[] }).errors).toEqual([]);
    const made = await send(text);
    expect(made.status, await made.clone().text()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const read = (await (await h.request(`/api/v1/regres_methane/${id}/?limit=1000`, { token })).json()) as {
      data: Array<{ result: number | null; model_result?: number; features?: Record<string, number | null> }>;
    };
    expect(read.data).toHaveLength(50);
    // The model's own figure on every row (a history with facts may show persistence instead), the channels kept.
    expect(read.data.every((r) => Number.isFinite(r.model_result ?? r.result) && r.features?.[FACE] !== undefined)).toBe(true);
  });

  it("refuses a file without columns the model reads, naming each of them and none it does not read", async () => {
    const res = await send(without(csv(2 * WEEK, 2 * WEEK + 50), [X1, X2, X7, X13, RUN_AT]));
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toBe(
      `Лист «CSV»: нет столбцов «Расход воздуха в исходящей струе лавы (телеметрия), м³/мин», «Концентрация метана в каптируемой смеси, %», «${RUN}»`,
    );
  });
});
