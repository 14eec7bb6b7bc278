// XGBoost's monotone_constraints in the product's trainer (wasm-core/assembly/gbdt-train.ts), on a
// generated drifting longwall (tests/support/drifting-longwall.ts) where y = 100·inflow / x1: with
// the air flow x1 at −1, no row's forecast rises anywhere along x1; free, the trees do rise in places.
import { describe, expect, it } from "vitest";
import { DRIFT_FEATURES, driftingLongwall } from "../../../tests/support/drifting-longwall";
import { loadModel, predict, trainModel, trainParams, TrainingInputError, type GbdtModel } from "./index";

const COUNT = 4_000;
const WIDTH = DRIFT_FEATURES.length;
const history = driftingLongwall(COUNT);
const measured = [...Array(COUNT).keys()].filter((r) => Number.isFinite(history.y[r]));
const data = {
  featureNames: [...DRIFT_FEATURES],
  rows: Float64Array.from(measured.flatMap((r) => Array.from(history.rows.subarray(r * WIDTH, (r + 1) * WIDTH)))),
  y: Float64Array.from(measured, (r) => history.y[r]),
};
const X1 = DRIFT_FEATURES.indexOf("x1");
/** 600 … 2 100 m³/min by 5: past both ends of the history's air flows. */
const GRID = Array.from({ length: 301 }, (_, k) => 600 + 5 * k);

/** The model trained with x1 at `constraint` (free without one), trained once for the file: the
 *  first and the third test read the same constrained and free models. */
const models = new Map<number, Promise<GbdtModel>>();
function trained(constraint?: -1 | 1): Promise<GbdtModel> {
  const key = constraint ?? 0;
  let model = models.get(key);
  if (!model) {
    const params = trainParams({ n_estimators: 60, ...(constraint ? { monotone_constraints: { x1: constraint } } : {}) });
    model = trainModel(data, params).then((result) => loadModel(result.json));
    models.set(key, model);
  }
  return model;
}

/** Rows (every 40th) whose forecast along the grid of x1 moves against `direction` somewhere. */
function breaking(model: GbdtModel, direction: -1 | 1): number {
  let count = 0;
  for (let r = 0; r < data.y.length; r += 40) {
    const row = data.rows.subarray(r * WIDTH, (r + 1) * WIDTH);
    const matrix = new Float64Array(GRID.length * WIDTH);
    GRID.forEach((x1, k) => {
      matrix.set(row, k * WIDTH);
      matrix[k * WIDTH + X1] = x1;
    });
    const p = predict(model, matrix);
    if (p.some((v, k) => k > 0 && direction * (v - p[k - 1]) < 0)) count += 1;
  }
  return count;
}

describe("monotone_constraints in the product's trainer", () => {
  it("with x1 at −1 no forecast rises as the air flow grows, on 100 rows over 600–2 100 m³/min; free, some do", async () => {
    expect(breaking(await trained(-1), -1)).toBe(0);
    expect(breaking(await trained(), -1)).toBeGreaterThan(0);
  });

  it("with x1 at +1 none falls", async () => {
    expect(breaking(await trained(1), 1)).toBe(0);
  });

  it("keeps the error near the free model's: the truth falls with the air flow", async () => {
    const rmse = async (model: GbdtModel) => {
      const p = predict(model, data.rows);
      return Math.sqrt(p.reduce((s, v, i) => s + (v - data.y[i]) ** 2, 0) / p.length);
    };
    const constrained = await rmse(await trained(-1));
    const free = await rmse(await trained());
    expect(constrained / free).toBeLessThan(1.1);
  });

  it("takes {x1: -1} or its JSON text and refuses other values and unknown features, in Russian", async () => {
    expect(trainParams({ monotone_constraints: { x1: -1 } }).monotone_constraints).toEqual({ x1: -1 });
    expect(trainParams({ monotone_constraints: '{"x1": -1, "x7": 0}' }).monotone_constraints).toEqual({ x1: -1, x7: 0 });
    expect(() => trainParams({ monotone_constraints: { x1: 2 } })).toThrow(/monotone_constraints: ожидается/);
    expect(() => trainParams({ monotone_constraints: "(0,-1)" })).toThrow(TrainingInputError);
    await expect(trainModel(data, trainParams({ n_estimators: 2, monotone_constraints: { x99: -1 } }))).rejects.toThrow(
      /нет признака «x99»/,
    );
  });
});
