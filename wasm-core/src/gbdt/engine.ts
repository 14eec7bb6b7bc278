// Which of gbdt.wasm's two engines runs a model, and why; decided once when the model loads.
// QuickScorer with prefix checkpoints (see wasm-core/assembly/gbdt.ts) takes forests whose trees
// have at most 64 leaves (one 64-bit word per tree) and only numerical splits whose missing values
// behave like NaN; everything else keeps the tree walk. Both give the same bits.
import { CATEGORICAL, LEAF, MISSING_NONE, MISSING_ZERO, type FlatForest } from "./model";

export type GbdtEngine = "quickscorer" | "walk";

export interface EngineChoice {
  engine: GbdtEngine;
  /** Why, in Russian, for the model's details (admin screen, `npm run gbdt -- info`). */
  reason: string;
}

/** Leaves per tree the QuickScorer engine can hold: one bit each in a 64-bit word. */
export const QUICKSCORER_MAX_LEAVES = 64;
/** Trees per QuickScorer block: the checkpoint vectors grow with splits x trees, blocks keep that linear. */
export const QUICKSCORER_BLOCK_TREES = 300;

export const ENGINE_LABEL: Record<GbdtEngine, string> = {
  quickscorer: "QuickScorer с контрольными точками префиксов",
  walk: "обход деревьев",
};

export function chooseEngine(forest: FlatForest): EngineChoice {
  const walk = (why: string): EngineChoice => ({ engine: "walk", reason: `${ENGINE_LABEL.walk}: ${why}` });
  if (forest.leafLinearBegin.length > 0) return walk("в модели линейные деревья (linear_tree)");
  let categorical = false;
  let missingZeroOrNone = false;
  let maxLeaves = 0;
  let wideLeaf = false;
  const { treeRoots, nodeFlags, nodeValue } = forest;
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
  if (categorical) return walk("в модели категориальные разбиения");
  if (missingZeroOrNone) return walk("в модели пропуски типа Zero или None (LightGBM)");
  // The engine sums float32 models in float32, exact only for float32 leaves (all XGBoost's are).
  if (wideLeaf) return walk("листья модели float32 не помещаются в float32");
  if (maxLeaves > QUICKSCORER_MAX_LEAVES) {
    return walk(`в дереве ${maxLeaves} листьев, больше ${QUICKSCORER_MAX_LEAVES}`);
  }
  return {
    engine: "quickscorer",
    reason:
      `${ENGINE_LABEL.quickscorer}: в каждом дереве не больше ${QUICKSCORER_MAX_LEAVES} листьев ` +
      `(наибольшее — ${maxLeaves}), только числовые разбиения, пропуски как NaN`,
  };
}
