// Small XGBoost models of other shapes, with predictions written by XGBoost 1.7.4 itself
// (fixtures/make_xgboost_fixtures.py), and the models we refuse.
import { describe, expect, it } from "vitest";
import { loadModel, parseModel, predict, predictTs } from "./index";
import { fixture, readCsvWithColumn, readText } from "./test-fixtures";

const shapes = [
  { name: "xgb-dart-poisson", objective: "count:poisson", trees: 8 },
  { name: "xgb-logistic", objective: "binary:logistic", trees: 6 },
  { name: "xgb-logitraw", objective: "binary:logitraw", trees: 6 },
  { name: "xgb-gamma", objective: "reg:gamma", trees: 6 },
  { name: "xgb-tweedie", objective: "reg:tweedie", trees: 6 },
  { name: "xgb-unnamed", objective: "reg:pseudohubererror", trees: 6 },
];

describe.each(shapes)("$name", ({ name, objective, trees }) => {
  const text = readText(fixture(`${name}.json`));
  const parsed = parseModel(text);
  const expected = readCsvWithColumn(fixture(`${name}.csv`), parsed.featureNames, "expected");

  it("matches XGBoost's own predictions bit for bit, in WASM and in TypeScript", async () => {
    expect(parsed).toMatchObject({ library: "xgboost", version: "1.7.4", objective, numTrees: trees });
    const wasm = predict(await loadModel(text), expected.rows);
    expect(Array.from(wasm)).toEqual(Array.from(expected.values));
    expect(Array.from(predictTs(parsed, expected.rows))).toEqual(Array.from(expected.values));
  });
});

describe("XGBoost reader", () => {
  const base = JSON.parse(readText(fixture("xgb-logistic.json")));
  const edited = (change: (doc: any) => void): string => {
    const doc = structuredClone(base);
    change(doc);
    return JSON.stringify(doc);
  };

  it("names unnamed features f0, f1, ... as XGBoost does", () => {
    expect(parseModel(readText(fixture("xgb-unnamed.json"))).featureNames).toEqual(["f0", "f1", "f2", "f3"]);
  });

  it("folds dart weight_drop into the leaves", () => {
    const dart = parseModel(readText(fixture("xgb-dart-poisson.json")));
    const weights = JSON.parse(readText(fixture("xgb-dart-poisson.json"))).learner.gradient_booster.weight_drop;
    expect(weights.some((w: number) => w !== 1)).toBe(true);
    const plain = parseModel(
      edited((doc) => {
        const dartDoc = JSON.parse(readText(fixture("xgb-dart-poisson.json")));
        doc.learner = dartDoc.learner;
        doc.learner.gradient_booster = { name: "gbtree", model: dartDoc.learner.gradient_booster.gbtree.model };
      }),
    );
    expect(Array.from(dart.forest.nodeValue)).not.toEqual(Array.from(plain.forest.nodeValue));
  });

  it("takes base_score from output space into margin space", () => {
    // reg:logistic, base_score 0.3: margin -logf(1/0.3f - 1)
    expect(parseModel(JSON.stringify(base)).forest.baseMargin).toBeCloseTo(Math.log(0.3 / 0.7), 6);
    expect(parseModel(readText(fixture("xgb-dart-poisson.json"))).forest.baseMargin).toBeCloseTo(Math.log(2), 6);
    // 3.x writes one base_score per target in brackets
    const bracketed = edited((doc) => (doc.learner.learner_model_param.base_score = "[3E-1]"));
    expect(parseModel(bracketed).forest.baseMargin).toBe(parseModel(JSON.stringify(base)).forest.baseMargin);
  });

  it.each([
    ["gblinear", () => readText(fixture("xgb-gblinear.json")), /booster "gblinear" is not supported/],
    ["a multiclass model", () => readText(fixture("xgb-multiclass.json")), /multiclass models \(num_class=3\)/],
    ["an unknown objective", () => edited((d) => (d.learner.objective.name = "survival:cox")), /objective "survival:cox" is not supported/],
    ["hinge loss", () => edited((d) => (d.learner.objective.name = "binary:hinge")), /objective "binary:hinge"/],
    ["multi-target trees", () => edited((d) => (d.learner.learner_model_param.num_target = "2")), /multi-output models/],
    ["vector leaves", () => edited((d) => (d.learner.gradient_booster.model.trees[0].tree_param.size_leaf_vector = "3")), /vector leaves/],
    [
      "categorical splits",
      () => edited((d) => (d.learner.gradient_booster.model.trees[2].split_type[0] = 1)),
      /tree 2 has categorical splits/,
    ],
    ["categorical features", () => edited((d) => (d.learner.feature_types[1] = "c")), /categorical features \(f1\)/],
    [
      "a split on a feature the model lacks",
      () => edited((d) => (d.learner.gradient_booster.model.trees[0].split_indices[0] = 9)),
      /feature 9/,
    ],
    ["a dump_model tree dump", () => '[{"nodeid":0}]', /dump_model/],
    ["a binary UBJSON file", () => "{L\u0000\u0000\u0000\u0007learner", /not valid JSON/],
    ["truncated JSON", () => readText(fixture("xgb-logistic.json")).slice(0, 500), /not valid JSON/],
  ])("refuses %s with a clear error", (_, text, message) => {
    expect(() => parseModel(text())).toThrow(message);
  });

  it("refuses rows whose width does not match the model's features", async () => {
    const model = await loadModel(JSON.stringify(base));
    expect(() => predict(model, [[1, 2, 3]])).toThrow(/row 0 has 3 values, expected the model's 4 features/);
    expect(() => predict(model, new Float64Array(7))).toThrow(/7 values are not whole rows/);
    expect(() => predict(model, [[1, 2, 3]], ["f0", "f1", "f3"])).toThrow(/lacks model feature\(s\) f2/);
  });
});
