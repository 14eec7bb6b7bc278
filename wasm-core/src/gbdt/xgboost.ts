// Reader for XGBoost's JSON model format (Booster.save_model("...json"), XGBoost 1.0 and later).
// See MODEL_FORMATS.md for the subset we accept and why the arithmetic is float32.
import { flattenForest, type RawNode } from "./flatten";
import { modelHorizon } from "./horizon";
import { DEFAULT_LEFT, type OutputTransform, type ParsedModel } from "./model";

type Link = "identity" | "log" | "logit";

// Objective -> (output transform, link used to bring base_score into margin space).
// base_score is written in output space; XGBoost applies ObjFunction::ProbToMargin at load.
const OBJECTIVES: Record<string, { output: OutputTransform; link: Link }> = {
  "reg:squarederror": { output: { kind: "identity" }, link: "identity" },
  "reg:linear": { output: { kind: "identity" }, link: "identity" },
  "reg:squaredlogerror": { output: { kind: "identity" }, link: "identity" },
  "reg:absoluteerror": { output: { kind: "identity" }, link: "identity" },
  "reg:pseudohubererror": { output: { kind: "identity" }, link: "identity" },
  "reg:quantileerror": { output: { kind: "identity" }, link: "identity" },
  "count:poisson": { output: { kind: "exp" }, link: "log" },
  "reg:gamma": { output: { kind: "exp" }, link: "log" },
  "reg:tweedie": { output: { kind: "exp" }, link: "log" },
  "reg:logistic": { output: { kind: "sigmoid", scale: 1 }, link: "logit" },
  "binary:logistic": { output: { kind: "sigmoid", scale: 1 }, link: "logit" },
  // Raw margin out, and XGBoost takes its base_score as a margin too (checked against 1.7.4).
  "binary:logitraw": { output: { kind: "identity" }, link: "identity" },
};

interface JsonTree {
  left_children: number[];
  right_children: number[];
  split_indices: number[];
  split_conditions: number[];
  default_left: (number | boolean)[];
  split_type?: number[];
  tree_param?: { num_nodes?: string; size_leaf_vector?: string };
}

function fail(message: string): never {
  throw new Error(`XGBoost model: ${message}`);
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(`missing or malformed "${where}"`);
  return value as Record<string, unknown>;
}

function integerParam(params: Record<string, unknown>, key: string, fallback: number): number {
  const raw = params[key];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) fail(`learner_model_param.${key} is not an integer: ${String(raw)}`);
  return value;
}

/** base_score is "5E-1" in 1.x/2.x and "[5E-1]" (one value per target) in 3.x. */
function readBaseScore(raw: unknown): number {
  if (raw === undefined) return 0.5;
  const text = String(raw)
    .trim()
    .replace(/^\[(.*)\]$/, "$1");
  const parts = text.split(",");
  if (parts.length !== 1) fail(`base_score has ${parts.length} values: multi-output models are not supported`);
  const value = Number(parts[0]);
  if (parts[0].trim() === "" || !Number.isFinite(value)) fail(`base_score is not a number: ${String(raw)}`);
  return value;
}

/** ProbToMargin in float32, as XGBoost computes it (logf / 1.0f / base_score - 1.0f). */
function baseMargin(baseScore: number, link: Link, objective: string): number {
  const b = Math.fround(baseScore);
  if (link === "identity") return b;
  if (link === "log") {
    if (!(b > 0)) fail(`base_score ${baseScore} must be > 0 for ${objective}`);
    return Math.fround(Math.log(b));
  }
  if (!(b > 0 && b < 1)) fail(`base_score ${baseScore} must be in (0, 1) for ${objective}`);
  return Math.fround(-Math.log(Math.fround(Math.fround(1 / b) - 1)));
}

function readTree(tree: JsonTree, index: number, weight: number, numFeatures: number): RawNode {
  const where = `tree ${index}`;
  const { left_children: left, right_children: right, split_indices: feature, split_conditions: condition } = tree;
  const defaultLeft = tree.default_left;
  if (![left, right, feature, condition, defaultLeft].every(Array.isArray)) fail(`${where} lacks node arrays`);
  const n = left.length;
  if ([right, feature, condition, defaultLeft].some((a) => a.length !== n) || n === 0) {
    fail(`${where}: node arrays differ in length`);
  }
  const leafSize = Number(tree.tree_param?.size_leaf_vector ?? 0);
  if (leafSize > 1) fail(`${where} has vector leaves (size_leaf_vector=${leafSize}): multi-target trees are not supported`);
  if (tree.split_type?.some((t) => t !== 0)) fail(`${where} has categorical splits, which are not supported`);

  let visited = 0;
  const build = (i: number): RawNode => {
    if (!Number.isInteger(i) || i < 0 || i >= n || ++visited > n) fail(`${where}: bad child index ${i}`);
    if (left[i] === -1) {
      // The leaf value lives in split_conditions; dart scales it by weight_drop in float32.
      return { kind: "leaf", value: Math.fround(Math.fround(condition[i]) * weight) };
    }
    const f = feature[i];
    if (!Number.isInteger(f) || f < 0 || f >= numFeatures) {
      fail(`${where} splits on feature ${f}, the model has ${numFeatures} features`);
    }
    return {
      kind: "split",
      feature: f,
      flags: defaultLeft[i] ? DEFAULT_LEFT : 0,
      threshold: Math.fround(condition[i]),
      left: build(left[i]),
      right: build(right[i]),
    };
  };
  return build(0);
}

export function readXGBoostJson(text: string): ParsedModel {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (cause) {
    throw new Error("XGBoost model: not valid JSON (binary and UBJSON models are not supported; save as .json)", {
      cause,
    });
  }
  if (Array.isArray(doc)) fail("this is a Booster.dump_model() tree dump, not a model; save with Booster.save_model(...json)");
  const learner = object(object(doc, "(document)").learner, "learner");
  const versionRaw = object(doc, "(document)").version;
  const version = Array.isArray(versionRaw) ? versionRaw.join(".") : "unknown";

  const params = object(learner.learner_model_param, "learner.learner_model_param");
  const numClass = integerParam(params, "num_class", 0);
  if (numClass > 1) fail(`multiclass models (num_class=${numClass}) are not supported`);
  const numTarget = integerParam(params, "num_target", 1);
  if (numTarget > 1) fail(`multi-output models (num_target=${numTarget}) are not supported`);
  const numFeatures = integerParam(params, "num_feature", -1);
  if (numFeatures <= 0) fail("learner_model_param.num_feature is missing");

  const objective = String(object(learner.objective, "learner.objective").name);
  const spec = OBJECTIVES[objective];
  if (!spec) fail(`objective "${objective}" is not supported (supported: ${Object.keys(OBJECTIVES).join(", ")})`);

  const booster = object(learner.gradient_booster, "learner.gradient_booster");
  let model: Record<string, unknown>;
  let weights: number[] | undefined;
  if (booster.name === "gbtree") {
    model = object(booster.model, "gradient_booster.model");
  } else if (booster.name === "dart") {
    model = object(object(booster.gbtree, "gradient_booster.gbtree").model, "gradient_booster.gbtree.model");
    weights = booster.weight_drop as number[];
    if (!Array.isArray(weights)) fail("dart booster lacks weight_drop");
  } else {
    fail(`booster "${String(booster.name)}" is not supported (only gbtree and dart)`);
  }

  const trees = model.trees as JsonTree[];
  if (!Array.isArray(trees)) fail("gradient_booster has no trees array");
  if (weights && weights.length !== trees.length) {
    fail(`dart weight_drop has ${weights.length} weights for ${trees.length} trees`);
  }
  const treeInfo = model.tree_info as number[] | undefined;
  if (treeInfo?.some((group) => group !== 0)) fail("trees belong to several output groups: multiclass models are not supported");

  let featureNames = (learner.feature_names as string[] | undefined) ?? [];
  // Unnamed features are f0, f1, ... as XGBoost itself calls them.
  if (featureNames.length === 0) featureNames = Array.from({ length: numFeatures }, (_, i) => `f${i}`);
  if (featureNames.length !== numFeatures) {
    fail(`${featureNames.length} feature names for num_feature=${numFeatures}`);
  }
  const types = (learner.feature_types as string[] | undefined) ?? [];
  const categorical = featureNames.filter((_, i) => types[i] === "c");
  if (categorical.length > 0) fail(`categorical features (${categorical.join(", ")}) are not supported`);

  const rawTrees = trees.map((tree, i) => readTree(tree, i, weights ? Math.fround(weights[i]) : 1, numFeatures));
  const attributes = (typeof learner.attributes === "object" && learner.attributes !== null ? learner.attributes : {}) as Record<
    string,
    string
  >;
  const horizon = modelHorizon(attributes);
  if (!Number.isFinite(horizon) || horizon < 0)
    fail(`learner.attributes.horizon_minutes is not a number of minutes: ${attributes.horizon_minutes}`);
  return {
    library: "xgboost",
    version,
    objective,
    horizon,
    featureNames: featureNames.map(String),
    numTrees: trees.length,
    output: spec.output,
    forest: flattenForest(rawTrees, {
      numFeatures,
      float32: true,
      leftWhenEqual: false,
      baseMargin: baseMargin(readBaseScore(params.base_score), spec.link, objective),
    }),
  };
}
