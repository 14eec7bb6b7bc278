// Builds a FlatForest from trees given as linked nodes. Both readers first turn their library's
// numbering into RawNode trees; this module only renumbers breadth-first (so siblings are adjacent
// and the right child is left + 1), measures each tree's depth and packs the typed arrays.
import { DEFAULT_LEFT, LEAF, type FlatForest } from "./model";

export interface RawSplit {
  kind: "split";
  feature: number;
  flags: number;
  /** Split value, or for a categorical split the bitset words of the categories that go left. */
  threshold: number;
  categories?: Uint32Array;
  left: RawNode;
  right: RawNode;
}

export interface RawLeaf {
  kind: "leaf";
  value: number;
  /** LightGBM linear tree leaf. */
  linear?: { constant: number; features: number[]; coeffs: number[] };
}

export type RawNode = RawSplit | RawLeaf;

export interface ForestOptions {
  numFeatures: number;
  float32: boolean;
  leftWhenEqual: boolean;
  baseMargin: number;
}

export function flattenForest(trees: RawNode[], options: ForestOptions): FlatForest {
  const ordered: RawNode[] = [];
  const roots: number[] = [];
  const depths: number[] = [];
  const firstChild = new Map<RawNode, number>();
  for (const root of trees) {
    roots.push(ordered.length);
    ordered.push(root);
    const depth = new Map<RawNode, number>([[root, 0]]);
    let maxDepth = 0;
    // Breadth-first: each split's two children are appended together, left then right.
    for (let i = ordered.length - 1; i < ordered.length; i++) {
      const node = ordered[i];
      const d = depth.get(node)!;
      maxDepth = Math.max(maxDepth, d);
      if (node.kind === "split") {
        firstChild.set(node, ordered.length);
        ordered.push(node.left, node.right);
        depth.set(node.left, d + 1).set(node.right, d + 1);
      }
    }
    depths.push(maxDepth);
  }

  const n = ordered.length;
  const nodeFeature = new Int32Array(n);
  const nodeFlags = new Uint8Array(n);
  const nodeThreshold = new Float64Array(n);
  const nodeLeft = new Int32Array(n);
  const nodeValue = new Float64Array(n);
  const catBegin: number[] = [];
  const catEnd: number[] = [];
  const catWords: number[] = [];
  const hasLinear = ordered.some((node) => node.kind === "leaf" && node.linear !== undefined);
  const leafLinearBegin = new Int32Array(hasLinear ? n : 0).fill(-1);
  const leafLinearEnd = new Int32Array(hasLinear ? n : 0).fill(-1);
  const leafConst = new Float64Array(hasLinear ? n : 0);
  const linearFeature: number[] = [];
  const linearCoeff: number[] = [];

  ordered.forEach((node, i) => {
    if (node.kind === "split") {
      nodeFeature[i] = node.feature;
      nodeFlags[i] = node.flags;
      nodeLeft[i] = firstChild.get(node)!;
      if (node.categories) {
        nodeThreshold[i] = catBegin.length;
        catBegin.push(catWords.length);
        catWords.push(...node.categories);
        catEnd.push(catWords.length);
      } else {
        nodeThreshold[i] = node.threshold;
      }
    } else {
      // A leaf loops to itself: x >= NaN and x > NaN are false, so default-left stays put.
      nodeFeature[i] = 0;
      nodeFlags[i] = LEAF | DEFAULT_LEFT;
      nodeThreshold[i] = NaN;
      nodeLeft[i] = i;
      nodeValue[i] = node.value;
      if (node.linear) {
        leafLinearBegin[i] = linearFeature.length;
        leafConst[i] = node.linear.constant;
        linearFeature.push(...node.linear.features);
        linearCoeff.push(...node.linear.coeffs);
        leafLinearEnd[i] = linearFeature.length;
      }
    }
  });

  return {
    ...options,
    treeRoots: Int32Array.from(roots),
    treeDepth: Int32Array.from(depths),
    nodeFeature,
    nodeFlags,
    nodeThreshold,
    nodeLeft,
    nodeValue,
    catBegin: Int32Array.from(catBegin),
    catEnd: Int32Array.from(catEnd),
    catWords: Uint32Array.from(catWords),
    leafLinearBegin,
    leafLinearEnd,
    leafConst,
    linearFeature: Int32Array.from(linearFeature),
    linearCoeff: Float64Array.from(linearCoeff),
  };
}
