// The QuickScorer engine (wasm-core/assembly/gbdt.ts) against the libraries' golden predictions
// and against the tree walk on an adversarial row set: every threshold of every split, the nearest
// doubles and floats on either side of each, NaN, infinities, signed zeros and denormals. It also
// shows that set catches an engine with the tie rule flipped (x == threshold sent the wrong way).
import { describe, expect, it } from "vitest";
import { chooseEngine, QUICKSCORER_MAX_LEAVES } from "./engine";
import { flattenForest, type RawNode } from "./flatten";
import { loadModel, parseModel, predict } from "./index";
import { LEAF } from "./model";
import { adversarialRows, nextDouble, nextFloat } from "./adversarial-rows";
import { fixture, modelFixture, readCsvWithColumn, readText } from "./test-fixtures";

const defaults = [
  { file: modelFixture("methane-xgboost.json"), golden: modelFixture("golden-default.csv"), column: "pred_xgboost" },
  { file: modelFixture("methane-lightgbm.txt"), golden: modelFixture("golden-default.csv"), column: "pred_lightgbm" },
];
const xgbShapes = ["xgb-dart-poisson", "xgb-logistic", "xgb-logitraw", "xgb-gamma", "xgb-tweedie", "xgb-unnamed"].map((name) => ({
  file: fixture(`${name}.json`),
  golden: fixture(`${name}.csv`),
  column: "expected",
}));
const withGolden = [...defaults, ...xgbShapes];

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Object.is(a[i], b[i]) ? 0 : Math.abs(a[i] - b[i]) || Infinity);
  return max;
}

describe("engine choice for every fixture model", () => {
  it.each([
    [modelFixture("methane-xgboost.json"), "quickscorer", /не больше 64 листьев \(наибольшее — 64\)/],
    [modelFixture("methane-lightgbm.txt"), "quickscorer", /наибольшее — 31/],
    ...xgbShapes.map(({ file }) => [file, "quickscorer", /только числовые разбиения, пропуски как NaN/] as const),
    [fixture("lgb-categorical.txt"), "walk", /обход деревьев: в модели категориальные разбиения/],
    [fixture("lgb-linear.txt"), "walk", /обход деревьев: в модели линейные деревья/],
    [fixture("lgb-missing.txt"), "walk", /обход деревьев: в модели пропуски типа Zero или None/],
  ] as const)("%s runs on %s", async (file, engine, reason) => {
    const model = await loadModel(readText(file));
    expect(model.wasm.choice.engine).toBe(engine);
    expect(model.wasm.choice.reason).toMatch(reason);
    expect(model.wasm.tableBytes > 0).toBe(engine === "quickscorer");
  });

  it("keeps the walk for a tree of more than 64 leaves", () => {
    // A chain of 65 leaves: each split's right child is the next split.
    let tree: RawNode = { kind: "leaf", value: 0.5 };
    for (let i = 0; i < QUICKSCORER_MAX_LEAVES; i++) {
      tree = { kind: "split", feature: 0, flags: 0, threshold: i, left: { kind: "leaf", value: i }, right: tree };
    }
    const forest = flattenForest([tree], { numFeatures: 1, float32: true, leftWhenEqual: false, baseMargin: 0 });
    expect(chooseEngine(forest)).toEqual({ engine: "walk", reason: "обход деревьев: в дереве 65 листьев, больше 64" });
  });
});

describe.each(withGolden)("QuickScorer on $file", ({ file, golden, column }) => {
  const parsed = parseModel(readText(file));
  const expected = readCsvWithColumn(golden, parsed.featureNames, column);

  it("reproduces the library's golden predictions: max |Δ| = 0", async () => {
    const model = await loadModel(parsed, { engine: "quickscorer" });
    expect(maxAbsDiff(predict(model, expected.rows), expected.values)).toBe(0);
  });

  it("gives the walk's bits on the adversarial rows, in one block and in blocks of 7 trees", async () => {
    const rows = adversarialRows(parsed, expected.rows);
    const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
    for (const blockTrees of [300, 7]) {
      const quick = predict(await loadModel(parsed, { engine: "quickscorer", blockTrees }), rows);
      expect(maxAbsDiff(quick, walk)).toBe(0);
    }
  });
});

describe("the adversarial rows", () => {
  const parsed = parseModel(readText(modelFixture("methane-xgboost.json")));
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), parsed.featureNames, "pred_xgboost");
  const rows = adversarialRows(parsed, golden.rows);

  it("hold every threshold, both neighbours, NaN, infinities, signed zeros and denormals", () => {
    const present = new Set(rows);
    const { forest } = parsed;
    forest.nodeFlags.forEach((flags, i) => {
      if (flags & LEAF) return;
      const t = forest.nodeThreshold[i];
      for (const v of [t, nextFloat(t, true), nextFloat(t, false), nextDouble(t, true), nextDouble(t, false)]) {
        expect(present.has(v)).toBe(true);
      }
    });
    expect(rows.some(Number.isNaN)).toBe(true);
    expect(Array.from(rows).some((v) => Object.is(v, -0))).toBe(true);
    for (const v of [Infinity, -Infinity, Number.MIN_VALUE, 2 ** -149]) expect(present.has(v)).toBe(true);
  });

  it("catch QuickScorer with the tie rule flipped (x == threshold going left instead of right)", async () => {
    const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
    const flipped = structuredClone(parsed);
    flipped.forest.leftWhenEqual = true; // go right when x > t instead of x >= t
    const wrong = predict(await loadModel(flipped, { engine: "quickscorer" }), rows);
    expect(maxAbsDiff(wrong, walk)).toBeGreaterThan(0);
    // The same engine with XGBoost's own rule agrees, so the difference is the tie rule alone.
    expect(maxAbsDiff(predict(await loadModel(parsed, { engine: "quickscorer" }), rows), walk)).toBe(0);
  });
});
