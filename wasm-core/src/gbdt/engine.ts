// Which of gbdt.wasm's two engines runs a model, and why; decided once when the model loads.
// QuickScorer with prefix checkpoints (see wasm-core/assembly/gbdt.ts) can take forests whose trees
// have at most 64 leaves (one word of 16, 32 or 64 bits per tree) and only numerical splits whose
// missing values behave like NaN; everything else keeps the tree walk. Both give the same bits.
// Among the forests it can take, it is the faster one when a row's work there, a search and one
// vector of tree words per feature the model splits on, is small against the walk's, one step per
// level (XGBoost's trees of depth 4 or less walk four rows a v128, deeper ones up to depth 10 as
// perfect trees): the gbdt bench's grid (docs/performance.md, «GBDT inference») measured QuickScorer
// 1.1–1.8× the walk for 7 features at depth 4 and 6, and 0.5–0.85× for 20 features at depth 4 and 6,
// hence the rule features ≤ 2 × depth.
// Before both: the walk over byte keys (XGBoost's forests no deeper than BYTE_WALK_MAX_DEPTH with
// float32 leaves: sixteen rows a v128, byte compares, gbdt.ts «The walk over byte keys») when
// a row takes at most BYTE_WALK_COLUMNS_PER_FEATURE byte columns per feature of the model (a column
// holds 255 distinct thresholds; XGBoost's `hist` makes at most 256 per feature, two columns). On a
// quiet machine (load 0.7, 2026-11-26) it ran every 7-feature shape of the bench's grid (hist, 7–14
// columns) at 1.14–1.51× QuickScorer, and the synthetic forests of 500 and 1 000 trees at 1.10×;
// the default model, trained with exact thresholds (521–1 101 per feature, 24 columns for 7
// features), at 0.77× QuickScorer, which keeps it. The forests QuickScorer does not take by its
// rule walk over byte keys wherever they can.
import { CATEGORICAL, LEAF, MISSING_NONE, MISSING_ZERO, type FlatForest } from "./model";

export type GbdtEngine = "quickscorer" | "walk";

export interface EngineChoice {
  engine: GbdtEngine;
  /** Why, in Russian, for the model's details (admin screen, `npm run gbdt -- info`). */
  reason: string;
}

/** Leaves per tree the QuickScorer engine can hold: one bit each in a 64-bit word. */
export const QUICKSCORER_MAX_LEAVES = 64;
/**
 * Bytes of tree words per QuickScorer block (300 trees of 64 bits, 600 of 32, 1 200 of 16): the
 * checkpoint vectors grow with splits × trees, blocks keep that linear, and each block costs a row
 * its searches and leftover masks again. Measured in one process, runs interleaved, against 300
 * trees a block whatever the word: 7 features, 1 000 trees of depth 4 (16 bits) 1.14× in blocks of
 * 1 000 or 500, of depth 5 (32 bits) 1.14× in blocks of 600; depth 6 (64 bits) 0.97× in blocks of
 * 500 or 1 000, and 0.6–0.77× in blocks of 50 or 75.
 */
export const QUICKSCORER_BLOCK_BYTES = 2400;
/** QuickScorer runs a model when the features its splits use are at most this × its trees' greatest depth. */
export const QUICKSCORER_FEATURES_PER_LEVEL = 2;
/** The walk over byte keys takes trees up to this depth (gbdt.ts BINS_MAX_DEPTH). */
export const BYTE_WALK_MAX_DEPTH = 8;
/** The walk over byte keys comes first when a row takes at most this many byte columns per feature of the model. */
export const BYTE_WALK_COLUMNS_PER_FEATURE = 2;
// A feature's distinct thresholds per byte column of the rows, and the limits gbdt.ts keeps.
const BYTE_WALK_COLUMN_CUTS = 255;
const BYTE_WALK_MAX_COLUMNS = 1024;
const BYTE_WALK_MAX_FEATURE_CUTS = 32767;

/** Bits of a tree's word in QuickScorer's vectors, as gbdt.wasm sizes them from the forest's largest tree. */
export function quickScorerWordBits(maxLeaves: number): 16 | 32 | 64 {
  return maxLeaves <= 16 ? 16 : maxLeaves <= 32 ? 32 : 64;
}

export const ENGINE_LABEL: Record<GbdtEngine, string> = {
  quickscorer: "QuickScorer с контрольными точками префиксов",
  walk: "обход деревьев",
};

interface ForestShape {
  /** Why QuickScorer cannot run the forest, in Russian; undefined when it can. */
  refusal?: string;
  maxLeaves: number;
  maxDepth: number;
  /** Features the splits use. */
  features: number;
}

/** Trees per QuickScorer block for this forest: QUICKSCORER_BLOCK_BYTES of its tree words. */
export function quickScorerBlockTrees(forest: FlatForest): number {
  return (QUICKSCORER_BLOCK_BYTES * 8) / quickScorerWordBits(forestShape(forest).maxLeaves);
}

/** Why QuickScorer cannot run this forest (in Russian), or undefined when it can. */
export function quickScorerRefusal(forest: FlatForest): string | undefined {
  return forestShape(forest).refusal;
}

export function chooseEngine(forest: FlatForest): EngineChoice {
  const walk = (why: string): EngineChoice => ({ engine: "walk", reason: `${ENGINE_LABEL.walk}: ${why}` });
  const { refusal, maxLeaves, maxDepth, features } = forestShape(forest);
  const columns = byteWalkColumns(forest);
  const bits = quickScorerWordBits(maxLeaves);
  const byteKeys = () =>
    walk(
      `по байтовым ключам признаков, 16 строк за шаг: деревья XGBoost не глубже ${BYTE_WALK_MAX_DEPTH} ` +
        `(наибольшая глубина ${maxDepth}), листья float32, ${columns} столбцов ключей`,
    );
  if (columns !== undefined && columns <= BYTE_WALK_COLUMNS_PER_FEATURE * forest.numFeatures) return byteKeys();
  if (!refusal && features <= QUICKSCORER_FEATURES_PER_LEVEL * maxDepth) {
    return {
      engine: "quickscorer",
      reason:
        `${ENGINE_LABEL.quickscorer}: в каждом дереве не больше ${QUICKSCORER_MAX_LEAVES} листьев ` +
        `(наибольшее — ${maxLeaves}, слово дерева ${bits} бит), только числовые разбиения, пропуски как NaN; ` +
        `${features} признаков не больше ${QUICKSCORER_FEATURES_PER_LEVEL} × глубина ${maxDepth}`,
    };
  }
  if (columns !== undefined) return byteKeys();
  if (refusal) return walk(refusal);
  return walk(
    `${features} признаков больше ${QUICKSCORER_FEATURES_PER_LEVEL} × глубина ${maxDepth}: ` +
      "поиск и векторы QuickScorer по каждому признаку дольше пути по дереву",
  );
}

/**
 * The byte columns a row takes on the walk over byte keys, or undefined when that walk cannot run
 * the forest (the conditions of gbdt.ts buildBins).
 */
export function byteWalkColumns(forest: FlatForest): number | undefined {
  const { nodeFlags, nodeFeature, nodeThreshold, nodeValue, treeDepth } = forest;
  if (!forest.float32 || forest.leftWhenEqual || forest.leafLinearBegin.length > 0) return undefined;
  if (Math.fround(forest.baseMargin) !== forest.baseMargin) return undefined;
  if (treeDepth.some((depth) => depth > BYTE_WALK_MAX_DEPTH)) return undefined;
  const cuts = Array.from({ length: forest.numFeatures }, () => new Set<number>());
  for (let i = 0; i < nodeFlags.length; i++) {
    const flags = nodeFlags[i];
    if (flags & LEAF) {
      if (Math.fround(nodeValue[i]) !== nodeValue[i]) return undefined;
      continue;
    }
    if (flags & (CATEGORICAL | MISSING_ZERO | MISSING_NONE) || !Number.isFinite(nodeThreshold[i])) return undefined;
    cuts[nodeFeature[i]].add(Math.fround(nodeThreshold[i]) + 0);
  }
  let columns = 0;
  for (const { size } of cuts) {
    if (size > BYTE_WALK_MAX_FEATURE_CUTS) return undefined;
    columns += Math.max(1, Math.ceil(size / BYTE_WALK_COLUMN_CUTS));
  }
  return columns <= BYTE_WALK_MAX_COLUMNS ? columns : undefined;
}

function forestShape(forest: FlatForest): ForestShape {
  const { treeRoots, treeDepth, nodeFlags, nodeValue, nodeFeature } = forest;
  const used = new Set<number>();
  nodeFlags.forEach((flags, i) => {
    if (!(flags & LEAF)) used.add(nodeFeature[i]);
  });
  const shape = { maxLeaves: 0, maxDepth: treeDepth.reduce((a, b) => Math.max(a, b), 0), features: used.size };
  const refuse = (refusal: string): ForestShape => ({ ...shape, refusal });
  if (forest.leafLinearBegin.length > 0) return refuse("в модели линейные деревья (linear_tree)");
  let categorical = false;
  let missingZeroOrNone = false;
  let maxLeaves = 0;
  let wideLeaf = false;
  for (let t = 0; t < treeRoots.length; t++) {
    const end = t + 1 < treeRoots.length ? treeRoots[t + 1] : nodeFlags.length;
    let leaves = 0;
    for (let i = treeRoots[t]; i < end; i++) {
      const flags = nodeFlags[i];
      if (flags & LEAF) leaves++;
      if (flags & LEAF && forest.float32 && Math.fround(nodeValue[i]) !== nodeValue[i]) wideLeaf = true;
      if (flags & CATEGORICAL) categorical = true;
      if (flags & (MISSING_ZERO | MISSING_NONE)) missingZeroOrNone = true;
    }
    maxLeaves = Math.max(maxLeaves, leaves);
  }
  shape.maxLeaves = maxLeaves;
  if (categorical) return refuse("в модели категориальные разбиения");
  if (missingZeroOrNone) return refuse("в модели пропуски типа Zero или None (LightGBM)");
  // The engine sums float32 models in float32, exact only for float32 leaves (all XGBoost's are).
  if (wideLeaf) return refuse("листья модели float32 не помещаются в float32");
  if (maxLeaves > QUICKSCORER_MAX_LEAVES) return refuse(`в дереве ${maxLeaves} листьев, больше ${QUICKSCORER_MAX_LEAVES}`);
  return shape;
}
