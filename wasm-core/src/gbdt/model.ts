// The parsed form of a gradient-boosted tree model, shared by the XGBoost and LightGBM readers,
// the WASM core (wasm-core/assembly/gbdt.ts) and the plain TypeScript evaluator. Layout and
// semantics are described in MODEL_FORMATS.md next to this file.

export type GbdtLibrary = "xgboost" | "lightgbm";

/** Node flag bits (nodeFlags). Same values in wasm-core/assembly/gbdt.ts. */
export const DEFAULT_LEFT = 1;
/** LightGBM missing type Zero: NaN and |x| <= 1e-35f follow the default direction. */
export const MISSING_ZERO = 2;
/** LightGBM missing type None: NaN is compared as 0. */
export const MISSING_NONE = 4;
/** LightGBM categorical split: nodeThreshold is an index into catBegin/catEnd. */
export const CATEGORICAL = 8;
export const LEAF = 16;
/**
 * Splits that need more than one comparison. All others (XGBoost's, LightGBM's missing type NaN)
 * decide NaN by the comparison alone: default left goes right when x >= t (x > t), false for NaN;
 * default right goes right when !(x < t) (!(x <= t)), true for NaN.
 */
export const SPECIAL = MISSING_ZERO | MISSING_NONE | CATEGORICAL;

/**
 * All trees of one model in one set of typed arrays (structure of arrays). Node indices are
 * global; each tree's nodes are stored breadth-first, so the right child of node n is always
 * nodeLeft[n] + 1. A leaf loops to itself (nodeLeft = itself, threshold NaN, default left,
 * feature 0), so a walk may take exactly treeDepth steps with no test for leaves.
 */
export interface FlatForest {
  numFeatures: number;
  /** XGBoost: inputs rounded to float32, leaves summed in float32. LightGBM: double throughout. */
  float32: boolean;
  /** LightGBM goes left when x <= threshold; XGBoost when x < threshold. */
  leftWhenEqual: boolean;
  /** Start of the sum, in margin space (XGBoost base_score after the link; 0 for LightGBM). */
  baseMargin: number;
  treeRoots: Int32Array;
  /** Longest root-to-leaf path of each tree, in splits. */
  treeDepth: Int32Array;
  nodeFeature: Int32Array;
  nodeFlags: Uint8Array;
  nodeThreshold: Float64Array;
  nodeLeft: Int32Array;
  /** Leaf output (XGBoost: already times the dart weight, in float32); 0 at splits. */
  nodeValue: Float64Array;
  /** Categorical splits: bitset words catWords[catBegin[k] .. catEnd[k]). */
  catBegin: Int32Array;
  catEnd: Int32Array;
  catWords: Uint32Array;
  /**
   * LightGBM linear trees, per node (empty arrays when the model has none). At a linear leaf
   * (leafLinearBegin >= 0) the output is leafConst + sum(linearCoeff[i] * x[linearFeature[i]]);
   * if one of those x is NaN the plain leaf value in nodeValue is used instead.
   */
  leafLinearBegin: Int32Array;
  leafLinearEnd: Int32Array;
  leafConst: Float64Array;
  linearFeature: Int32Array;
  linearCoeff: Float64Array;
}

/** The link inverse applied to the summed margin. */
export type OutputTransform =
  | { kind: "identity" }
  | { kind: "exp" }
  | { kind: "sigmoid"; scale: number }
  /** LightGBM `regression sqrt`: the model was trained on sqrt(y), output sign(m) * m^2. */
  | { kind: "signed-square" };

export interface ParsedModel {
  library: GbdtLibrary;
  /** XGBoost: the writer's version ("1.7.4"); LightGBM: the text format version ("v4"). */
  version: string;
  /** As the file names it: "reg:squarederror", "regression", "binary sigmoid:1", ... */
  objective: string;
  /** Minutes ahead the model forecasts (XGBoost `learner.attributes.horizon_minutes`; horizon.ts); 0: the nowcast. */
  horizon: number;
  featureNames: string[];
  numTrees: number;
  output: OutputTransform;
  forest: FlatForest;
}

/** Turns margins into predictions in place, with the library's own precision. */
export function applyOutput(model: ParsedModel, values: Float64Array): Float64Array {
  const { output } = model;
  const f32 = model.forest.float32;
  const round = f32 ? Math.fround : (v: number) => v;
  switch (output.kind) {
    case "identity":
      break;
    case "exp":
      for (let i = 0; i < values.length; i++) values[i] = round(Math.exp(values[i]));
      break;
    case "sigmoid":
      // XGBoost: 1.0f / (1.0f + expf(-x)) in float; LightGBM: 1 / (1 + exp(-sigmoid * x)) in double.
      for (let i = 0; i < values.length; i++) {
        values[i] = round(1 / round(1 + round(Math.exp(-output.scale * values[i]))));
      }
      break;
    case "signed-square":
      for (let i = 0; i < values.length; i++) values[i] = Math.sign(values[i]) * values[i] * values[i];
      break;
  }
  return values;
}
