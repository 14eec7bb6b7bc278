// Hand-written LightGBM v4 text models (fixtures/lgb-*.txt, laid out as Tree::ToString writes them)
// with expected values worked out from LightGBM's Tree::NumericalDecision / CategoricalDecision /
// Tree::Predict. Each prediction is the double sum of one leaf per tree, in tree order.
import { describe, expect, it } from "vitest";
import { loadModel, parseModel, predict, predictTs, type ParsedModel } from "./index";
import { LEAF } from "./model";
import { fixture, readText } from "./test-fixtures";

/** LightGBM's sum: double, from 0, in tree order. */
const sum = (...leaves: number[]): number => leaves.reduce((total, leaf) => total + leaf, 0);

async function bothEngines(model: ParsedModel, rows: number[][]): Promise<number[]> {
  const wasm = Array.from(predict(await loadModel(model), rows));
  expect(Array.from(predictTs(model, rows))).toEqual(wasm);
  return wasm;
}

describe("LightGBM missing types (lgb-missing.txt)", () => {
  // Tree 0: a, type None (default-left bit set but unused), a <= -0.5 -> 10 else 20; NaN reads as 0.
  // Tree 1: b, type Zero, default left, b <= -1 -> 100 else 200; NaN and |b| <= 1e-35f go left.
  // Tree 2: c, type Zero, default right, c <= 1 -> 1000 else 2000; NaN and |c| <= 1e-35f go right.
  // Tree 3: a, type NaN, default left, a <= 0.25 -> 10000 else 20000.
  // Tree 4: b <= 1e-35f (NaN right) -> 0.001, else c <= 5 (NaN left) -> 0.002 else 0.003.
  // Tree 5: a single leaf, 0.5.
  const model = parseModel(readText(fixture("lgb-missing.txt")));
  const cases: [number[], number][] = [
    [[NaN, NaN, NaN], sum(20, 100, 2000, 10000, 0.002, 0.5)],
    [[-1, 0, 0], sum(10, 100, 2000, 10000, 0.001, 0.5)],
    [[-0.5, -2, 0.5], sum(10, 100, 1000, 10000, 0.001, 0.5)],
    [[0.25, 5, 1], sum(20, 200, 1000, 10000, 0.002, 0.5)],
    [[0.25000000000000006, -0.5, 2], sum(20, 200, 2000, 20000, 0.001, 0.5)],
    [[0, 1e-36, 1e-36], sum(20, 100, 2000, 10000, 0.001, 0.5)],
    [[3, 2e-35, -1e-30], sum(20, 200, 1000, 20000, 0.002, 0.5)],
    [[-5, 1, 6], sum(10, 200, 2000, 10000, 0.003, 0.5)],
  ];

  it("follows None, Zero and NaN missing types and the default-left bit", async () => {
    expect(model).toMatchObject({ library: "lightgbm", version: "v4", objective: "regression", numTrees: 6 });
    expect(model.featureNames).toEqual(["a", "b", "c"]);
    expect(
      await bothEngines(
        model,
        cases.map(([row]) => row),
      ),
    ).toEqual(cases.map(([, value]) => value));
  });

  const withObjective = (objective: string) =>
    parseModel(readText(fixture("lgb-missing.txt")).replace("objective=regression", `objective=${objective}`));
  const margin = cases[0][1] / 10000; // keep exp() finite: scale the leaves down
  const scaled = (objective: string) => {
    const m = withObjective(objective);
    m.forest.nodeValue.forEach((v, i) => (m.forest.nodeValue[i] = v / 10000));
    return m;
  };

  it.each([
    ["poisson", Math.exp(margin)],
    ["gamma", Math.exp(margin)],
    ["tweedie tweedie_variance_power:1.5", Math.exp(margin)],
    ["binary sigmoid:2", 1 / (1 + Math.exp(-2 * margin))],
    ["cross_entropy", 1 / (1 + Math.exp(-margin))],
    ["regression sqrt", margin * margin],
    ["regression_l1", margin],
    ["huber", margin],
    ["quantile", margin],
  ])("applies the output transform of objective=%s", async (objective, expected) => {
    const [value] = await bothEngines(scaled(objective), [cases[0][0]]);
    expect(value).toBeCloseTo(expected, 12);
  });

  it.each([
    ["multiclass num_class:3", /objective "multiclass num_class:3" is not supported/],
    ["lambdarank", /objective "lambdarank" is not supported/],
  ])("refuses objective=%s", (objective, message) => {
    expect(() => withObjective(objective)).toThrow(message);
  });
});

describe("LightGBM categorical splits (lgb-categorical.txt)", () => {
  // Tree 0: seam_kind in {1, 3, 33} (cat_threshold words 10 = 0b1010, 2 = bit 33) -> 1 else 2.
  // Tree 1: depth <= 10 (NaN right) -> [seam_kind in {0} -> 0.1 else 0.2], else 0.3.
  // A category is static_cast<int>(x): 3.7 -> 3, -0.5 -> 0; NaN and negatives go right.
  const model = parseModel(readText(fixture("lgb-categorical.txt")));
  const cases: [number[], number][] = [
    [[1, 5], sum(1, 0.2)],
    [[3, 20], sum(1, 0.3)],
    [[33, NaN], sum(1, 0.3)],
    [[2, 5], sum(2, 0.2)],
    [[0, 5], sum(2, 0.1)],
    [[32, 5], sum(2, 0.2)],
    [[64, 5], sum(2, 0.2)],
    [[-1, 5], sum(2, 0.2)],
    [[NaN, 5], sum(2, 0.2)],
    [[3.7, 5], sum(1, 0.2)],
    [[-0.5, 5], sum(2, 0.1)],
    [[1e10, 5], sum(2, 0.2)],
  ];

  it("sends categories in the bitset left, others right", async () => {
    expect(model.featureNames).toEqual(["seam_kind", "depth"]);
    expect(
      await bothEngines(
        model,
        cases.map(([row]) => row),
      ),
    ).toEqual(cases.map(([, value]) => value));
  });
});

describe("LightGBM linear trees (lgb-linear.txt)", () => {
  // Tree 0: x <= 0 (NaN right) -> 1 + 0.5x + 0.25z (0.5 if x or z is NaN), else 2 - z (-0.5 if z NaN).
  // Tree 1: one linear leaf 0.1 + 0.01x (0.01 if x is NaN). Tree 2: one linear leaf, no features: 0.001.
  const model = parseModel(readText(fixture("lgb-linear.txt")));
  const cases: [number[], number][] = [
    [[-2, 4], sum(1 + 0.5 * -2 + 0.25 * 4, 0.1 + 0.01 * -2, 0.001)],
    [[1, 3], sum(2 + -1 * 3, 0.1 + 0.01 * 1, 0.001)],
    [[-2, NaN], sum(0.5, 0.1 + 0.01 * -2, 0.001)],
    [[NaN, 3], sum(2 + -1 * 3, 0.01, 0.001)],
    [[1, NaN], sum(-0.5, 0.1 + 0.01 * 1, 0.001)],
  ];

  it("adds the leaf's linear model, or falls back to the leaf value on NaN", async () => {
    expect(
      await bothEngines(
        model,
        cases.map(([row]) => row),
      ),
    ).toEqual(cases.map(([, value]) => value));
  });
});

describe("LightGBM reader", () => {
  const text = readText(fixture("lgb-missing.txt"));

  it.each([
    ["a multiclass model", text.replace("num_class=1", "num_class=3"), /multiclass models \(num_class=3\)/],
    ["random forest averaging", text.replace("objective=regression", "objective=regression\naverage_output"), /average_output/],
    ["another format version", text.replace("version=v4", "version=v9"), /format version "v9"/],
    ["a model without objective", text.replace("objective=regression\n", ""), /no objective line/],
    ["a truncated file", text.slice(0, text.indexOf("Tree=3")), /truncated/],
    ["a split on a feature the model lacks", text.replace("split_feature=1 2", "split_feature=1 7"), /splits on feature 7/],
    ["feature names that do not match max_feature_idx", text.replace("feature_names=a b c", "feature_names=a b"), /2 feature names/],
    ["an unknown missing type", text.replace("decision_type=8 10", "decision_type=8 14"), /unknown missing type/],
    ["arrays of the wrong length", text.replace("leaf_value=10 20", "leaf_value=10"), /leaf_value has 1 values, expected 2/],
    ["anything else", "hello", /unrecognised model file/],
  ])("refuses %s with a clear error", (_, model, message) => {
    expect(() => parseModel(model)).toThrow(message);
  });

  it("stores each tree breadth-first with the right child next to the left and leaves looping to themselves", () => {
    const { forest } = parseModel(readText(fixture("lgb-categorical.txt")));
    // Tree 1: root (depth), its children [seam_kind split, leaf 0.3], then leaves [0.1, 0.2].
    const root = forest.treeRoots[1];
    expect([forest.nodeFeature[root], forest.treeDepth[1]]).toEqual([1, 2]);
    const left = forest.nodeLeft[root];
    expect([forest.nodeFeature[left], forest.nodeValue[left + 1]]).toEqual([0, 0.3]);
    const grandchild = forest.nodeLeft[left];
    expect([forest.nodeValue[grandchild], forest.nodeValue[grandchild + 1]]).toEqual([0.1, 0.2]);
    expect(forest.nodeLeft[grandchild]).toBe(grandchild);
    expect(forest.nodeFlags[grandchild] & LEAF).toBe(LEAF);
    expect(forest.nodeThreshold[grandchild]).toBeNaN();
  });
});
