// Larger XGBoost models for the gbdt bench, made here and not downloaded: the default model's JSON
// with its trees replaced by `trees` full depth-6 trees (64 leaves each, the most QuickScorer
// takes), splits on the default model's features at values taken from the golden rows, random
// default directions and small leaves, from a seeded generator, so every run builds the same bytes.
// The files are complete XGBoost 1.7 JSON models: native XGBoost loads them in the same bench.
import { readFileSync } from "node:fs";
import { readFeatureCsv } from "@core/gbdt/csv";
import { modelFixture } from "../support/models";

const DEPTH = 6;

// XGBoost's JSON reader tells floats from integers by their spelling: float fields need "0.0", not
// the "0" JSON.stringify writes. Such arrays go in as marked strings and are unquoted at the end.
const FLOATS = "__floats__";
const floats = (values: number[]): string => `${FLOATS}[${values.map((v) => (Number.isInteger(v) ? v.toFixed(1) : String(v))).join(",")}]`;

/** mulberry32: a small seeded generator, enough to spread splits and leaves. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** XGBoost JSON text of a model with `trees` full depth-6 trees on the default model's features. */
export function syntheticXGBoost(trees: number, seed = 20240611): string {
  const doc = JSON.parse(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  const names: string[] = doc.learner.feature_names;
  const { rows, rowCount } = readFeatureCsv(readFileSync(modelFixture("golden-default.csv"), "utf8"), names);
  const random = generator(seed);
  const splits = 2 ** DEPTH - 1;
  const nodes = 2 ** (DEPTH + 1) - 1;
  const made = [];
  for (let id = 0; id < trees; id++) {
    const left: number[] = [];
    const right: number[] = [];
    const feature: number[] = [];
    const condition: number[] = [];
    const defaultLeft: number[] = [];
    const parents: number[] = [];
    for (let i = 0; i < nodes; i++) {
      parents.push(i === 0 ? 2147483647 : (i - 1) >> 1);
      if (i < splits) {
        const f = Math.floor(random() * names.length);
        // A value some golden row has (NaN cells skipped), so rows split on both sides.
        let x = Number.NaN;
        while (Number.isNaN(x)) x = rows[Math.floor(random() * rowCount) * names.length + f];
        left.push(2 * i + 1);
        right.push(2 * i + 2);
        feature.push(f);
        condition.push(Math.fround(x));
        defaultLeft.push(random() < 0.5 ? 1 : 0);
      } else {
        left.push(-1);
        right.push(-1);
        feature.push(0);
        condition.push(Math.fround((random() - 0.5) * 0.02));
        defaultLeft.push(0);
      }
    }
    made.push({
      base_weights: floats(condition.map(() => 0)),
      categories: [],
      categories_nodes: [],
      categories_segments: [],
      categories_sizes: [],
      default_left: defaultLeft,
      id,
      left_children: left,
      loss_changes: floats(condition.map(() => 0)),
      parents,
      right_children: right,
      split_conditions: floats(condition),
      split_indices: feature,
      split_type: condition.map(() => 0),
      sum_hessian: floats(condition.map(() => 1)),
      tree_param: { num_deleted: "0", num_feature: String(names.length), num_nodes: String(nodes), size_leaf_vector: "0" },
    });
  }
  const model = doc.learner.gradient_booster.model;
  model.trees = made;
  model.tree_info = made.map(() => 0);
  model.gbtree_model_param.num_trees = String(trees);
  doc.learner.attributes = { best_iteration: String(trees - 1), best_ntree_limit: String(trees) };
  return JSON.stringify(doc).replace(new RegExp(`"${FLOATS}(\\[[^\\]]*\\])"`, "g"), "$1");
}
