import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { readFileSync } from "node:fs";
import type { Harness } from "../support/harness";
import { openProjectFixture, readCalculation, type SignedInUser } from "../support/project-fixture";
import { modelFixture } from "../support/models";
import { createUser } from "@server/domain/company/users";
import type { Project } from "@server/contract/schemas/project";

const FEATURES = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"] as const;

interface GoldenRow {
  id: number;
  features: Record<string, number | null>;
  xgboost: number;
  lightgbm: number;
}

const golden: GoldenRow[] = readFileSync(modelFixture("golden-default.csv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const cells = line.split(",");
    const value = (text: string) => (text === "NaN" ? null : Number(text));
    return {
      id: Number(cells[0]),
      features: Object.fromEntries(FEATURES.map((f, i) => [f, value(cells[i + 1])])),
      xgboost: Number(cells[9]),
      lightgbm: Number(cells[10]),
    };
  });

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  // A table of its own: an admin uploads and activates a model version for the whole platform.
  ({ h, user, project } = await openProjectFixture("Лава 7", {}, { freshTable: true }));
});
afterAll(() => h.close());

type Row = Record<string, number | null> & { id: number; result: number };
type Forecast = {
  id: string;
  version: number;
  data: Row[];
  rows: number;
  above_limit: number;
  model: { method: string; version: number };
  file_data?: unknown;
};

async function forecastJson(method: string, rows: GoldenRow[]) {
  return h.request("/api/v1/regres_methane/", {
    method: "POST",
    token: user.token,
    json: { name: `Прогноз ${method}`, project: project.id, method, data: rows.map((r) => ({ id: r.id, ...r.features })) },
  });
}

async function forecastFile(method: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set("name", `Файл ${method}`);
  form.set("project", project.id);
  form.set("method", method);
  form.set("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return h.request("/api/v1/regres_methane/", { method: "POST", token: user.token, body: form });
}

const single = (id: string) => readCalculation<Forecast>(h, user.token, "regres_methane", id);

function expectGolden(rows: Row[], expected: GoldenRow[], method: "xgboost" | "lightgbm") {
  expect(rows).toHaveLength(expected.length);
  rows.forEach((row, i) => expect(Math.abs(row.result - expected[i][method])).toBeLessThanOrEqual(2e-6));
}

describe("regres_methane", () => {
  it.each(["xgboost", "lightgbm"] as const)(
    "reproduces the %s library's predictions from manual rows, with missing values",
    async (method) => {
      const rows = [...golden.slice(0, 30), ...golden.filter((g) => Object.values(g.features).includes(null)).slice(0, 20)];
      const res = await forecastJson(method, rows);
      expect(res.status, await res.clone().text()).toBe(201);
      const created = (await res.json()) as Forecast;
      expect(created).toMatchObject({ method, rows: rows.length, model: { method, version: 1 } });
      expectGolden((await single(created.id)).data, rows, method);
    },
  );

  it("reproduces all 1000 golden rows from an .xlsx whose columns come in another order", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Телеметрия");
    const order = ["x15", "id", "x13", "x12", "x8", "x7", "x2", "x1"];
    ws.addRow(order);
    for (const g of golden) ws.addRow(order.map((c) => (c === "id" ? g.id : g.features[c])));
    const res = await forecastFile("lightgbm", new Uint8Array(await wb.xlsx.writeBuffer()), "longwall.xlsx");
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as Forecast;
    expect(created.file_data).toMatchObject({ name: "longwall.xlsx" });
    expect(created).not.toHaveProperty("data");
    const stored = await single(created.id);
    expectGolden(stored.data, golden, "lightgbm");
    expect(stored.data[0].id).toBe(golden[0].id);
    expect(stored.above_limit).toBe(stored.data.filter((r) => r.result > 1).length);
  });

  it("reads a CSV with NaN cells", async () => {
    const csv = [
      "id,x1,x2,x7,x8,x12,x13,x15",
      ...golden.slice(0, 50).map((g) => [g.id, ...FEATURES.map((f) => g.features[f] ?? "NaN")].join(",")),
    ].join("\n");
    const res = await forecastFile("xgboost", new TextEncoder().encode(csv), "t.csv");
    expect(res.status).toBe(201);
    expectGolden((await single(((await res.json()) as Forecast).id)).data, golden.slice(0, 50), "xgboost");
  });

  it("edits data rows with data_update and recomputes, keeping the ids", async () => {
    const created = (await (await forecastJson("xgboost", golden.slice(0, 3))).json()) as Forecast;
    const current = await single(created.id);
    const edited = current.data.map((row, i) => (i === 1 ? { ...golden[5].features, id: row.id } : { ...row }));
    const res = await h.request(`/api/v1/regres_methane/${created.id}/data_update/`, {
      method: "PATCH",
      token: user.token,
      json: { data: [...edited, { ...golden[6].features }], version: current.version },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const updated = (await res.json()) as Forecast;
    expect(updated.data.map((r) => r.id)).toEqual([...current.data.map((r) => r.id), Math.max(...current.data.map((r) => r.id)) + 1]);
    expect(Math.abs(updated.data[1].result - golden[5].xgboost)).toBeLessThanOrEqual(2e-6);
    expect(Math.abs(updated.data[3].result - golden[6].xgboost)).toBeLessThanOrEqual(2e-6);
    const stale = await h.request(`/api/v1/regres_methane/${created.id}/data_update/`, {
      method: "PATCH",
      token: user.token,
      json: { data: edited, version: current.version },
    });
    expect(stale.status).toBe(409);
  });

  it("leaves no rows file behind for an edit that is refused: racing data_updates keep only the winners' files", async () => {
    const created = (await (await forecastJson("xgboost", golden.slice(0, 3))).json()) as Forecast;
    const current = await single(created.id);
    const written: string[] = [];
    const put = h.deps.blobs.put.bind(h.deps.blobs);
    h.deps.blobs.put = (key, body, type) => {
      if (key.startsWith("forecasts/")) written.push(key);
      return put(key, body, type);
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          h.request(`/api/v1/regres_methane/${created.id}/data_update/`, {
            method: "PATCH",
            token: user.token,
            json: {
              data: current.data.map((row, i) => (i === 0 ? { ...golden[n + 3].features, id: row.id } : row)),
              version: current.version,
            },
          }),
        ),
      );
      // An edit is heavy work (it predicts every row again): past the user's slots a parallel one is answered
      // 429 before it reads anything or writes a file; those let in race on the version, and one wins.
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((status) => status !== 200 && status !== 409 && status !== 429)).toEqual([]);
      const kept = (await Promise.all(written.map((key) => h.deps.blobs.get(key)))).filter(Boolean);
      expect(written).toHaveLength(statuses.filter((status) => status !== 429).length);
      expect(kept).toHaveLength(1);
    } finally {
      h.deps.blobs.put = put;
    }
  });

  it("switches the method on edit and predicts the stored rows again", async () => {
    const created = (await (await forecastJson("xgboost", golden.slice(0, 5))).json()) as Forecast;
    const res = await h.request(`/api/v1/regres_methane/${created.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { method: "lightgbm", version: 1 },
    });
    expect(res.status).toBe(200);
    expectGolden((await single(created.id)).data, golden.slice(0, 5), "lightgbm");
  });

  it.each([
    [{ method: "svm", data: [{ x1: 1 }] }, 400, "Метод"],
    [{ method: "xgboost", data: [] }, 400, "data"],
    [{ method: "xgboost", data: [{ x1: -5 }] }, 400, "data[0].x1"],
    [{ method: "xgboost", data: [{ x7: 120 }] }, 400, "data[0].x7"],
    [{ method: "xgboost", data: [{ x1: "много" }] }, 400, "data[0].x1"],
  ])("refuses %j", async (body, status, field) => {
    const res = await h.request("/api/v1/regres_methane/", {
      method: "POST",
      token: user.token,
      json: { name: "x", project: project.id, ...body },
    });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { detail: string }).detail).toContain(field);
  });

  it("names the row and column of a bad file cell, and a missing column", async () => {
    const bad = await forecastFile(
      "xgboost",
      new TextEncoder().encode("x1,x2,x7,x8,x12,x13,x15\n1,2,3,4,0.5,6,7\n1,2,abc,4,0.5,6,7\n"),
      "b.csv",
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toBe("Лист «CSV», строка 3, столбец «x7»: ожидается число, найдено «abc»");
    const missing = await forecastFile("xgboost", new TextEncoder().encode("x1,x2,x7\n1,2,3\n"), "m.csv");
    expect(((await missing.json()) as { detail: string }).detail).toBe(
      "Лист «CSV»: нет столбцов «Расход смеси, извлекаемой установкой, м³/мин», «Средняя концентрация CH4 в исходящей струе шахты, %», «Расход воздуха в исходящей струе шахты, м³/мин», «Расход метана, извлекаемого установкой, м³/мин»",
    );
  });
});

describe("forecast models", () => {
  it("lists the default models and serves the active file byte for byte", async () => {
    const list = (await (await h.request("/api/v1/forecast_models/", { token: user.token })).json()) as {
      results: Array<{
        method: string;
        versions: Array<{ version: number; is_active: boolean; num_trees: number; feature_names: string[]; engine?: string }>;
      }>;
    };
    // Both run on QuickScorer: XGBoost's (7 features, depth 6) and LightGBM's (trees up to 17 deep).
    const engines = {
      xgboost: ["quickscorer", /^QuickScorer с контрольными точками префиксов/],
      lightgbm: ["quickscorer", /^QuickScorer с контрольными точками префиксов/],
    } as const;
    for (const entry of list.results) {
      const [engine, reason] = engines[entry.method as keyof typeof engines];
      expect(entry.versions).toEqual([
        expect.objectContaining({ version: 1, is_active: true, num_trees: 150, feature_names: [...FEATURES], engine }),
      ]);
      // The models screen shows why the model runs on its engine.
      expect(entry.versions[0]).toMatchObject({ engine_reason: expect.stringMatching(reason) });
    }
    const file = await h.request("/api/v1/forecast_models/xgboost/active/file/", { token: user.token });
    expect(await file.text()).toBe(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  });

  it("lets only an admin upload and activate a model, validated first; old calculations keep their model", async () => {
    const upload = (token: string, method: string, name: string, text: string, activate = false) => {
      const form = new FormData();
      form.set("file", new Blob([text]), name);
      form.set("description", "Переобучена на данных 2025 года");
      if (activate) form.set("activate", "true");
      return h.request(`/api/v1/forecast_models/${method}/`, { method: "POST", token, body: form });
    };
    const lgb = readFileSync(modelFixture("methane-lightgbm.txt"), "utf8");
    expect((await upload(user.token, "lightgbm", "m.txt", lgb)).status).toBe(403);

    await createUser(h.deps, { companyId: user.companyId, email: "admin@example.com", password: "correct-horse", role: "admin" });
    const login = await h.request("/api/token/", { method: "POST", json: { email: "admin@example.com", password: "correct-horse" } });
    const admin = ((await login.json()) as { access: string }).access;

    const before = (await (await forecastJson("lightgbm", golden.slice(0, 2))).json()) as Forecast;
    const wrongLibrary = await upload(admin, "xgboost", "m.txt", lgb);
    expect(wrongLibrary.status).toBe(400);
    expect(((await wrongLibrary.json()) as { detail: string }).detail).toContain("lightgbm");
    expect((await upload(admin, "lightgbm", "junk.txt", "not a model")).status).toBe(400);

    const res = await upload(admin, "lightgbm", "methane-2025.txt", lgb, true);
    expect(res.status, await res.clone().text()).toBe(201);
    const model = (await res.json()) as { id: string };
    expect(model).toMatchObject({ version: 2, is_active: true, uploaded_by: "admin@example.com" });
    const uploaded = model.id;
    const after = (await (await forecastJson("lightgbm", golden.slice(0, 2))).json()) as Forecast;
    expect(after.model.version).toBe(2);
    expect((await single(before.id)).model.version).toBe(1);

    const versions = (await (await h.request("/api/v1/forecast_models/", { token: user.token })).json()) as {
      results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean }> }>;
    };
    const first = versions.results.find((r) => r.method === "lightgbm")!.versions[0];
    const back = await h.request(`/api/v1/forecast_models/lightgbm/${first.id}/`, {
      method: "PATCH",
      token: admin,
      json: { is_active: true },
    });
    expect(await back.json()).toMatchObject({ version: 1, is_active: true });
    expect(
      (await h.request(`/api/v1/forecast_models/lightgbm/${first.id}/`, { method: "PATCH", token: user.token, json: { is_active: true } }))
        .status,
    ).toBe(403);

    // Both changes are in the admin change log, like every other admin change; the refused
    // uploads are not.
    const audit = (await (await h.request("/api/v1/admin/audit/?limit=20&offset=0", { token: admin })).json()) as {
      results: Array<{
        action: string;
        target_type: string;
        target_id: string;
        target_label: string;
        actor_email: string;
        before: unknown;
        after: Record<string, unknown>;
      }>;
    };
    const models = audit.results.filter((e) => e.target_type === "forecast_model");
    expect(models).toEqual([
      expect.objectContaining({
        action: "forecast_model.activate",
        target_id: `lightgbm/${first.id}`,
        target_label: "Модель прогноза LightGBM, версия 1 (methane-lightgbm.txt)",
        actor_email: "admin@example.com",
        before: expect.objectContaining({ id: uploaded, version: 2, is_active: true }),
        after: expect.objectContaining({ id: first.id, version: 1, is_active: true }),
      }),
      expect.objectContaining({
        action: "forecast_model.upload",
        target_id: `lightgbm/${uploaded}`,
        target_label: "Модель прогноза LightGBM, версия 2 (methane-2025.txt)",
        actor_email: "admin@example.com",
        before: expect.objectContaining({ version: 1, is_active: true }),
        after: expect.objectContaining({
          version: 2,
          is_active: true,
          description: "Переобучена на данных 2025 года",
          library: "lightgbm",
        }),
      }),
    ]);
    for (const entry of models) expect(entry.after).not.toHaveProperty("blob_key");
  });
});

describe("another company", () => {
  it("gets 404 for company A's forecast, its rows and its file", async () => {
    const created = (await (await forecastJson("xgboost", golden.slice(0, 2))).json()) as Forecast;
    const other = await h.signedInUser();
    for (const [method, path, json] of [
      ["GET", `/api/v1/regres_methane/${created.id}/single_calc/1/`],
      ["PATCH", `/api/v1/regres_methane/${created.id}/data_update/`, { data: [{ x1: 1 }] }],
      ["PATCH", `/api/v1/regres_methane/${created.id}/`, { method: "lightgbm" }],
      ["GET", `/api/v1/regres_methane/${created.id}/file/`],
    ] as const) {
      const res = await h.request(path, { method, token: other.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
