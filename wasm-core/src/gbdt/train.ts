// Training of gradient-boosted regression trees in the WASM core (wasm-core/assembly/gbdt-train.ts),
// exported as XGBoost 1.7's own JSON model, which the product's reader (xgboost.ts) and the real
// library (`xgboost.Booster(model_file=...)`) load and predict identically. Platform-neutral: the
// Node and browser facades (index.ts, browser.ts) pass the compiled module. MODEL_FORMATS.md beside
// this file («Models we train») describes the algorithm, the parameters and what is checked.
/** Training parameters, named as XGBoost names them. */
export interface TrainParams {
  n_estimators: number;
  max_depth: number;
  learning_rate: number;
  reg_lambda: number;
  min_child_weight: number;
  gamma: number;
  subsample: number;
  colsample_bytree: number;
  max_bin: number;
  seed: number;
  objective: TrainObjective;
  /** Pseudo-Huber's delta (XGBoost `huber_slope`). */
  huber_slope: number;
  /** Share of the rows held out for validation: the latest by `t` when given, else drawn by `seed`. 0: none. */
  validation_fraction: number;
  /** Stop when the validation error has not improved for this many rounds (0: never); the model keeps the best round's trees. */
  early_stopping_rounds: number;
  /** XGBoost's monotone_constraints by feature name: 1 the forecast never falls as the feature grows,
   *  −1 never rises (the air flow x1), 0 or absent free. */
  monotone_constraints?: Record<string, -1 | 0 | 1>;
}

export const TRAIN_OBJECTIVES = ["reg:squarederror", "reg:pseudohubererror"] as const;
export type TrainObjective = (typeof TRAIN_OBJECTIVES)[number];

export const DEFAULT_TRAIN_PARAMS: TrainParams = {
  n_estimators: 300,
  max_depth: 6,
  learning_rate: 0.1,
  reg_lambda: 1,
  min_child_weight: 1,
  gamma: 0,
  subsample: 1,
  colsample_bytree: 1,
  max_bin: 256,
  seed: 1,
  objective: "reg:squarederror",
  huber_slope: 1,
  validation_fraction: 0.2,
  early_stopping_rounds: 20,
};

/** Each numeric parameter's allowed range (inclusive) and whether it is an integer. */
export const TRAIN_PARAM_LIMITS: Record<
  Exclude<keyof TrainParams, "objective" | "monotone_constraints">,
  { min: number; max: number; integer?: true; above?: true }
> = {
  n_estimators: { min: 1, max: 2000, integer: true },
  max_depth: { min: 0, max: 10, integer: true },
  learning_rate: { min: 0, max: 1, above: true },
  reg_lambda: { min: 0, max: 1e6 },
  min_child_weight: { min: 0, max: 1e6 },
  gamma: { min: 0, max: 1e6 },
  subsample: { min: 0, max: 1, above: true },
  colsample_bytree: { min: 0, max: 1, above: true },
  max_bin: { min: 2, max: 256, integer: true },
  seed: { min: 0, max: 2 ** 31 - 1, integer: true },
  huber_slope: { min: 0, max: 1e6, above: true },
  validation_fraction: { min: 0, max: 0.5 },
  early_stopping_rounds: { min: 0, max: 1000, integer: true },
};

/** The most nodes a model's trees may have, n_estimators × (2^(max_depth + 1) − 1): a trained
 *  model's file is about 26 bytes a node, so this keeps it near 13 MB (2 000 trees of depth 10 would
 *  be 4 094 000 nodes, 107 MB). */
export const MAX_MODEL_NODES = 500_000;

/** The most nodes trees of `depth` can have, `trees` of them. */
export const modelNodes = (trees: number, depth: number) => trees * (2 ** (depth + 1) - 1);

/** Fewest rows a model is trained on, and the most (the server and the browser alike). */
export const MIN_TRAINING_ROWS = 20;
export const MAX_TRAINING_ROWS = 200_000;

/** A problem with the data or the parameters, in the user's words (the API answers it with 400). */
export class TrainingInputError extends Error {}

/** Training was stopped by its AbortSignal. */
export class TrainingCancelled extends Error {
  constructor() {
    super("Обучение отменено");
  }
}

export interface TrainingData {
  featureNames: readonly string[];
  /** Row-major, featureNames.length values per row; NaN is a missing value. */
  rows: Float64Array;
  y: Float64Array;
  /** The rows' times (any increasing numbers: epoch ms, step numbers): validation takes the latest rows. */
  t?: Float64Array | null;
}

export interface RoundInfo {
  round: number;
  rounds: number;
  train_rmse: number;
  valid_rmse: number | null;
}

export interface TrainOptions {
  onRound?: (info: RoundInfo) => void;
  signal?: AbortSignal;
  /** Written into the model's `learner.attributes` (strings only), e.g. the training summary. */
  attributes?: Record<string, string>;
}

export interface FeatureImportance {
  feature: string;
  /** Sum of the loss reductions of the feature's splits (XGBoost "total_gain"). */
  total_gain: number;
  /** Per split (XGBoost "gain"). */
  gain: number;
  splits: number;
  /** total_gain over all features' total_gain. */
  share: number;
}

export interface TrainResult {
  /** The model as XGBoost 1.7 JSON. */
  json: string;
  params: TrainParams;
  base_score: number;
  num_trees: number;
  /** Rounds trained (the model keeps the best one's trees when early stopping). */
  rounds: RoundInfo[];
  best_round: number;
  train_rmse: number;
  valid_rmse: number | null;
  importance: FeatureImportance[];
  train_rows: number;
  /** Indices (into the input rows) of the validation rows (all held out from the trees), in input order. */
  validation_rows: number[];
  /** Of them, those that chose the number of trees (early stopping; none without it), in input order. */
  stopping_rows: number[];
  /** Of them, those neither trained on nor used to stop: the rows to calibrate on, in input order. */
  calibration_rows: number[];
  seconds: number;
}

interface TrainExports {
  memory: WebAssembly.Memory;
  newU16Array(length: number): number;
  newF32Array(length: number): number;
  newI32Array(length: number): number;
  setData(features: number, bins: number, y: number, vBins: number, vY: number, binsPerFeature: number): void;
  setParams(
    depth: number,
    eta: number,
    lambda: number,
    minChild: number,
    gamma: number,
    objective: number,
    slope: number,
    base: number,
  ): void;
  rowIndexBuffer(): number;
  featureMaskBuffer(): number;
  monotoneBuffer(): number;
  growTree(rows: number): number;
  rmse(which: number): number;
  treeFeature(): number;
  treeSplitBin(): number;
  treeDefaultLeft(): number;
  treeLeft(): number;
  treeRight(): number;
  treeParent(): number;
  treeWeight(): number;
  treeLeaf(): number;
  treeLoss(): number;
  treeHess(): number;
}

const MISSING_BIN = 0xffff;
const f32 = Math.fround;
const ru = (value: number, digits = 6) => value.toLocaleString("ru-RU", { maximumFractionDigits: digits }).replace(/\s/g, " ");

/** Parameters from user input (strings or numbers by XGBoost's names), checked; unknown names refused. */
export function trainParams(input: Partial<Record<keyof TrainParams, unknown>> = {}): TrainParams {
  const params: TrainParams = { ...DEFAULT_TRAIN_PARAMS };
  for (const [key, raw] of Object.entries(input)) {
    if (raw === undefined || raw === "") continue;
    if (key === "objective") {
      if (!(TRAIN_OBJECTIVES as readonly unknown[]).includes(raw)) {
        throw new TrainingInputError(`objective: допустимы ${TRAIN_OBJECTIVES.join(", ")}`);
      }
      params.objective = raw as TrainObjective;
      continue;
    }
    if (key === "monotone_constraints") {
      params.monotone_constraints = monotoneConstraints(raw);
      continue;
    }
    // Its own names only: `__proto__`, `constructor` or `toString` are no parameter.
    if (!Object.hasOwn(TRAIN_PARAM_LIMITS, key)) throw new TrainingInputError(`${key}: неизвестный параметр обучения`);
    const limits = TRAIN_PARAM_LIMITS[key as keyof typeof TRAIN_PARAM_LIMITS];
    const value = typeof raw === "number" ? raw : Number(String(raw).trim().replace(",", "."));
    const range = `${limits.above ? "больше" : "от"} ${ru(limits.min)} ${limits.above ? "и не больше" : "до"} ${ru(limits.max)}`;
    if (!Number.isFinite(value) || value < limits.min || value > limits.max || (limits.above && value === limits.min)) {
      throw new TrainingInputError(`${key}: нужно ${limits.integer ? "целое число" : "число"} ${range}`);
    }
    if (limits.integer && !Number.isInteger(value)) throw new TrainingInputError(`${key}: нужно целое число ${range}`);
    (params as unknown as Record<string, number>)[key] = value;
  }
  const nodes = modelNodes(params.n_estimators, params.max_depth);
  if (nodes > MAX_MODEL_NODES) {
    throw new TrainingInputError(
      `n_estimators: ${ru(params.n_estimators)} деревьев глубины ${params.max_depth} — до ${ru(nodes)} узлов, больше предела ` +
        `${ru(MAX_MODEL_NODES)} узлов модели: уменьшите число деревьев (n_estimators) или их глубину (max_depth)`,
    );
  }
  return params;
}

/** monotone_constraints as given: {x1: -1} or its JSON text, each value −1, 0 or 1. */
function monotoneConstraints(raw: unknown): Record<string, -1 | 0 | 1> {
  const refused = () => new TrainingInputError('monotone_constraints: ожидается {"признак": -1, 0 или 1}, например {"x1": -1}');
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw refused();
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw refused();
  const out: Record<string, -1 | 0 | 1> = {};
  for (const [name, c] of Object.entries(value)) {
    if (c !== -1 && c !== 0 && c !== 1) throw refused();
    out[name] = c;
  }
  return out;
}

/** mulberry32: a small seeded generator, the same numbers on every machine (the validation draw,
 *  subsample and colsample_bytree; the generated longwall history of the tests). Its state is a
 *  counter: `skip` starts it where `skip` draws would have left it (the demo's simulator resumes at
 *  a minute, demo-readings.ts). */
export function seeded(seed: number, skip = 0): () => number {
  let state = (seed + Math.imul(skip, 0x6d2b79f5)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/** Checks the data a model is trained on; every message names the column and says what to fix. */
export function checkTrainingData(data: TrainingData): void {
  const width = data.featureNames.length;
  const count = data.y.length;
  if (width === 0) throw new TrainingInputError("В данных нет ни одного признака: нужны столбцы признаков и целевой столбец y");
  if (data.rows.length !== count * width) throw new TrainingInputError("Число значений признаков не совпадает с числом строк");
  if (count < MIN_TRAINING_ROWS) {
    throw new TrainingInputError(`Для обучения нужно не меньше ${MIN_TRAINING_ROWS} строк, в данных ${ru(count)}`);
  }
  if (count > MAX_TRAINING_ROWS) {
    throw new TrainingInputError(`Для обучения допускается не больше ${ru(MAX_TRAINING_ROWS)} строк, в данных ${ru(count)}`);
  }
  let min = Infinity;
  let max = -Infinity;
  for (let r = 0; r < count; r++) {
    const y = data.y[r];
    if (!Number.isFinite(y)) throw new TrainingInputError(`y: в строке ${r + 1} нет числового значения целевой величины`);
    min = Math.min(min, y);
    max = Math.max(max, y);
  }
  if (f32(min) === f32(max)) {
    throw new TrainingInputError(`y: целевая величина во всех строках одна и та же (${ru(min)}): модели нечему учиться`);
  }
  for (let i = 0; i < data.rows.length; i++) {
    const x = data.rows[i];
    if (x === Infinity || x === -Infinity || (Number.isFinite(x) && !Number.isFinite(f32(x)))) {
      throw new TrainingInputError(
        `${data.featureNames[i % width]}: в строке ${Math.floor(i / width) + 1} значение вне диапазона чисел float32`,
      );
    }
  }
  if (data.t) {
    if (data.t.length !== count) throw new TrainingInputError("t: число отметок времени не совпадает с числом строк");
    const bad = data.t.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new TrainingInputError(`t: в строке ${bad + 1} нет отметки времени`);
  }
}

/** The held-out rows split for early stopping: the earlier half by t (the first half drawn without t) stops,
 *  the rest is for the calibration; without early stopping all of them are both (no choice is made on them). */
function stoppingRows(held: number[], data: TrainingData, params: TrainParams): { stop: number[]; calibration: number[] } {
  if (params.early_stopping_rounds === 0 || held.length < 2)
    return { stop: held, calibration: params.early_stopping_rounds === 0 ? held : [] };
  const t = data.t;
  const order = t ? [...held].sort((a, b) => t[a] - t[b] || a - b) : held;
  const stopSet = new Set(order.slice(0, order.length >> 1));
  return { stop: held.filter((i) => stopSet.has(i)), calibration: held.filter((i) => !stopSet.has(i)) };
}

/** Training and validation rows: the latest `fraction` by t, else a seeded draw; both in input order. */
function splitRows(data: TrainingData, params: TrainParams): { train: number[]; valid: number[] } {
  const count = data.y.length;
  const all = Array.from({ length: count }, (_, i) => i);
  const held = params.validation_fraction > 0 ? Math.max(1, Math.round(count * params.validation_fraction)) : 0;
  if (held === 0) return { train: all, valid: [] };
  let order: number[];
  if (data.t) {
    const t = data.t;
    order = [...all].sort((a, b) => t[a] - t[b] || a - b);
  } else {
    order = [...all];
    const next = seeded(params.seed ^ 0x5bd1e995);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
  }
  const validSet = new Set(data.t ? order.slice(count - held) : order.slice(0, held));
  return { train: all.filter((i) => !validSet.has(i)), valid: all.filter((i) => validSet.has(i)) };
}

interface Cuts {
  /** Per feature: ascending float32 cut values; bin b holds cut[b-1] <= x < cut[b]. */
  values: Float32Array[];
  /** Per feature: below every value (XGBoost's min_vals), the threshold that sends every present value right. */
  minValues: number[];
}

/**
 * XGBoost's HistogramCuts from the training rows: every distinct float32 value when there are at
 * most max_bin, else the weighted quantiles; then one value above the largest (max + |max| + 1e-5).
 */
function makeCuts(data: TrainingData, train: number[], maxBin: number): Cuts {
  const width = data.featureNames.length;
  const values: Float32Array[] = [];
  const minValues: number[] = [];
  const column = new Float32Array(train.length);
  for (let f = 0; f < width; f++) {
    let n = 0;
    for (const r of train) {
      const x = data.rows[r * width + f];
      if (!Number.isNaN(x)) column[n++] = x;
    }
    const sorted = column.subarray(0, n).sort();
    const cuts: number[] = [];
    if (n === 0) {
      const mval = f32(1e-5);
      minValues.push(mval);
      cuts.push(f32(mval + f32(Math.abs(mval) + f32(1e-5))));
      values.push(Float32Array.from(cuts));
      continue;
    }
    const distinct: number[] = [];
    for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
    let summary: number[];
    if (distinct.length <= maxBin + 1) {
      summary = distinct;
    } else {
      // max_bin + 1 entries at evenly spaced ranks, first and last included.
      summary = [];
      for (let i = 0; i <= maxBin; i++) summary.push(sorted[Math.round((i * (n - 1)) / maxBin)]);
    }
    const required = Math.min(summary.length, maxBin);
    for (let i = 1; i < required; i++) {
      if (i === 1 || summary[i] > cuts[cuts.length - 1]) cuts.push(summary[i]);
    }
    const first = sorted[0];
    const last = sorted[n - 1];
    minValues.push(f32(first - f32(Math.abs(first) + f32(1e-5))));
    cuts.push(f32(last + f32(Math.abs(last) + f32(1e-5))));
    values.push(Float32Array.from(cuts));
  }
  return { values, minValues };
}

/** Bin of x: the first cut above float32(x) (cuts.length above the last cut), MISSING_BIN for NaN. */
function binOf(cuts: Float32Array, x: number): number {
  if (Number.isNaN(x)) return MISSING_BIN;
  const v = f32(x);
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The shortest decimal that reads back to the same float32 (as XGBoost writes its floats). */
export function floatNumber(value: number): number {
  const v = f32(value);
  if (!Number.isFinite(v) || v === 0) return v === 0 ? 0 : v;
  for (let digits = 1; digits <= 9; digits++) {
    const n = Number(v.toPrecision(digits));
    if (f32(n) === v) return n;
  }
  return v;
}

/** A float in a JSON array: XGBoost reads a number without a point or an exponent as an integer and refuses it. */
function floatJson(value: number): string {
  const text = String(floatNumber(value));
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** XGBoost writes a float parameter such as base_score as "5E-1". */
function floatParamText(value: number): string {
  return String(floatNumber(value)).toUpperCase().replace("E+", "E");
}

interface JsonTree {
  base_weights: number[];
  categories: number[];
  categories_nodes: number[];
  categories_segments: number[];
  categories_sizes: number[];
  default_left: number[];
  id: number;
  left_children: number[];
  loss_changes: number[];
  parents: number[];
  right_children: number[];
  split_conditions: number[];
  split_indices: number[];
  split_type: number[];
  sum_hessian: number[];
  tree_param: { num_deleted: string; num_feature: string; num_nodes: string; size_leaf_vector: string };
}

function readTree(core: TrainExports, nodes: number, id: number, cuts: Cuts, width: number): JsonTree {
  const view = <T extends Int32Array | Float32Array | Float64Array | Uint8Array>(
    Kind: new (buffer: ArrayBuffer, offset: number, length: number) => T,
    pointer: number,
  ) => new Kind(core.memory.buffer, pointer, nodes);
  const feature = view(Int32Array, core.treeFeature());
  const splitBin = view(Int32Array, core.treeSplitBin());
  const defaultLeft = view(Uint8Array, core.treeDefaultLeft());
  const left = view(Int32Array, core.treeLeft());
  const right = view(Int32Array, core.treeRight());
  const parent = view(Int32Array, core.treeParent());
  const weight = view(Float64Array, core.treeWeight());
  const leaf = view(Float32Array, core.treeLeaf());
  const loss = view(Float32Array, core.treeLoss());
  const hess = view(Float64Array, core.treeHess());
  const tree: JsonTree = {
    base_weights: [],
    categories: [],
    categories_nodes: [],
    categories_segments: [],
    categories_sizes: [],
    default_left: [],
    id,
    left_children: [],
    loss_changes: [],
    parents: [],
    right_children: [],
    split_conditions: [],
    split_indices: [],
    split_type: [],
    sum_hessian: [],
    tree_param: { num_deleted: "0", num_feature: String(width), num_nodes: String(nodes), size_leaf_vector: "0" },
  };
  for (let n = 0; n < nodes; n++) {
    const isLeaf = left[n] === -1;
    const f = isLeaf ? 0 : feature[n];
    tree.base_weights.push(floatNumber(weight[n]));
    tree.default_left.push(isLeaf ? 0 : defaultLeft[n]);
    tree.left_children.push(left[n]);
    tree.right_children.push(right[n]);
    tree.loss_changes.push(isLeaf ? 0 : floatNumber(loss[n]));
    tree.parents.push(n === 0 ? 2147483647 : parent[n]);
    tree.split_conditions.push(floatNumber(isLeaf ? leaf[n] : splitBin[n] >= 0 ? cuts.values[f][splitBin[n]] : cuts.minValues[f]));
    tree.split_indices.push(f);
    tree.split_type.push(0);
    tree.sum_hessian.push(floatNumber(hess[n]));
  }
  return tree;
}

function modelJson(
  data: TrainingData,
  params: TrainParams,
  baseScore: number,
  trees: JsonTree[],
  attributes: Record<string, string>,
): string {
  const width = data.featureNames.length;
  const objective =
    params.objective === "reg:pseudohubererror"
      ? { name: params.objective, pseudo_huber_param: { huber_slope: floatParamText(params.huber_slope) } }
      : { name: params.objective, reg_loss_param: { scale_pos_weight: "1" } };
  const doc = {
    learner: {
      attributes,
      feature_names: [...data.featureNames],
      feature_types: data.featureNames.map(() => "float"),
      gradient_booster: {
        model: {
          gbtree_model_param: { num_parallel_tree: "1", num_trees: String(trees.length), size_leaf_vector: "0" },
          tree_info: trees.map(() => 0),
          trees: "@trees@",
        },
        name: "gbtree",
      },
      learner_model_param: {
        base_score: floatParamText(baseScore),
        boost_from_average: "1",
        num_class: "0",
        num_feature: String(width),
        num_target: "1",
      },
      objective,
    },
    version: [1, 7, 4],
  };
  // The trees' float arrays are written by floatJson; everything else by JSON.stringify.
  const floats = (values: number[]) => `[${values.map(floatJson).join(",")}]`;
  const treeText = (tree: JsonTree) =>
    `{"base_weights":${floats(tree.base_weights)},"categories":[],"categories_nodes":[],"categories_segments":[],` +
    `"categories_sizes":[],"default_left":${JSON.stringify(tree.default_left)},"id":${tree.id},` +
    `"left_children":${JSON.stringify(tree.left_children)},"loss_changes":${floats(tree.loss_changes)},` +
    `"parents":${JSON.stringify(tree.parents)},"right_children":${JSON.stringify(tree.right_children)},` +
    `"split_conditions":${floats(tree.split_conditions)},"split_indices":${JSON.stringify(tree.split_indices)},` +
    `"split_type":${JSON.stringify(tree.split_type)},"sum_hessian":${floats(tree.sum_hessian)},` +
    `"tree_param":${JSON.stringify(tree.tree_param)}}`;
  return JSON.stringify(doc).replace('"@trees@"', () => `[${trees.map(treeText).join(",")}]`);
}

/**
 * Trains a model on the data with the parameters; the result holds the XGBoost JSON, the error of
 * every round, the feature importance and the validation rows. Throws TrainingInputError for bad
 * data and TrainingCancelled when the signal aborts (checked between rounds).
 */
export async function trainWithModule(
  module: WebAssembly.Module,
  data: TrainingData,
  params: TrainParams,
  options: TrainOptions = {},
): Promise<TrainResult> {
  const started = performance.now();
  checkTrainingData(data);
  const width = data.featureNames.length;
  const { train, valid: held } = splitRows(data, params);
  // with early stopping the held-out rows' earlier half (by t) chooses the number of trees,
  // and the later half is left to calibrate on, seen neither by the trees nor by that choice.
  const { stop: valid, calibration } = stoppingRows(held, data, params);
  if (train.length < MIN_TRAINING_ROWS - Math.round(MIN_TRAINING_ROWS * params.validation_fraction)) {
    throw new TrainingInputError("Для обучения после отделения проверочных строк осталось слишком мало строк");
  }
  let trainMin = Infinity;
  let trainMax = -Infinity;
  let sum = 0;
  for (const r of train) {
    sum += data.y[r];
    trainMin = Math.min(trainMin, data.y[r]);
    trainMax = Math.max(trainMax, data.y[r]);
  }
  if (f32(trainMin) === f32(trainMax)) {
    throw new TrainingInputError(`y: в обучающих строках целевая величина одна и та же (${ru(trainMin)}): модели нечему учиться`);
  }
  // base_score: the mean of the training target, as a float.
  const baseScore = f32(sum / train.length);
  const cuts = makeCuts(data, train, params.max_bin);

  const instance = await WebAssembly.instantiate(module, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`gbdt-train.wasm aborted at ${line}:${column} (out of memory?)`);
      },
    },
  });
  const core = instance.exports as unknown as TrainExports;
  const pointers = {
    bins: core.newU16Array(train.length * width),
    y: core.newF32Array(train.length),
    vBins: core.newU16Array(valid.length * width),
    vY: core.newF32Array(valid.length),
    binsPerFeature: core.newI32Array(width),
  };
  const fill = (pointer: number, rows: number[]) => {
    const out = new Uint16Array(core.memory.buffer, pointer, rows.length * width);
    rows.forEach((r, k) => {
      for (let f = 0; f < width; f++) out[k * width + f] = binOf(cuts.values[f], data.rows[r * width + f]);
    });
  };
  fill(pointers.bins, train);
  fill(pointers.vBins, valid);
  new Float32Array(core.memory.buffer, pointers.y, train.length).set(train.map((r) => data.y[r]));
  new Float32Array(core.memory.buffer, pointers.vY, valid.length).set(valid.map((r) => data.y[r]));
  new Int32Array(core.memory.buffer, pointers.binsPerFeature, width).set(cuts.values.map((c) => c.length));
  core.setData(width, pointers.bins, pointers.y, pointers.vBins, pointers.vY, pointers.binsPerFeature);
  const monotone = new Int8Array(core.memory.buffer, core.monotoneBuffer(), width);
  for (const [name, c] of Object.entries(params.monotone_constraints ?? {})) {
    const f = data.featureNames.indexOf(name);
    if (f < 0) throw new TrainingInputError(`monotone_constraints: нет признака «${name}» среди признаков обучения`);
    monotone[f] = c;
  }
  core.setParams(
    params.max_depth,
    f32(params.learning_rate),
    params.reg_lambda,
    params.min_child_weight,
    params.gamma,
    params.objective === "reg:pseudohubererror" ? 1 : 0,
    f32(params.huber_slope),
    baseScore,
  );

  const next = seeded(params.seed);
  const trees: JsonTree[] = [];
  const rounds: RoundInfo[] = [];
  const gains = new Float64Array(width);
  const splits = new Int32Array(width);
  const treeGains: Float64Array[] = [];
  const treeSplits: Int32Array[] = [];
  const chosen = Math.max(1, Math.floor(params.colsample_bytree * width));
  let best = -1;
  let bestValid = Infinity;
  for (let round = 0; round < params.n_estimators; round++) {
    if (options.signal?.aborted) throw new TrainingCancelled();
    const rowIndex = new Int32Array(core.memory.buffer, core.rowIndexBuffer(), train.length);
    let rows = 0;
    if (params.subsample < 1) {
      for (let r = 0; r < train.length; r++) if (next() < params.subsample) rowIndex[rows++] = r;
    } else {
      for (let r = 0; r < train.length; r++) rowIndex[r] = r;
      rows = train.length;
    }
    const mask = new Uint8Array(core.memory.buffer, core.featureMaskBuffer(), width);
    if (chosen < width) {
      const order = Array.from({ length: width }, (_, f) => f);
      for (let i = width - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      mask.fill(0);
      for (const f of order.slice(0, chosen)) mask[f] = 1;
    } else {
      mask.fill(1);
    }
    const nodes = core.growTree(rows);
    const tree = readTree(core, nodes, round, cuts, width);
    trees.push(tree);
    const tg = new Float64Array(width);
    const ts = new Int32Array(width);
    tree.left_children.forEach((l, n) => {
      if (l === -1) return;
      tg[tree.split_indices[n]] += tree.loss_changes[n];
      ts[tree.split_indices[n]] += 1;
    });
    treeGains.push(tg);
    treeSplits.push(ts);
    const info: RoundInfo = {
      round: round + 1,
      rounds: params.n_estimators,
      train_rmse: core.rmse(0),
      valid_rmse: valid.length > 0 ? core.rmse(1) : null,
    };
    rounds.push(info);
    if (info.valid_rmse !== null && info.valid_rmse < bestValid) {
      bestValid = info.valid_rmse;
      best = round;
    }
    options.onRound?.(info);
    if (valid.length > 0 && params.early_stopping_rounds > 0 && round - best >= params.early_stopping_rounds) break;
    // Let a worker's message loop see a cancel between rounds.
    if (options.signal && round % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const keep = valid.length > 0 && params.early_stopping_rounds > 0 ? best + 1 : trees.length;
  trees.length = keep;
  for (let i = 0; i < keep; i++) {
    for (let f = 0; f < width; f++) {
      gains[f] += treeGains[i][f];
      splits[f] += treeSplits[i][f];
    }
  }
  const totalGain = gains.reduce((a, b) => a + b, 0);
  const attributes: Record<string, string> = { ...options.attributes };
  if (keep < rounds.length) {
    attributes.best_iteration = String(keep - 1);
    attributes.best_ntree_limit = String(keep);
  }
  const json = modelJson(data, params, baseScore, trees, attributes);
  const last = rounds[keep - 1];
  return {
    json,
    params,
    base_score: baseScore,
    num_trees: keep,
    rounds,
    best_round: keep,
    train_rmse: last.train_rmse,
    valid_rmse: last.valid_rmse,
    importance: data.featureNames.map((feature, f) => ({
      feature,
      total_gain: gains[f],
      gain: splits[f] > 0 ? gains[f] / splits[f] : 0,
      splits: splits[f],
      share: totalGain > 0 ? gains[f] / totalGain : 0,
    })),
    train_rows: train.length,
    validation_rows: held,
    stopping_rows: params.early_stopping_rounds > 0 ? valid : [],
    calibration_rows: calibration,
    seconds: (performance.now() - started) / 1000,
  };
}
