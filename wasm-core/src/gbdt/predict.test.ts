// The predict() contract: input shapes, column order, missing values, batches larger than one
// WASM chunk, several models side by side.
import { describe, expect, it } from "vitest";
import { readFeatureCsv } from "./csv";
import { loadModel, parseModel, predict, predictTs, type ParsedModel } from "./index";
import { flattenForest, type RawNode } from "./flatten";
import { LEAF } from "./model";
import { readText, modelFixture } from "./test-fixtures";

const xgbText = readText(modelFixture("methane-xgboost.json"));
const lgbText = readText(modelFixture("methane-lightgbm.txt"));
const features = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];
const golden = readFeatureCsv(readText(modelFixture("golden-default.csv")), features);

describe("predict", () => {
  it("gives the same numbers for a Float64Array and for one array per row", async () => {
    const model = await loadModel(xgbText);
    const perRow = Array.from({ length: golden.rowCount }, (_, r) => Array.from(golden.rows.subarray(r * 7, r * 7 + 7)));
    expect(Array.from(predict(model, perRow))).toEqual(Array.from(predict(model, golden.rows)));
  });

  it("treats null and undefined as missing, like NaN", async () => {
    const model = await loadModel(lgbText);
    const row = [1300, NaN, 35, 100, 0.5, 16000, 35];
    const expected = predict(model, [row])[0];
    expect(predict(model, [[1300, null as unknown as number, 35, 100, 0.5, 16000, 35]])[0]).toBe(expected);
    expect(predict(model, [[1300, undefined as unknown as number, 35, 100, 0.5, 16000, 35]])[0]).toBe(expected);
    expect(() => predict(model, [[1300, "1200" as unknown as number, 35, 100, 0.5, 16000, 35]])).toThrow(
      /row 0, feature x2: 1200 is not a number/,
    );
  });

  it("maps named columns in any order and ignores extra ones", async () => {
    const model = await loadModel(xgbText);
    const order = ["id", "x15", "x13", "x12", "x8", "x7", "x2", "x1", "y"];
    const shuffled = new Float64Array(golden.rowCount * order.length);
    for (let r = 0; r < golden.rowCount; r++) {
      order.forEach((name, c) => {
        const f = features.indexOf(name);
        shuffled[r * order.length + c] = f < 0 ? 12345 : golden.rows[r * 7 + f];
      });
    }
    expect(Array.from(predict(model, shuffled, order))).toEqual(Array.from(predict(model, golden.rows)));
    expect(() => predict(model, shuffled, ["x1", "x1", ...order.slice(2)])).toThrow(/"x1" appears twice/);
  });

  it("handles batches larger than one WASM chunk and an empty batch", async () => {
    const model = await loadModel(lgbText);
    const big = new Float64Array(golden.rows.length * 11);
    for (let k = 0; k < 11; k++) big.set(golden.rows, k * golden.rows.length);
    const ours = predict(model, big);
    expect(ours.length).toBe(11_000);
    // The TypeScript evaluator takes each row alone: the eleven copies' margins are the golden rows' eleven times.
    const once = predictTs(parseModel(lgbText), golden.rows);
    const same = ours.every((value, i) => Object.is(value, once[i % once.length]));
    if (!same) expect(Array.from(ours)).toEqual(Array.from({ length: 11 }, () => Array.from(once)).flat());
    expect(predict(model, new Float64Array(0)).length).toBe(0);
    expect(predict(model, []).length).toBe(0);
  });

  it("keeps several loaded models apart", async () => {
    const [xgb, lgb] = await Promise.all([loadModel(xgbText), loadModel(lgbText)]);
    const xgbFirst = predict(xgb, golden.rows);
    const lgbFirst = predict(lgb, golden.rows);
    expect(Array.from(predict(xgb, golden.rows))).toEqual(Array.from(xgbFirst));
    expect(Array.from(predict(lgb, golden.rows))).toEqual(Array.from(lgbFirst));
    expect(xgbFirst[0]).not.toBe(lgbFirst[0]);
    expect(xgb.wasm.memoryBytes).toBeGreaterThan(0);
  });
});

describe("the WASM core against the TypeScript evaluator", () => {
  // Golden rows plus infinities, so that +/-inf data meets the core's NaN-as-infinity rows.
  const rows = Float64Array.from(golden.rows);
  for (let i = 0; i < rows.length; i += 97) rows[i] = i % 2 ? Infinity : -Infinity;

  // Both engines: the one the model gets by default (QuickScorer where it can) and the walk.
  async function agree(model: ParsedModel): Promise<void> {
    const expected = Array.from(predictTs(model, rows));
    for (const engine of [undefined, "walk"] as const) {
      expect(Array.from(predict(await loadModel(model, { engine }), rows))).toEqual(expected);
    }
  }

  it("agrees at every batch size around the walk's groups of eight rows and its blocks", async () => {
    // XGBoost's trees are walked to their full depth, LightGBM's stop when all eight rows of a
    // group sit on leaves; a short last group and block edges take their own code.
    const width = features.length;
    const many = new Float64Array(5000 * width);
    for (let at = 0; at < many.length; at += rows.length) many.set(rows.subarray(0, Math.min(rows.length, many.length - at)), at);
    for (const text of [xgbText, lgbText]) {
      const parsed = parseModel(text);
      // QuickScorer's groups of four rows have their own short last group.
      const models = [await loadModel(parsed, { engine: "walk" }), await loadModel(parsed, { engine: "quickscorer" })];
      const counts = [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 2047, 2048, 2049, 4095, 4096, 4097];
      // The TypeScript evaluator takes each row alone: a batch's expected margins are those of its rows
      // in one evaluation of the rows both starts reach.
      const starts = [0, 3];
      const all = predictTs(parsed, many.subarray(0, (Math.max(...starts) + Math.max(...counts)) * width));
      for (const start of starts) {
        for (const count of counts) {
          const batch = many.subarray(start * width, (start + count) * width);
          const expected = all.subarray(start, start + count);
          for (const model of models) {
            const got = predict(model, batch);
            // Compared number by number (as toEqual does, NaN equal to NaN), the whole arrays shown on a difference.
            const same = got.length === count && got.every((value, i) => Object.is(value, expected[i]));
            if (!same) expect(Array.from(got), `${count} rows from row ${start}`).toEqual(Array.from(expected));
          }
        }
      }
    }
  }, 120_000);

  it("agrees when a split has an infinite threshold (the full step)", async () => {
    for (const text of [xgbText, lgbText]) {
      const model = parseModel(text);
      const splits = model.forest.nodeFlags.reduce<number[]>((all, flags, i) => (flags & LEAF ? all : [...all, i]), []);
      model.forest.nodeThreshold[splits[3]] = Infinity;
      model.forest.nodeThreshold[splits[40]] = -Infinity;
      await agree(model);
    }
  });

  it("agrees for XGBoost trees of depth 4 or less (the vectorised walk) at every batch size around its groups of four rows", async () => {
    // Trees of depth 1 to 4, some with leaves above the last level, NaN sent left at every other split.
    const width = features.length;
    let next = 0;
    const grow = (depth: number): RawNode => {
      next++;
      if (depth === 0 || next % 7 === 0) return { kind: "leaf", value: Math.fround(((next % 13) - 6) / 64) };
      const feature = next % width;
      const threshold = golden.rows[((next * 31) % (golden.rows.length / width)) * width + feature];
      return {
        kind: "split",
        feature,
        flags: next % 2,
        threshold: Number.isNaN(threshold) ? 0.5 : threshold,
        left: grow(depth - 1),
        right: grow(depth - 1),
      };
    };
    const model = parseModel(xgbText);
    const trees = Array.from({ length: 40 }, (_, t) => grow(1 + (t % 4)));
    model.forest = flattenForest(trees, { ...model.forest, numFeatures: width });
    model.numTrees = trees.length;
    const many = new Float64Array(600 * width);
    for (let at = 0; at < many.length; at += rows.length) many.set(rows.subarray(0, Math.min(rows.length, many.length - at)), at);
    const walk = await loadModel(model, { engine: "walk" });
    const all = predictTs(model, many);
    for (const count of [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 599, 600]) {
      const got = predict(walk, many.subarray(0, count * width));
      expect(Array.from(got), `${count} rows`).toEqual(Array.from(all.subarray(0, count)));
    }
  });

  it("agrees for XGBoost trees too deep for the perfect-tree walk (the node records)", async () => {
    // Paths of 12 splits, past the depth the walk lays out as complete trees; shallow branches beside them.
    const deep = (level: number, feature: number): RawNode => {
      const threshold = Math.fround(golden.rows[level * 37 * features.length + feature]) || 0.5;
      if (level === 12) return { kind: "leaf", value: Math.fround(level / 100) };
      return {
        kind: "split",
        feature,
        flags: level % 2,
        threshold,
        left: deep(level + 1, (feature + 3) % features.length),
        right: { kind: "leaf", value: Math.fround(-level / 50) },
      };
    };
    const model = parseModel(xgbText);
    model.forest = flattenForest([deep(0, 0), deep(0, 4)], { ...model.forest, numFeatures: features.length });
    model.numTrees = 2;
    await agree(model);
  });

  it("agrees for flag combinations no reader produces (the generic step)", async () => {
    const xgbWithLessOrEqual = parseModel(xgbText);
    xgbWithLessOrEqual.forest.leftWhenEqual = true;
    await agree(xgbWithLessOrEqual);
    const lgbInFloat = parseModel(lgbText);
    lgbInFloat.forest.float32 = true;
    await agree(lgbInFloat);
  });
});

describe("readFeatureCsv", () => {
  it("reads empty cells and NaN as missing and names the line and column of a bad cell", () => {
    const { rows, rowCount } = readFeatureCsv("id,b,a\n1,,2\n2,NaN,3.5e1\n\n", ["a", "b"]);
    expect(rowCount).toBe(2);
    expect(Array.from(rows)).toEqual([2, NaN, 35, NaN]);
    expect(() => readFeatureCsv("a,b\n1,2\n3,x\n", ["a", "b"])).toThrow("CSV, строка 3, столбец b: «x» — не число");
    expect(() => readFeatureCsv("a,b\n1\n", ["a", "b"])).toThrow("CSV, строка 2, столбец b: в строке всего 1 ячеек");
    expect(() => readFeatureCsv("a,c\n1,2\n", ["a", "b"])).toThrow("В заголовке CSV нет столбцов признаков b (модель использует a, b)");
  });

  it("keeps a row of empty cells as a row of missing values, so the predictions line up with the rows", () => {
    const { rows, rowCount, emptyRows } = readFeatureCsv("a,b\n1,2\n,\n\n3,4\n", ["a", "b"]);
    expect(rowCount).toBe(3);
    expect(Array.from(rows)).toEqual([1, 2, NaN, NaN, 3, 4]);
    expect(emptyRows).toEqual([1]);
  });

  it("reads «;» and tab files as the product does, with decimal commas", () => {
    for (const text of ["id;a;b\n1;1,5;2\n2;;3,25e1\n", "id\ta\tb\n1\t1,5\t2\n2\t\t3,25e1\n"]) {
      const { rows, rowCount } = readFeatureCsv(text, ["a", "b"]);
      expect(rowCount).toBe(2);
      expect(Array.from(rows)).toEqual([1.5, 2, NaN, 32.5]);
    }
  });

  it("refuses more rows than asked as soon as it reaches them", () => {
    const text = `a\n${"1\n".repeat(11)}`;
    expect(readFeatureCsv(text, ["a"], { maxRows: 11 }).rowCount).toBe(11);
    expect(() => readFeatureCsv(text, ["a"], { maxRows: 10, tooMany: "больше 10" })).toThrow("больше 10");
  });

  it("reads quoted fields with commas, quotes and line breaks as one cell (RFC 4180)", () => {
    const text = 'mine,a,b\n"Шахта ""Северная"", участок 1",1,2\n"two\nlines",3,4\n';
    const { rows, rowCount } = readFeatureCsv(text, ["a", "b"]);
    expect(rowCount).toBe(2);
    expect(Array.from(rows)).toEqual([1, 2, 3, 4]);
    // The line named is where the record starts, counting the line break inside the quotes.
    expect(() => readFeatureCsv(text + '"x",5,oops\n', ["a", "b"])).toThrow("CSV, строка 5, столбец b: «oops» — не число");
  });
});
