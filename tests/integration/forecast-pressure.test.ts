// The barometric pressure as a history's optional column, through the API on dynalite:
// on the «events» longwall of the persistence bar (tests/support/longwall-scenarios.ts), whose
// pressure falls over the two hours before each event, a company's 1 h model trained on the first
// 60 % with the column reads the pressure and its change over the hour (p_atm, dp_atm_1h), the
// forecast's rows keep it, and the model is scored against the same model trained without it on the
// last 40 %, computed here from the stored rows. A history without the column still runs the model
// (its pressure missing), and a pressure out of bounds is refused naming its column.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { longwallScenario, rmseAgainstPersistence, scenarioCsv } from "../support/longwall-scenarios";

const ROWS = 2400;
const TRAIN = Math.round(ROWS * 0.6);
const HORIZON = 60;

type Row = { y?: number; p_atm?: number; result: number | null; model_result?: number | null };
type Stored = { data: Row[]; data_count: number; backtest: { model: { rmse: number }; shown: string } };

let h: Harness;
let user: { token: string };
const history = longwallScenario("events", ROWS);
const testY = history.y.subarray(TRAIN);

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser("Шахта с барометром");
});
afterAll(() => h.close());

async function train(text: string, description: string) {
  const form = new FormData();
  form.set("params", JSON.stringify({ n_estimators: 60, max_depth: 4 }));
  form.set("horizon", String(HORIZON));
  form.set("description", description);
  form.append("file", new File([text], "лава 7.csv", { type: "text/csv" }));
  const res = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: user.token, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; horizon: number; feature_names: string[] };
}

async function forecast(text: string, modelId: string) {
  const project = await h.newProject(user.token, `Лава 7, ${modelId.slice(-6)}`);
  const form = new FormData();
  form.set("name", "Лава 7, на час вперед");
  form.set("project", project.id);
  form.set("method", "xgboost");
  form.set("horizon", String(HORIZON));
  form.set("model_id", modelId);
  form.set("file_data", new Blob([text]), "телеметрия.csv");
  const res = await h.request("/api/v1/regres_methane/", { method: "POST", token: user.token, body: form });
  return res;
}

async function rows(res: Response): Promise<Stored> {
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

/** The model's own RMSE over persistence's on the rows, computed from the stored rows. */
const ownRatio = (done: Stored) => {
  const own = Float64Array.from(done.data, (r) =>
    r.model_result !== undefined ? (r.model_result ?? Number.NaN) : (r.result ?? Number.NaN),
  );
  const bar = rmseAgainstPersistence(own, testY, HORIZON / 10);
  return bar.model / bar.persistence;
};

describe("the barometric pressure of a longwall's history", () => {
  it("is read by a model trained on a history that has it, kept on the forecast's rows, and moves its forecast 1 h ahead", async () => {
    const withPressure = await train(scenarioCsv(history, 0, TRAIN, history.pressure), "с давлением");
    const without = await train(scenarioCsv(history, 0, TRAIN), "без давления");
    expect(withPressure.horizon).toBe(HORIZON);
    expect(withPressure.feature_names.slice(-2)).toEqual(["p_atm", "dp_atm_1h"]);
    expect(without.feature_names).not.toContain("p_atm");

    const read = await rows(await forecast(scenarioCsv(history, TRAIN, ROWS, history.pressure), withPressure.id));
    expect(read.data.map((r) => r.p_atm)).toEqual(Array.from(history.pressure.subarray(TRAIN)));
    const plain = await rows(await forecast(scenarioCsv(history, TRAIN, ROWS, history.pressure), without.id));
    const ratios = { pressure: ownRatio(read), without: ownRatio(plain) };
    console.info(
      `RMSE / persistence's, 1 h ahead on the «events» longwall: with the pressure ${ratios.pressure.toFixed(3)}, without ${ratios.without.toFixed(3)}`,
    );
    expect(ratios.pressure).toBeLessThan(ratios.without);

    // Without the column the pressure model still forecasts, its pressure missing.
    const blind = await rows(await forecast(scenarioCsv(history, TRAIN, ROWS), withPressure.id));
    expect(blind.data.some((r) => "p_atm" in r)).toBe(false);
    expect(blind.data.filter((r) => typeof r.result === "number").length).toBeGreaterThan(900);
  });

  it("refuses a pressure out of bounds naming its row and column", async () => {
    const pressure = history.pressure.slice(0, 40);
    pressure[5] = 250;
    const res = await forecast(scenarioCsv(history, 0, 40, pressure), "xgboost-h60");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      "Лист «CSV», строка 7, столбец «Барометрическое давление, кПа»: давление не больше 200 кПа",
    );
  });
});
