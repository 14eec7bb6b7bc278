// Histogram gradient-boosted regression trees, trained the way XGBoost 1.7's `tree_method=hist`
// grows them (src/tree/hist/evaluate_splits.h, src/tree/param.h, src/tree/hist/expand_entry.h):
// depthwise to max_depth, one histogram of gradient sums per node and feature, the smaller child's
// histogram built from its rows and the larger one's by subtracting it from the parent's.
//
// The host (wasm-core/src/gbdt/train.ts) cuts each feature into at most max_bin bins (float32 cut
// values, as XGBoost's HistogramCuts), bins every row, chooses the rows and features of each round
// (subsample, colsample_bytree, seeded) and writes the finished trees out as XGBoost JSON. Here:
// gradients, histograms, split search, partitions, leaf values and the margins of every row.
//
// Semantics kept from XGBoost:
//  - bin b of a feature holds cut[b-1] <= x < cut[b] (x as float32); a split "left holds bins <= s"
//    is the condition x < cut[s], so the exported model sends every training row where training did;
//  - missing values (bin MISSING) follow the learned default direction: the forward scan puts them
//    right, and only when the node has missing values the backward scan tries them left;
//  - gain G^2/(H + lambda) per side (0 below min_child_weight), loss_chg = float(left + right -
//    parent), a candidate replaces the best one by XGBoost's NeedReplace (lower feature on ties);
//    a split is made when loss_chg > 1e-6, >= gamma, and both sides have hessian;
//  - weight -G/(H + lambda) (0 below min_child_weight), leaf = float(float(weight) * eta);
//  - margins in float32, updated leaf by leaf as XGBoost's prediction cache is;
//  - monotone_constraints (src/tree/split_evaluator.h, TreeEvaluator): each node's weight is held
//    in [lower, upper]; with any constraint a side's gain is −(2·G·w + (H + lambda)·w²) at its
//    bounded weight, a split on a feature of constraint +1 (−1) whose left weight is above (below)
//    its right one is no candidate, and the children's bounds meet at the mean of their weights
//    (+1: left ≤ mean ≤ right; −1 the other way round). Children's weights are bounded by their
//    parent's bounds, as XGBoost's ApplyTreeSplit computes them.

const MISSING: i32 = 0xffff;
const NONE: i32 = -1;
const RT_EPS: f32 = 1e-6;

// ---- data ---------------------------------------------------------------------------------------
let numFeatures: i32 = 0;
let trainRows: i32 = 0;
let validRows: i32 = 0;
/** Bins of the training rows, row-major (row * numFeatures + feature); MISSING for NaN. */
let trainBins = new StaticArray<u16>(0);
let validBins = new StaticArray<u16>(0);
let trainY = new StaticArray<f32>(0);
let validY = new StaticArray<f32>(0);
let trainMargin = new StaticArray<f32>(0);
let validMargin = new StaticArray<f32>(0);
/** Number of bins of each feature (its cut count). */
let featureBins = new StaticArray<i32>(0);
/** Each feature's monotone constraint: +1 increasing, −1 decreasing, 0 none (written by the host). */
let monotone = new StaticArray<i8>(0);
let hasConstraint: bool = false;
/** Bins per feature in a histogram: the largest bin count plus the slot of missing values. */
let stride: i32 = 0;

// ---- parameters ---------------------------------------------------------------------------------
let maxDepth: i32 = 6;
let eta: f32 = 0.3;
let lambda: f64 = 1;
let minChildWeight: f64 = 1;
let gamma: f64 = 0;
/** 0 squared error, 1 pseudo-Huber. */
let objective: i32 = 0;
let huberSlope: f32 = 1;

// ---- one round ----------------------------------------------------------------------------------
let grad = new StaticArray<f64>(0);
let hess = new StaticArray<f64>(0);
/** The rows of this round (subsample), partitioned in place node by node. */
let rowIndex = new StaticArray<i32>(0);
let rowScratch = new StaticArray<i32>(0);
let sampledRows: i32 = 0;
/** 1 for the features this round may split on (colsample_bytree). */
let featureMask = new StaticArray<u8>(0);
/** Histogram slots, each numFeatures * stride pairs (gradient, hessian). */
let hist = new StaticArray<f64>(0);
let slotSize: i32 = 0;
let freeSlots = new StaticArray<i32>(0);
let freeCount: i32 = 0;

// ---- the tree being grown (exported to the host after each round) --------------------------------
let capacity: i32 = 0;
let nodeCount: i32 = 0;
let nodeFeature = new StaticArray<i32>(0);
/** Split: the left child holds bins <= splitBin (-1: no bin, every present value goes right). */
let nodeSplitBin = new StaticArray<i32>(0);
let nodeDefaultLeft = new StaticArray<u8>(0);
let nodeLeft = new StaticArray<i32>(0);
let nodeRight = new StaticArray<i32>(0);
let nodeParent = new StaticArray<i32>(0);
let nodeWeight = new StaticArray<f64>(0);
let nodeLeaf = new StaticArray<f32>(0);
let nodeLoss = new StaticArray<f32>(0);
let nodeG = new StaticArray<f64>(0);
let nodeH = new StaticArray<f64>(0);
let nodeBegin = new StaticArray<i32>(0);
let nodeEnd = new StaticArray<i32>(0);
let nodeSlot = new StaticArray<i32>(0);
/** The bounds of each node's weight under the monotone constraints. */
let nodeLower = new StaticArray<f32>(0);
let nodeUpper = new StaticArray<f32>(0);
let level = new StaticArray<i32>(0);
let nextLevel = new StaticArray<i32>(0);

// The best split found for a node (SplitEntry).
let bestLoss: f32 = 0;
let bestIndex: u32 = 0; // feature | (default left << 31), as XGBoost's sindex
let bestBin: i32 = 0;
let bestLeftG: f64 = 0;
let bestLeftH: f64 = 0;
let bestRightG: f64 = 0;
let bestRightH: f64 = 0;

export function newU16Array(length: i32): StaticArray<u16> {
  return new StaticArray<u16>(length);
}
export function newF32Array(length: i32): StaticArray<f32> {
  return new StaticArray<f32>(length);
}
export function newI32Array(length: i32): StaticArray<i32> {
  return new StaticArray<i32>(length);
}
export function newU8Array(length: i32): StaticArray<u8> {
  return new StaticArray<u8>(length);
}

/** Takes the binned data (arrays allocated by the new*Array exports and filled by the host). */
export function setData(
  features: i32,
  bins: StaticArray<u16>,
  y: StaticArray<f32>,
  vBins: StaticArray<u16>,
  vY: StaticArray<f32>,
  binsPerFeature: StaticArray<i32>,
): void {
  numFeatures = features;
  trainRows = y.length;
  validRows = vY.length;
  trainBins = bins;
  trainY = y;
  validBins = vBins;
  validY = vY;
  featureBins = binsPerFeature;
  let widest = 0;
  for (let f = 0; f < features; f++) widest = max(widest, unchecked(binsPerFeature[f]));
  stride = widest + 1;
  trainMargin = new StaticArray<f32>(trainRows);
  validMargin = new StaticArray<f32>(validRows);
  grad = new StaticArray<f64>(trainRows);
  hess = new StaticArray<f64>(trainRows);
  rowIndex = new StaticArray<i32>(trainRows);
  rowScratch = new StaticArray<i32>(trainRows);
  featureMask = new StaticArray<u8>(features);
  monotone = new StaticArray<i8>(features);
}

/** Sets the parameters and the start margin (base_score); sizes the tree and histogram buffers. */
export function setParams(
  depth: i32,
  learningRate: f32,
  regLambda: f64,
  minChild: f64,
  minSplitLoss: f64,
  objectiveKind: i32,
  slope: f32,
  baseScore: f32,
): void {
  maxDepth = depth;
  eta = learningRate;
  lambda = regLambda;
  minChildWeight = minChild;
  gamma = minSplitLoss;
  objective = objectiveKind;
  huberSlope = slope;
  hasConstraint = false;
  for (let f = 0; f < numFeatures; f++) if (unchecked(monotone[f]) != 0) hasConstraint = true;
  for (let r = 0; r < trainRows; r++) unchecked((trainMargin[r] = baseScore));
  for (let r = 0; r < validRows; r++) unchecked((validMargin[r] = baseScore));
  capacity = (1 << (depth + 1)) - 1;
  nodeFeature = new StaticArray<i32>(capacity);
  nodeSplitBin = new StaticArray<i32>(capacity);
  nodeDefaultLeft = new StaticArray<u8>(capacity);
  nodeLeft = new StaticArray<i32>(capacity);
  nodeRight = new StaticArray<i32>(capacity);
  nodeParent = new StaticArray<i32>(capacity);
  nodeWeight = new StaticArray<f64>(capacity);
  nodeLeaf = new StaticArray<f32>(capacity);
  nodeLoss = new StaticArray<f32>(capacity);
  nodeG = new StaticArray<f64>(capacity);
  nodeH = new StaticArray<f64>(capacity);
  nodeBegin = new StaticArray<i32>(capacity);
  nodeEnd = new StaticArray<i32>(capacity);
  nodeSlot = new StaticArray<i32>(capacity);
  nodeLower = new StaticArray<f32>(capacity);
  nodeUpper = new StaticArray<f32>(capacity);
  level = new StaticArray<i32>(1 << depth);
  nextLevel = new StaticArray<i32>(1 << depth);
  // Nodes holding a histogram at once: those of one level that may still split (depth < maxDepth),
  // plus one being built. The deepest level's children are leaves and need none.
  const slots = depth > 0 ? (1 << (depth - 1)) + 2 : 1;
  slotSize = numFeatures * stride * 2;
  hist = new StaticArray<f64>(slots * slotSize);
  freeSlots = new StaticArray<i32>(slots);
}

// The host writes the sampled rows and the feature mask of each round through these.
export function rowIndexBuffer(): StaticArray<i32> {
  return rowIndex;
}
export function featureMaskBuffer(): StaticArray<u8> {
  return featureMask;
}
/** The monotone constraints, written by the host after setData and before setParams. */
export function monotoneBuffer(): StaticArray<i8> {
  return monotone;
}

// @ts-ignore: decorator
@inline function gainOf(g: f64, h: f64): f64 {
  if (h < minChildWeight || h <= 0) return 0;
  return (g * g) / (h + lambda);
}

// @ts-ignore: decorator
@inline function weightOf(g: f64, h: f64): f64 {
  if (h < minChildWeight || h <= 0) return 0;
  return -g / (h + lambda);
}

/** XGBoost's TreeEvaluator::CalcWeight: the weight held in `node`'s bounds. */
function boundedWeight(node: i32, g: f64, h: f64): f32 {
  const w = <f32>weightOf(g, h);
  const lower = unchecked(nodeLower[node]);
  const upper = unchecked(nodeUpper[node]);
  return w < lower ? lower : w > upper ? upper : w;
}

/** CalcGainGivenWeight: the gain of a side at its (bounded) weight. */
function gainAt(g: f64, h: f64, w: f32): f64 {
  if (h <= 0) return 0;
  const gf = <f64>(<f32>g);
  const hf = <f32>h;
  return -(2.0 * gf * <f64>w + <f64>((hf + <f32>lambda) * w * w));
}

/** CalcSplitGain under the constraints: −∞ when the split breaks the feature's direction. */
function constrainedGain(node: i32, constraint: i32, lG: f64, lH: f64, rG: f64, rH: f64): f64 {
  const wl = boundedWeight(node, lG, lH);
  const wr = boundedWeight(node, rG, rH);
  const gain = gainAt(lG, lH, wl) + gainAt(rG, rH, wr);
  if (constraint > 0 && wl > wr) return -Infinity;
  if (constraint < 0 && wl < wr) return -Infinity;
  return gain;
}

function computeGradients(): void {
  if (objective == 0) {
    for (let r = 0; r < trainRows; r++) {
      unchecked((grad[r] = <f64>(unchecked(trainMargin[r]) - unchecked(trainY[r]))));
      unchecked((hess[r] = 1));
    }
    return;
  }
  const slope2: f32 = huberSlope * huberSlope;
  for (let r = 0; r < trainRows; r++) {
    const z: f32 = unchecked(trainMargin[r]) - unchecked(trainY[r]);
    const ratio: f32 = z / huberSlope;
    const scaleSqrt: f32 = Mathf.sqrt(1 + ratio * ratio);
    const scale: f32 = slope2 + z * z;
    unchecked((grad[r] = <f64>(z / scaleSqrt)));
    unchecked((hess[r] = <f64>(slope2 / (scale * scaleSqrt))));
  }
}

function takeSlot(): i32 {
  freeCount -= 1;
  return unchecked(freeSlots[freeCount]);
}

function releaseSlot(slot: i32): void {
  unchecked((freeSlots[freeCount] = slot));
  freeCount += 1;
}

/** Sums the gradients of the rows rowIndex[begin, end) into histogram slot `slot`. */
function buildHistogram(slot: i32, begin: i32, end: i32): void {
  const base = changetype<usize>(hist) + (<usize>(slot * slotSize) << 3);
  memory.fill(base, 0, <usize>slotSize << 3);
  const features = numFeatures;
  const featureStride = <usize>stride << 4;
  const binsBase = changetype<usize>(trainBins);
  for (let k = begin; k < end; k++) {
    const r = unchecked(rowIndex[k]);
    const g = unchecked(grad[r]);
    const h = unchecked(hess[r]);
    let rowAt = binsBase + (<usize>(r * features) << 1);
    let at = base;
    for (let f = 0; f < features; f++) {
      const bin = <i32>load<u16>(rowAt);
      // Missing values sit in the slot after the feature's bins (never read by the scans).
      const cell = at + (<usize>min(bin, stride - 1) << 4);
      store<f64>(cell, load<f64>(cell) + g);
      store<f64>(cell, load<f64>(cell, 8) + h, 8);
      rowAt += 2;
      at += featureStride;
    }
  }
}

/** Slot `into` -= slot `from`: the larger child's histogram from its parent's. */
function subtractHistogram(into: i32, from: i32): void {
  const a = changetype<usize>(hist) + (<usize>(into * slotSize) << 3);
  const b = changetype<usize>(hist) + (<usize>(from * slotSize) << 3);
  const bytes = <usize>slotSize << 3;
  for (let o: usize = 0; o < bytes; o += 16) {
    v128.store(a + o, f64x2.sub(v128.load(a + o), v128.load(b + o)));
  }
}

// @ts-ignore: decorator
@inline function isInf(x: f32): bool {
  return Mathf.abs(x) == Infinity;
}

// @ts-ignore: decorator
@inline function needReplace(loss: f32, feature: u32): bool {
  if (isInf(loss)) return false;
  if ((bestIndex & 0x7fffffff) <= feature) return loss > bestLoss;
  return !(bestLoss > loss);
}

/** XGBoost's EvaluateSplits for one node: forward scan, then backward when values are missing. */
function findSplit(node: i32): void {
  bestLoss = 0;
  bestIndex = 0;
  bestBin = NONE;
  const parentG = unchecked(nodeG[node]);
  const parentH = unchecked(nodeH[node]);
  const rootGain = hasConstraint ? gainAt(parentG, parentH, boundedWeight(node, parentG, parentH)) : gainOf(parentG, parentH);
  const base = changetype<usize>(hist) + (<usize>(unchecked(nodeSlot[node]) * slotSize) << 3);
  for (let f = 0; f < numFeatures; f++) {
    if (!unchecked(featureMask[f])) continue;
    const bins = unchecked(featureBins[f]);
    const constraint = <i32>unchecked(monotone[f]);
    const at = base + (<usize>(f * stride) << 4);
    // The feature's best split: XGBoost keeps one per feature and merges it into the node's.
    let fLoss: f32 = 0;
    let fIndex: u32 = 0;
    let fBin: i32 = NONE;
    let fLG: f64 = 0;
    let fLH: f64 = 0;
    let fRG: f64 = 0;
    let fRH: f64 = 0;
    let accG: f64 = 0;
    let accH: f64 = 0;
    // Forward: left = bins 0..b, missing right.
    for (let b = 0; b < bins; b++) {
      accG += load<f64>(at + (<usize>b << 4));
      accH += load<f64>(at + (<usize>b << 4), 8);
      const rG = parentG - accG;
      const rH = parentH - accH;
      if (accH >= minChildWeight && rH >= minChildWeight) {
        const loss = <f32>(
          (hasConstraint ? constrainedGain(node, constraint, accG, accH, rG, rH) : gainOf(accG, accH) + gainOf(rG, rH)) - rootGain
        );
        // SplitEntry::Update within the feature: same feature, so a strictly larger loss wins.
        if (!isInf(loss) && ((fIndex & 0x7fffffff) <= <u32>f ? loss > fLoss : !(fLoss > loss))) {
          fLoss = loss;
          fIndex = <u32>f;
          fBin = b;
          fLG = accG;
          fLH = accH;
          fRG = rG;
          fRH = rH;
        }
      }
    }
    // SplitContainsMissingValues: the present values do not add up to the node.
    if (accG != parentG || accH != parentH) {
      // Backward: right = bins b..end, missing left; left holds bins <= b - 1.
      let rAccG: f64 = 0;
      let rAccH: f64 = 0;
      for (let b = bins - 1; b >= 0; b--) {
        rAccG += load<f64>(at + (<usize>b << 4));
        rAccH += load<f64>(at + (<usize>b << 4), 8);
        const lG = parentG - rAccG;
        const lH = parentH - rAccH;
        if (rAccH >= minChildWeight && lH >= minChildWeight) {
          const loss = <f32>(
            (hasConstraint ? constrainedGain(node, constraint, lG, lH, rAccG, rAccH) : gainOf(lG, lH) + gainOf(rAccG, rAccH)) - rootGain
          );
          if (!isInf(loss) && ((fIndex & 0x7fffffff) <= <u32>f ? loss > fLoss : !(fLoss > loss))) {
            fLoss = loss;
            fIndex = <u32>f | 0x80000000;
            fBin = b - 1;
            fLG = lG;
            fLH = lH;
            fRG = rAccG;
            fRH = rAccH;
          }
        }
      }
    }
    if (needReplace(fLoss, fIndex & 0x7fffffff)) {
      bestLoss = fLoss;
      bestIndex = fIndex;
      bestBin = fBin;
      bestLeftG = fLG;
      bestLeftH = fLH;
      bestRightG = fRG;
      bestRightH = fRH;
    }
  }
}

function newNode(parent: i32, g: f64, h: f64, begin: i32, end: i32): i32 {
  const node = nodeCount++;
  unchecked((nodeParent[node] = parent));
  unchecked((nodeLeft[node] = NONE));
  unchecked((nodeRight[node] = NONE));
  unchecked((nodeFeature[node] = 0));
  unchecked((nodeSplitBin[node] = 0));
  unchecked((nodeDefaultLeft[node] = 0));
  unchecked((nodeLoss[node] = 0));
  unchecked((nodeG[node] = g));
  unchecked((nodeH[node] = h));
  // The root's bounds are open; a child's weight is held in its parent's (its own are set after).
  if (parent == NONE) {
    unchecked((nodeLower[node] = -Infinity));
    unchecked((nodeUpper[node] = Infinity));
  }
  const weight = hasConstraint && parent != NONE ? <f64>boundedWeight(parent, g, h) : weightOf(g, h);
  unchecked((nodeWeight[node] = weight));
  unchecked((nodeLeaf[node] = <f32>weight * eta));
  unchecked((nodeBegin[node] = begin));
  unchecked((nodeEnd[node] = end));
  unchecked((nodeSlot[node] = NONE));
  return node;
}

// @ts-ignore: decorator
@inline function goesLeft(bin: i32, splitBin: i32, defaultLeft: bool): bool {
  return bin == MISSING ? defaultLeft : bin <= splitBin;
}

/** Moves the rows of `node` that go left to the front of its range, keeping their order; returns the boundary. */
function partition(node: i32): i32 {
  const begin = unchecked(nodeBegin[node]);
  const end = unchecked(nodeEnd[node]);
  const feature = unchecked(nodeFeature[node]);
  const splitBin = unchecked(nodeSplitBin[node]);
  const defaultLeft = unchecked(nodeDefaultLeft[node]) != 0;
  let left = begin;
  let right = 0;
  for (let k = begin; k < end; k++) {
    const r = unchecked(rowIndex[k]);
    const bin = <i32>unchecked(trainBins[r * numFeatures + feature]);
    if (goesLeft(bin, splitBin, defaultLeft)) unchecked((rowIndex[left++] = r));
    else unchecked((rowScratch[right++] = r));
  }
  memory.copy(changetype<usize>(rowIndex) + (<usize>left << 2), changetype<usize>(rowScratch), <usize>right << 2);
  return left;
}

/** TreeEvaluator::AddSplit: the children's bounds are the parent's, split at the mean of their weights along the feature's constraint. */
function boundChildren(node: i32, feature: i32, left: i32, right: i32): void {
  const lower = unchecked(nodeLower[node]);
  const upper = unchecked(nodeUpper[node]);
  unchecked((nodeLower[left] = lower));
  unchecked((nodeUpper[left] = upper));
  unchecked((nodeLower[right] = lower));
  unchecked((nodeUpper[right] = upper));
  const constraint = unchecked(monotone[feature]);
  const mid: f32 = (<f32>unchecked(nodeWeight[left]) + <f32>unchecked(nodeWeight[right])) / 2;
  if (constraint < 0) {
    unchecked((nodeLower[left] = mid));
    unchecked((nodeUpper[right] = mid));
  } else if (constraint > 0) {
    unchecked((nodeUpper[left] = mid));
    unchecked((nodeLower[right] = mid));
  }
}

/**
 * Grows one tree on the first `rows` entries of rowIndexBuffer() with the features of
 * featureMaskBuffer(), then adds it to every row's margin. Returns the number of nodes.
 */
export function growTree(rows: i32): i32 {
  sampledRows = rows;
  computeGradients();
  nodeCount = 0;
  freeCount = 0;
  for (let s = freeSlots.length - 1; s >= 0; s--) releaseSlot(s);
  let g: f64 = 0;
  let h: f64 = 0;
  for (let k = 0; k < rows; k++) {
    const r = unchecked(rowIndex[k]);
    g += unchecked(grad[r]);
    h += unchecked(hess[r]);
  }
  const root = newNode(NONE, g, h, 0, rows);
  let levelCount = 0;
  if (maxDepth > 0) {
    const slot = takeSlot();
    unchecked((nodeSlot[root] = slot));
    buildHistogram(slot, 0, rows);
    unchecked((level[levelCount++] = root));
  }
  for (let depth = 0; depth < maxDepth && levelCount > 0; depth++) {
    let nextCount = 0;
    for (let i = 0; i < levelCount; i++) {
      const node = unchecked(level[i]);
      const slot = unchecked(nodeSlot[node]);
      findSplit(node);
      // CPUExpandEntry::IsValid.
      const valid = bestLoss > RT_EPS && bestLeftH != 0 && bestRightH != 0 && <f64>bestLoss >= gamma;
      if (!valid) {
        releaseSlot(slot);
        continue;
      }
      const feature = <i32>(bestIndex & 0x7fffffff);
      unchecked((nodeFeature[node] = feature));
      unchecked((nodeSplitBin[node] = bestBin));
      unchecked((nodeDefaultLeft[node] = bestIndex >> 31 ? 1 : 0));
      unchecked((nodeLoss[node] = bestLoss));
      const middle = partition(node);
      const begin = unchecked(nodeBegin[node]);
      const end = unchecked(nodeEnd[node]);
      const leftG = bestLeftG;
      const leftH = bestLeftH;
      const rightG = bestRightG;
      const rightH = bestRightH;
      const left = newNode(node, leftG, leftH, begin, middle);
      const right = newNode(node, rightG, rightH, middle, end);
      unchecked((nodeLeft[node] = left));
      unchecked((nodeRight[node] = right));
      if (hasConstraint) boundChildren(node, feature, left, right);
      if (depth + 1 >= maxDepth) {
        releaseSlot(slot);
        continue;
      }
      // The smaller child is summed from its rows, the larger one is the parent minus it.
      const small = middle - begin <= end - middle ? left : right;
      const large = small == left ? right : left;
      const smallSlot = takeSlot();
      buildHistogram(smallSlot, unchecked(nodeBegin[small]), unchecked(nodeEnd[small]));
      subtractHistogram(slot, smallSlot);
      unchecked((nodeSlot[small] = smallSlot));
      unchecked((nodeSlot[large] = slot));
      unchecked((nextLevel[nextCount++] = left));
      unchecked((nextLevel[nextCount++] = right));
    }
    const swap = level;
    level = nextLevel;
    nextLevel = swap;
    levelCount = nextCount;
  }
  addTree(trainBins, trainMargin, trainRows);
  addTree(validBins, validMargin, validRows);
  return nodeCount;
}

/** margin += the leaf each row reaches, in float32. */
function addTree(bins: StaticArray<u16>, margin: StaticArray<f32>, rows: i32): void {
  for (let r = 0; r < rows; r++) {
    let node = 0;
    while (unchecked(nodeLeft[node]) != NONE) {
      const bin = <i32>unchecked(bins[r * numFeatures + unchecked(nodeFeature[node])]);
      node = goesLeft(bin, unchecked(nodeSplitBin[node]), unchecked(nodeDefaultLeft[node]) != 0)
        ? unchecked(nodeLeft[node])
        : unchecked(nodeRight[node]);
    }
    unchecked((margin[r] = unchecked(margin[r]) + unchecked(nodeLeaf[node])));
  }
}

/** Root mean squared error of the training (0) or validation (1) rows' current predictions. */
export function rmse(which: i32): f64 {
  const y = which == 0 ? trainY : validY;
  const margin = which == 0 ? trainMargin : validMargin;
  const n = y.length;
  if (n == 0) return NaN;
  let sum: f64 = 0;
  for (let r = 0; r < n; r++) {
    const d = <f64>unchecked(margin[r]) - <f64>unchecked(y[r]);
    sum += d * d;
  }
  return Math.sqrt(sum / <f64>n);
}

// The tree just grown, node arrays of length growTree's answer.
export function treeFeature(): StaticArray<i32> {
  return nodeFeature;
}
export function treeSplitBin(): StaticArray<i32> {
  return nodeSplitBin;
}
export function treeDefaultLeft(): StaticArray<u8> {
  return nodeDefaultLeft;
}
export function treeLeft(): StaticArray<i32> {
  return nodeLeft;
}
export function treeRight(): StaticArray<i32> {
  return nodeRight;
}
export function treeParent(): StaticArray<i32> {
  return nodeParent;
}
export function treeWeight(): StaticArray<f64> {
  return nodeWeight;
}
export function treeLeaf(): StaticArray<f32> {
  return nodeLeaf;
}
export function treeLoss(): StaticArray<f32> {
  return nodeLoss;
}
export function treeHess(): StaticArray<f64> {
  return nodeH;
}
