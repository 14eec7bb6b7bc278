// The parsed form of a gradient-boosted tree model, shared by the XGBoost and LightGBM readers,
// the WASM core (wasm-core/assembly/gbdt.ts) and the plain TypeScript evaluator. Layout and
// semantics are described in MODEL_FORMATS.md next to this file.

export type GbdtLibrary = "xgboost" | "lightgbm";

/** Node flag bits (nodeFlags). Same values in wasm-core/assembly/gbdt.ts. */
export const DEFAULT_LEFT = 1;
/** LightGBM missing type Zero: NaN and |x| <= 1e-35 follow the default direction. */
export const MISSING_ZERO = 2;
/** XGBoost always, LightGBM missing type NaN: NaN follows the default direction. */
export const MISSING_NAN = 4;
/** LightGBM categorical split: nodeThreshold is an index into catBegin/catEnd. */
export const CATEGORICAL = 8;

/**
 * All trees of one model in one set of typed arrays (structure of arrays). Node indices are
 * global; each tree's nodes are stored breadth-first, so the right child of node n is always
 * nodeLeft[n] + 1.
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
  /** Split feature, or -1 for a leaf. */
  nodeFeature: Int32Array;
  nodeFlags: Uint8Array;
  /** Split value; at a leaf the leaf output (XGBoost: already times the dart weight, in float32). */
  nodeThreshold: Float64Array;
  nodeLeft: Int32Array;
  /** Categorical splits: bitset words catWords[catBegin[k] .. catEnd[k]). */
  catBegin: Int32Array;
  catEnd: Int32Array;
  catWords: Uint32Array;
  /**
   * LightGBM linear trees, per node (empty arrays when the model has none). At a linear leaf
   * (leafLinearBegin >= 0) the output is leafConst + sum(linearCoeff[i] * x[linearFeature[i]]);
   * if one of those x is NaN the plain leaf value in nodeThreshold is used instead.
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
