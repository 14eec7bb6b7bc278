// Batch inference of gradient-boosted regression trees read from XGBoost JSON models and
// LightGBM text models (v4), flattened by wasm-core/src/gbdt/ (layout: MODEL_FORMATS.md there).
//
// Output: the summed margin per row, before the objective's link inverse (done in TypeScript).
// Semantics, per the libraries' own predictors:
//   XGBoost  (float32 = true):  x is rounded to float32; go left when x < split_condition;
//            NaN follows default_left; margin = base_score (margin space) + leaves, summed in
//            float32 in tree order (dart weights are already folded into the leaves).
//   LightGBM (float32 = false): go left when x <= threshold (double); missing type NaN: NaN follows
//            the default-left bit; Zero: NaN and |x| <= 1e-35f follow it; None: NaN reads as 0.
//            Categorical: int(x) in the bitset goes left, NaN/negative go right. Linear leaves add
//            const + sum(coeff * x) unless one x is NaN. Summed in double from 0.
// One instance holds one model: the host copies the arrays in once, then calls predictMargins per
// chunk of rows. Nothing is allocated per row.

// Node flag bits, same values as wasm-core/src/gbdt/model.ts.
const DEFAULT_LEFT: u8 = 1;
const MISSING_ZERO: u8 = 2;
const MISSING_NAN: u8 = 4;
const CATEGORICAL: u8 = 8;
// LightGBM kZeroThreshold: the float 1e-35f in a double.
const ZERO_THRESHOLD: f64 = <f64>(<f32>1e-35);

let treeRoots = new StaticArray<i32>(0);
let nodeFeature = new StaticArray<i32>(0);
let nodeFlags = new StaticArray<u8>(0);
let nodeThreshold = new StaticArray<f64>(0);
let nodeLeft = new StaticArray<i32>(0);
let catBegin = new StaticArray<i32>(0);
let catEnd = new StaticArray<i32>(0);
let catWords = new StaticArray<u32>(0);
let leafLinearBegin = new StaticArray<i32>(0);
let leafLinearEnd = new StaticArray<i32>(0);
let leafConst = new StaticArray<f64>(0);
let linearFeature = new StaticArray<i32>(0);
let linearCoeff = new StaticArray<f64>(0);
let numFeatures: i32 = 0;
let float32: bool = false;
let leftWhenEqual: bool = false;
let hasLinear: bool = false;
let baseMargin: f64 = 0;

// Rows in (row-major, model feature order) and margins out, reused for every chunk.
let rows = new StaticArray<f64>(0);
let margins = new StaticArray<f64>(0);

// Allocation for the host, which fills the arrays through memory before setForest.
export function newI32Array(length: i32): StaticArray<i32> {
  return new StaticArray<i32>(length);
}
export function newU8Array(length: i32): StaticArray<u8> {
  return new StaticArray<u8>(length);
}
export function newU32Array(length: i32): StaticArray<u32> {
  return new StaticArray<u32>(length);
}
export function newF64Array(length: i32): StaticArray<f64> {
  return new StaticArray<f64>(length);
}

export function setForest(
  roots: StaticArray<i32>,
  feature: StaticArray<i32>,
  flags: StaticArray<u8>,
  threshold: StaticArray<f64>,
  left: StaticArray<i32>,
  catBegin_: StaticArray<i32>,
  catEnd_: StaticArray<i32>,
  catWords_: StaticArray<u32>,
  linearBegin: StaticArray<i32>,
  linearEnd: StaticArray<i32>,
  constants: StaticArray<f64>,
  linearFeature_: StaticArray<i32>,
  linearCoeff_: StaticArray<f64>,
  numFeatures_: i32,
  float32_: bool,
  leftWhenEqual_: bool,
  baseMargin_: f64,
): void {
  treeRoots = roots;
  nodeFeature = feature;
  nodeFlags = flags;
  nodeThreshold = threshold;
  nodeLeft = left;
  catBegin = catBegin_;
  catEnd = catEnd_;
  catWords = catWords_;
  leafLinearBegin = linearBegin;
  leafLinearEnd = linearEnd;
  leafConst = constants;
  linearFeature = linearFeature_;
  linearCoeff = linearCoeff_;
  hasLinear = linearBegin.length > 0;
  numFeatures = numFeatures_;
  float32 = float32_;
  leftWhenEqual = leftWhenEqual_;
  baseMargin = baseMargin_;
}

/** Sizes the row and margin buffers for chunks of up to maxRows rows; returns the row buffer. */
export function reserveRows(maxRows: i32): StaticArray<f64> {
  rows = new StaticArray<f64>(maxRows * numFeatures);
  margins = new StaticArray<f64>(maxRows);
  return rows;
}

export function marginBuffer(): StaticArray<f64> {
  return margins;
}

// @ts-ignore: decorator
@inline function inCategories(node: i32, x: f64): bool {
  if (!(x > -1.0 && x < 2147483648.0)) return false; // NaN, negative, beyond int: right
  const category = <i32>x;
  const split = <i32>unchecked(nodeThreshold[node]);
  const word = unchecked(catBegin[split]) + (category >>> 5);
  if (word >= unchecked(catEnd[split])) return false;
  return ((unchecked(catWords[word]) >>> (category & 31)) & 1) != 0;
}

// strict is a constant at every call site, so each specialised loop keeps one comparison.
// @ts-ignore: decorator
@inline function goesLeft(node: i32, x: f64, strict: bool): bool {
  const flags = unchecked(nodeFlags[node]);
  if (flags & CATEGORICAL) return inCategories(node, x);
  if (isNaN(x)) {
    if (flags & (MISSING_NAN | MISSING_ZERO)) return (flags & DEFAULT_LEFT) != 0;
    x = 0; // LightGBM missing type None reads NaN as 0
  } else if (flags & MISSING_ZERO && abs(x) <= ZERO_THRESHOLD) {
    return (flags & DEFAULT_LEFT) != 0;
  }
  const threshold = unchecked(nodeThreshold[node]);
  return strict ? x < threshold : x <= threshold;
}

function linearLeaf(leaf: i32, base: i32): f64 {
  const begin = unchecked(leafLinearBegin[leaf]);
  if (begin < 0) return unchecked(nodeThreshold[leaf]);
  let value = unchecked(leafConst[leaf]);
  const end = unchecked(leafLinearEnd[leaf]);
  for (let i = begin; i < end; i++) {
    const x = unchecked(rows[base + unchecked(linearFeature[i])]);
    if (isNaN(x)) return unchecked(nodeThreshold[leaf]);
    value += unchecked(linearCoeff[i]) * x;
  }
  return value;
}

// @ts-ignore: decorator
@inline function sumTrees(rowCount: i32, strict: bool, single: bool): void {
  const treeCount = treeRoots.length;
  for (let r = 0; r < rowCount; r++) {
    const base = r * numFeatures;
    let margin = baseMargin;
    for (let t = 0; t < treeCount; t++) {
      let node = unchecked(treeRoots[t]);
      let feature = unchecked(nodeFeature[node]);
      while (feature >= 0) {
        const x = unchecked(rows[base + feature]);
        node = unchecked(nodeLeft[node]) + (goesLeft(node, x, strict) ? 0 : 1);
        feature = unchecked(nodeFeature[node]);
      }
      const value = hasLinear ? linearLeaf(node, base) : unchecked(nodeThreshold[node]);
      margin = single ? <f64><f32>(margin + value) : margin + value;
    }
    unchecked((margins[r] = margin));
  }
}

/** Margins of the first rowCount rows of the row buffer into the margin buffer. */
export function predictMargins(rowCount: i32): void {
  if (float32) {
    // XGBoost compares float32 features: round the chunk once instead of at every node.
    const n = rowCount * numFeatures;
    for (let i = 0; i < n; i++) unchecked((rows[i] = <f64><f32>unchecked(rows[i])));
  }
  if (float32 && !leftWhenEqual) sumTrees(rowCount, true, true);
  else if (!float32 && leftWhenEqual) sumTrees(rowCount, false, false);
  else if (float32) sumTrees(rowCount, false, true);
  else sumTrees(rowCount, true, false);
}
