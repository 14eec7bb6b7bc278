// Plain TypeScript evaluation of a FlatForest: the same walk as wasm-core/assembly/gbdt.ts, kept
// as the cross-check for the WASM core and as the baseline in the benchmark.
import { applyOutput, CATEGORICAL, DEFAULT_LEFT, LEAF, MISSING_NONE, MISSING_ZERO, type FlatForest, type ParsedModel } from "./model";
import { rowSource, type Rows } from "./rows";

// LightGBM's kZeroThreshold is the float 1e-35f held in a double.
const ZERO_THRESHOLD = Math.fround(1e-35);

function goesLeft(forest: FlatForest, node: number, x: number): boolean {
  const flags = forest.nodeFlags[node];
  const threshold = forest.nodeThreshold[node];
  if (flags & CATEGORICAL) {
    // LightGBM: NaN and negative categories go right; the category is static_cast<int>(x).
    if (!(x > -1 && x < 2147483648)) return false;
    const category = Math.trunc(x);
    const word = forest.catBegin[threshold] + (category >>> 5);
    if (word >= forest.catEnd[threshold]) return false;
    return ((forest.catWords[word] >>> (category & 31)) & 1) !== 0;
  }
  if (Number.isNaN(x)) {
    if (!(flags & MISSING_NONE)) return (flags & DEFAULT_LEFT) !== 0;
    x = 0; // LightGBM missing type None reads NaN as 0
  } else if (flags & MISSING_ZERO && x >= -ZERO_THRESHOLD && x <= ZERO_THRESHOLD) {
    return (flags & DEFAULT_LEFT) !== 0;
  }
  return forest.leftWhenEqual ? x <= threshold : x < threshold;
}

function leafValue(forest: FlatForest, leaf: number, data: Float64Array, base: number): number {
  const begin = forest.leafLinearBegin.length > 0 ? forest.leafLinearBegin[leaf] : -1;
  if (begin < 0) return forest.nodeValue[leaf];
  let value = forest.leafConst[leaf];
  for (let i = begin; i < forest.leafLinearEnd[leaf]; i++) {
    const x = data[base + forest.linearFeature[i]];
    if (Number.isNaN(x)) return forest.nodeValue[leaf];
    value += forest.linearCoeff[i] * x;
  }
  return value;
}

/** Margins of rowCount rows of data (model feature order, already float32-rounded if the model says so). */
export function forestMargins(forest: FlatForest, data: Float64Array, rowCount: number, out: Float64Array): void {
  const { nodeFlags, nodeFeature, nodeLeft, treeRoots } = forest;
  const width = forest.numFeatures;
  for (let r = 0; r < rowCount; r++) {
    const base = r * width;
    let margin = forest.baseMargin;
    for (let t = 0; t < treeRoots.length; t++) {
      let node = treeRoots[t];
      while (!(nodeFlags[node] & LEAF)) {
        node = nodeLeft[node] + (goesLeft(forest, node, data[base + nodeFeature[node]]) ? 0 : 1);
      }
      const value = leafValue(forest, node, data, base);
      margin = forest.float32 ? Math.fround(margin + value) : margin + value;
    }
    out[r] = margin;
  }
}

/** Predictions with the plain TypeScript evaluator; same contract as predict() in index.ts. */
export function predictTs(model: ParsedModel, rows: Rows, featureOrder?: readonly string[]): Float64Array {
  const source = rowSource(model, rows, featureOrder);
  const data = new Float64Array(source.rowCount * model.forest.numFeatures);
  source.fill(data, 0, source.rowCount);
  // XGBoost stores features as float before comparing (DMatrix / inplace_predict adapters).
  if (model.forest.float32) for (let i = 0; i < data.length; i++) data[i] = Math.fround(data[i]);
  const out = new Float64Array(source.rowCount);
  forestMargins(model.forest, data, source.rowCount, out);
  return applyOutput(model, out);
}
