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
//  - leaves loop to themselves, so a row that reached its leaf can keep stepping with the others;
//    the eight stop together once all of them sit on leaves, at the latest after treeDepth steps
//    (LightGBM grows trees leaf-wise: the default model's trees are 11.3 splits deep on average
//    but a row passes 6 splits per tree, so walking the full depth wasted half the steps);
//  - NaN costs no branch: each row is stored twice, NaN read as +inf in the first copy and as
//    -inf in the second, and a default-left split reads its feature from the second copy. Going
//    right when x >= t (XGBoost) or x > t (LightGBM) then sends NaN right (+inf) or left (-inf).
//    Leaves have threshold NaN, so every comparison there is false and the walk stays put;
//  - each node is one 32-byte record found by its address in memory, so a step is three loads
//    from one cache line, the load of x, a compare and an add: no index arithmetic.
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

// Node records for the fast step, built at setForest, one per node at address
// recordBase + node * RECORD:
//   +0  threshold (f64; NaN at leaves)
//   +8  leaf value (f64)
//   +16 byte offset of x in a doubled row (i32): the feature, or feature + numFeatures when NaN
//       goes left; LEAF_OFFSET at leaves, the only negative one, so AND-ing the offsets of eight
//       rows tells whether all of them are on leaves
//   +20 address of the left child (i32; the right child is the next record; a leaf's own address)
//   +24 node index (i32), for linear leaves
const RECORD: i32 = 32;
// A leaf reads the 8 bytes before its row (any value: the comparison with NaN is false).
const LEAF_OFFSET: i32 = -8;
let records = new StaticArray<u8>(0);
let recordBase: i32 = 0;
// Leaves well above the trees' full depth on average: worth stopping a tree's walk once every
// row of the eight is on a leaf (the test costs about a tenth of the walk when nothing is saved).
let unbalanced: bool = false;

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
  for (let i = 0; i < feature.length; i++) {
    const f = unchecked(flags[i]);
    const t = unchecked(threshold[i]);
    if (f & SPECIAL || (!(f & LEAF) && !isFinite(t))) needsFlags = true;
  }
  // The node records are built by reserveRows, after the engine is chosen: a model on QuickScorer
  // never needs them.
  quick = false;
  perfect = false;
  vectorWalk = false;
  binsWalk = false;
  records = new StaticArray<u8>(0);
  unbalanced = meanLeafDepth(roots, flags, left) < 0.8 * meanTreeDepth(depths);
}

function meanTreeDepth(depths: StaticArray<i32>): f64 {
  let sum: f64 = 0;
  for (let t = 0; t < depths.length; t++) sum += unchecked(depths[t]);
  return sum / max(1, depths.length);
}

/** Mean depth of all leaves over all trees (nodes are breadth-first per tree). */
function meanLeafDepth(roots: StaticArray<i32>, flags: StaticArray<u8>, left: StaticArray<i32>): f64 {
  const nodeCount = flags.length;
  const depthOf = new StaticArray<i32>(nodeCount);
  let leafDepths: f64 = 0;
  let leaves = 0;
  for (let t = 0; t < roots.length; t++) {
    const begin = unchecked(roots[t]);
    const end = t + 1 < roots.length ? unchecked(roots[t + 1]) : nodeCount;
    unchecked((depthOf[begin] = 0));
    for (let i = begin; i < end; i++) {
      const depth = unchecked(depthOf[i]);
      if (unchecked(flags[i]) & LEAF) {
        leafDepths += depth;
        leaves++;
      } else {
        const child = unchecked(left[i]);
        unchecked((depthOf[child] = depth + 1));
        unchecked((depthOf[child + 1] = depth + 1));
      }
    }
  }
  return leafDepths / max(1, leaves);
}

function buildRecords(): void {
  const nodeCount = nodeFeature.length;
  // One spare record to align the first to 32 bytes: a record never straddles a cache line.
  records = new StaticArray<u8>((nodeCount + 1) * RECORD);
  recordBase = (<i32>changetype<usize>(records) + RECORD - 1) & ~(RECORD - 1);
  for (let i = 0; i < nodeCount; i++) {
    const at = recordBase + i * RECORD;
    const f = unchecked(nodeFlags[i]);
    if (f & LEAF) {
      store<f64>(at, NaN);
      store<f64>(at, unchecked(nodeValue[i]), 8);
      store<i32>(at, LEAF_OFFSET, 16);
      store<i32>(at, at, 20);
    } else {
      const column = unchecked(nodeFeature[i]) + (f & DEFAULT_LEFT ? numFeatures : 0);
      store<f64>(at, unchecked(nodeThreshold[i]));
      store<f64>(at, 0, 8);
      store<i32>(at, column << 3, 16);
      store<i32>(at, recordBase + unchecked(nodeLeft[i]) * RECORD, 20);
    }
    store<i32>(at, i, 24);
  }
}

/**
 * Sizes the row and margin buffers for chunks of up to maxRows rows and builds what the chosen
 * engine needs; returns the row buffer. Called once, after setForest and buildQuickScorer.
 */
export function reserveRows(maxRows: i32): StaticArray<f64> {
  rows = new StaticArray<f64>(maxRows * numFeatures);
  margins = new StaticArray<f64>(maxRows);
  if (
    !quick &&
    !needsFlags &&
    !binsWalk &&
    !perfect &&
    !vectorWalk &&
    records.length == 0 &&
    !buildBins() &&
    !buildVector() &&
    !buildPerfect()
  ) {
    buildRecords();
  }
  // QuickScorer reads the rows as they are; only the walk needs them doubled, in float32 for
  // the perfect trees.
  doubledRows = new StaticArray<f64>(quick || perfect || binsWalk ? 0 : maxRows * numFeatures * 2);
  // Groups of sixteen rows, each column a v128 of bytes (+16 for the alignment), and their float32 margins.
  // The gathered levels read every column a number of their bits can name, past the last group's
  // own when a row has fewer than eight (both copies and NaN columns): eight more keep them in the buffer.
  binsRows = new StaticArray<u8>(binsWalk ? ((maxRows + 15) >> 4) * binsGroupBytes + 16 + (8 << 4) : 0);
  binsMargins = new StaticArray<f32>(binsWalk ? ((maxRows + 15) & ~15) + 4 : 0);
  perfectRows = new StaticArray<i32>(perfect ? maxRows * numFeatures * 2 : 0);
  // Groups of four rows, each column a v128 (+4 for the alignment), and their float32 margins.
  vectorRows = new StaticArray<i32>(vectorWalk ? ((maxRows + 3) & ~3) * numFeatures * 2 + 4 : 0);
  vectorMargins = new StaticArray<f32>(vectorWalk ? ((maxRows + 3) & ~3) + 4 : 0);
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

// One full step down a tree. strict (XGBoost <, LightGBM <=) is a constant at every call site.
// The rows come in as a local so the engine keeps their address in a register.
// @ts-ignore: decorator
@inline function step(node: i32, base: i32, strict: bool, data: StaticArray<f64>): i32 {
  return unchecked(nodeLeft[node]) + fullRight(node, unchecked(data[base + unchecked(nodeFeature[node])]), strict);
}

// One fast step from the node record at address node, for a row whose doubled copy starts at
// address row; offset is the record's x offset, already loaded by the caller.
// @ts-ignore: decorator
@inline function fastStep(node: i32, row: i32, offset: i32, strict: bool): i32 {
  const x = load<f64>(row + offset);
  const threshold = load<f64>(node);
  const right = strict ? x >= threshold : x > threshold;
  return load<i32>(node, 20) + (<i32>right << 5); // << 5: one RECORD on
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
  addValue(row, hasLinear ? linearLeaf(leaf, row * numFeatures) : unchecked(nodeValue[leaf]), single);
}

// @ts-ignore: decorator
@inline function addLeafRecord(row: i32, record: i32, single: bool): void {
  addValue(row, hasLinear ? linearLeaf(load<i32>(record, 24), row * numFeatures) : load<f64>(record, 8), single);
}

// @ts-ignore: decorator
@inline function addValue(row: i32, value: f64, single: bool): void {
  const sum = unchecked(margins[row]) + value;
  unchecked((margins[row] = single ? <f64><f32>sum : sum));
}

// @ts-ignore: decorator
@inline function sumTrees(rowCount: i32, strict: bool, single: bool): void {
  const treeCount = treeRoots.length;
  const data = rows;
  const stride = numFeatures;
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
          n0 = step(n0, b0, strict, data);
          n1 = step(n1, b1, strict, data);
          n2 = step(n2, b2, strict, data);
          n3 = step(n3, b3, strict, data);
          n4 = step(n4, b4, strict, data);
          n5 = step(n5, b5, strict, data);
          n6 = step(n6, b6, strict, data);
          n7 = step(n7, b7, strict, data);
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
        for (let d = 0; d < depth; d++) node = step(node, base, strict, data);
        addLeaf(r, node, single);
      }
    }
  }
}

// The fast walk over node records (see the header), for models with no special split.
// @ts-ignore: decorator
@inline function sumRecords(rowCount: i32, strict: bool, single: bool, exitEarly: bool): void {
  const treeCount = treeRoots.length;
  const stride = numFeatures << 4; // bytes per doubled row
  const rowsAt = <i32>changetype<usize>(doubledRows);
  const recordsAt = recordBase;
  for (let start = 0; start < rowCount; start += BLOCK) {
    const end = min(start + BLOCK, rowCount);
    for (let t = 0; t < treeCount; t++) {
      const root = recordsAt + unchecked(treeRoots[t]) * RECORD;
      const depth = unchecked(treeDepth[t]);
      let r = start;
      for (; r + 8 <= end; r += 8) {
        const b0 = rowsAt + r * stride;
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
        // Early exit: every row reaches a leaf within depth steps, so the test alone ends the loop.
        for (let d = 0; exitEarly || d < depth; d++) {
          const o0 = load<i32>(n0, 16);
          const o1 = load<i32>(n1, 16);
          const o2 = load<i32>(n2, 16);
          const o3 = load<i32>(n3, 16);
          const o4 = load<i32>(n4, 16);
          const o5 = load<i32>(n5, 16);
          const o6 = load<i32>(n6, 16);
          const o7 = load<i32>(n7, 16);
          // All eight on leaves (only leaves have a negative offset): the tree is done.
          if (exitEarly && (o0 & o1 & o2 & o3 & o4 & o5 & o6 & o7) < 0) break;
          n0 = fastStep(n0, b0, o0, strict);
          n1 = fastStep(n1, b1, o1, strict);
          n2 = fastStep(n2, b2, o2, strict);
          n3 = fastStep(n3, b3, o3, strict);
          n4 = fastStep(n4, b4, o4, strict);
          n5 = fastStep(n5, b5, o5, strict);
          n6 = fastStep(n6, b6, o6, strict);
          n7 = fastStep(n7, b7, o7, strict);
        }
        addLeafRecord(r, n0, single);
        addLeafRecord(r + 1, n1, single);
        addLeafRecord(r + 2, n2, single);
        addLeafRecord(r + 3, n3, single);
        addLeafRecord(r + 4, n4, single);
        addLeafRecord(r + 5, n5, single);
        addLeafRecord(r + 6, n6, single);
        addLeafRecord(r + 7, n7, single);
      }
      for (; r < end; r++) {
        const row = rowsAt + r * stride;
        let node = root;
        for (let d = 0; exitEarly || d < depth; d++) {
          const offset = load<i32>(node, 16);
          if (exitEarly && offset < 0) break;
          node = fastStep(node, row, offset, strict);
        }
        addLeafRecord(r, node, single);
      }
    }
  }
}

// One function per combination the readers produce, each with constant flags so the optimizer
// folds them into the walk (inlined into one function, the flags would stay runtime values);
// any other combination takes the generic function.
function sumXGBoost(rowCount: i32): void {
  sumRecords(rowCount, true, true, false);
}
function sumXGBoostUnbalanced(rowCount: i32): void {
  sumRecords(rowCount, true, true, true);
}
function sumLightGBM(rowCount: i32): void {
  sumRecords(rowCount, false, false, false);
}
function sumLightGBMUnbalanced(rowCount: i32): void {
  sumRecords(rowCount, false, false, true);
}
function sumLightGBMFull(rowCount: i32): void {
  sumTrees(rowCount, false, false);
}
function sumGeneric(rowCount: i32): void {
  sumTrees(rowCount, !leftWhenEqual, float32);
}

/** Margins of the first rowCount rows of the row buffer into the margin buffer. */
export function predictMargins(rowCount: i32): void {
  const width = numFeatures;
  if (binsWalk) {
    if (binsPickBits == 3) {
      if (binsDepth == 5) sumBins5Gather8(rowCount);
      else if (binsDepth == 6) sumBins6Gather8(rowCount);
      else if (binsDepth == 7) sumBins7Gather8(rowCount);
      else sumBins8Gather8(rowCount);
    } else if (binsPickBits == 4) {
      if (binsDepth == 5) sumBins5Gather16(rowCount);
      else if (binsDepth == 6) sumBins6Gather16(rowCount);
      else if (binsDepth == 7) sumBins7Gather16(rowCount);
      else sumBins8Gather16(rowCount);
    } else if (binsPickBits == 5) {
      if (binsDepth == 5) sumBins5Gather32(rowCount);
      else if (binsDepth == 6) sumBins6Gather32(rowCount);
      else if (binsDepth == 7) sumBins7Gather32(rowCount);
      else sumBins8Gather32(rowCount);
    } else if (binsDepth == 4) sumBins4(rowCount);
    else if (binsDepth == 5) sumBins5(rowCount);
    else if (binsDepth == 6) sumBins6(rowCount);
    else if (binsDepth == 7) sumBins7(rowCount);
    else sumBins8(rowCount);
    return;
  }
  if (vectorWalk) {
    sumVector(rowCount);
    return;
  }
  if (perfect) {
    doublePerfectRows(rowCount);
    sumPerfect(rowCount);
    return;
  }
  for (let r = 0; r < rowCount; r++) {
    const from = r * width;
    const to = from << 1;
    for (let f = 0; f < width; f++) {
      let x = unchecked(rows[from + f]);
      // XGBoost compares float32 features: round once here instead of at every node.
      if (float32) unchecked((rows[from + f] = x = <f64><f32>x));
      if (!needsFlags && !quick) {
        const missing = isNaN(x);
        unchecked((doubledRows[to + f] = missing ? Infinity : x));
        unchecked((doubledRows[to + width + f] = missing ? -Infinity : x));
      }
    }
    unchecked((margins[r] = baseMargin));
  }
  if (quick) {
    const word = qsWordBytes;
    if (float32 && !leftWhenEqual) {
      if (word == 2) quickXGBoost16(rowCount);
      else if (word == 4) quickXGBoost32(rowCount);
      else quickXGBoost64(rowCount);
    } else if (!float32 && leftWhenEqual) {
      if (word == 2) quickLightGBM16(rowCount);
      else if (word == 4) quickLightGBM32(rowCount);
      else quickLightGBM64(rowCount);
    } else quickGeneric(rowCount);
    return;
  }
  if (float32 && !leftWhenEqual && !needsFlags) {
    if (unbalanced) sumXGBoostUnbalanced(rowCount);
    else sumXGBoost(rowCount);
  } else if (!float32 && leftWhenEqual && !needsFlags) {
    if (unbalanced) sumLightGBMUnbalanced(rowCount);
    else sumLightGBM(rowCount);
  } else if (!float32 && leftWhenEqual) sumLightGBMFull(rowCount);
  else sumGeneric(rowCount);
}

// ---------------------------------------------------------------------------------------------
// The walk over perfect trees, for XGBoost models (float32, go left when x < t) with no special
// split and no tree deeper than PERFECT_MAX_DEPTH: each tree is laid out as a complete binary tree
// of its own depth in heap order (children of node i at 2i + 1 and 2i + 2), a leaf above the last
// level standing as a pass-through node that sends every row left, down to the leaf's copy on the
// last level. A node is 8 bytes: its threshold and the byte offset of x in the row's doubled copy;
// a last-level slot holds the leaf's float32 value. A step is then two loads (the node, then x), a
// compare and a shift: the child's place is computed, not loaded.
// Rows and thresholds are float32 turned into integer keys that order as the floats do (orderKey),
// so the compare is one integer instruction; a row takes 8 bytes per feature, half the walk's.
// Exactness: XGBoost compares x rounded to float32, and a float32 x is >= t exactly when it is >=
// the least float32 not below t (t itself for XGBoost's float32 thresholds); NaN reads as +inf or
// -inf as in the walk above; the leaves are float32 (buildPerfect checks) and are summed in tree
// order with the walk's rounding. So the margins are the same bits.
const PERFECT_MAX_DEPTH: i32 = 10;
// Rows per block: a block's doubled float32 rows stay in the core's nearest caches while every
// tree walks them.
const PERFECT_BLOCK_BYTES: i32 = 64 * 1024;
let perfect: bool = false;
let perfectNodes = new StaticArray<u64>(0);
let perfectTreeAt = new StaticArray<i32>(0); // address of each tree's node 0
let perfectRows = new StaticArray<i32>(0);

function buildPerfect(): bool {
  if (!float32 || leftWhenEqual || needsFlags || hasLinear) return false;
  for (let i = 0; i < nodeValue.length; i++) {
    const value = unchecked(nodeValue[i]);
    if (<f64><f32>value != value) return false;
  }
  const treeCount = treeRoots.length;
  let slots = 0;
  for (let t = 0; t < treeCount; t++) {
    const depth = unchecked(treeDepth[t]);
    if (depth > PERFECT_MAX_DEPTH) return false;
    slots += (2 << depth) - 1;
  }
  perfectNodes = new StaticArray<u64>(slots);
  perfectTreeAt = new StaticArray<i32>(treeCount);
  let at = <i32>changetype<usize>(perfectNodes);
  for (let t = 0; t < treeCount; t++) {
    const depth = unchecked(treeDepth[t]);
    unchecked((perfectTreeAt[t] = at));
    placePerfect(unchecked(treeRoots[t]), 0, depth, at, 2);
    at += ((2 << depth) - 1) << 3;
  }
  perfect = true;
  return true;
}

/** Writes node (a node of the flat forest) at heap slot `slot` of the tree at address `tree`. */
function placePerfect(node: i32, slot: i32, levelsBelow: i32, tree: i32, columnShift: i32): void {
  const at = tree + (slot << 3);
  const flags = unchecked(nodeFlags[node]);
  if (flags & LEAF) {
    if (levelsBelow == 0) {
      store<f32>(at, <f32>unchecked(nodeValue[node]));
      return;
    }
    // Pass-through: above every key (+inf's included), so every row goes left.
    store<i32>(at, i32.MAX_VALUE);
    store<i32>(at, 0, 4);
    placePerfect(node, (slot << 1) + 1, levelsBelow - 1, tree, columnShift);
    return;
  }
  const column = unchecked(nodeFeature[node]) + (flags & DEFAULT_LEFT ? numFeatures : 0);
  store<i32>(at, orderKey(floatNotBelow(unchecked(nodeThreshold[node]))));
  store<i32>(at, column << columnShift, 4);
  const left = unchecked(nodeLeft[node]);
  placePerfect(left, (slot << 1) + 1, levelsBelow - 1, tree, columnShift);
  placePerfect(left + 1, (slot << 1) + 2, levelsBelow - 1, tree, columnShift);
}

// Floats compared as integers: the key of a float32 orders as the float does (NaN aside; -0 is
// made +0 first, as the two compare equal). A key compare is one integer instruction, where a
// float compare also tests for NaN.
// @ts-ignore: decorator
@inline function orderKey(x: f32): i32 {
  const bits = reinterpret<i32>(x + 0);
  return bits ^ ((bits >> 31) & i32.MAX_VALUE);
}
/** The least float32 not below t (finite): a float32 x is >= t exactly when it is >= this. */
function floatNotBelow(t: f64): f32 {
  const f = <f32>t;
  if (<f64>f >= t) return f;
  if (f == 0) return reinterpret<f32>(1); // the least positive denormal
  const bits = reinterpret<i32>(f);
  return reinterpret<f32>(f > 0 ? bits + 1 : bits - 1);
}
const PLUS_INFINITY_KEY: i32 = 0x7f800000;
const MINUS_INFINITY_KEY: i32 = 0x807fffff; // orderKey(-Infinity)

/** The chunk's rows in float32, twice over: NaN as +inf, then as -inf; margins start at the base. */
function doublePerfectRows(rowCount: i32): void {
  const width = numFeatures;
  for (let r = 0; r < rowCount; r++) {
    const from = r * width;
    const to = from << 1;
    for (let f = 0; f < width; f++) {
      const x = <f32>unchecked(rows[from + f]);
      const missing = isNaN(x);
      unchecked((perfectRows[to + f] = missing ? PLUS_INFINITY_KEY : orderKey(x)));
      unchecked((perfectRows[to + width + f] = missing ? MINUS_INFINITY_KEY : orderKey(x)));
    }
    unchecked((margins[r] = baseMargin));
  }
}

// One step from heap slot i of the tree at address tree, for the row at address row.
// @ts-ignore: decorator
@inline function perfectStep(i: i32, tree: i32, row: i32): i32 {
  const at = tree + (i << 3);
  const x = load<i32>(row + load<i32>(at, 4));
  return (i << 1) + 1 + <i32>(x >= load<i32>(at));
}

// @ts-ignore: decorator
@inline function addPerfectLeaf(row: i32, tree: i32, i: i32): void {
  const sum = unchecked(margins[row]) + <f64>load<f32>(tree + (i << 3));
  unchecked((margins[row] = <f64><f32>sum));
}

function sumPerfect(rowCount: i32): void {
  const treeCount = treeRoots.length;
  const stride = numFeatures << 3; // bytes per doubled float32 row
  const rowsAt = <i32>changetype<usize>(perfectRows);
  const block = max(8, PERFECT_BLOCK_BYTES / stride) & ~7;
  for (let start = 0; start < rowCount; start += block) {
    const end = min(start + block, rowCount);
    for (let t = 0; t < treeCount; t++) {
      const tree = unchecked(perfectTreeAt[t]);
      const depth = unchecked(treeDepth[t]);
      let r = start;
      for (; r + 8 <= end; r += 8) {
        const b0 = rowsAt + r * stride;
        const b1 = b0 + stride;
        const b2 = b1 + stride;
        const b3 = b2 + stride;
        const b4 = b3 + stride;
        const b5 = b4 + stride;
        const b6 = b5 + stride;
        const b7 = b6 + stride;
        let i0 = 0;
        let i1 = 0;
        let i2 = 0;
        let i3 = 0;
        let i4 = 0;
        let i5 = 0;
        let i6 = 0;
        let i7 = 0;
        for (let d = 0; d < depth; d++) {
          i0 = perfectStep(i0, tree, b0);
          i1 = perfectStep(i1, tree, b1);
          i2 = perfectStep(i2, tree, b2);
          i3 = perfectStep(i3, tree, b3);
          i4 = perfectStep(i4, tree, b4);
          i5 = perfectStep(i5, tree, b5);
          i6 = perfectStep(i6, tree, b6);
          i7 = perfectStep(i7, tree, b7);
        }
        addPerfectLeaf(r, tree, i0);
        addPerfectLeaf(r + 1, tree, i1);
        addPerfectLeaf(r + 2, tree, i2);
        addPerfectLeaf(r + 3, tree, i3);
        addPerfectLeaf(r + 4, tree, i4);
        addPerfectLeaf(r + 5, tree, i5);
        addPerfectLeaf(r + 6, tree, i6);
        addPerfectLeaf(r + 7, tree, i7);
      }
      for (; r < end; r++) {
        const row = rowsAt + r * stride;
        let i = 0;
        for (let d = 0; d < depth; d++) i = perfectStep(i, tree, row);
        addPerfectLeaf(r, tree, i);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The vectorised walk, for the perfect trees' models whose base margin is a float32: four rows at
// a time, one per lane of a v128. A group's rows are stored column by column (a v128 holds one
// column of the four rows, keys as above, NaN as +inf then as -inf), so a node's compare for the
// four rows is one load and one i32x4 compare. The top VECTOR_LEVELS levels of a tree are done
// that way: every one of their 15 nodes is compared, and each level picks, lane by lane, the
// decision of the node the row stands at (bitselect on the levels above), so no node's address
// depends on a row and nothing needs a gather. A tree deeper than that goes on from the node each
// row reached, row by row, as a perfect tree (its nodes' columns in the group layout). The four
// margins are float32 lanes: a lane's float32 add is the walk's rounded sum.
const VECTOR_LEVELS: i32 = 4;
// Deeper forests stay on the perfect trees: with four or more levels below the top, the gbdt
// bench's depth-8 forests ran 0.8–1.07× as fast this way (depth 6: 1.07–1.22×).
const VECTOR_MAX_DEPTH: i32 = 6;
const VECTOR_NODES: i32 = (1 << VECTOR_LEVELS) - 1;
// Per tree: its top 15 nodes of 32 bytes (the key four times, then the column's byte offset in a
// group), then the whole tree as a perfect tree of 8-byte nodes of at least VECTOR_LEVELS levels,
// whose slots from 15 on are the nodes (or leaves) the top leads to.
const VECTOR_NODE_BYTES: i32 = 32;
const VECTOR_TOP_BYTES: i32 = VECTOR_NODES * VECTOR_NODE_BYTES;
// Groups per block: a block's rows stay in the nearest caches while every tree runs over them.
const VECTOR_BLOCK_BYTES: i32 = 32 * 1024;
let vectorWalk: bool = false;
let vectorTrees = new StaticArray<u8>(0);
let vectorTreeAt = new StaticArray<i32>(0); // address of each tree's top
let vectorRows = new StaticArray<i32>(0);
let vectorMargins = new StaticArray<f32>(0);

function buildVector(): bool {
  if (!float32 || leftWhenEqual || needsFlags || hasLinear) return false;
  if (<f64><f32>baseMargin != baseMargin) return false;
  for (let i = 0; i < nodeValue.length; i++) {
    const value = unchecked(nodeValue[i]);
    if (<f64><f32>value != value) return false;
  }
  const treeCount = treeRoots.length;
  let bytes = 16;
  for (let t = 0; t < treeCount; t++) {
    const depth = unchecked(treeDepth[t]);
    if (depth > VECTOR_MAX_DEPTH) return false;
    bytes += vectorTreeBytes(depth);
  }
  vectorTrees = new StaticArray<u8>(bytes);
  vectorTreeAt = new StaticArray<i32>(treeCount);
  let at = (<i32>changetype<usize>(vectorTrees) + 15) & ~15;
  for (let t = 0; t < treeCount; t++) {
    const depth = unchecked(treeDepth[t]);
    unchecked((vectorTreeAt[t] = at));
    const shallow = depth <= VECTOR_LEVELS;
    placeVectorTop(unchecked(treeRoots[t]), 0, VECTOR_LEVELS, at, shallow);
    if (!shallow) placePerfect(unchecked(treeRoots[t]), 0, depth, at + VECTOR_TOP_BYTES, 4);
    at += vectorTreeBytes(depth);
  }
  vectorWalk = true;
  return true;
}

// @ts-ignore: decorator
@inline function vectorTreeBytes(depth: i32): i32 {
  return VECTOR_TOP_BYTES + (depth <= VECTOR_LEVELS ? 4 << VECTOR_LEVELS : ((2 << depth) - 1) << 3);
}

/**
 * Writes node at heap slot `slot` of the top of the vectorised walk's tree at address `tree`, and
 * for a tree of depth 4 or less (shallow) its leaves after the top.
 */
function placeVectorTop(node: i32, slot: i32, levelsBelow: i32, tree: i32, shallow: bool): void {
  if (levelsBelow == 0) {
    if (shallow) store<f32>(tree + VECTOR_TOP_BYTES + ((slot - VECTOR_NODES) << 2), <f32>unchecked(nodeValue[node]));
    return;
  }
  const at = tree + slot * VECTOR_NODE_BYTES;
  const flags = unchecked(nodeFlags[node]);
  if (flags & LEAF) {
    // Pass-through, as in the perfect trees.
    v128.store(at, i32x4.splat(i32.MAX_VALUE));
    store<i32>(at, 0, 16);
    placeVectorTop(node, (slot << 1) + 1, levelsBelow - 1, tree, shallow);
    placeVectorTop(node, (slot << 1) + 2, levelsBelow - 1, tree, shallow);
    return;
  }
  const column = unchecked(nodeFeature[node]) + (flags & DEFAULT_LEFT ? numFeatures : 0);
  v128.store(at, i32x4.splat(orderKey(floatNotBelow(unchecked(nodeThreshold[node])))));
  store<i32>(at, column << 4, 16);
  const left = unchecked(nodeLeft[node]);
  placeVectorTop(left, (slot << 1) + 1, levelsBelow - 1, tree, shallow);
  placeVectorTop(left + 1, (slot << 1) + 2, levelsBelow - 1, tree, shallow);
}

// Where the rows of two groups stand after the top of the tree at address tree: the number of the
// node (or leaf) on level 4, times 4, into vectorSlotA and vectorSlotB. Every node's key and column are loaded
// once for both groups.
let vectorSlotA = v128.splat<i32>(0);
let vectorSlotB = v128.splat<i32>(0);
// @ts-ignore: decorator
@inline function vectorTop(tree: i32, first: i32, second: i32): void {
  const key0 = v128.load(tree, 0);
  const column0 = load<i32>(tree, 16);
  const a0 = i32x4.ge_s(v128.load(first + column0), key0);
  const b0 = i32x4.ge_s(v128.load(second + column0), key0);
  const key1 = v128.load(tree, 32);
  const column1 = load<i32>(tree, 48);
  const a1 = i32x4.ge_s(v128.load(first + column1), key1);
  const b1 = i32x4.ge_s(v128.load(second + column1), key1);
  const key2 = v128.load(tree, 64);
  const column2 = load<i32>(tree, 80);
  const a2 = i32x4.ge_s(v128.load(first + column2), key2);
  const b2 = i32x4.ge_s(v128.load(second + column2), key2);
  const key3 = v128.load(tree, 96);
  const column3 = load<i32>(tree, 112);
  const a3 = i32x4.ge_s(v128.load(first + column3), key3);
  const b3 = i32x4.ge_s(v128.load(second + column3), key3);
  const key4 = v128.load(tree, 128);
  const column4 = load<i32>(tree, 144);
  const a4 = i32x4.ge_s(v128.load(first + column4), key4);
  const b4 = i32x4.ge_s(v128.load(second + column4), key4);
  const key5 = v128.load(tree, 160);
  const column5 = load<i32>(tree, 176);
  const a5 = i32x4.ge_s(v128.load(first + column5), key5);
  const b5 = i32x4.ge_s(v128.load(second + column5), key5);
  const key6 = v128.load(tree, 192);
  const column6 = load<i32>(tree, 208);
  const a6 = i32x4.ge_s(v128.load(first + column6), key6);
  const b6 = i32x4.ge_s(v128.load(second + column6), key6);
  const key7 = v128.load(tree, 224);
  const column7 = load<i32>(tree, 240);
  const a7 = i32x4.ge_s(v128.load(first + column7), key7);
  const b7 = i32x4.ge_s(v128.load(second + column7), key7);
  const key8 = v128.load(tree, 256);
  const column8 = load<i32>(tree, 272);
  const a8 = i32x4.ge_s(v128.load(first + column8), key8);
  const b8 = i32x4.ge_s(v128.load(second + column8), key8);
  const key9 = v128.load(tree, 288);
  const column9 = load<i32>(tree, 304);
  const a9 = i32x4.ge_s(v128.load(first + column9), key9);
  const b9 = i32x4.ge_s(v128.load(second + column9), key9);
  const key10 = v128.load(tree, 320);
  const column10 = load<i32>(tree, 336);
  const a10 = i32x4.ge_s(v128.load(first + column10), key10);
  const b10 = i32x4.ge_s(v128.load(second + column10), key10);
  const key11 = v128.load(tree, 352);
  const column11 = load<i32>(tree, 368);
  const a11 = i32x4.ge_s(v128.load(first + column11), key11);
  const b11 = i32x4.ge_s(v128.load(second + column11), key11);
  const key12 = v128.load(tree, 384);
  const column12 = load<i32>(tree, 400);
  const a12 = i32x4.ge_s(v128.load(first + column12), key12);
  const b12 = i32x4.ge_s(v128.load(second + column12), key12);
  const key13 = v128.load(tree, 416);
  const column13 = load<i32>(tree, 432);
  const a13 = i32x4.ge_s(v128.load(first + column13), key13);
  const b13 = i32x4.ge_s(v128.load(second + column13), key13);
  const key14 = v128.load(tree, 448);
  const column14 = load<i32>(tree, 464);
  const a14 = i32x4.ge_s(v128.load(first + column14), key14);
  const b14 = i32x4.ge_s(v128.load(second + column14), key14);
  const a1x = v128.bitselect(a2, a1, a0);
  const b1x = v128.bitselect(b2, b1, b0);
  const a2x = v128.bitselect(v128.bitselect(a6, a5, a1x), v128.bitselect(a4, a3, a1x), a0);
  const b2x = v128.bitselect(v128.bitselect(b6, b5, b1x), v128.bitselect(b4, b3, b1x), b0);
  const a3x = v128.bitselect(
    v128.bitselect(v128.bitselect(a14, a13, a2x), v128.bitselect(a12, a11, a2x), a1x),
    v128.bitselect(v128.bitselect(a10, a9, a2x), v128.bitselect(a8, a7, a2x), a1x),
    a0,
  );
  const b3x = v128.bitselect(
    v128.bitselect(v128.bitselect(b14, b13, b2x), v128.bitselect(b12, b11, b2x), b1x),
    v128.bitselect(v128.bitselect(b10, b9, b2x), v128.bitselect(b8, b7, b2x), b1x),
    b0,
  );
  // The four decisions as bits, times 4: the leaf's byte offset in a tree of depth 4.
  vectorSlotA = v128.or(
    v128.or(v128.and(a0, i32x4.splat(32)), v128.and(a1x, i32x4.splat(16))),
    v128.or(v128.and(a2x, i32x4.splat(8)), v128.and(a3x, i32x4.splat(4))),
  );
  vectorSlotB = v128.or(
    v128.or(v128.and(b0, i32x4.splat(32)), v128.and(b1x, i32x4.splat(16))),
    v128.or(v128.and(b2x, i32x4.splat(8)), v128.and(b3x, i32x4.splat(4))),
  );
}

// Adds to the group's four float32 margins at address margin the leaves at byte offsets `slots`
// from address leaves.
// @ts-ignore: decorator
@inline function vectorAdd(heap: i32, slots: v128, margin: i32): void {
  let values = f32x4.splat(load<f32>(heap + i32x4.extract_lane(slots, 0)));
  values = f32x4.replace_lane(values, 1, load<f32>(heap + i32x4.extract_lane(slots, 1)));
  values = f32x4.replace_lane(values, 2, load<f32>(heap + i32x4.extract_lane(slots, 2)));
  values = f32x4.replace_lane(values, 3, load<f32>(heap + i32x4.extract_lane(slots, 3)));
  v128.store(margin, f32x4.add(v128.load(margin), values));
}

// The eight rows of two groups (at addresses first and second) from the nodes they reached on
// level 4 to their leaves, `steps` levels further down, row by row as in the perfect trees; the
// leaves' heap slots, times 8 (their byte offsets in the heap), come back in vectorSlotA and B.
// @ts-ignore: decorator
@inline function vectorBottom(heap: i32, first: i32, second: i32, steps: i32): void {
  let i0 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotA, 0) >> 2);
  let i1 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotA, 1) >> 2);
  let i2 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotA, 2) >> 2);
  let i3 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotA, 3) >> 2);
  let i4 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotB, 0) >> 2);
  let i5 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotB, 1) >> 2);
  let i6 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotB, 2) >> 2);
  let i7 = VECTOR_NODES + (i32x4.extract_lane(vectorSlotB, 3) >> 2);
  for (let d = 0; d < steps; d++) {
    i0 = perfectStep(i0, heap, first);
    i1 = perfectStep(i1, heap, first + 4);
    i2 = perfectStep(i2, heap, first + 8);
    i3 = perfectStep(i3, heap, first + 12);
    i4 = perfectStep(i4, heap, second);
    i5 = perfectStep(i5, heap, second + 4);
    i6 = perfectStep(i6, heap, second + 8);
    i7 = perfectStep(i7, heap, second + 12);
  }
  const lanesA = i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(i0), 1, i1), 2, i2), 3, i3);
  const lanesB = i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(i4), 1, i5), 2, i6), 3, i7);
  vectorSlotA = i32x4.shl(lanesA, 3);
  vectorSlotB = i32x4.shl(lanesB, 3);
}

function sumVector(rowCount: i32): void {
  const width = numFeatures;
  const groupBytes = width << 5; // 2 * width columns of 16 bytes
  const rowsAt = (<i32>changetype<usize>(vectorRows) + 15) & ~15;
  const marginsAt = (<i32>changetype<usize>(vectorMargins) + 15) & ~15;
  const groups = (rowCount + 3) >> 2;
  // The rows' keys, column by column per group; a short last group repeats its last row.
  for (let r = 0; r < groups << 2; r++) {
    const from = min(r, rowCount - 1) * width;
    const lane = rowsAt + (r >> 2) * groupBytes + ((r & 3) << 2);
    for (let f = 0; f < width; f++) {
      const x = <f32>unchecked(rows[from + f]);
      const missing = isNaN(x);
      store<i32>(lane + (f << 4), missing ? PLUS_INFINITY_KEY : orderKey(x));
      store<i32>(lane + ((f + width) << 4), missing ? MINUS_INFINITY_KEY : orderKey(x));
    }
  }
  const start = f32x4.splat(<f32>baseMargin);
  for (let g = 0; g < groups; g++) v128.store(marginsAt + (g << 4), start);
  const treeCount = treeRoots.length;
  const block = max(1, VECTOR_BLOCK_BYTES / groupBytes);
  for (let first = 0; first < groups; first += block) {
    const last = min(first + block, groups);
    for (let t = 0; t < treeCount; t++) {
      const tree = unchecked(vectorTreeAt[t]);
      // A tree of depth 4 or less keeps just its 16 leaves after the top; a deeper one, its heap.
      const heap = tree + VECTOR_TOP_BYTES;
      const steps = max(VECTOR_LEVELS, unchecked(treeDepth[t])) - VECTOR_LEVELS;
      // Two groups at a time (two independent chains); a tree of depth 4 or less in a loop of its
      // own, with nothing of the deeper trees' steps to hold in registers.
      let g = first;
      if (steps == 0) {
        for (; g + 2 <= last; g += 2) {
          const group = rowsAt + g * groupBytes;
          vectorTop(tree, group, group + groupBytes);
          vectorAdd(heap, vectorSlotA, marginsAt + (g << 4));
          vectorAdd(heap, vectorSlotB, marginsAt + (g << 4) + 16);
        }
      } else {
        for (; g + 2 <= last; g += 2) {
          const group = rowsAt + g * groupBytes;
          vectorTop(tree, group, group + groupBytes);
          vectorBottom(heap, group, group + groupBytes, steps);
          vectorAdd(heap, vectorSlotA, marginsAt + (g << 4));
          vectorAdd(heap, vectorSlotB, marginsAt + (g << 4) + 16);
        }
      }
      if (g < last) {
        // The last group alone: its pair is itself.
        const group = rowsAt + g * groupBytes;
        vectorTop(tree, group, group);
        if (steps > 0) vectorBottom(heap, group, group, steps);
        vectorAdd(heap, vectorSlotA, marginsAt + (g << 4));
      }
    }
  }
  for (let r = 0; r < rowCount; r++) unchecked((margins[r] = <f64>load<f32>(marginsAt + (r << 2))));
}

// ---------------------------------------------------------------------------------------------
// The walk over byte keys, for the perfect trees' models of depth BINS_MAX_DEPTH or less whose
// splits use at most BINS_MAX_CUTS distinct thresholds per feature (XGBoost's `hist` makes at
// most max_bin, 256 by default): sixteen rows at a time, one per byte lane of a v128.
// A feature's distinct thresholds, as the least float32 not below each (floatNotBelow), sorted,
// are its cuts; a row's bin for the feature is how many cuts its float32 x is not below. Then
// x >= the split's threshold exactly when the bin is above the cut's place in that list, so a
// split is a byte compare: its key is the cut's place - 128 and the row's key is its bin - 128
// (NaN as the last bin in the first copy of the row, as bin 0 in the second, like +inf and -inf
// above). A group's sixteen rows are stored column by column, a v128 per column, the first copy's
// columns, then the second's, then for the gathered levels the NaN columns (see binsGather).
// Every node of the tree is compared, sixteen rows at once, and each level picks, lane by lane,
// the decision of the node the row stands at (bitselect on the levels above), as the vectorised
// walk does for its top: a tree of depth 6 is 63 compares and 57 selects for sixteen rows. When a
// copy has at most BINS_GATHER_MAX_COLUMNS columns, the levels from BINS_GATHER_LEVEL on gather
// instead (binsGather): each lane's key and column from the level's tables, its byte picked among
// the copy's columns, one compare a level whatever its nodes, so the deeper levels cost no more
// than the first gathered one and trees of depth 7 and 8 stay sixteen rows a v128 to their leaves.
// The decisions give the leaf's place; the sixteen leaves are added to float32 lanes in tree
// order, the walk's rounded sums. So the margins are the same bits.
const BINS_MAX_DEPTH: i32 = 8;
// Levels compared sixteen rows at once; deeper trees go on row by row unless gathered.
const BINS_VECTOR_LEVELS: i32 = 6;
const BINS_MIN_DEPTH: i32 = 4;
// Cuts per byte column: a feature with more takes several columns (see binRows).
const BINS_COLUMN_CUTS: i32 = 255;
const BINS_MAX_COLUMNS: i32 = 1024;
// Bins are i16 while the columns are made.
const BINS_MAX_FEATURE_CUTS: i32 = 32767;
// Bytes per node: the column's byte offset in a group (u16), then the key (i8).
const BINS_NODE_BYTES: i32 = 4;
// Groups per block: a block's rows stay in the nearest caches while every tree runs over them.
const BINS_BLOCK_BYTES: i32 = 16 * 1024;
// The first level whose nodes are gathered rather than all compared (see binsGather), and the
// most byte columns of a copy a model may have for it (the column a lane reads is picked among
// them all).
const BINS_GATHER_LEVEL: i32 = 4;
const BINS_GATHER_MAX_COLUMNS: i32 = 32;
let binsWalk: bool = false;
let binsDepth: i32 = 0;
// Bits of a column's number in the gather tables, 3, 4 or 5 for up to 8, 16 or 32 columns a copy;
// 0 when every level is compared node by node.
let binsPickBits: i32 = 0;
// Where a tree's gather tables begin, from the tree's address, and how many a level has: keys and
// columns, 0 when no level is gathered.
let binsGatherAt: i32 = 0;
let binsGatherTables: i32 = 0;
// A group's bytes: both copies' columns, then the NaN columns when the levels are gathered.
let binsGroupBytes: i32 = 0;
// Trees of depth BINS_PLANE_MAX_DEPTH or less also keep their leaves as byte planes (see
// binsAddPlanes), from binsPlanesAt after the tree's address.
const BINS_PLANE_MAX_DEPTH: i32 = 6;
let binsPlanesAt: i32 = 0;
let binsTreeBytes: i32 = 0;
let binsTrees = new StaticArray<u8>(0);
let binsTreesAt: i32 = 0;
let binsCutBegin = new StaticArray<i32>(0); // per feature, its cuts in binsCuts
let binsCutCount = new StaticArray<i32>(0);
let binsColumnBegin = new StaticArray<i32>(0); // per feature, its first byte column
let binsColumns: i32 = 0;
let binsCuts = new StaticArray<f32>(0);
// The cuts again for the search by blocks (see buildBlocks): per feature, its pivots, then its
// cuts in blocks of sixteen, NaN after the last; byte offsets from binsBlocksAt.
let binsBlocks = new StaticArray<f32>(0);
let binsBlocksAt: i32 = 0;
let binsPivotAt = new StaticArray<i32>(0);
let binsBlockAt = new StaticArray<i32>(0);
let binsPivotVectors = new StaticArray<i32>(0); // 0: the feature keeps the binary search
let binsRows = new StaticArray<u8>(0);
let binsMargins = new StaticArray<f32>(0);
let binsScratch = new StaticArray<i16>(40);
// The walk's vector constants in memory, sixteen bytes each, read by binsConstant: V8 builds a
// v128.const in the loop body each time it is used, a load is one instruction. Slots 0 to 7: every
// byte 1 << slot; 8: every byte 0x87 (binsGather); 9: the eight one-bit bytes 1, 2, 4 ... 128.
const BINS_CONSTANTS = memory.data<u8>([
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
  16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
  64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135,
  1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0,
], 16);
// @ts-ignore: decorator
@inline function binsConstant(slot: i32): v128 {
  return v128.load(BINS_CONSTANTS + (slot << 4));
}

/** The forest's cuts per feature and their byte columns; false when they would be too many. */
function buildCuts(): bool {
  const nodeCount = nodeFeature.length;
  const width = numFeatures;
  const count = new StaticArray<i32>(width + 1);
  for (let i = 0; i < nodeCount; i++) {
    if (!(unchecked(nodeFlags[i]) & LEAF)) unchecked(count[nodeFeature[i]]++);
  }
  const begin = new StaticArray<i32>(width + 1);
  for (let f = 0; f < width; f++) unchecked((begin[f + 1] = begin[f] + count[f]));
  const cuts = new StaticArray<f32>(max(1, unchecked(begin[width])));
  const fill = new StaticArray<i32>(width);
  for (let i = 0; i < nodeCount; i++) {
    if (unchecked(nodeFlags[i]) & LEAF) continue;
    const f = unchecked(nodeFeature[i]);
    unchecked((cuts[begin[f] + fill[f]++] = floatNotBelow(nodeThreshold[i]) + 0)); // -0 as +0
  }
  binsCutBegin = new StaticArray<i32>(width);
  binsCutCount = new StaticArray<i32>(width);
  binsColumnBegin = new StaticArray<i32>(width);
  let kept = 0;
  let columns = 0;
  for (let f = 0; f < width; f++) {
    const from = unchecked(begin[f]);
    const to = unchecked(begin[f + 1]);
    sortCuts(cuts, from, to);
    unchecked((binsCutBegin[f] = kept));
    for (let i = from; i < to; i++) {
      const cut = unchecked(cuts[i]);
      if (kept > unchecked(binsCutBegin[f]) && unchecked(cuts[kept - 1]) == cut) continue;
      unchecked((cuts[kept++] = cut));
    }
    const distinct = kept - unchecked(binsCutBegin[f]);
    if (distinct > BINS_MAX_FEATURE_CUTS) return false;
    unchecked((binsCutCount[f] = distinct));
    unchecked((binsColumnBegin[f] = columns));
    columns += max(1, (distinct + BINS_COLUMN_CUTS - 1) / BINS_COLUMN_CUTS);
  }
  binsCuts = cuts;
  binsColumns = columns;
  buildBlocks();
  return columns <= BINS_MAX_COLUMNS;
}

// A row's bin by blocks: a feature's sorted cuts in blocks of sixteen, and its pivots, the last
// cut of each full block (NaN for a block that is not full, and after the last block). The blocks
// whose pivot is not above x are the k whole blocks below x; x's bin is 16k plus the cuts of block
// k not above x. Sixteen compares each (f32x4.le, NaN never), counted by bitmask and popcnt:
// a few vector compares instead of a binary search's chain of loads. For up to
// BINS_BLOCK_MAX_CUTS cuts (a v128 of four pivots, four v128 a pivot vector of sixteen).
const BINS_BLOCK_MAX_CUTS: i32 = 1024;

function buildBlocks(): void {
  const width = numFeatures;
  binsPivotAt = new StaticArray<i32>(width);
  binsBlockAt = new StaticArray<i32>(width);
  binsPivotVectors = new StaticArray<i32>(width);
  let floats = 0;
  for (let f = 0; f < width; f++) {
    const count = unchecked(binsCutCount[f]);
    if (count == 0 || count > BINS_BLOCK_MAX_CUTS) continue;
    const blocks = (count >> 4) + 1; // the last one holds the cuts after the full blocks, or none
    const vectors = (blocks + 15) >> 4;
    unchecked((binsPivotVectors[f] = vectors));
    unchecked((binsPivotAt[f] = floats << 2));
    floats += vectors << 4;
    unchecked((binsBlockAt[f] = floats << 2));
    floats += blocks << 4;
  }
  binsBlocks = new StaticArray<f32>(floats + 4);
  binsBlocksAt = (<i32>changetype<usize>(binsBlocks) + 15) & ~15;
  for (let i = 0; i < floats; i++) store<f32>(binsBlocksAt + (i << 2), NaN);
  for (let f = 0; f < width; f++) {
    if (unchecked(binsPivotVectors[f]) == 0) continue;
    const first = unchecked(binsCutBegin[f]);
    const count = unchecked(binsCutCount[f]);
    const pivots = binsBlocksAt + unchecked(binsPivotAt[f]);
    const blocks = binsBlocksAt + unchecked(binsBlockAt[f]);
    for (let i = 0; i < count; i++) {
      const cut = unchecked(binsCuts[first + i]);
      store<f32>(blocks + (i << 2), cut);
      if ((i & 15) == 15) store<f32>(pivots + ((i >> 4) << 2), cut);
    }
  }
}

// How many of the sixteen float32 at address at are not above x (splat in xs).
// @ts-ignore: decorator
@inline function binsNotAbove(at: i32, xs: v128): i32 {
  const low = i16x8.narrow_i32x4_s(f32x4.le(v128.load(at), xs), f32x4.le(v128.load(at, 16), xs));
  const high = i16x8.narrow_i32x4_s(f32x4.le(v128.load(at, 32), xs), f32x4.le(v128.load(at, 48), xs));
  return <i32>popcnt(i8x16.bitmask(i8x16.narrow_i16x8_s(low, high)));
}

/** Sorts cuts[from, to) ascending (insertion sort on runs, then merges: cuts are few per feature). */
function sortCuts(cuts: StaticArray<f32>, from: i32, to: i32): void {
  // Shell sort: no scratch, O(n^1.3) on the few thousand splits of a feature.
  let gap = 1;
  while (gap < (to - from) / 3) gap = gap * 3 + 1;
  for (; gap > 0; gap = (gap - 1) / 3) {
    for (let i = from + gap; i < to; i++) {
      const value = unchecked(cuts[i]);
      let j = i;
      while (j - gap >= from && unchecked(cuts[j - gap]) > value) {
        unchecked((cuts[j] = cuts[j - gap]));
        j -= gap;
      }
      unchecked((cuts[j] = value));
    }
  }
}

/** The place of cut among feature f's cuts (it is one of them). */
function cutPlace(f: i32, cut: f32): i32 {
  const begin = unchecked(binsCutBegin[f]);
  let low = 0;
  let high = unchecked(binsCutCount[f]) - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (unchecked(binsCuts[begin + middle]) < cut) low = middle + 1;
    else high = middle;
  }
  return low;
}

function buildBins(): bool {
  if (!float32 || leftWhenEqual || needsFlags || hasLinear) return false;
  if (<f64><f32>baseMargin != baseMargin) return false;
  for (let i = 0; i < nodeValue.length; i++) {
    const value = unchecked(nodeValue[i]);
    if (<f64><f32>value != value) return false;
  }
  const treeCount = treeRoots.length;
  let depth = BINS_MIN_DEPTH;
  for (let t = 0; t < treeCount; t++) depth = max(depth, unchecked(treeDepth[t]));
  if (depth > BINS_MAX_DEPTH) return false;
  if (!buildCuts()) return false;
  binsDepth = depth;
  const columns = binsColumns;
  binsPickBits =
    depth <= BINS_GATHER_LEVEL || columns > BINS_GATHER_MAX_COLUMNS
      ? 0
      : columns <= 8
        ? 3
        : columns <= 16
          ? 4
          : 5;
  binsGatherTables = binsPickBits == 0 ? 0 : 2;
  binsGroupBytes = ((columns << 1) + (binsPickBits ? (columns + 7) >> 3 : 0)) << 4;
  // A tree: its 2^depth - 1 nodes in heap order, then its 2^depth float32 leaves, then for each
  // gathered level of 2^L nodes binsGatherTables tables of 2^L bytes (see placeBins).
  binsGatherAt = (((1 << depth) - 1) * BINS_NODE_BYTES + (4 << depth) + 15) & ~15;
  binsPlanesAt = binsGatherAt + binsGatherTables * ((1 << depth) - (1 << BINS_GATHER_LEVEL));
  binsTreeBytes = binsPlanesAt + (depth <= BINS_PLANE_MAX_DEPTH ? 4 << depth : 0);
  binsTrees = new StaticArray<u8>(treeCount * binsTreeBytes + 16);
  binsTreesAt = (<i32>changetype<usize>(binsTrees) + 15) & ~15;
  for (let t = 0; t < treeCount; t++) placeBins(unchecked(treeRoots[t]), 0, depth, binsTreesAt + t * binsTreeBytes);
  binsWalk = true;
  return true;
}

/** Writes node at heap slot `slot` of the byte-key tree at address `tree`, its leaves at the last level. */
function placeBins(node: i32, slot: i32, levelsBelow: i32, tree: i32): void {
  const flags = unchecked(nodeFlags[node]);
  if (levelsBelow == 0) {
    const leaves = tree + ((1 << binsDepth) - 1) * BINS_NODE_BYTES;
    const leaf = slot - (1 << binsDepth) + 1;
    store<f32>(leaves + (leaf << 2), <f32>unchecked(nodeValue[node]));
    if (binsDepth <= BINS_PLANE_MAX_DEPTH) {
      // Byte b of leaf i at byte i % 16 of plane b of the leaves' sixteen-leaf chunk i / 16.
      const bits = reinterpret<u32>(<f32>unchecked(nodeValue[node]));
      const planes = tree + binsPlanesAt + ((leaf >> 4) << 6) + (leaf & 15);
      for (let b = 0; b < 4; b++) store<u8>(planes + (b << 4), <u8>(bits >> (b << 3)));
    }
    return;
  }
  const at = tree + slot * BINS_NODE_BYTES;
  // The node's place in its level's gather tables, when its level is gathered: its key, and its
  // column in the first copy with the top bit set when the node sends NaN right.
  const level = binsDepth - levelsBelow;
  const gathered = binsPickBits > 0 && level >= BINS_GATHER_LEVEL;
  const nodes = 1 << level;
  const keys = tree + binsGatherAt + binsGatherTables * (nodes - (1 << BINS_GATHER_LEVEL)) + slot + 1 - nodes;
  if (flags & LEAF) {
    // Pass-through: no key is above 127, so every row goes left, down to the leaf's copies.
    store<u16>(at, 0);
    store<i8>(at, 127, 2);
    if (gathered) {
      store<i8>(keys, 127);
      store<u8>(keys + nodes, 0x80);
    }
    placeBins(node, (slot << 1) + 1, levelsBelow - 1, tree);
    placeBins(node, (slot << 1) + 2, levelsBelow - 1, tree);
    return;
  }
  const f = unchecked(nodeFeature[node]);
  const place = cutPlace(f, floatNotBelow(unchecked(nodeThreshold[node])) + 0);
  const column = unchecked(binsColumnBegin[f]) + place / BINS_COLUMN_CUTS + (flags & DEFAULT_LEFT ? binsColumns : 0);
  store<u16>(at, column << 4);
  store<i8>(at, <i8>((place % BINS_COLUMN_CUTS) - 128), 2);
  if (gathered) {
    store<i8>(keys, <i8>((place % BINS_COLUMN_CUTS) - 128));
    const right: i32 = flags & DEFAULT_LEFT ? 0 : 0x80;
    store<u8>(keys + nodes, <u8>(right | column % binsColumns));
  }
  const left = unchecked(nodeLeft[node]);
  placeBins(left, (slot << 1) + 1, levelsBelow - 1, tree);
  placeBins(left + 1, (slot << 1) + 2, levelsBelow - 1, tree);
}

/**
 * The rows' keys, column by column per group of sixteen; a short last group repeats its last row.
 * A feature with more than BINS_COLUMN_CUTS cuts has a column per BINS_COLUMN_CUTS of them: column
 * j holds the bin less j * BINS_COLUMN_CUTS, clamped to 0..255, and a split on the feature's cut c
 * reads column c / BINS_COLUMN_CUTS with the key c % BINS_COLUMN_CUTS: the clamp keeps the compare
 * exact, as a bin below the column's cuts reads 0 and one above them reads 255.
 */
// A row's bin for one feature, as found (NaN as the last bin), and for the second copy (NaN as 0).
// @ts-ignore: decorator
@inline function binsStore(at: i32, x: f32, bin: i32, count: i32): void {
  const missing = isNaN(x);
  store<i16>(at, <i16>(missing ? count : bin));
  store<i16>(at, <i16>(missing ? 0 : bin), 32);
}

function binRows(rowCount: i32, rowsAt: i32): void {
  const width = numFeatures;
  const columns = binsColumns;
  const groupBytes = binsGroupBytes;
  const groups = (rowCount + 15) >> 4;
  const nanColumns = binsPickBits ? (columns + 7) >> 3 : 0;
  // A group's bins of one feature, sixteen i16 for the first copy, then sixteen for the second.
  const binsAt = (<i32>changetype<usize>(binsScratch) + 15) & ~15;
  const offset = i8x16.splat(-128);
  for (let g = 0; g < groups; g++) {
    const group = rowsAt + g * groupBytes;
    const nanAt = group + (columns << 5);
    for (let c = 0; c < nanColumns; c++) v128.store(nanAt + (c << 4), i8x16.splat(0));
    for (let f = 0; f < width; f++) {
      const first = unchecked(binsCutBegin[f]);
      const count = unchecked(binsCutCount[f]);
      const vectors = unchecked(binsPivotVectors[f]);
      if (vectors > 0) {
        const pivots = binsBlocksAt + unchecked(binsPivotAt[f]);
        const blocks = binsBlocksAt + unchecked(binsBlockAt[f]);
        for (let lane = 0; lane < 16; lane++) {
          const x = <f32>unchecked(rows[min((g << 4) + lane, rowCount - 1) * width + f]);
          const xs = f32x4.splat(x);
          let k = binsNotAbove(pivots, xs);
          for (let v = 1; v < vectors; v++) k += binsNotAbove(pivots + (v << 6), xs);
          binsStore(binsAt + (lane << 1), x, (k << 4) + binsNotAbove(blocks + (k << 6), xs), count);
        }
      }
      // Four searches in lockstep (same length): independent chains of loads for the CPU.
      for (let lane = 0; vectors == 0 && lane < 16; lane += 4) {
        const row = (g << 4) + lane;
        const x0 = <f32>unchecked(rows[min(row, rowCount - 1) * width + f]);
        const x1 = <f32>unchecked(rows[min(row + 1, rowCount - 1) * width + f]);
        const x2 = <f32>unchecked(rows[min(row + 2, rowCount - 1) * width + f]);
        const x3 = <f32>unchecked(rows[min(row + 3, rowCount - 1) * width + f]);
        let base0 = first;
        let base1 = first;
        let base2 = first;
        let base3 = first;
        let len = count;
        while (len > 0) {
          const half = len >> 1;
          const rest = len - half;
          base0 = unchecked(binsCuts[base0 + half]) <= x0 ? base0 + rest : base0;
          base1 = unchecked(binsCuts[base1 + half]) <= x1 ? base1 + rest : base1;
          base2 = unchecked(binsCuts[base2 + half]) <= x2 ? base2 + rest : base2;
          base3 = unchecked(binsCuts[base3 + half]) <= x3 ? base3 + rest : base3;
          len = half;
        }
        binsStore(binsAt + (lane << 1), x0, base0 - first, count);
        binsStore(binsAt + (lane << 1) + 2, x1, base1 - first, count);
        binsStore(binsAt + (lane << 1) + 4, x2, base2 - first, count);
        binsStore(binsAt + (lane << 1) + 6, x3, base3 - first, count);
      }
      // Column c of the feature: the bins less (c - its first) * BINS_COLUMN_CUTS, clamped to 0..255 by
      // the saturating narrow, less 128.
      const column = unchecked(binsColumnBegin[f]);
      const end = f + 1 < width ? unchecked(binsColumnBegin[f + 1]) : columns;
      // The rows whose copies differ: NaN (a feature without cuts has none to differ by, and no
      // split reads it). Each of the feature's columns has its bit in the NaN columns, eight a column.
      if (nanColumns) {
        const missing = i8x16.narrow_i16x8_s(
          i16x8.ne(v128.load(binsAt), v128.load(binsAt, 32)),
          i16x8.ne(v128.load(binsAt, 16), v128.load(binsAt, 48)),
        );
        for (let c = column; c < end; c++) {
          const at = nanAt + ((c >> 3) << 4);
          const bit: i32 = 1 << (c & 7);
          v128.store(at, v128.or(v128.load(at), v128.and(missing, i8x16.splat(<i8>bit))));
        }
      }
      for (let c = column; c < end; c++) {
        const below = i16x8.splat(<i16>((c - column) * BINS_COLUMN_CUTS));
        const right = i8x16.narrow_i16x8_u(
          i16x8.sub(v128.load(binsAt), below),
          i16x8.sub(v128.load(binsAt, 16), below),
        );
        const left = i8x16.narrow_i16x8_u(
          i16x8.sub(v128.load(binsAt, 32), below),
          i16x8.sub(v128.load(binsAt, 48), below),
        );
        v128.store(group + (c << 4), v128.xor(right, offset));
        v128.store(group + ((c + columns) << 4), v128.xor(left, offset));
      }
    }
  }
}

// Whether the rows of the group at address group go right at heap slot `slot` of the tree at `tree`.
// @ts-ignore: decorator
@inline function binsRight(tree: i32, group: i32, slot: i32): v128 {
  const at = tree + slot * BINS_NODE_BYTES;
  return i8x16.gt_s(v128.load(group + <i32>load<u16>(at)), v128.load8_splat(at, 2));
}
// The decision at the node each lane stands at among the 2, 4, 8, 16 or 32 nodes from slot
// `first` on one level, given the decisions above (d0 the highest).
// @ts-ignore: decorator
@inline function binsPick2(tree: i32, group: i32, first: i32, d0: v128): v128 {
  return v128.bitselect(binsRight(tree, group, first + 1), binsRight(tree, group, first), d0);
}
// @ts-ignore: decorator
@inline function binsPick4(tree: i32, group: i32, first: i32, d0: v128, d1: v128): v128 {
  return v128.bitselect(binsPick2(tree, group, first + 2, d1), binsPick2(tree, group, first, d1), d0);
}
// @ts-ignore: decorator
@inline function binsPick8(tree: i32, group: i32, first: i32, d0: v128, d1: v128, d2: v128): v128 {
  return v128.bitselect(binsPick4(tree, group, first + 4, d1, d2), binsPick4(tree, group, first, d1, d2), d0);
}
// @ts-ignore: decorator
@inline function binsPick16(tree: i32, group: i32, first: i32, d0: v128, d1: v128, d2: v128, d3: v128): v128 {
  return v128.bitselect(binsPick8(tree, group, first + 8, d1, d2, d3), binsPick8(tree, group, first, d1, d2, d3), d0);
}
// @ts-ignore: decorator
@inline function binsPick32(tree: i32, group: i32, first: i32, d0: v128, d1: v128, d2: v128, d3: v128, d4: v128): v128 {
  return v128.bitselect(
    binsPick16(tree, group, first + 16, d1, d2, d3, d4),
    binsPick16(tree, group, first, d1, d2, d3, d4),
    d0,
  );
}

// Adds the leaves at byte offsets `places` (a byte lane per row) from address leaves to the
// group's sixteen float32 margins at address margin.
// @ts-ignore: decorator
@inline function binsBit(shift: i32): v128 {
  return binsConstant(shift);
}

// Adds the leaves at places `places` (a byte lane per row) of the float32 leaves at address leaves
// to the group's sixteen float32 margins at address margin.
// @ts-ignore: decorator
@inline function binsAdd(leaves: i32, places: v128, margin: i32): void {
  const v0 = f32x4.replace_lane(
    f32x4.replace_lane(
      f32x4.replace_lane(
        f32x4.splat(load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 0) << 2))),
        1,
        load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 1) << 2)),
      ),
      2,
      load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 2) << 2)),
    ),
    3,
    load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 3) << 2)),
  );
  v128.store(margin, f32x4.add(v128.load(margin, 0), v0), 0);
  const v1 = f32x4.replace_lane(
    f32x4.replace_lane(
      f32x4.replace_lane(
        f32x4.splat(load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 4) << 2))),
        1,
        load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 5) << 2)),
      ),
      2,
      load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 6) << 2)),
    ),
    3,
    load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 7) << 2)),
  );
  v128.store(margin, f32x4.add(v128.load(margin, 16), v1), 16);
  const v2 = f32x4.replace_lane(
    f32x4.replace_lane(
      f32x4.replace_lane(
        f32x4.splat(load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 8) << 2))),
        1,
        load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 9) << 2)),
      ),
      2,
      load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 10) << 2)),
    ),
    3,
    load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 11) << 2)),
  );
  v128.store(margin, f32x4.add(v128.load(margin, 32), v2), 32);
  const v3 = f32x4.replace_lane(
    f32x4.replace_lane(
      f32x4.replace_lane(
        f32x4.splat(load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 12) << 2))),
        1,
        load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 13) << 2)),
      ),
      2,
      load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 14) << 2)),
    ),
    3,
    load<f32>(leaves + (<i32>i8x16.extract_lane_u(places, 15) << 2)),
  );
  v128.store(margin, f32x4.add(v128.load(margin, 48), v3), 48);
}

// The same for trees of 16, 32 or 64 leaves from their byte planes at address planes: each
// lane's four bytes by swizzle, chunk by chunk of sixteen leaves (a lane's place out of a chunk's
// range reads 0 there), then interleaved into four f32x4 by shuffles instead of sixteen lane
// extracts and loads.
// @ts-ignore: decorator
@inline function binsAddPlanes(planes: i32, places: v128, margin: i32, leaves: i32): void {
  let b0 = i8x16.swizzle(v128.load(planes), places);
  let b1 = i8x16.swizzle(v128.load(planes, 16), places);
  let b2 = i8x16.swizzle(v128.load(planes, 32), places);
  let b3 = i8x16.swizzle(v128.load(planes, 48), places);
  let high = places;
  for (let chunk = 1; chunk < (leaves >> 4); chunk++) {
    high = i8x16.sub(high, binsConstant(4));
    const at = planes + (chunk << 6);
    b0 = v128.or(b0, i8x16.swizzle(v128.load(at), high));
    b1 = v128.or(b1, i8x16.swizzle(v128.load(at, 16), high));
    b2 = v128.or(b2, i8x16.swizzle(v128.load(at, 32), high));
    b3 = v128.or(b3, i8x16.swizzle(v128.load(at, 48), high));
  }
  const low01 = i8x16.shuffle(b0, b1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const high01 = i8x16.shuffle(b0, b1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const low23 = i8x16.shuffle(b2, b3, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const high23 = i8x16.shuffle(b2, b3, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const v0 = i8x16.shuffle(low01, low23, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const v1 = i8x16.shuffle(low01, low23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const v2 = i8x16.shuffle(high01, high23, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const v3 = i8x16.shuffle(high01, high23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  v128.store(margin, f32x4.add(v128.load(margin), v0));
  v128.store(margin, f32x4.add(v128.load(margin, 16), v1), 16);
  v128.store(margin, f32x4.add(v128.load(margin, 32), v2), 32);
  v128.store(margin, f32x4.add(v128.load(margin, 48), v3), 48);
}

// The nodes the sixteen rows of the group at address group reach `levels` levels down the tree
// at address tree (4, 5 or 6, a constant at every call site), one byte lane each: the leaf's
// place when the tree is that deep.
// @ts-ignore: decorator
@inline function binsPlace(tree: i32, group: i32, levels: i32): v128 {
  const d0 = binsRight(tree, group, 0);
  const d1 = binsPick2(tree, group, 1, d0);
  const d2 = binsPick4(tree, group, 3, d0, d1);
  if (levels == 3) {
    return v128.or(v128.or(v128.and(d0, binsBit(2)), v128.and(d1, binsBit(1))), v128.and(d2, binsBit(0)));
  }
  const d3 = binsPick8(tree, group, 7, d0, d1, d2);
  let place = v128.or(
    v128.or(v128.and(d0, binsBit(levels - 1)), v128.and(d1, binsBit(levels - 2))),
    v128.or(v128.and(d2, binsBit(levels - 3)), v128.and(d3, binsBit(levels - 4))),
  );
  if (levels >= 5) {
    const d4 = binsPick16(tree, group, 15, d0, d1, d2, d3);
    place = v128.or(place, v128.and(d4, binsBit(levels - 5)));
    if (levels >= 6) {
      const d5 = binsPick32(tree, group, 31, d0, d1, d2, d3, d4);
      place = v128.or(place, v128.and(d5, binsBit(0)));
    }
  }
  return place;
}

// The gathered levels. Below the top BINS_GATHER_LEVEL levels, comparing every node of a level
// and picking each lane's decision costs a compare and a select per node; instead each lane's
// node (its place p in the level, a byte lane) fetches its key and column from the level's
// tables (i8x16.swizzle, sixteen entries a v128, out-of-range places read 0), the lane's byte of
// that column is picked among the first copy's columns by the column number's bits (a select per
// column, the same for every level), and one compare gives the decision: p becomes 2p + right.
// The first copy sends NaN right; a node that sends it left turns the decision round where the
// row's NaN bit for the node's column is set (binRows keeps a bit a column of the first copy,
// eight to a NaN column), picked by the same bits. Only for models of at most
// BINS_GATHER_MAX_COLUMNS columns a copy.
// @ts-ignore: decorator
@inline function binsLookup16(table: i32, p: v128): v128 {
  return i8x16.swizzle(v128.load(table), p);
}
// @ts-ignore: decorator
@inline function binsLookup32(table: i32, p: v128): v128 {
  return v128.or(binsLookup16(table, p), binsLookup16(table + 16, i8x16.sub(p, binsConstant(4))));
}
// @ts-ignore: decorator
@inline function binsLookup64(table: i32, p: v128): v128 {
  return v128.or(binsLookup32(table, p), binsLookup32(table + 32, i8x16.sub(p, binsConstant(5))));
}
// @ts-ignore: decorator
@inline function binsLookup128(table: i32, p: v128): v128 {
  return v128.or(binsLookup64(table, p), binsLookup64(table + 64, i8x16.sub(p, binsConstant(6))));
}
// The entries at places p of a table of `nodes` bytes (16, 32, 64 or 128, a constant).
// @ts-ignore: decorator
@inline function binsLookup(table: i32, nodes: i32, p: v128): v128 {
  if (nodes <= 16) return binsLookup16(table, p);
  if (nodes == 32) return binsLookup32(table, p);
  if (nodes == 64) return binsLookup64(table, p);
  return binsLookup128(table, p);
}
// Each lane's byte of columns [first, first + 2, 4, 8, 16 or 32) of the group at address group,
// the column chosen by the masks of its number's bits (m0 the lowest).
// @ts-ignore: decorator
@inline function binsColumn2(group: i32, first: i32, m0: v128): v128 {
  return v128.bitselect(v128.load(group + ((first + 1) << 4)), v128.load(group + (first << 4)), m0);
}
// @ts-ignore: decorator
@inline function binsColumn4(group: i32, first: i32, m1: v128, m0: v128): v128 {
  return v128.bitselect(binsColumn2(group, first + 2, m0), binsColumn2(group, first, m0), m1);
}
// @ts-ignore: decorator
@inline function binsColumn8(group: i32, first: i32, m2: v128, m1: v128, m0: v128): v128 {
  return v128.bitselect(binsColumn4(group, first + 4, m1, m0), binsColumn4(group, first, m1, m0), m2);
}
// @ts-ignore: decorator
@inline function binsColumn16(group: i32, first: i32, m3: v128, m2: v128, m1: v128, m0: v128): v128 {
  return v128.bitselect(binsColumn8(group, first + 8, m2, m1, m0), binsColumn8(group, first, m2, m1, m0), m3);
}
// Each lane's byte of columns [first, first + count), count at most 8 or 16: the selects above
// the last column left out.
// @ts-ignore: decorator
@inline function binsColumnsUpTo8(group: i32, first: i32, count: i32, m2: v128, m1: v128, m0: v128): v128 {
  if (count <= 1) return v128.load(group + (first << 4));
  if (count <= 2) return binsColumn2(group, first, m0);
  if (count <= 4) return binsColumn4(group, first, m1, m0);
  return binsColumn8(group, first, m2, m1, m0);
}
// @ts-ignore: decorator
@inline function binsColumnsUpTo16(group: i32, first: i32, count: i32, m3: v128, m2: v128, m1: v128, m0: v128): v128 {
  if (count <= 8) return binsColumnsUpTo8(group, first, count, m2, m1, m0);
  return v128.bitselect(binsColumnsUpTo8(group, first + 8, count - 8, m2, m1, m0), binsColumn8(group, first, m2, m1, m0), m3);
}
// The mask of the lanes of `column` whose bit `bit` is set.
// @ts-ignore: decorator
@inline function binsHas(column: v128, bit: i32): v128 {
  const mask = binsConstant(bit);
  return i8x16.eq(v128.and(column, mask), mask);
}
// The places one level down from places p on a gathered level of `nodes` nodes whose tables
// begin at address keys; the first copy's columns (count of them, below 2^bits) at address
// group, the NaN columns at nanAt.
// @ts-ignore: decorator
@inline function binsGather(keys: i32, nodes: i32, group: i32, nanAt: i32, p: v128, bits: i32, count: i32): v128 {
  const key = binsLookup(keys, nodes, p);
  const column = binsLookup(keys + nodes, nodes, p);
  const m0 = binsHas(column, 0);
  const m1 = binsHas(column, 1);
  const m2 = binsHas(column, 2);
  let x: v128;
  let nan: v128;
  if (bits == 3) {
    x = binsColumnsUpTo8(group, 0, count, m2, m1, m0);
    nan = v128.load(nanAt);
  } else {
    const m3 = binsHas(column, 3);
    if (bits == 4) {
      x = binsColumnsUpTo16(group, 0, count, m3, m2, m1, m0);
      nan = binsColumn2(nanAt, 0, m3);
    } else {
      const m4 = binsHas(column, 4);
      const high = binsColumnsUpTo16(group, 16, count - 16, m3, m2, m1, m0);
      x = v128.bitselect(high, binsColumn16(group, 0, m3, m2, m1, m0), m4);
      nan = binsColumn4(nanAt, 0, m4, m3);
    }
  }
  // The first copy sends NaN right; where the node sends it left, the row's NaN bit for the
  // column turns the decision round. The bit: swizzle by the column's low three bits, or by an
  // index out of range (0) when the top bit says NaN goes right.
  const bit = i8x16.swizzle(binsConstant(9), v128.and(column, binsConstant(8)));
  const right = v128.and(i8x16.gt_s(x, key), i8x16.eq(v128.and(nan, bit), i8x16.splat(0)));
  return i8x16.sub(i8x16.add(p, p), right);
}

// The rows of a tree deeper than BINS_VECTOR_LEVELS, each from the node it reached on that level
// (its lane of `place` at address places) down to its leaf, step by step as in the perfect trees;
// each leaf is added to its row's float32 margin. Sixteen independent chains for the CPU.
// @ts-ignore: decorator
@inline function binsBottom(tree: i32, depth: i32, places: i32, group: i32, margin: i32): void {
  const leaves = tree + ((1 << depth) - 1) * BINS_NODE_BYTES - (((1 << depth) - 1) << 2);
  for (let lane = 0; lane < 16; lane++) {
    let i = (1 << BINS_VECTOR_LEVELS) - 1 + <i32>load<u8>(places + lane);
    for (let s = BINS_VECTOR_LEVELS; s < depth; s++) {
      const at = tree + i * BINS_NODE_BYTES;
      const right = load<i8>(group + <i32>load<u16>(at) + lane) > load<i8>(at, 2);
      i = (i << 1) + 1 + <i32>right;
    }
    store<f32>(margin + (lane << 2), load<f32>(margin + (lane << 2)) + load<f32>(leaves + (i << 2)));
  }
}

// One tree over the groups [first, last): depth and bits (binsPickBits) are constants at every call site.
// @ts-ignore: decorator
@inline function binsTree(tree: i32, depth: i32, bits: i32, rowsAt: i32, marginsAt: i32, first: i32, last: i32, groupBytes: i32): void {
  const leaves = tree + ((1 << depth) - 1) * BINS_NODE_BYTES;
  const places = (<i32>changetype<usize>(binsScratch) + 15) & ~15;
  const tables = tree + binsGatherAt;
  const stride = binsGatherTables;
  const count = binsColumns;
  const nanOffset = count << 5;
  for (let g = first; g < last; g++) {
    const group = rowsAt + g * groupBytes;
    const margin = marginsAt + (g << 6);
    if (bits > 0) {
      // The tables of level L begin stride * (2^L - 2^BINS_GATHER_LEVEL) bytes after the first.
      const nanAt = group + nanOffset;
      const top = 1 << BINS_GATHER_LEVEL;
      let p = binsPlace(tree, group, BINS_GATHER_LEVEL);
      if (depth > 3 && BINS_GATHER_LEVEL <= 3) p = binsGather(tables + stride * (8 - top), 8, group, nanAt, p, bits, count);
      if (depth > 4 && BINS_GATHER_LEVEL <= 4) p = binsGather(tables + stride * (16 - top), 16, group, nanAt, p, bits, count);
      if (depth > 5 && BINS_GATHER_LEVEL <= 5) p = binsGather(tables + stride * (32 - top), 32, group, nanAt, p, bits, count);
      if (depth > 6) p = binsGather(tables + stride * (64 - top), 64, group, nanAt, p, bits, count);
      if (depth > 7) p = binsGather(tables + stride * (128 - top), 128, group, nanAt, p, bits, count);
      if (depth <= BINS_PLANE_MAX_DEPTH) binsAddPlanes(tree + binsPlanesAt, p, margin, 1 << depth);
      else binsAdd(leaves, p, margin);
    } else if (depth <= BINS_PLANE_MAX_DEPTH) {
      binsAddPlanes(tree + binsPlanesAt, binsPlace(tree, group, depth), margin, 1 << depth);
    } else if (depth <= BINS_VECTOR_LEVELS) {
      binsAdd(leaves, binsPlace(tree, group, depth), margin);
    } else {
      v128.store(places, binsPlace(tree, group, BINS_VECTOR_LEVELS));
      binsBottom(tree, depth, places, group, margin);
    }
  }
}

// @ts-ignore: decorator
@inline function sumBinsAt(depth: i32, bits: i32, rowCount: i32): void {
  const groupBytes = binsGroupBytes;
  const rowsAt = (<i32>changetype<usize>(binsRows) + 15) & ~15;
  const marginsAt = (<i32>changetype<usize>(binsMargins) + 15) & ~15;
  const groups = (rowCount + 15) >> 4;
  binRows(rowCount, rowsAt);
  const start = f32x4.splat(<f32>baseMargin);
  for (let g = 0; g < groups << 2; g++) v128.store(marginsAt + (g << 4), start);
  const treeCount = treeRoots.length;
  const block = max(1, BINS_BLOCK_BYTES / groupBytes);
  for (let first = 0; first < groups; first += block) {
    const last = min(first + block, groups);
    for (let t = 0; t < treeCount; t++) {
      binsTree(binsTreesAt + t * binsTreeBytes, depth, bits, rowsAt, marginsAt, first, last, groupBytes);
    }
  }
  for (let r = 0; r < rowCount; r++) unchecked((margins[r] = <f64>load<f32>(marginsAt + (r << 2))));
}

function sumBins4(rowCount: i32): void {
  sumBinsAt(4, 0, rowCount);
}
function sumBins5(rowCount: i32): void {
  sumBinsAt(5, 0, rowCount);
}
function sumBins6(rowCount: i32): void {
  sumBinsAt(6, 0, rowCount);
}
function sumBins7(rowCount: i32): void {
  sumBinsAt(7, 0, rowCount);
}
function sumBins8(rowCount: i32): void {
  sumBinsAt(8, 0, rowCount);
}
function sumBins5Gather8(rowCount: i32): void {
  sumBinsAt(5, 3, rowCount);
}
function sumBins6Gather8(rowCount: i32): void {
  sumBinsAt(6, 3, rowCount);
}
function sumBins7Gather8(rowCount: i32): void {
  sumBinsAt(7, 3, rowCount);
}
function sumBins8Gather8(rowCount: i32): void {
  sumBinsAt(8, 3, rowCount);
}
function sumBins5Gather16(rowCount: i32): void {
  sumBinsAt(5, 4, rowCount);
}
function sumBins6Gather16(rowCount: i32): void {
  sumBinsAt(6, 4, rowCount);
}
function sumBins7Gather16(rowCount: i32): void {
  sumBinsAt(7, 4, rowCount);
}
function sumBins8Gather16(rowCount: i32): void {
  sumBinsAt(8, 4, rowCount);
}
function sumBins5Gather32(rowCount: i32): void {
  sumBinsAt(5, 5, rowCount);
}
function sumBins6Gather32(rowCount: i32): void {
  sumBinsAt(6, 5, rowCount);
}
function sumBins7Gather32(rowCount: i32): void {
  sumBinsAt(7, 5, rowCount);
}
function sumBins8Gather32(rowCount: i32): void {
  sumBinsAt(8, 5, rowCount);
}

// ---------------------------------------------------------------------------------------------
// Second engine: QuickScorer (Lucchese et al., SIGIR 2015) with prefix checkpoints, for forests
// whose trees have at most 64 leaves and only numerical splits with NaN-style missing values
// (the host decides which engine a model gets, see wasm-core/src/gbdt/engine.ts).
//
// Each tree's leaves are numbered left to right; a split's mask clears the leaves of its left
// subtree. A row's exit leaf in a tree is the lowest bit left after AND-ing the masks of all the
// tree's splits the row goes right at. For one feature, sort the splits of all trees by threshold:
// the splits a row goes right at (t <= x for XGBoost, t < x for LightGBM) are a prefix of that list.
// Every K entries a checkpoint stores the AND of the prefix's masks per tree, so a row ANDs one
// checkpoint vector per feature plus fewer than K single masks: counting the checkpoints' keys
// (every K-th threshold, a small array of their own) the row goes right at finds the checkpoint,
// and the row's leftover entries past it are those it goes right at from there on. NaN goes
// right exactly at the default-right splits: one more vector per feature. Trees are cut into
// blocks of blockTrees so the checkpoint vectors (splits / K x trees) stay bounded.
// Exactness: the exit leaf is the walk's leaf, and the leaves are summed in tree order with the
// walk's arithmetic (float32 after every tree for XGBoost, double for LightGBM), so the margins
// are the same bits.
// A tree's word is as narrow as its forest allows: 16 bits when no tree has more than 16 leaves
// (depth 4), 32 up to 32 leaves, 64 beyond: a v128 AND then covers eight, four or two trees, and the
// vectors a row ANDs (one per feature) are a quarter or half as long.
// Entries between checkpoints: 1 << qsKShift, 4 to 16. Fewer leftover masks per row with closer
// checkpoints, more table bytes: the closest whose tables stay within QS_CLOSE_TABLE_BYTES (a
// core's L2 here, 512 KiB) — the grid's 16-bit forests of 100 trees ran 1.1–1.15× faster with 4
// than with 16, and the default LightGBM model (checkpoint vectors of 341 KiB every 8 entries, 174
// KiB every 16) 1.06–1.09× faster with 8 (interleaved runs, median; the same build against itself
// 0.98–1.05×); the default XGBoost model's outgrow the L2 at 8 (1 083 KiB, 546 KiB at 16), where
// 8 ran 0.99–1.05× 16, within the noise.
const QS_MIN_K_SHIFT: i32 = 2;
const QS_MAX_K_SHIFT: i32 = 4;
const QS_CLOSE_TABLE_BYTES: i32 = 512 * 1024;
let qsKShift: i32 = QS_MAX_K_SHIFT;
const QS_LEAF_SHIFT: i32 = 6; // 64 leaves per tree at most
const QS_GROUP: i32 = 4; // rows whose leaf sums run side by side

let quick: bool = false;
let qsBlockTreeBegin = new StaticArray<i32>(0);
let qsBlockTreeCount = new StaticArray<i32>(0);
let qsBlockSlotBegin = new StaticArray<i32>(0);
let qsBlockSlotEnd = new StaticArray<i32>(0);
// One slot per (block, feature used in the block).
let qsSlotFeature = new StaticArray<i32>(0);
let qsSlotEntryBegin = new StaticArray<i32>(0);
let qsSlotEntryEnd = new StaticArray<i32>(0);
let qsSlotCheckBegin = new StaticArray<i32>(0); // in u64 words into qsChecks
// The checkpoints' keys: key k is the threshold of the last entry below checkpoint k + 1, so the
// keys a row goes right at count the checkpoints below its prefix. Per slot, in qsKeys from
// qsSlotKeyBegin (in f64 from qsKeysAt, 16-byte aligned): the last key of each group of eight
// (1 << QS_KEY_GROUP_SHIFT), NaN-padded to whole pairs, qsSlotKeyPairs pairs; then all its keys,
// NaN-padded to one group more than whole groups. No row goes right at a NaN key.
const QS_KEY_GROUP_SHIFT: i32 = 3;
let qsSlotKeyBegin = new StaticArray<i32>(0);
let qsSlotKeyPairs = new StaticArray<i32>(0);
let qsKeys = new StaticArray<f64>(0);
let qsKeysAt: i32 = 0;
// Entries: a block's splits sorted by feature then threshold, each slot's followed by a stop entry
// (threshold NaN: no row goes right at it).
let qsThreshold = new StaticArray<f64>(0);
let qsTree = new StaticArray<i32>(0); // tree index within the block
let qsMask = new StaticArray<u64>(0);
// Per slot: checkpoints 0 .. entries >> K_SHIFT, then the NaN vector; each `stride` words.
let qsChecks = new StaticArray<u64>(0);
let qsLeaf = new StaticArray<f64>(0); // tree << 6 | leaf
// XGBoost's leaves as float32: a float32 add of two float32 values is the double sum rounded to
// float32 (double has more than 2 x 24 + 2 bits), so summing here in float32 gives the walk's bits.
let qsLeaf32 = new StaticArray<f32>(0);
// Four rows' states, each maxStride words, 16-byte aligned.
let qsState = new StaticArray<u64>(0);
let qsStateAt: i32 = 0;
// Per row of the group, the address of each slot's checkpoint vector, padded to a multiple of 4
// with an all-ones vector (qsOnes).
let qsPointers = new StaticArray<i32>(0);
let qsBases = new StaticArray<i32>(0); // same layout: where each row's prefix ends

let qsPointerStride: i32 = 0;
// Bytes of one tree's word in the vectors: 2, 4 or 8.
let qsWordBytes: i32 = 8;
let qsOnes = new StaticArray<u64>(0);
let qsBytes: i32 = 0;
let qsNext: i32 = 0;

/** u64 words of a block's vector: its trees' words rounded up to whole v128 lanes. */
// @ts-ignore: decorator
@inline function qsStride(trees: i32): i32 {
  return ((trees * qsWordBytes + 15) >> 4) << 1;
}

/** Clears in the tree word at `at` the bits `mask` clears (its low wordBytes bytes). */
// @ts-ignore: decorator
@inline function qsAndWord(at: usize, mask: u64, wordBytes: i32): void {
  if (wordBytes == 8) store<u64>(at, load<u64>(at) & mask);
  else if (wordBytes == 4) store<u32>(at, load<u32>(at) & <u32>mask);
  else store<u16>(at, load<u16>(at) & <u16>mask);
}

/** Numbers the leaves under node left to right from qsNext; a split's mask clears its left subtree's. */
function qsNumber(node: i32, mask: StaticArray<u64>, leafIndex: StaticArray<i32>): void {
  if (unchecked(nodeFlags[node]) & LEAF) {
    unchecked((leafIndex[node] = qsNext++));
    return;
  }
  const low = qsNext;
  qsNumber(unchecked(nodeLeft[node]), mask, leafIndex);
  const width = qsNext - low;
  const bits: u64 = width >= 64 ? ~(<u64>0) : (<u64>1 << <u64>width) - 1;
  unchecked((mask[node] = ~(bits << <u64>(low & 63))));
  qsNumber(unchecked(nodeLeft[node]) + 1, mask, leafIndex);
}

// @ts-ignore: decorator
@inline function qsBefore(a: i32, b: i32): bool {
  const fa = unchecked(nodeFeature[a]);
  const fb = unchecked(nodeFeature[b]);
  return fa != fb ? fa < fb : unchecked(nodeThreshold[a]) < unchecked(nodeThreshold[b]);
}

/** Sorts order[from, to) by (feature, threshold), bottom-up merge sort through scratch. */
function qsSort(order: StaticArray<i32>, scratch: StaticArray<i32>, from: i32, to: i32): void {
  let src = order;
  let dst = scratch;
  for (let width = 1; width < to - from; width <<= 1) {
    for (let low = from; low < to; low += width << 1) {
      const mid = min(low + width, to);
      const high = min(low + (width << 1), to);
      let i = low;
      let j = mid;
      for (let k = low; k < high; k++) {
        if (i < mid && (j >= high || !qsBefore(unchecked(src[j]), unchecked(src[i])))) unchecked((dst[k] = src[i++]));
        else unchecked((dst[k] = src[j++]));
      }
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src !== order) for (let k = from; k < to; k++) unchecked((order[k] = src[k]));
}

/**
 * Builds the QuickScorer tables and switches predictMargins to them; false (and the walk stays)
 * when a tree has more than 64 leaves or a split the engine cannot take.
 */
export function buildQuickScorer(blockTrees: i32): bool {
  const treeCount = treeRoots.length;
  const nodeCount = nodeFeature.length;
  if (hasLinear || blockTrees < 1) return false;
  const mask = new StaticArray<u64>(nodeCount);
  const leafIndex = new StaticArray<i32>(nodeCount);
  const nodeTree = new StaticArray<i32>(nodeCount);
  let splits = 0;
  let maxLeaves = 0;
  for (let t = 0; t < treeCount; t++) {
    const begin = unchecked(treeRoots[t]);
    const end = t + 1 < treeCount ? unchecked(treeRoots[t + 1]) : nodeCount;
    qsNext = 0;
    qsNumber(begin, mask, leafIndex);
    if (qsNext > 1 << QS_LEAF_SHIFT) return false;
    maxLeaves = max(maxLeaves, qsNext);
    for (let i = begin; i < end; i++) {
      unchecked((nodeTree[i] = t));
      const flags = unchecked(nodeFlags[i]);
      if (flags & SPECIAL) return false;
      if (!(flags & LEAF)) splits++;
    }
  }

  qsWordBytes = maxLeaves <= 16 ? 2 : maxLeaves <= 32 ? 4 : 8;
  qsLeaf = new StaticArray<f64>(treeCount << QS_LEAF_SHIFT);
  qsLeaf32 = new StaticArray<f32>(float32 ? treeCount << QS_LEAF_SHIFT : 0);
  const order = new StaticArray<i32>(splits);
  const scratch = new StaticArray<i32>(splits);
  let at = 0;
  for (let i = 0; i < nodeCount; i++) {
    if (unchecked(nodeFlags[i]) & LEAF) {
      const value = unchecked(nodeValue[i]);
      if (float32 && <f64><f32>value != value) return false; // the float32 sum needs float32 leaves
      unchecked((qsLeaf[(nodeTree[i] << QS_LEAF_SHIFT) + leafIndex[i]] = value));
      if (float32) unchecked((qsLeaf32[(nodeTree[i] << QS_LEAF_SHIFT) + leafIndex[i]] = <f32>value));
    } else {
      unchecked((order[at++] = i));
    }
  }

  // Blocks of trees; nodes are stored tree after tree, so a block's splits are a range of order.
  const blockCount = (treeCount + blockTrees - 1) / blockTrees;
  qsBlockTreeBegin = new StaticArray<i32>(blockCount);
  qsBlockTreeCount = new StaticArray<i32>(blockCount);
  qsBlockSlotBegin = new StaticArray<i32>(blockCount);
  qsBlockSlotEnd = new StaticArray<i32>(blockCount);
  const blockSplitBegin = new StaticArray<i32>(blockCount + 1);
  let slots = 0;
  const checkWordsFor = new StaticArray<i32>(QS_MAX_K_SHIFT + 1);
  let maxStride = 2;
  let maxSlots = 0;
  at = 0;
  for (let b = 0; b < blockCount; b++) {
    const firstTree = b * blockTrees;
    const trees = min(blockTrees, treeCount - firstTree);
    unchecked((qsBlockTreeBegin[b] = firstTree));
    unchecked((qsBlockTreeCount[b] = trees));
    const from = at;
    while (at < splits && unchecked(nodeTree[order[at]]) < firstTree + trees) at++;
    unchecked((blockSplitBegin[b] = from));
    qsSort(order, scratch, from, at);
    const stride = qsStride(trees);
    maxStride = max(maxStride, stride);
    const slotsBefore = slots;
    for (let e = from; e < at; ) {
      const feature = unchecked(nodeFeature[order[e]]);
      let end = e;
      while (end < at && unchecked(nodeFeature[order[end]]) == feature) end++;
      slots++;
      for (let k = QS_MIN_K_SHIFT; k <= QS_MAX_K_SHIFT; k++) {
        unchecked((checkWordsFor[k] += (((end - e) >> k) + 2) * stride));
      }
      e = end;
    }
    maxSlots = max(maxSlots, slots - slotsBefore);
  }
  unchecked((blockSplitBegin[blockCount] = splits));
  qsKShift = QS_MIN_K_SHIFT;
  while (qsKShift < QS_MAX_K_SHIFT && unchecked(checkWordsFor[qsKShift]) * 8 > QS_CLOSE_TABLE_BYTES) qsKShift++;
  const checkWords = unchecked(checkWordsFor[qsKShift]);

  qsSlotFeature = new StaticArray<i32>(slots);
  qsSlotEntryBegin = new StaticArray<i32>(slots);
  qsSlotEntryEnd = new StaticArray<i32>(slots);
  qsSlotCheckBegin = new StaticArray<i32>(slots);
  qsSlotKeyBegin = new StaticArray<i32>(slots);
  qsSlotKeyPairs = new StaticArray<i32>(slots);
  // Per slot at most n / 8 + 2 group keys and n + 8 keys for its n keys, one spare pair to align.
  qsKeys = new StaticArray<f64>((splits >> qsKShift) * 2 + slots * ((2 << QS_KEY_GROUP_SHIFT) + 4) + 2);
  for (let i = 0; i < qsKeys.length; i++) unchecked((qsKeys[i] = NaN));
  qsKeysAt = (<i32>changetype<usize>(qsKeys) + 15) & ~15;
  // K spare entries past the last stop entry, where the rows' leftovers side by side may read on.
  qsThreshold = new StaticArray<f64>(splits + slots + (1 << qsKShift));
  qsTree = new StaticArray<i32>(splits + slots + (1 << qsKShift));
  qsMask = new StaticArray<u64>(splits + slots + (1 << qsKShift));
  // One spare v128 to align the vectors to 16 bytes.
  qsChecks = new StaticArray<u64>(checkWords + 2);
  const checksAt = ((<i32>changetype<usize>(qsChecks) + 15) & ~15) - <i32>changetype<usize>(qsChecks);
  const word0 = checksAt >> 3;
  const vector = new StaticArray<u64>(maxStride);
  let slot = 0;
  let words = word0;
  const keysSkipped = (qsKeysAt - <i32>changetype<usize>(qsKeys)) >> 3;
  let keys = keysSkipped;
  for (let b = 0; b < blockCount; b++) {
    const firstTree = unchecked(qsBlockTreeBegin[b]);
    const stride = qsStride(unchecked(qsBlockTreeCount[b]));
    const from = unchecked(blockSplitBegin[b]);
    const to = unchecked(blockSplitBegin[b + 1]);
    unchecked((qsBlockSlotBegin[b] = slot));
    for (let o = from; o < to; ) {
      const feature = unchecked(nodeFeature[order[o]]);
      let stop = o;
      while (stop < to && unchecked(nodeFeature[order[stop]]) == feature) stop++;
      // The slot's entries and its stop entry, shifted by one place for each slot before.
      const e = o + slot;
      const end = stop + slot;
      for (let j = o; j < stop; j++) {
        const node = unchecked(order[j]);
        unchecked((qsThreshold[j + slot] = nodeThreshold[node]));
        unchecked((qsTree[j + slot] = nodeTree[node] - firstTree));
        unchecked((qsMask[j + slot] = mask[node]));
      }
      unchecked((qsThreshold[end] = NaN));
      unchecked((qsTree[end] = 0));
      unchecked((qsMask[end] = ~(<u64>0)));
      const keyCount = (end - e) >> qsKShift;
      const groups = keyCount >> QS_KEY_GROUP_SHIFT;
      const pairs = (groups + 1) >> 1;
      unchecked((qsSlotKeyBegin[slot] = keys - keysSkipped));
      unchecked((qsSlotKeyPairs[slot] = pairs));
      for (let g = 0; g < groups; g++) {
        unchecked((qsKeys[keys + g] = qsThreshold[e + (((g + 1) << (QS_KEY_GROUP_SHIFT + qsKShift)) - 1)]));
      }
      keys += pairs << 1;
      for (let k = 0; k < keyCount; k++) unchecked((qsKeys[keys + k] = qsThreshold[e + ((k + 1) << qsKShift) - 1]));
      keys += (groups + 1) << QS_KEY_GROUP_SHIFT;
      unchecked((qsSlotFeature[slot] = feature));
      unchecked((qsSlotEntryBegin[slot] = e));
      unchecked((qsSlotEntryEnd[slot] = end));
      unchecked((qsSlotCheckBegin[slot] = words));
      // Checkpoint k: the AND of the first k * K entries' masks.
      for (let i = 0; i < stride; i++) unchecked((vector[i] = ~(<u64>0)));
      const checkpoints = ((end - e) >> qsKShift) + 1;
      for (let k = 0; k < checkpoints; k++) {
        for (let i = 0; i < stride; i++) unchecked((qsChecks[words + i] = vector[i]));
        words += stride;
        const upTo = min(e + ((k + 1) << qsKShift), end);
        for (let j = e + (k << qsKShift); j < upTo; j++) {
          qsAndWord(changetype<usize>(vector) + <usize>(unchecked(qsTree[j]) * qsWordBytes), unchecked(qsMask[j]), qsWordBytes);
        }
      }
      // NaN goes right exactly at the splits whose default is right.
      for (let i = 0; i < stride; i++) unchecked((vector[i] = ~(<u64>0)));
      for (let j = e; j < end; j++) {
        if (!(unchecked(nodeFlags[order[j - slot]]) & DEFAULT_LEFT)) {
          qsAndWord(changetype<usize>(vector) + <usize>(unchecked(qsTree[j]) * qsWordBytes), unchecked(qsMask[j]), qsWordBytes);
        }
      }
      for (let i = 0; i < stride; i++) unchecked((qsChecks[words + i] = vector[i]));
      words += stride;
      slot++;
      o = stop;
    }
    unchecked((qsBlockSlotEnd[b] = slot));
  }

  qsState = new StaticArray<u64>(QS_GROUP * maxStride + 2);
  qsStateAt = (<i32>changetype<usize>(qsState) + 15) & ~15;
  qsOnes = new StaticArray<u64>(maxStride + 2);
  for (let i = 0; i < qsOnes.length; i++) unchecked((qsOnes[i] = ~(<u64>0)));
  qsPointerStride = (maxSlots + 3) & ~3;
  qsPointers = new StaticArray<i32>(QS_GROUP * qsPointerStride);
  qsBases = new StaticArray<i32>(QS_GROUP * qsPointerStride);
  qsBytes = (checkWords + (splits + slots) * 2 + keys + (treeCount << QS_LEAF_SHIFT)) * 8 + (splits + slots) * 4 + slots * 24;
  quick = true;
  return true;
}

/** Bytes of the QuickScorer tables (0 while the model runs on the walk). */
export function quickTableBytes(): i32 {
  return quick ? qsBytes : 0;
}

// One row's part of one slot: the address of the checkpoint vector below its prefix and the
// entry its leftovers start at, for qsAndVectors and qsLeftovers.
// @ts-ignore: decorator
@inline function qsSlotRow(k: i32, local: i32, end: i32, begin: i32, checkpoint: i32, isMissing: bool, vectors: i32, stride: i32): void {
  // NaN: its own vector after the checkpoints, and no leftovers (NaN goes right at no entry).
  const vector = isMissing ? ((end - begin) >> qsKShift) + 1 : checkpoint;
  const at = k * qsPointerStride + local;
  unchecked((qsPointers[at] = vectors + ((vector * stride) << 3)));
  unchecked((qsBases[at] = begin + (checkpoint << qsKShift)));
}

// All ones in each lane whose key the row goes right at (t <= x for XGBoost, t < x for LightGBM).
// @ts-ignore: decorator
@inline function qsGoesRight(keys: v128, x: v128, strict: bool): v128 {
  return strict ? f64x2.le(keys, x) : f64x2.lt(keys, x);
}

// The checkpoint below a row's prefix: its groups' count (minus the sum of the all-ones lanes) in
// eights, plus its keys in the next group, whose eight keys start `groups` groups past `keys`.
// @ts-ignore: decorator
@inline function qsCheckpoint(keys: i32, counts: v128, x: v128, strict: bool): i32 {
  const groups = -<i32>(i64x2.extract_lane(counts, 0) + i64x2.extract_lane(counts, 1));
  const at = keys + (groups << (QS_KEY_GROUP_SHIFT + 3));
  const a = i64x2.add(qsGoesRight(v128.load(at), x, strict), qsGoesRight(v128.load(at, 16), x, strict));
  const b = i64x2.add(qsGoesRight(v128.load(at, 32), x, strict), qsGoesRight(v128.load(at, 48), x, strict));
  const sum = i64x2.add(a, b);
  return (groups << QS_KEY_GROUP_SHIFT) - <i32>(i64x2.extract_lane(sum, 0) + i64x2.extract_lane(sum, 1));
}

// A row's state: the AND of its checkpoint vectors, eight vectors in the first pass over the state,
// four in each further one; the first pass writes it, so it needs no initial all-ones. A block of
// exactly seven slots (the default models' 7 features) has a pass of its own that leaves out the
// all-ones padding vector: one load and one AND fewer in each of the 75 lanes of a 150-tree block,
// 1.03-1.04x on the default XGBoost model (interleaved runs, median).
// @ts-ignore: decorator
@inline function qsAndVectors(k: i32, state: i32, stride: i32, slots: i32): void {
  const pointers = changetype<i32>(qsPointers) + ((k * qsPointerStride) << 2);
  const bytes = stride << 3;
  if (slots == 7) {
    const v0 = load<i32>(pointers);
    const v1 = load<i32>(pointers, 4);
    const v2 = load<i32>(pointers, 8);
    const v3 = load<i32>(pointers, 12);
    const v4 = load<i32>(pointers, 16);
    const v5 = load<i32>(pointers, 20);
    const v6 = load<i32>(pointers, 24);
    // Four lanes a turn at constant offsets from pointers that move once a turn: an address
    // computed as pointer + index cost an instruction per load (V8 cannot fold a 32-bit add into
    // the address), a constant offset folds. 1.03-1.045x on the default XGBoost model.
    let p0 = v0;
    let p1 = v1;
    let p2 = v2;
    let p3 = v3;
    let p4 = v4;
    let p5 = v5;
    let p6 = v6;
    let out = state;
    const end = state + (bytes & ~63);
    while (out < end) {
      const a0 = v128.and(v128.load(p0, 0), v128.load(p1, 0));
      const b0 = v128.and(v128.load(p2, 0), v128.load(p3, 0));
      const c0 = v128.and(v128.load(p4, 0), v128.load(p5, 0));
      v128.store(out, v128.and(v128.and(a0, b0), v128.and(c0, v128.load(p6, 0))), 0);
      const a16 = v128.and(v128.load(p0, 16), v128.load(p1, 16));
      const b16 = v128.and(v128.load(p2, 16), v128.load(p3, 16));
      const c16 = v128.and(v128.load(p4, 16), v128.load(p5, 16));
      v128.store(out, v128.and(v128.and(a16, b16), v128.and(c16, v128.load(p6, 16))), 16);
      const a32 = v128.and(v128.load(p0, 32), v128.load(p1, 32));
      const b32 = v128.and(v128.load(p2, 32), v128.load(p3, 32));
      const c32 = v128.and(v128.load(p4, 32), v128.load(p5, 32));
      v128.store(out, v128.and(v128.and(a32, b32), v128.and(c32, v128.load(p6, 32))), 32);
      const a48 = v128.and(v128.load(p0, 48), v128.load(p1, 48));
      const b48 = v128.and(v128.load(p2, 48), v128.load(p3, 48));
      const c48 = v128.and(v128.load(p4, 48), v128.load(p5, 48));
      v128.store(out, v128.and(v128.and(a48, b48), v128.and(c48, v128.load(p6, 48))), 48);
      p0 += 64;
      p1 += 64;
      p2 += 64;
      p3 += 64;
      p4 += 64;
      p5 += 64;
      p6 += 64;
      out += 64;
    }
    while (out < state + bytes) {
      const a0 = v128.and(v128.load(p0, 0), v128.load(p1, 0));
      const b0 = v128.and(v128.load(p2, 0), v128.load(p3, 0));
      const c0 = v128.and(v128.load(p4, 0), v128.load(p5, 0));
      v128.store(out, v128.and(v128.and(a0, b0), v128.and(c0, v128.load(p6, 0))), 0);
      p0 += 16;
      p1 += 16;
      p2 += 16;
      p3 += 16;
      p4 += 16;
      p5 += 16;
      p6 += 16;
      out += 16;
    }
    return;
  }
  // The eight- and four-vector passes the same way, two lanes a turn and the odd lane after:
  // 1.04-1.07x on the grid's 20-feature shapes forced onto QuickScorer (interleaved runs, median).
  let p = 0;
  const end = state + (bytes & ~31);
  if (slots >= 8) {
    let p0 = load<i32>(pointers);
    let p1 = load<i32>(pointers, 4);
    let p2 = load<i32>(pointers, 8);
    let p3 = load<i32>(pointers, 12);
    let p4 = load<i32>(pointers, 16);
    let p5 = load<i32>(pointers, 20);
    let p6 = load<i32>(pointers, 24);
    let p7 = load<i32>(pointers, 28);
    for (let out = state; out < end; out += 32) {
      const a = v128.and(v128.load(p0), v128.load(p1));
      const b = v128.and(v128.load(p2), v128.load(p3));
      const c = v128.and(v128.load(p4), v128.load(p5));
      const d = v128.and(v128.load(p6), v128.load(p7));
      v128.store(out, v128.and(v128.and(a, b), v128.and(c, d)));
      const a16 = v128.and(v128.load(p0, 16), v128.load(p1, 16));
      const b16 = v128.and(v128.load(p2, 16), v128.load(p3, 16));
      const c16 = v128.and(v128.load(p4, 16), v128.load(p5, 16));
      const d16 = v128.and(v128.load(p6, 16), v128.load(p7, 16));
      v128.store(out, v128.and(v128.and(a16, b16), v128.and(c16, d16)), 16);
      p0 += 32;
      p1 += 32;
      p2 += 32;
      p3 += 32;
      p4 += 32;
      p5 += 32;
      p6 += 32;
      p7 += 32;
    }
    if (bytes & 16) {
      const a = v128.and(v128.load(p0), v128.load(p1));
      const b = v128.and(v128.load(p2), v128.load(p3));
      const c = v128.and(v128.load(p4), v128.load(p5));
      const d = v128.and(v128.load(p6), v128.load(p7));
      v128.store(end, v128.and(v128.and(a, b), v128.and(c, d)));
    }
    p = 8;
  }
  for (; p < slots; p += 4) {
    let p0 = load<i32>(pointers + (p << 2));
    let p1 = load<i32>(pointers + (p << 2), 4);
    let p2 = load<i32>(pointers + (p << 2), 8);
    let p3 = load<i32>(pointers + (p << 2), 12);
    if (p == 0) {
      for (let out = state; out < end; out += 32) {
        v128.store(out, v128.and(v128.and(v128.load(p0), v128.load(p1)), v128.and(v128.load(p2), v128.load(p3))));
        v128.store(out, v128.and(v128.and(v128.load(p0, 16), v128.load(p1, 16)), v128.and(v128.load(p2, 16), v128.load(p3, 16))), 16);
        p0 += 32;
        p1 += 32;
        p2 += 32;
        p3 += 32;
      }
      if (bytes & 16) v128.store(end, v128.and(v128.and(v128.load(p0), v128.load(p1)), v128.and(v128.load(p2), v128.load(p3))));
    } else {
      for (let out = state; out < end; out += 32) {
        const a = v128.and(v128.load(out), v128.load(p0));
        const b = v128.and(v128.load(p1), v128.load(p2));
        v128.store(out, v128.and(v128.and(a, b), v128.load(p3)), 0);
        const a16 = v128.and(v128.load(out, 16), v128.load(p0, 16));
        const b16 = v128.and(v128.load(p1, 16), v128.load(p2, 16));
        v128.store(out, v128.and(v128.and(a16, b16), v128.load(p3, 16)), 16);
        p0 += 32;
        p1 += 32;
        p2 += 32;
        p3 += 32;
      }
      if (bytes & 16) {
        const a = v128.and(v128.load(end), v128.load(p0));
        v128.store(end, v128.and(v128.and(a, v128.and(v128.load(p1), v128.load(p2))), v128.load(p3)));
      }
    }
  }
  if (slots == 0) memory.fill(state, 0xff, bytes);
}

// A row's leftover masks: the entries of each prefix past its checkpoint, fewer than K, found by
// going on from the checkpoint while the row goes right (the slot's stop entry ends the last).
// @ts-ignore: decorator
@inline function qsLeftovers(k: i32, state: i32, row: i32, slotBegin: i32, slotEnd: i32, strict: bool, wordBytes: i32): void {
  const bases = changetype<i32>(qsBases) + ((k * qsPointerStride) << 2);
  // The tables' addresses in locals (see sumQuick's leaf sums).
  const thresholds = changetype<i32>(qsThreshold);
  const treeOf = changetype<i32>(qsTree);
  const masks = changetype<i32>(qsMask);
  for (let s = slotBegin; s < slotEnd; s++) {
    const x = unchecked(rows[row + unchecked(qsSlotFeature[s])]);
    let j = load<i32>(bases + ((s - slotBegin) << 2));
    while (true) {
      const t = load<f64>(thresholds + (j << 3));
      if (!(strict ? t <= x : t < x)) break;
      qsAndWord(state + load<i32>(treeOf + (j << 2)) * wordBytes, load<u64>(masks + (j << 3)), wordBytes);
      j++;
    }
  }
}

// With checkpoints at most 1 << QS_LOCKSTEP_K_SHIFT entries apart, the four rows' leftovers side by
// side, slot by slot: one loop to the end of the longest, a row's masks all ones once it has passed
// its own end. A row's loop above ends at a branch no predictor can learn; here the four rows share
// one, and with so few leftovers the rows' extra turns cost less: 1.16-1.19x on the grid's depth-4
// shapes of 100 trees forced onto QuickScorer (checkpoints every 4 entries), while with 16 entries
// apart the default models ran at 0.82x (interleaved runs, median).
const QS_LOCKSTEP_K_SHIFT: i32 = 2;
// @ts-ignore: decorator
@inline function qsLeftovers4(
  state0: i32, state1: i32, state2: i32, state3: i32,
  row0: i32, row1: i32, row2: i32, row3: i32,
  slotBegin: i32, slotEnd: i32, strict: bool, wordBytes: i32,
): void {
  const bases = changetype<i32>(qsBases);
  const stride = qsPointerStride << 2;
  const thresholds = changetype<i32>(qsThreshold);
  const treeOf = changetype<i32>(qsTree);
  const masks = changetype<i32>(qsMask);
  for (let s = slotBegin; s < slotEnd; s++) {
    const feature = unchecked(qsSlotFeature[s]);
    const x0 = unchecked(rows[row0 + feature]);
    const x1 = unchecked(rows[row1 + feature]);
    const x2 = unchecked(rows[row2 + feature]);
    const x3 = unchecked(rows[row3 + feature]);
    const at = bases + ((s - slotBegin) << 2);
    let j0 = load<i32>(at);
    let j1 = load<i32>(at + stride);
    let j2 = load<i32>(at + stride * 2);
    let j3 = load<i32>(at + stride * 3);
    let go0: bool = true;
    let go1: bool = true;
    let go2: bool = true;
    let go3: bool = true;
    while (true) {
      const t0 = load<f64>(thresholds + (j0 << 3));
      const t1 = load<f64>(thresholds + (j1 << 3));
      const t2 = load<f64>(thresholds + (j2 << 3));
      const t3 = load<f64>(thresholds + (j3 << 3));
      // Past its stop entry a row stays out (the next slot's entries follow it).
      go0 = go0 & (strict ? t0 <= x0 : t0 < x0);
      go1 = go1 & (strict ? t1 <= x1 : t1 < x1);
      go2 = go2 & (strict ? t2 <= x2 : t2 < x2);
      go3 = go3 & (strict ? t3 <= x3 : t3 < x3);
      if (!(go0 | go1 | go2 | go3)) break;
      qsAndWord(state0 + load<i32>(treeOf + (j0 << 2)) * wordBytes, select<u64>(load<u64>(masks + (j0 << 3)), ~(<u64>0), go0), wordBytes);
      qsAndWord(state1 + load<i32>(treeOf + (j1 << 2)) * wordBytes, select<u64>(load<u64>(masks + (j1 << 3)), ~(<u64>0), go1), wordBytes);
      qsAndWord(state2 + load<i32>(treeOf + (j2 << 2)) * wordBytes, select<u64>(load<u64>(masks + (j2 << 3)), ~(<u64>0), go2), wordBytes);
      qsAndWord(state3 + load<i32>(treeOf + (j3 << 2)) * wordBytes, select<u64>(load<u64>(masks + (j3 << 3)), ~(<u64>0), go3), wordBytes);
      j0++;
      j1++;
      j2++;
      j3++;
    }
  }
}

// @ts-ignore: decorator
@inline function qsExit(state: i32, tree: i32, wordBytes: i32): i32 {
  if (wordBytes == 8) return <i32>ctz(load<u64>(state + (tree << 3)));
  if (wordBytes == 4) return ctz(load<u32>(state + (tree << 2)));
  return ctz(<u32>load<u16>(state + (tree << 1)));
}

// The exit leaf of the tree whose word is at p, and of the next tree's (a constant offset on).
// @ts-ignore: decorator
@inline function qsExit0(p: i32, wordBytes: i32): i32 {
  if (wordBytes == 8) return <i32>ctz(load<u64>(p));
  if (wordBytes == 4) return ctz(load<u32>(p));
  return ctz(<u32>load<u16>(p));
}
// @ts-ignore: decorator
@inline function qsExit1(p: i32, wordBytes: i32): i32 {
  if (wordBytes == 8) return <i32>ctz(load<u64>(p, 8));
  if (wordBytes == 4) return ctz(load<u32>(p, 4));
  return ctz(<u32>load<u16>(p, 2));
}

// Groups of four rows through each block: per slot four binary searches in lockstep, giving the
// checkpoint addresses and prefix ends; then each state made from its vectors and its leftover
// masks; then the leaves of the four rows summed side by side, each in tree order.
// @ts-ignore: decorator
@inline function sumQuick(rowCount: i32, strict: bool, single: bool, wordBytes: i32): void {
  const width = numFeatures;
  const checks = changetype<i32>(qsChecks);
  const ones = (changetype<i32>(qsOnes) + 15) & ~15;
  const state0 = qsStateAt;
  for (let b = 0; b < qsBlockTreeBegin.length; b++) {
    const trees = unchecked(qsBlockTreeCount[b]);
    const firstTree = unchecked(qsBlockTreeBegin[b]);
    const stride = qsStride(trees);
    const slotBegin = unchecked(qsBlockSlotBegin[b]);
    const slotEnd = unchecked(qsBlockSlotEnd[b]);
    const slots = (slotEnd - slotBegin + 3) & ~3;
    // The slots qsAndVectors ANDs: seven has its own pass, any other count is padded to fours.
    const passSlots = slotEnd - slotBegin == 7 ? 7 : slots;
    // The padding slots AND an all-ones vector.
    for (let k = 0; k < QS_GROUP; k++) {
      for (let s = slotEnd - slotBegin; s < slots; s++) unchecked((qsPointers[k * qsPointerStride + s] = ones));
    }
    const bytes = stride << 3;
    const state1 = state0 + bytes;
    const state2 = state1 + bytes;
    const state3 = state2 + bytes;
    for (let r = 0; r < rowCount; r += QS_GROUP) {
      // A last group of fewer than four rows repeats its last row and stores only the real ones.
      const last = rowCount - 1;
      const row0 = r * width;
      const row1 = min(r + 1, last) * width;
      const row2 = min(r + 2, last) * width;
      const row3 = min(r + 3, last) * width;
      for (let s = slotBegin; s < slotEnd; s++) {
        const feature = unchecked(qsSlotFeature[s]);
        const begin = unchecked(qsSlotEntryBegin[s]);
        const end = unchecked(qsSlotEntryEnd[s]);
        const x0 = unchecked(rows[row0 + feature]);
        const x1 = unchecked(rows[row1 + feature]);
        const x2 = unchecked(rows[row2 + feature]);
        const x3 = unchecked(rows[row3 + feature]);
        // The keys a row goes right at, counted without branches: over the group keys, two a
        // compare and each load shared by the four rows, then over the eight keys of the group the
        // count lands in. Against a binary search (seven dependent loads a row on the default
        // model): 1.04-1.05x on the default XGBoost model, 1.03-1.08x on the LightGBM one
        // (interleaved runs, median).
        const v0 = f64x2.splat(x0);
        const v1 = f64x2.splat(x1);
        const v2 = f64x2.splat(x2);
        const v3 = f64x2.splat(x3);
        let at = qsKeysAt + (unchecked(qsSlotKeyBegin[s]) << 3);
        const groupsEnd = at + (unchecked(qsSlotKeyPairs[s]) << 4);
        let c0 = i64x2.splat(0);
        let c1 = i64x2.splat(0);
        let c2 = i64x2.splat(0);
        let c3 = i64x2.splat(0);
        while (at < groupsEnd) {
          const t = v128.load(at);
          c0 = i64x2.add(c0, qsGoesRight(t, v0, strict));
          c1 = i64x2.add(c1, qsGoesRight(t, v1, strict));
          c2 = i64x2.add(c2, qsGoesRight(t, v2, strict));
          c3 = i64x2.add(c3, qsGoesRight(t, v3, strict));
          at += 16;
        }
        const local = s - slotBegin;
        const vectors = checks + (unchecked(qsSlotCheckBegin[s]) << 3);
        qsSlotRow(0, local, end, begin, qsCheckpoint(at, c0, v0, strict), isNaN(x0), vectors, stride);
        qsSlotRow(1, local, end, begin, qsCheckpoint(at, c1, v1, strict), isNaN(x1), vectors, stride);
        qsSlotRow(2, local, end, begin, qsCheckpoint(at, c2, v2, strict), isNaN(x2), vectors, stride);
        qsSlotRow(3, local, end, begin, qsCheckpoint(at, c3, v3, strict), isNaN(x3), vectors, stride);
      }
      qsAndVectors(0, state0, stride, passSlots);
      qsAndVectors(1, state1, stride, passSlots);
      qsAndVectors(2, state2, stride, passSlots);
      qsAndVectors(3, state3, stride, passSlots);
      if (qsKShift <= QS_LOCKSTEP_K_SHIFT) {
        qsLeftovers4(state0, state1, state2, state3, row0, row1, row2, row3, slotBegin, slotEnd, strict, wordBytes);
      } else {
        qsLeftovers(0, state0, row0, slotBegin, slotEnd, strict, wordBytes);
        qsLeftovers(1, state1, row1, slotBegin, slotEnd, strict, wordBytes);
        qsLeftovers(2, state2, row2, slotBegin, slotEnd, strict, wordBytes);
        qsLeftovers(3, state3, row3, slotBegin, slotEnd, strict, wordBytes);
      }
      // Four independent sums, each in tree order, with the walk's arithmetic. The leaf table's
      // address is read into a local once: read through the global, the compiled loop loaded it
      // again for each of the four rows at every tree (V8 reloads a mutable global after a store,
      // and after a call it cannot see through); with the leftovers' tables the same way,
      // 1.03-1.04x on the default XGBoost model and 1.09x on the LightGBM one (interleaved runs, median).
      if (single) {
        const leaf32 = changetype<i32>(qsLeaf32);
        let m0 = <f32>unchecked(margins[r]);
        let m1 = <f32>unchecked(margins[min(r + 1, last)]);
        let m2 = <f32>unchecked(margins[min(r + 2, last)]);
        let m3 = <f32>unchecked(margins[min(r + 3, last)]);
        let t = 0;
        if (firstTree == 0 && trees > 0) {
          // The start (base_score) need not be a float32: the first sum rounds as the walk does.
          const leaves = 0;
          m0 = <f32>(unchecked(margins[r]) + <f64>unchecked(qsLeaf32[leaves + qsExit(state0, 0, wordBytes)]));
          m1 = <f32>(unchecked(margins[min(r + 1, last)]) + <f64>unchecked(qsLeaf32[leaves + qsExit(state1, 0, wordBytes)]));
          m2 = <f32>(unchecked(margins[min(r + 2, last)]) + <f64>unchecked(qsLeaf32[leaves + qsExit(state2, 0, wordBytes)]));
          m3 = <f32>(unchecked(margins[min(r + 3, last)]) + <f64>unchecked(qsLeaf32[leaves + qsExit(state3, 0, wordBytes)]));
          t = 1;
        }
        // Two trees a turn from pointers that move once a turn, the second tree's word and leaf at
        // constant offsets (as in qsAndVectors): 1.03x on the default XGBoost model.
        let p0 = state0 + t * wordBytes;
        let p1 = state1 + t * wordBytes;
        let p2 = state2 + t * wordBytes;
        let p3 = state3 + t * wordBytes;
        let leaves = leaf32 + ((firstTree + t) << (QS_LEAF_SHIFT + 2));
        for (; t + 1 < trees; t += 2) {
          m0 += load<f32>(leaves + (qsExit0(p0, wordBytes) << 2));
          m1 += load<f32>(leaves + (qsExit0(p1, wordBytes) << 2));
          m2 += load<f32>(leaves + (qsExit0(p2, wordBytes) << 2));
          m3 += load<f32>(leaves + (qsExit0(p3, wordBytes) << 2));
          m0 += load<f32>(leaves + (qsExit1(p0, wordBytes) << 2), 4 << QS_LEAF_SHIFT);
          m1 += load<f32>(leaves + (qsExit1(p1, wordBytes) << 2), 4 << QS_LEAF_SHIFT);
          m2 += load<f32>(leaves + (qsExit1(p2, wordBytes) << 2), 4 << QS_LEAF_SHIFT);
          m3 += load<f32>(leaves + (qsExit1(p3, wordBytes) << 2), 4 << QS_LEAF_SHIFT);
          p0 += wordBytes << 1;
          p1 += wordBytes << 1;
          p2 += wordBytes << 1;
          p3 += wordBytes << 1;
          leaves += 8 << QS_LEAF_SHIFT;
        }
        if (t < trees) {
          m0 += load<f32>(leaves + (qsExit0(p0, wordBytes) << 2));
          m1 += load<f32>(leaves + (qsExit0(p1, wordBytes) << 2));
          m2 += load<f32>(leaves + (qsExit0(p2, wordBytes) << 2));
          m3 += load<f32>(leaves + (qsExit0(p3, wordBytes) << 2));
        }
        // Stored in reverse so that a repeated last row ends with its own value.
        if (r + 3 <= last) unchecked((margins[r + 3] = <f64>m3));
        if (r + 2 <= last) unchecked((margins[r + 2] = <f64>m2));
        if (r + 1 <= last) unchecked((margins[r + 1] = <f64>m1));
        unchecked((margins[r] = <f64>m0));
      } else {
        let m0 = unchecked(margins[r]);
        let m1 = unchecked(margins[min(r + 1, last)]);
        let m2 = unchecked(margins[min(r + 2, last)]);
        let m3 = unchecked(margins[min(r + 3, last)]);
        let p0 = state0;
        let p1 = state1;
        let p2 = state2;
        let p3 = state3;
        let leaves = changetype<i32>(qsLeaf) + (firstTree << (QS_LEAF_SHIFT + 3));
        let t = 0;
        for (; t + 1 < trees; t += 2) {
          m0 += load<f64>(leaves + (qsExit0(p0, wordBytes) << 3));
          m1 += load<f64>(leaves + (qsExit0(p1, wordBytes) << 3));
          m2 += load<f64>(leaves + (qsExit0(p2, wordBytes) << 3));
          m3 += load<f64>(leaves + (qsExit0(p3, wordBytes) << 3));
          m0 += load<f64>(leaves + (qsExit1(p0, wordBytes) << 3), 8 << QS_LEAF_SHIFT);
          m1 += load<f64>(leaves + (qsExit1(p1, wordBytes) << 3), 8 << QS_LEAF_SHIFT);
          m2 += load<f64>(leaves + (qsExit1(p2, wordBytes) << 3), 8 << QS_LEAF_SHIFT);
          m3 += load<f64>(leaves + (qsExit1(p3, wordBytes) << 3), 8 << QS_LEAF_SHIFT);
          p0 += wordBytes << 1;
          p1 += wordBytes << 1;
          p2 += wordBytes << 1;
          p3 += wordBytes << 1;
          leaves += 16 << QS_LEAF_SHIFT;
        }
        if (t < trees) {
          m0 += load<f64>(leaves + (qsExit0(p0, wordBytes) << 3));
          m1 += load<f64>(leaves + (qsExit0(p1, wordBytes) << 3));
          m2 += load<f64>(leaves + (qsExit0(p2, wordBytes) << 3));
          m3 += load<f64>(leaves + (qsExit0(p3, wordBytes) << 3));
        }
        if (r + 3 <= last) unchecked((margins[r + 3] = m3));
        if (r + 2 <= last) unchecked((margins[r + 2] = m2));
        if (r + 1 <= last) unchecked((margins[r + 1] = m1));
        unchecked((margins[r] = m0));
      }
    }
  }
}

function quickXGBoost16(rowCount: i32): void {
  sumQuick(rowCount, true, true, 2);
}
function quickXGBoost32(rowCount: i32): void {
  sumQuick(rowCount, true, true, 4);
}
function quickXGBoost64(rowCount: i32): void {
  sumQuick(rowCount, true, true, 8);
}
function quickLightGBM16(rowCount: i32): void {
  sumQuick(rowCount, false, false, 2);
}
function quickLightGBM32(rowCount: i32): void {
  sumQuick(rowCount, false, false, 4);
}
function quickLightGBM64(rowCount: i32): void {
  sumQuick(rowCount, false, false, 8);
}
function quickGeneric(rowCount: i32): void {
  sumQuick(rowCount, !leftWhenEqual, float32, qsWordBytes);
}
