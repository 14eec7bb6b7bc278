// A company trains its own forecast model from an uploaded history (POST v1/forecast_models/xgboost/train/):
// the file's Russian headers, the version stored with its training summary, used by the company's
// forecasts when chosen, invisible to another company; bad input refused in Russian with nothing stored.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadModel, predict } from "@core/gbdt";
import type { Harness } from "../support/harness";
import { openProjectFixture, readCalculation, type SignedInUser } from "../support/project-fixture";
import type { Project } from "@server/contract/schemas/project";
import { COMPANY_MODEL_BYTES } from "@server/domain/forecast/models";
import { reserveHeavyWork } from "@server/domain/heavy-work";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let user: SignedInUser;
let other: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Лава 12"));
  other = await h.signedInUser("Компания Б");
});
afterAll(() => h.close());

const HEADER =
  "Время;Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин;Концентрация метана в каптируемой смеси, %;Концентрация CH4 в исходящей струе лавы, факт, %";

/** A longwall's history, 10-minute steps from 01.01.2025: more air, less methane; missing drainage readings. */
function history(rows: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const minutes = i * 10;
    const day = 1 + Math.floor(minutes / 1440);
    const time = `${String(day).padStart(2, "0")}.01.2025 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const air = 1200 + ((i * 37) % 400);
    const drained = i % 9 === 0 ? "" : String(20 + ((i * 13) % 30));
    const y = (0.5 * 1400) / air + (drained === "" ? 0.1 : 0) + 0.002 * ((i * 7) % 5);
    lines.push(`${time};${air};${drained.replace(".", ",")};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

function trainForm(text: string, fields: Record<string, string> = {}, name = "история.csv") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new File([text], name, { type: "text/csv" }));
  return form;
}

const train = (token: string, form: FormData, method = "xgboost") =>
  h.request(`/api/v1/forecast_models/${method}/train/`, { method: "POST", token, body: form });

interface Version {
  id: string;
  version: number;
  company?: string;
  is_active: boolean;
  feature_names: string[];
  num_trees: number;
  training: {
    rows: number;
    train_rows: number;
    valid_rows: number;
    stopping_rows: number;
    calibration_rows: number;
    validation: string;
    period: { from: string; to: string };
    ranges: Array<{ feature: string; label: string; min: number; max: number; missing: number }>;
    rounds: Array<{ round: number; train_rmse: number; valid_rmse: number }>;
    importance: Array<{ feature: string; label: string; share: number }>;
    params: Record<string, number>;
    valid_rmse: number;
  };
}

async function versions(token: string): Promise<Version[]> {
  const res = await h.request("/api/v1/forecast_models/", { token });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: Array<{ method: string; versions: Version[] }> };
  return body.results.find((r) => r.method === "xgboost")!.versions;
}

describe("training a forecast model on the company's history", () => {
  let trained: Version;

  it("trains on a file with Russian headers and stores the company's own version with its summary", async () => {
    const res = await train(
      user.token,
      trainForm(history(600), { params: JSON.stringify({ n_estimators: 120, max_depth: 4, learning_rate: 0.2 }), activate: "true" }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    trained = (await res.json()) as Version;
    expect(trained).toMatchObject({ company: user.companyId, is_active: true, feature_names: ["x2", "x7"] });
    expect(trained.training).toMatchObject({
      rows: 600,
      train_rows: 480,
      valid_rows: 120,
      // the earlier 60 chose the number of trees, the later 60 are calibrated on.
      stopping_rows: 60,
      calibration_rows: 60,
      validation: "time",
      period: { from: "2025-01-01T00:00:00.000Z", to: "2025-01-05T03:50:00.000Z" },
    });
    expect(trained.training.params).toMatchObject({ n_estimators: 120, max_depth: 4, learning_rate: 0.2, max_bin: 256 });
    const air = trained.training.ranges.find((r) => r.feature === "x2")!;
    expect(air).toMatchObject({ label: "Расход воздуха в исходящей струе лавы (суточные замеры)", min: 1200, max: 1599, missing: 0 });
    expect(trained.training.ranges.find((r) => r.feature === "x7")!.missing).toBe(67);
    expect(trained.training.rounds[0].round).toBe(1);
    expect(trained.training.valid_rmse).toBeLessThan(0.05);
    const importance = Object.fromEntries(trained.training.importance.map((i) => [i.label, i.share]));
    expect(importance["Расход воздуха в исходящей струе лавы (суточные замеры)"]).toBeGreaterThan(0.5);
  });

  it("is calibrated for the company on its validation rows unseen by the trees and by early stopping", async () => {
    const res = await h.request(`/api/v1/forecast_models/${trained.id}/calibration/`, { token: user.token });
    expect(res.status, await res.clone().text()).toBe(200);
    const calibration = (await res.json()) as {
      rows: number;
      scope: string;
      period: { from: string; to: string };
      quantiles: Record<string, number>;
    };
    expect(calibration).toMatchObject({
      rows: 60,
      scope: "company",
      period: { from: "2025-01-04T18:00:00.000Z", to: "2025-01-05T03:50:00.000Z" },
    });
    expect(Object.values(calibration.quantiles).every((q) => q >= 0 && q < 0.2)).toBe(true);
    const stranger = await h.request(`/api/v1/forecast_models/${trained.id}/calibration/`, { token: other.token });
    expect(stranger.status).toBe(404);
  });

  it("lists it for its company only, serves its file to it, and 404s for another company", async () => {
    expect((await versions(user.token)).some((v) => v.id === trained.id)).toBe(true);
    expect((await versions(other.token)).some((v) => v.id === trained.id)).toBe(false);
    // Streamed from the blob store by range, never read whole into the server's memory.
    const wholeReads = vi.spyOn(h.deps.blobs, "get");
    const file = await h.request(`/api/v1/forecast_models/xgboost/${trained.id}/file/`, { token: user.token });
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(wholeReads).not.toHaveBeenCalled();
    wholeReads.mockRestore();
    expect(file.headers.get("Content-Length")).toBe(String(new TextEncoder().encode(text).byteLength));
    const model = await loadModel(text);
    expect(model.featureNames).toEqual(["x2", "x7"]);
    const stranger = await h.request(`/api/v1/forecast_models/xgboost/${trained.id}/file/`, { token: other.token });
    expect(stranger.status).toBe(404);
    // Company Б's browser preview still runs the platform model.
    const active = await h.request("/api/v1/forecast_models/xgboost/active/file/", { token: other.token });
    expect(active.headers.get("X-Model-Id")).not.toBe(trained.id);
    const own = await h.request("/api/v1/forecast_models/xgboost/active/file/", { token: user.token });
    expect(own.headers.get("X-Model-Id")).toBe(trained.id);
  });

  it("is the model the company's forecasts run, predicting what the stored file predicts", async () => {
    const res = await h.request("/api/v1/regres_methane/", {
      method: "POST",
      token: user.token,
      json: {
        name: "Прогноз своей моделью",
        project: project.id,
        method: "xgboost",
        data: [{ id: 1, x1: 1400, x2: 1300, x7: 35, x8: 100, x12: 0.5, x13: 16000, x15: 35 }],
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string };
    const stored = await readCalculation<{ model: { id: string; version: number }; data: Array<{ result: number }> }>(
      h,
      user.token,
      "regres_methane",
      created.id,
    );
    expect(stored.model).toMatchObject({ id: trained.id, version: trained.version });
    const file = await h.request(`/api/v1/forecast_models/xgboost/${trained.id}/file/`, { token: user.token });
    const expected = predict(await loadModel(await file.text()), [[1300, 35]], ["x2", "x7"]);
    expect(stored.data[0].result).toBe(expected[0]);
  });

  it("refuses bad input in Russian and stores nothing", async () => {
    const before = (await versions(user.token)).length;
    const refused = async (form: FormData, detail: RegExp, status = 400, method = "xgboost") => {
      const res = await train(user.token, form, method);
      const body = (await res.json()) as { detail: string };
      expect(res.status, body.detail).toBe(status);
      expect(body.detail).toMatch(detail);
    };
    const constant = history(100).replace(/;[\d,]+\n/g, ";0,5\n");
    await refused(trainForm(constant), /целевая величина .* одна и та же \(0,5\)/);
    const text = history(100).replace(/\n(\d\d\.01\.2025 \d\d:\d\d);(\d+);/, "\n$1;много;");
    await refused(
      trainForm(text),
      /строка 2, столбец «Расход воздуха в исходящей струе лавы \(суточные замеры\), м³\/мин»: ожидается число, найдено «много»/,
    );
    // A negative flow and two columns that mean the same are refused, naming the file's header.
    const negative = history(100).replace(/\n(\d\d\.01\.2025 \d\d:\d\d);(\d+);/, "\n$1;-$2;");
    await refused(
      trainForm(negative),
      /строка 2, столбец «Расход воздуха в исходящей струе лавы \(суточные замеры\), м³\/мин»: значение должно быть неотрицательным/,
    );
    const twice = history(100)
      .split("\n")
      .map((line, i) => (line === "" ? line : `${line};${i === 0 ? "Расход воздуха в исходящей струе лавы (суточные замеры)" : "1300"}`))
      .join("\n");
    await refused(
      trainForm(twice),
      /столбцы «Расход воздуха в исходящей струе лавы \(суточные замеры\), м³\/мин» и «Расход воздуха в исходящей струе лавы \(суточные замеры\)» означают одно и то же/,
    );
    await refused(trainForm(history(3)), /не меньше 20 строк, в данных 3/);
    const tooMany = `Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин;y\n${"1;1\n".repeat(200_001)}`;
    await refused(trainForm(tooMany), /слишком много строк, допускается не более 200000/);
    await refused(
      trainForm(
        history(100)
          .replace(/;[\d,]+\n/g, "\n")
          .replace(/;Концентрация CH4[^\n]*/, ""),
      ),
      /нет столбца «Концентрация CH4 в исходящей струе лавы, факт, %»/,
    );
    await refused(
      trainForm(history(100), { params: JSON.stringify({ max_depth: 30 }) }),
      /params\.max_depth: нужно целое число от 0 до 10/,
    );
    await refused(trainForm(history(100), { params: "{" }), new RegExp(`${fieldName("params")}: ожидается объект JSON`));
    await refused(
      trainForm(history(100), { params: JSON.stringify({ monotone_constraints: { x2: 5 } }) }),
      /params\.monotone_constraints: ожидается \{"признак": -1, 0 или 1\}/,
    );
    await refused(
      trainForm(history(100), { params: JSON.stringify({ monotone_constraints: { x1: -1 } }) }),
      /monotone_constraints: нет признака «x1» среди признаков обучения/,
    );
    // The model's size is bounded before it is trained: 2 000 trees of depth 10 would be 107 MB.
    await refused(
      trainForm(history(100), { params: JSON.stringify({ n_estimators: 2000, max_depth: 10, early_stopping_rounds: 0 }) }),
      /params\.n_estimators: 2 000 деревьев глубины 10 — до 4 094 000 узлов, больше предела 500 000 узлов модели: уменьшите число деревьев \(n_estimators\) или их глубину \(max_depth\)/,
    );
    // A parameter is one of its own names, a number a JSON number.
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      await refused(trainForm(history(100), { params: `{"${name}": 1}` }), new RegExp(`params\\.${name}: неизвестный параметр обучения`));
    }
    await refused(trainForm(history(100), { params: '{"__proto__": {}}' }), /params\.__proto__: ожидается число/);
    await refused(trainForm(history(100), { params: '{"n_estimators": "1e3"}' }), /params\.n_estimators: ожидается число без кавычек/);
    await refused(trainForm(history(100)), /обучить в платформе можно модель XGBoost/, 400, "lightgbm");
    // Its heavy-work slot is taken before the form is read: with the user's slots held, even a form
    // the route would refuse is answered 429 at once, and its slot is given back after a refusal.
    const held = [
      await reserveHeavyWork(h.deps, { id: user.userId, company: user.companyId }),
      await reserveHeavyWork(h.deps, { id: user.userId, company: user.companyId }),
    ];
    await refused(trainForm(history(100), { params: "{" }), /Слишком много тяжелых операций/, 429);
    await Promise.all(held.map((release) => release()));
    for (let i = 0; i < 3; i += 1)
      await refused(trainForm(history(100), { params: "{" }), new RegExp(`${fieldName("params")}: ожидается объект JSON`));
    const slots = [
      await reserveHeavyWork(h.deps, { id: user.userId, company: user.companyId }),
      await reserveHeavyWork(h.deps, { id: user.userId, company: user.companyId }),
    ];
    await Promise.all(slots.map((release) => release()));
    expect((await versions(user.token)).length).toBe(before);
  });

  it("trains first what the company's models leave room for: their bytes together are bounded", async () => {
    const full = await h.signedInUser();
    // A version of the company's own that takes all but 10 MB of its room (its file's size as kept).
    const [platform] = await h.deps.repos.forecastModels.list("xgboost");
    await h.deps.repos.forecastModels.create({
      ...platform,
      id: `full-${full.companyId}`,
      version: 1_000_000 + Math.floor(Math.random() * 1_000_000),
      company: full.companyId,
      is_active: false,
      file_bytes: COMPANY_MODEL_BYTES - 10 * 1024 * 1024,
    });
    const res = await train(full.token, trainForm(history(100)));
    const body = (await res.json()) as { detail: string };
    expect(res.status, body.detail).toBe(400);
    expect(body.detail).toBe(
      "Модели компании уже занимают 190 МБ из 200 МБ, а новая может занять до 20 МБ: обратитесь к администратору платформы, чтобы удалить лишние версии",
    );
  });
});
