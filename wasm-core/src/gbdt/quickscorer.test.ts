// The QuickScorer engine (wasm-core/assembly/gbdt.ts) against the libraries' golden predictions
// and against the tree walk on an adversarial row set: every threshold of every split, the nearest
// doubles and floats on either side of each, NaN, infinities, signed zeros and denormals. It also
// shows that set catches an engine with the tie rule flipped (x == threshold sent the wrong way).
import { describe, expect, it } from "vitest";
import { byteWalkColumns, chooseEngine, QUICKSCORER_MAX_LEAVES } from "./engine";
import { flattenForest, type RawNode } from "./flatten";
import { loadModel, parseModel, predict, predictTs } from "./index";
import { LEAF } from "./model";
import { adversarialRows, nextDouble, nextFloat } from "./adversarial-rows";
import { fixture, modelFixture, readCsvWithColumn, readText } from "./test-fixtures";

// The property cases' size: whole under TEST_DEPTH=deep (`npm run test:deep`), smaller in the unit tier.
const DEEP = process.env.TEST_DEPTH === "deep";

const defaults = [
  { file: modelFixture("methane-xgboost.json"), golden: modelFixture("golden-default.csv"), column: "pred_xgboost" },
  { file: modelFixture("methane-lightgbm.txt"), golden: modelFixture("golden-default.csv"), column: "pred_lightgbm" },
];
const xgbShapes = ["xgb-dart-poisson", "xgb-logistic", "xgb-logitraw", "xgb-gamma", "xgb-tweedie", "xgb-unnamed"].map((name) => ({
  file: fixture(`${name}.json`),
  golden: fixture(`${name}.csv`),
  column: "expected",
}));
const withGolden = [...defaults, ...xgbShapes];

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Object.is(a[i], b[i]) ? 0 : Math.abs(a[i] - b[i]) || Infinity);
  return max;
}

describe("engine choice for every fixture model", () => {
  it.each([
    [modelFixture("methane-xgboost.json"), "quickscorer", /не больше 64 листьев \(наибольшее — 64, слово дерева 64 бит\)/],
    [modelFixture("methane-lightgbm.txt"), "quickscorer", /не больше 64 листьев \(наибольшее — 31, слово дерева 32 бит\)/],
    // Their splits make few thresholds per feature (one byte column each): the walk over byte keys.
    ...xgbShapes.map(({ file }) => [file, "walk", /по байтовым ключам признаков/] as const),
    [fixture("lgb-categorical.txt"), "walk", /обход деревьев: в модели категориальные разбиения/],
    [fixture("lgb-linear.txt"), "walk", /обход деревьев: в модели линейные деревья/],
    [fixture("lgb-missing.txt"), "walk", /обход деревьев: в модели пропуски типа Zero или None/],
  ] as const)("%s runs on %s", async (file, engine, reason) => {
    const model = await loadModel(readText(file));
    expect(model.wasm.choice.engine).toBe(engine);
    expect(model.wasm.choice.reason).toMatch(reason);
    expect(model.wasm.tableBytes > 0).toBe(engine === "quickscorer");
  });

  it("keeps the walk where QuickScorer's work per feature outgrows the walk's path: 15 features at depth 4, 20 at depth 6, not 15 at depth 10", async () => {
    // Full trees whose splits use features 0 to 14 (depth 4) or all 20 (depth 6).
    const full = (depth: number, at = { next: 0 }): RawNode =>
      depth === 0
        ? { kind: "leaf", value: 0.25 }
        : { kind: "split", feature: at.next++ % 20, flags: 0, threshold: 0.5, left: full(depth - 1, at), right: full(depth - 1, at) };
    // A base margin that is no float32 keeps them off the walk over byte keys.
    const forest = (depth: number) =>
      flattenForest([full(depth), full(depth)], { numFeatures: 20, float32: true, leftWhenEqual: false, baseMargin: 0.1 });
    expect(chooseEngine(forest(6))).toEqual({
      engine: "walk",
      reason: "обход деревьев: 20 признаков больше 2 × глубина 6: поиск и векторы QuickScorer по каждому признаку дольше пути по дереву",
    });
    expect(chooseEngine(forest(4)).engine).toBe("walk");
    // A chain ten splits deep beside a tree of depth 4: 15 features ≤ 2 × 10.
    let chain: RawNode = { kind: "leaf", value: 0.5 };
    for (let i = 0; i < 10; i++) {
      chain = { kind: "split", feature: i, flags: 0, threshold: i, left: { kind: "leaf", value: i }, right: chain };
    }
    const deeper = flattenForest([full(4), chain], { numFeatures: 20, float32: true, leftWhenEqual: false, baseMargin: 0.1 });
    expect(chooseEngine(deeper).engine).toBe("quickscorer");
    // Forced, QuickScorer still runs such a model (the bench compares both engines on it).
    const parsed = { ...parseModel(readText(modelFixture("methane-xgboost.json"))), forest: forest(6), numTrees: 2 };
    parsed.featureNames = Array.from({ length: 20 }, (_, i) => `x${i}`);
    const rows = Float64Array.from({ length: 20 * 8 }, (_, i) => (i % 3) / 2);
    const walk = predict(await loadModel(parsed), rows);
    expect(Array.from(predict(await loadModel(parsed, { engine: "quickscorer" }), rows))).toEqual(Array.from(walk));
  });

  it("runs XGBoost forests of depth 8 or less with float32 leaves and base margin on the walk over byte keys", () => {
    const full = (depth: number): RawNode =>
      depth === 0
        ? { kind: "leaf", value: 0.25 }
        : { kind: "split", feature: depth % 3, flags: 0, threshold: depth, left: full(depth - 1), right: full(depth - 1) };
    const forest = (depth: number, baseMargin = 0.5, leaf = 0.25) =>
      flattenForest([full(depth), { kind: "leaf", value: leaf }], { numFeatures: 3, float32: true, leftWhenEqual: false, baseMargin });
    // One byte column per feature: the walk over byte keys at depth 8 (256 leaves) and at depth 6.
    expect(chooseEngine(forest(8))).toEqual({
      engine: "walk",
      reason:
        "обход деревьев: по байтовым ключам признаков, 16 строк за шаг: деревья XGBoost не глубже 8 (наибольшая глубина 8), " +
        "листья float32, 3 столбцов ключей",
    });
    expect(chooseEngine(forest(6)).engine).toBe("walk");
    expect(byteWalkColumns(forest(6))).toBe(3);
    expect(byteWalkColumns(forest(8))).toBe(3);
    expect(byteWalkColumns(forest(9))).toBeUndefined();
    expect(byteWalkColumns(forest(6, 0.1))).toBeUndefined();
    expect(byteWalkColumns(forest(6, 0.5, 0.1))).toBeUndefined();
    // 600 distinct thresholds on feature 0: three columns of 255 cuts, one each for features 1 and 2.
    const many = Array.from(
      { length: 600 },
      (_, i): RawNode => ({
        kind: "split",
        feature: 0,
        flags: 0,
        threshold: i,
        left: { kind: "leaf", value: 1 },
        right: { kind: "leaf", value: 2 },
      }),
    );
    const wide = flattenForest(many, { numFeatures: 3, float32: true, leftWhenEqual: false, baseMargin: 0.5 });
    expect(byteWalkColumns(wide)).toBe(5);
    // More than two columns a feature: QuickScorer (the default model's exact thresholds, 24 columns
    // for 7 features, are the case in earnest); 510 thresholds, two columns, still walk.
    const single = (splits: RawNode[]) => flattenForest(splits, { numFeatures: 1, float32: true, leftWhenEqual: false, baseMargin: 0.5 });
    expect(byteWalkColumns(single(many))).toBe(3);
    expect(chooseEngine(single(many)).engine).toBe("quickscorer");
    expect(byteWalkColumns(single(many.slice(0, 510)))).toBe(2);
    expect(chooseEngine(single(many.slice(0, 510))).engine).toBe("walk");
  });

  it("keeps the walk for a tree of more than 64 leaves", () => {
    // A chain of 65 leaves: each split's right child is the next split.
    let tree: RawNode = { kind: "leaf", value: 0.5 };
    for (let i = 0; i < QUICKSCORER_MAX_LEAVES; i++) {
      tree = { kind: "split", feature: 0, flags: 0, threshold: i, left: { kind: "leaf", value: i }, right: tree };
    }
    const forest = flattenForest([tree], { numFeatures: 1, float32: true, leftWhenEqual: false, baseMargin: 0 });
    expect(chooseEngine(forest)).toEqual({ engine: "walk", reason: "обход деревьев: в дереве 65 листьев, больше 64" });
  });
});

describe.each(withGolden)("QuickScorer on $file", ({ file, golden, column }) => {
  const parsed = parseModel(readText(file));
  const expected = readCsvWithColumn(golden, parsed.featureNames, column);

  it("reproduces the library's golden predictions: max |Δ| = 0", async () => {
    const model = await loadModel(parsed, { engine: "quickscorer" });
    expect(maxAbsDiff(predict(model, expected.rows), expected.values)).toBe(0);
  });

  it("gives the walk's bits on the adversarial rows, in one block and in blocks of 7 trees", async () => {
    const rows = adversarialRows(parsed, expected.rows);
    const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
    for (const blockTrees of [300, 7]) {
      const quick = predict(await loadModel(parsed, { engine: "quickscorer", blockTrees }), rows);
      expect(maxAbsDiff(quick, walk)).toBe(0);
    }
  });
});

/** mulberry32, seeded: the same trees on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("QuickScorer's tree words of 16, 32 and 64 bits (trees of up to 16, 32 and 64 leaves)", () => {
  const base = parseModel(readText(modelFixture("methane-xgboost.json")));
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), base.featureNames, "pred_xgboost");
  const width = base.featureNames.length;

  /** A forest of full trees of `depth` on the golden rows' values, some splits sending NaN left. */
  function forestOf(depth: number, trees: number, library: "xgboost" | "lightgbm"): typeof base {
    const random = generator(depth * 1000 + trees);
    const grow = (level: number): RawNode => {
      if (level === depth) return { kind: "leaf", value: Math.fround((random() - 0.5) / 10) };
      const feature = Math.floor(random() * width);
      const threshold = golden.rows[Math.floor((random() * golden.rows.length) / width) * width + feature];
      const split = Number.isNaN(threshold) ? 0.5 : threshold;
      return { kind: "split", feature, flags: random() < 0.5 ? 1 : 0, threshold: split, left: grow(level + 1), right: grow(level + 1) };
    };
    const xgb = library === "xgboost";
    const forest = flattenForest(
      Array.from({ length: trees }, () => grow(0)),
      { numFeatures: width, float32: xgb, leftWhenEqual: !xgb, baseMargin: 0.5 },
    );
    return { ...base, library, numTrees: trees, forest };
  }

  it("gives the walk's bits on a feature with 600 thresholds, three byte columns on the walk over byte keys", async () => {
    // Stumps on feature 0 at 600 distinct thresholds, some sending NaN left; the cuts 254, 255 and
    // 509, 510 sit on the columns' edges.
    const random = generator(600);
    const stumps = Array.from(
      { length: 600 },
      (_, i): RawNode => ({
        kind: "split",
        feature: 0,
        flags: i % 3 === 0 ? 1 : 0,
        threshold: Math.fround(i / 8 - 30),
        left: { kind: "leaf", value: Math.fround(random() - 0.5) },
        right: { kind: "leaf", value: Math.fround(random() - 0.5) },
      }),
    );
    const forest = flattenForest(stumps, { numFeatures: width, float32: true, leftWhenEqual: false, baseMargin: 0.5 });
    const parsed = { ...base, numTrees: stumps.length, forest };
    // QuickScorer takes stumps of one feature; the walk, asked for, runs over nine byte columns.
    expect(byteWalkColumns(forest)).toBe(9);
    const walk = await loadModel(parsed, { engine: "walk" });
    const rows = adversarialRows(parsed, golden.rows);
    const quick = predict(await loadModel(parsed, { engine: "quickscorer" }), rows);
    expect(maxAbsDiff(predict(walk, rows), quick)).toBe(0);
  });

  it.each([
    [3, "xgboost"],
    [4, "xgboost"],
    [5, "xgboost"],
    [6, "xgboost"],
    [4, "lightgbm"],
    [5, "lightgbm"],
    [6, "lightgbm"],
  ] as const)(
    "gives the walk's bits for trees of depth %i (%s) on the adversarial rows, in blocks of 300 and of 7 trees",
    async (depth, library) => {
      const parsed = forestOf(depth, 40, library);
      const rows = adversarialRows(parsed, golden.rows);
      const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
      for (const blockTrees of [300, 7]) {
        const quick = await loadModel(parsed, { engine: "quickscorer", blockTrees });
        expect(maxAbsDiff(predict(quick, rows), walk)).toBe(0);
      }
    },
  );
});

describe("the walk over byte keys below its sixth level (trees of depth 7 and 8)", () => {
  it.each([7, 8])("gives the plain TypeScript evaluator's bits for trees of depth %i on the adversarial rows", async (depth) => {
    const base = parseModel(readText(modelFixture("methane-xgboost.json")));
    const golden = readCsvWithColumn(modelFixture("golden-default.csv"), base.featureNames, "pred_xgboost");
    const width = base.featureNames.length;
    const random = generator(depth * 7919);
    const grow = (level: number): RawNode => {
      // Some leaves above the last level, as XGBoost's trees have them.
      if (level === depth || (level > 2 && random() < 0.1)) return { kind: "leaf", value: Math.fround((random() - 0.5) / 10) };
      const feature = Math.floor(random() * width);
      const threshold = golden.rows[Math.floor((random() * golden.rows.length) / width) * width + feature];
      const split = Number.isNaN(threshold) ? 0.5 : threshold;
      return { kind: "split", feature, flags: random() < 0.5 ? 1 : 0, threshold: split, left: grow(level + 1), right: grow(level + 1) };
    };
    const forest = flattenForest(
      Array.from({ length: 30 }, () => grow(0)),
      { numFeatures: width, float32: true, leftWhenEqual: false, baseMargin: 0.5 },
    );
    const parsed = { ...base, numTrees: 30, forest };
    const model = await loadModel(parsed);
    expect(model.wasm.choice.reason).toMatch(/^обход деревьев: по байтовым ключам признаков/);
    const rows = adversarialRows(parsed, golden.rows);
    expect(maxAbsDiff(predict(model, rows), predictTs(parsed, rows))).toBe(0);
  });
});

/** Every `step`-th row of `rows` (all of them at step 1). */
function everyNth(rows: Float64Array, width: number, step: number): Float64Array {
  if (step === 1) return rows;
  const kept = new Float64Array(Math.ceil(rows.length / width / step) * width);
  for (let r = 0, k = 0; r * width < rows.length; r += step, k++) kept.set(rows.subarray(r * width, (r + 1) * width), k * width);
  return kept;
}

describe("the walk over byte keys, its levels below the fourth gathered lane by lane", () => {
  // Below its top four levels the walk fetches each row's node from tables and picks the row's
  // byte among its columns (up to 8, 16 or 32 a copy), NaN by a bit a column (eight a byte);
  // more than 32 columns a copy keep every node compared. Splits on `width`
  // features at thresholds drawn from `distinct` values a feature set the columns: 200 values
  // make one column a feature, 400 two, 24 000 three or more (255 thresholds a column).
  // The plain TypeScript evaluator is the cost (thousands of adversarial rows through thousands of
  // splits, most of the file's time). The everyday tier checks every fourth row: the rows of a
  // threshold come five in a row (the threshold, its double and float neighbours), so a fourth of
  // the thresholds, each with one of its five, plus a fourth of the random mixes; the deep tier
  // checks them all. The walk with the tie rule flipped differs from the evaluator on that fourth,
  // so it still catches a wrong comparison at a boundary.
  const rowStep = DEEP ? 1 : 4;
  const methane = parseModel(readText(modelFixture("methane-xgboost.json")));
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), methane.featureNames, "pred_xgboost");

  it.each([
    [7, 200, 2500, 7, 7],
    [7, 400, 4000, 9, 16],
    [7, 24000, 5500, 17, 32],
    [20, 200, 3000, 20, 20],
    [34, 200, 3000, 34, 34],
  ] as const)(
    "gives the plain TypeScript evaluator's bits at depths 5 to 8: %i features, thresholds from %i values, %i splits, %i to %i columns",
    async (width, distinct, splits, fewest, most) => {
      const random = generator(width * 131 + distinct);
      const base = { ...methane, featureNames: Array.from({ length: width }, (_, i) => `x${i}`) };
      // Base rows: the golden rows' first feature spread over the width, some NaN.
      const rows = Float64Array.from({ length: 300 * width }, (_, i) =>
        random() < 0.05 ? Number.NaN : golden.rows[(i * 7919) % golden.rows.length],
      );
      for (const depth of [5, 6, 7, 8]) {
        const grow = (level: number): RawNode => {
          if (level === depth || (level > 2 && random() < 0.05)) return { kind: "leaf", value: Math.fround((random() - 0.5) / 10) };
          const feature = Math.floor(random() * width);
          const threshold = Math.fround(Math.floor(random() * distinct) / 16 - distinct / 32);
          return { kind: "split", feature, flags: random() < 0.5 ? 1 : 0, threshold, left: grow(level + 1), right: grow(level + 1) };
        };
        const trees = Math.ceil(splits / (2 ** depth - 1));
        const forest = flattenForest(
          Array.from({ length: trees }, () => grow(0)),
          { numFeatures: width, float32: true, leftWhenEqual: false, baseMargin: 0.5 },
        );
        const columns = byteWalkColumns(forest) as number;
        expect(columns).toBeGreaterThanOrEqual(fewest);
        expect(columns).toBeLessThanOrEqual(most);
        const parsed = { ...base, numTrees: trees, forest };
        const model = await loadModel(parsed, { engine: "walk" });
        const probe = everyNth(adversarialRows(parsed, rows), width, rowStep);
        const expected = predictTs(parsed, probe);
        expect(maxAbsDiff(predict(model, probe), expected)).toBe(0);
        // The rows checked still tell the tie rule: the same walk sending x == threshold left differs.
        const flipped = { ...parsed, forest: { ...forest, leftWhenEqual: true } };
        expect(maxAbsDiff(predict(await loadModel(flipped, { engine: "walk" }), probe), expected)).toBeGreaterThan(0);
      }
    },
  );
});

describe("the walk over byte keys, a row's bin by blocks of sixteen cuts", () => {
  // Up to 1 024 cuts a feature the bin is found by pivots and blocks of sixteen, past that by a
  // binary search; the counts probe a last block with one cut, none (a multiple of sixteen: only
  // the NaN block after it), the most pivots and the first count past them.
  const base = parseModel(readText(modelFixture("methane-xgboost.json")));
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), base.featureNames, "pred_xgboost");
  const width = base.featureNames.length;

  it.each([1, 17, 255, 256, 1024, 1025])("gives the plain TypeScript evaluator's bits with %i thresholds on one feature", async (count) => {
    // Full trees of depth 8 whose splits take the thresholds in turn, some sending NaN left.
    const random = generator(count);
    let next = 0;
    const grow = (level: number): RawNode => {
      if (level === 8) return { kind: "leaf", value: Math.fround(random() - 0.5) };
      const i = next++ % count;
      const threshold = Math.fround(i / 4 - count / 8);
      return { kind: "split", feature: 1, flags: i % 3 === 0 ? 1 : 0, threshold, left: grow(level + 1), right: grow(level + 1) };
    };
    // And stumps on the next feature below every row: a read past the feature's last block would
    // count its cuts.
    const below = Array.from(
      { length: 17 },
      (_, i): RawNode => ({
        kind: "split",
        feature: 2,
        flags: 0,
        threshold: -1000 - i,
        left: { kind: "leaf", value: 0.25 },
        right: { kind: "leaf", value: Math.fround(random() - 0.5) },
      }),
    );
    const trees = Math.ceil(count / 255) + below.length;
    const forest = flattenForest([...Array.from({ length: trees - below.length }, () => grow(0)), ...below], {
      numFeatures: width,
      float32: true,
      leftWhenEqual: false,
      baseMargin: 0.5,
    });
    const parsed = { ...base, numTrees: trees, forest };
    expect(byteWalkColumns(forest)).toBe(width - 1 + Math.ceil(count / 255));
    const rows = adversarialRows(parsed, golden.rows);
    const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
    expect(maxAbsDiff(walk, predictTs(parsed, rows))).toBe(0);
  });
});

describe("the adversarial rows", () => {
  const parsed = parseModel(readText(modelFixture("methane-xgboost.json")));
  const golden = readCsvWithColumn(modelFixture("golden-default.csv"), parsed.featureNames, "pred_xgboost");
  const rows = adversarialRows(parsed, golden.rows);

  it("hold every threshold, both neighbours, NaN, infinities, signed zeros and denormals", () => {
    const present = new Set(rows);
    const { forest } = parsed;
    // The values missing, gathered for one assertion: an expect per value was 1.8 s at load 7.
    const missing: number[] = [];
    forest.nodeFlags.forEach((flags, i) => {
      if (flags & LEAF) return;
      const t = forest.nodeThreshold[i];
      for (const v of [t, nextFloat(t, true), nextFloat(t, false), nextDouble(t, true), nextDouble(t, false)]) {
        if (!present.has(v)) missing.push(v);
      }
    });
    expect(missing).toEqual([]);
    expect(rows.some(Number.isNaN)).toBe(true);
    expect(Array.from(rows).some((v) => Object.is(v, -0))).toBe(true);
    for (const v of [Infinity, -Infinity, Number.MIN_VALUE, 2 ** -149]) expect(present.has(v)).toBe(true);
  });

  it("catch QuickScorer with the tie rule flipped (x == threshold going left instead of right)", async () => {
    const walk = predict(await loadModel(parsed, { engine: "walk" }), rows);
    const flipped = structuredClone(parsed);
    flipped.forest.leftWhenEqual = true; // go right when x > t instead of x >= t
    const wrong = predict(await loadModel(flipped, { engine: "quickscorer" }), rows);
    expect(maxAbsDiff(wrong, walk)).toBeGreaterThan(0);
    // The same engine with XGBoost's own rule agrees, so the difference is the tie rule alone.
    expect(maxAbsDiff(predict(await loadModel(parsed, { engine: "quickscorer" }), rows), walk)).toBe(0);
  });
});
