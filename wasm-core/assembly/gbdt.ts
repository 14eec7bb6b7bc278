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
//
// Speed. A tree walk is a chain of dependent loads (node -> feature -> x -> compare -> child), so:
//  - eight rows walk each tree in lockstep: eight independent chains for the CPU to overlap;
//  - every walk takes exactly treeDepth steps: leaves loop to themselves, no test for leaves;
//  - NaN costs no branch: each row is stored twice, NaN read as +inf in the first copy and as
//    -inf in the second, and a default-left split reads its feature from the second copy. Going
//    right when x >= t (XGBoost) or x > t (LightGBM) then sends NaN right (+inf) or left (-inf).
//    Leaves have threshold NaN, so every comparison there is false and the walk stays put.
//  Splits for which this does not hold (LightGBM categorical, missing type Zero or None, and
//  infinite thresholds) make the model take the full step with flags for every node.

// Node flag bits, same values as wasm-core/src/gbdt/model.ts.
const DEFAULT_LEFT: u8 = 1;
const MISSING_ZERO: u8 = 2;
const MISSING_NONE: u8 = 4;
const CATEGORICAL: u8 = 8;
const LEAF: u8 = 16;
const SPECIAL: u8 = MISSING_ZERO | MISSING_NONE | CATEGORICAL;
// LightGBM kZeroThreshold: the float 1e-35f in a double.
const ZERO_THRESHOLD: f64 = <f64>(<f32>1e-35);
// Rows per block: each tree walks all rows of a block before the next tree.
const BLOCK: i32 = 2048;

let treeRoots = new StaticArray<i32>(0);
let treeDepth = new StaticArray<i32>(0);
let nodeFeature = new StaticArray<i32>(0);
let nodeFlags = new StaticArray<u8>(0);
let nodeThreshold = new StaticArray<f64>(0);
let nodeLeft = new StaticArray<i32>(0);
let nodeValue = new StaticArray<f64>(0);
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
// Some split needs the full step (see the header).
let needsFlags: bool = false;
// Per node, built at setForest: the index of x within a doubled row (feature, or feature +
// numFeatures when NaN goes left) in the low half, the left child in the high half. One load
// gives both.
let nodeLink = new StaticArray<i64>(0);

// Rows in (row-major, model feature order) and margins out, reused for every chunk.
let rows = new StaticArray<f64>(0);
let margins = new StaticArray<f64>(0);
// The chunk's rows twice over, NaN as +inf then as -inf (see the header).
let doubledRows = new StaticArray<f64>(0);

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
  depths: StaticArray<i32>,
  feature: StaticArray<i32>,
  flags: StaticArray<u8>,
  threshold: StaticArray<f64>,
  left: StaticArray<i32>,
  value: StaticArray<f64>,
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
  treeDepth = depths;
  nodeFeature = feature;
  nodeFlags = flags;
  nodeThreshold = threshold;
  nodeLeft = left;
  nodeValue = value;
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

  needsFlags = false;
  nodeLink = new StaticArray<i64>(feature.length);
  for (let i = 0; i < feature.length; i++) {
    const f = unchecked(flags[i]);
    const t = unchecked(threshold[i]);
    if (f & SPECIAL || (!(f & LEAF) && !isFinite(t))) needsFlags = true;
    const column = unchecked(feature[i]) + (f & DEFAULT_LEFT ? numFeatures : 0);
    unchecked((nodeLink[i] = <i64><u32>column | (<i64>unchecked(left[i]) << 32)));
  }
}

/** Sizes the row and margin buffers for chunks of up to maxRows rows; returns the row buffer. */
export function reserveRows(maxRows: i32): StaticArray<f64> {
  rows = new StaticArray<f64>(maxRows * numFeatures);
  margins = new StaticArray<f64>(maxRows);
  doubledRows = new StaticArray<f64>(maxRows * numFeatures * 2);
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

/** 1 if the row goes right at node: every split type and missing type, x as given (NaN kept). */
function fullRight(node: i32, x: f64, strict: bool): i32 {
  const flags = unchecked(nodeFlags[node]);
  if (flags & LEAF) return 0;
  if (flags & CATEGORICAL) return inCategories(node, x) ? 0 : 1;
  if (isNaN(x)) {
    if (!(flags & MISSING_NONE)) return flags & DEFAULT_LEFT ? 0 : 1;
    x = 0; // LightGBM missing type None reads NaN as 0
  } else if (flags & MISSING_ZERO && abs(x) <= ZERO_THRESHOLD) {
    return flags & DEFAULT_LEFT ? 0 : 1;
  }
  const threshold = unchecked(nodeThreshold[node]);
  return (strict ? x < threshold : x <= threshold) ? 0 : 1;
}

// One step down a tree. strict (XGBoost <, LightGBM <=) and full are constants at every call
// site. The arrays come in as locals so the engine keeps their addresses in registers.
// @ts-ignore: decorator
@inline function step(
  node: i32,
  base: i32,
  strict: bool,
  full: bool,
  data: StaticArray<f64>,
  link: StaticArray<i64>,
  thresholdOf: StaticArray<f64>,
): i32 {
  const pair = unchecked(link[node]);
  const child = <i32>(pair >>> 32);
  if (full) return child + fullRight(node, unchecked(data[base + unchecked(nodeFeature[node])]), strict);
  const x = unchecked(data[base + <i32>pair]);
  const threshold = unchecked(thresholdOf[node]);
  return child + (strict ? <i32>(x >= threshold) : <i32>(x > threshold));
}

function linearLeaf(leaf: i32, base: i32): f64 {
  const begin = unchecked(leafLinearBegin[leaf]);
  if (begin < 0) return unchecked(nodeValue[leaf]);
  let value = unchecked(leafConst[leaf]);
  const end = unchecked(leafLinearEnd[leaf]);
  for (let i = begin; i < end; i++) {
    const x = unchecked(rows[base + unchecked(linearFeature[i])]);
    if (isNaN(x)) return unchecked(nodeValue[leaf]);
    value += unchecked(linearCoeff[i]) * x;
  }
  return value;
}

// @ts-ignore: decorator
@inline function addLeaf(row: i32, leaf: i32, single: bool): void {
  const value = hasLinear ? linearLeaf(leaf, row * numFeatures) : unchecked(nodeValue[leaf]);
  const sum = unchecked(margins[row]) + value;
  unchecked((margins[row] = single ? <f64><f32>sum : sum));
}

// @ts-ignore: decorator
@inline function sumTrees(rowCount: i32, strict: bool, single: bool, full: bool): void {
  const treeCount = treeRoots.length;
  // The fast step reads the doubled rows, the full step the rows as given.
  const data = full ? rows : doubledRows;
  const stride = full ? numFeatures : numFeatures * 2;
  const link = nodeLink;
  const threshold = nodeThreshold;
  for (let start = 0; start < rowCount; start += BLOCK) {
    const end = min(start + BLOCK, rowCount);
    for (let t = 0; t < treeCount; t++) {
      const root = unchecked(treeRoots[t]);
      const depth = unchecked(treeDepth[t]);
      let r = start;
      for (; r + 8 <= end; r += 8) {
        const b0 = r * stride;
        const b1 = b0 + stride;
        const b2 = b1 + stride;
        const b3 = b2 + stride;
        const b4 = b3 + stride;
        const b5 = b4 + stride;
        const b6 = b5 + stride;
        const b7 = b6 + stride;
        let n0 = root;
        let n1 = root;
        let n2 = root;
        let n3 = root;
        let n4 = root;
        let n5 = root;
        let n6 = root;
        let n7 = root;
        for (let d = 0; d < depth; d++) {
          n0 = step(n0, b0, strict, full, data, link, threshold);
          n1 = step(n1, b1, strict, full, data, link, threshold);
          n2 = step(n2, b2, strict, full, data, link, threshold);
          n3 = step(n3, b3, strict, full, data, link, threshold);
          n4 = step(n4, b4, strict, full, data, link, threshold);
          n5 = step(n5, b5, strict, full, data, link, threshold);
          n6 = step(n6, b6, strict, full, data, link, threshold);
          n7 = step(n7, b7, strict, full, data, link, threshold);
        }
        addLeaf(r, n0, single);
        addLeaf(r + 1, n1, single);
        addLeaf(r + 2, n2, single);
        addLeaf(r + 3, n3, single);
        addLeaf(r + 4, n4, single);
        addLeaf(r + 5, n5, single);
        addLeaf(r + 6, n6, single);
        addLeaf(r + 7, n7, single);
      }
      for (; r < end; r++) {
        const base = r * stride;
        let node = root;
        for (let d = 0; d < depth; d++) node = step(node, base, strict, full, data, link, threshold);
        addLeaf(r, node, single);
      }
    }
  }
}

// One function per combination the readers produce, each with constant flags so the optimizer
// folds them into the walk (inlined into one function, the flags would stay runtime values);
// any other combination takes the generic function.
function sumXGBoost(rowCount: i32): void {
  sumTrees(rowCount, true, true, false);
}
function sumLightGBM(rowCount: i32): void {
  sumTrees(rowCount, false, false, false);
}
function sumLightGBMFull(rowCount: i32): void {
  sumTrees(rowCount, false, false, true);
}
function sumGeneric(rowCount: i32): void {
  sumTrees(rowCount, !leftWhenEqual, float32, true);
}

/** Margins of the first rowCount rows of the row buffer into the margin buffer. */
export function predictMargins(rowCount: i32): void {
  const width = numFeatures;
  for (let r = 0; r < rowCount; r++) {
    const from = r * width;
    const to = from << 1;
    for (let f = 0; f < width; f++) {
      let x = unchecked(rows[from + f]);
      // XGBoost compares float32 features: round once here instead of at every node.
      if (float32) unchecked((rows[from + f] = x = <f64><f32>x));
      if (!needsFlags) {
        const missing = isNaN(x);
        unchecked((doubledRows[to + f] = missing ? Infinity : x));
        unchecked((doubledRows[to + width + f] = missing ? -Infinity : x));
      }
    }
    unchecked((margins[r] = baseMargin));
  }
  if (float32 && !leftWhenEqual && !needsFlags) sumXGBoost(rowCount);
  else if (!float32 && leftWhenEqual && !needsFlags) sumLightGBM(rowCount);
  else if (!float32 && leftWhenEqual) sumLightGBMFull(rowCount);
  else sumGeneric(rowCount);
}
