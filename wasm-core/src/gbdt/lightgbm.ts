// Reader for LightGBM's text model format (Booster.save_model / CLI output_model, "version=v4";
// v3 reads the same). See MODEL_FORMATS.md for the subset we accept.
import { flattenForest, type RawNode } from "./flatten";
import { CATEGORICAL, DEFAULT_LEFT, MISSING_NONE, MISSING_ZERO, type OutputTransform, type ParsedModel } from "./model";

function fail(message: string): never {
  throw new Error(`LightGBM model: ${message}`);
}

type Block = Map<string, string>;

/** key=value lines; only the first '=' separates (feature names may contain '='). */
function readLine(block: Block, line: string): void {
  const eq = line.indexOf("=");
  if (eq < 0) block.set(line.trim(), "");
  else block.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
}

// LightGBM prints doubles with fmt ("%.17g" style), which spells infinities "inf".
function parseNumber(token: string): number {
  const lower = token.toLowerCase();
  if (lower === "inf" || lower === "+inf" || lower === "infinity") return Infinity;
  if (lower === "-inf" || lower === "-infinity") return -Infinity;
  const value = Number(token);
  if (token === "" || Number.isNaN(value)) return NaN;
  return value;
}

function numbers(block: Block, key: string, count: number, where: string, integer = false): number[] {
  const raw = block.get(key);
  if (raw === undefined) fail(`${where} lacks ${key}`);
  const values = raw === "" ? [] : raw.split(/\s+/).map(parseNumber);
  if (values.length !== count) fail(`${where}: ${key} has ${values.length} values, expected ${count}`);
  values.forEach((v, i) => {
    if (Number.isNaN(v) || (integer && !Number.isInteger(v))) fail(`${where}: ${key}[${i}] is not a number`);
  });
  return values;
}

function readObjective(line: string | undefined): OutputTransform {
  if (line === undefined) fail("no objective line (custom objectives are not supported)");
  const [name, ...options] = line.split(/\s+/);
  switch (name) {
    case "regression":
    case "regression_l1":
    case "huber":
    case "fair":
    case "quantile":
    case "mape":
      // RegressionL2loss and its subclasses: "sqrt" means the model predicts sqrt(y).
      return options.includes("sqrt") ? { kind: "signed-square" } : { kind: "identity" };
    case "poisson":
    case "gamma":
    case "tweedie":
      return { kind: "exp" };
    case "binary": {
      const option = options.find((o) => o.startsWith("sigmoid:"));
      const scale = option === undefined ? 1 : Number(option.slice("sigmoid:".length));
      if (!(scale > 0)) fail(`bad sigmoid in objective "${line}"`);
      return { kind: "sigmoid", scale };
    }
    case "cross_entropy":
      return { kind: "sigmoid", scale: 1 };
    default:
      fail(`objective "${line}" is not supported`);
  }
}

function readTree(block: Block, index: number, numFeatures: number): RawNode {
  const where = `Tree=${index}`;
  const [numLeaves] = numbers(block, "num_leaves", 1, where, true);
  const [numCat] = block.has("num_cat") ? numbers(block, "num_cat", 1, where, true) : [0];
  if (numLeaves < 1) fail(`${where}: num_leaves=${numLeaves}`);
  const leafValue = numbers(block, "leaf_value", numLeaves, where);
  const isLinear = block.has("is_linear") && numbers(block, "is_linear", 1, where, true)[0] !== 0;

  const linearLeaf = (() => {
    if (!isLinear) return () => undefined;
    const constants = numbers(block, "leaf_const", numLeaves, where);
    const counts = numbers(block, "num_features", numLeaves, where, true);
    const starts: number[] = [];
    let total = 0;
    for (const count of counts) {
      starts.push(total);
      total += count;
    }
    const features = total > 0 ? numbers(block, "leaf_features", total, where, true) : [];
    const coeffs = total > 0 ? numbers(block, "leaf_coeff", total, where) : [];
    for (const f of features) if (f < 0 || f >= numFeatures) fail(`${where}: linear leaf uses feature ${f}`);
    return (j: number) => ({
      constant: constants[j],
      features: features.slice(starts[j], starts[j] + counts[j]),
      coeffs: coeffs.slice(starts[j], starts[j] + counts[j]),
    });
  })();
  const leaf = (j: number): RawNode => ({ kind: "leaf", value: leafValue[j], linear: linearLeaf(j) });
  if (numLeaves === 1) return leaf(0);

  const n = numLeaves - 1;
  const feature = numbers(block, "split_feature", n, where, true);
  const threshold = numbers(block, "threshold", n, where);
  const decision = block.has("decision_type") ? numbers(block, "decision_type", n, where, true) : new Array<number>(n).fill(0);
  const left = numbers(block, "left_child", n, where, true);
  const right = numbers(block, "right_child", n, where, true);
  const catBoundaries = numCat > 0 ? numbers(block, "cat_boundaries", numCat + 1, where, true) : [];
  const catThreshold = numCat > 0 ? numbers(block, "cat_threshold", catBoundaries[numCat], where, true) : [];

  let visited = 0;
  const build = (child: number): RawNode => {
    if (++visited > 2 * numLeaves) fail(`${where}: child links form a cycle`);
    if (child < 0) {
      const j = ~child;
      if (j >= numLeaves) fail(`${where}: bad leaf index ${j}`);
      return leaf(j);
    }
    if (child >= n) fail(`${where}: bad node index ${child}`);
    const f = feature[child];
    if (f < 0 || f >= numFeatures) fail(`${where} splits on feature ${f}, the model has ${numFeatures} features`);
    const type = decision[child];
    if (type & 1) {
      const cat = threshold[child];
      if (!Number.isInteger(cat) || cat < 0 || cat >= numCat) fail(`${where}: bad categorical split index ${cat}`);
      const words = catThreshold.slice(catBoundaries[cat], catBoundaries[cat + 1]);
      return {
        kind: "split",
        feature: f,
        flags: CATEGORICAL,
        threshold: cat,
        categories: Uint32Array.from(words),
        left: build(left[child]),
        right: build(right[child]),
      };
    }
    // decision_type bit 1 is default-left, bits 2-3 the missing type: 0 None, 1 Zero, 2 NaN.
    const missingType = (type >> 2) & 3;
    if (missingType === 3) fail(`${where}: unknown missing type in decision_type ${type}`);
    const flags = (type & 2 ? DEFAULT_LEFT : 0) | (missingType === 1 ? MISSING_ZERO : 0) | (missingType === 0 ? MISSING_NONE : 0);
    return { kind: "split", feature: f, flags, threshold: threshold[child], left: build(left[child]), right: build(right[child]) };
  };
  return build(0);
}

export function readLightGBMText(text: string): ParsedModel {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "tree") fail('the first line is not "tree"');
  const header: Block = new Map();
  let i = 1;
  for (; i < lines.length && !lines[i].startsWith("Tree=") && lines[i].trim() !== "end of trees"; i++) {
    if (lines[i].trim() !== "") readLine(header, lines[i]);
  }

  const version = header.get("version") ?? "";
  if (version !== "v4" && version !== "v3") fail(`format version "${version}" is not supported (v3 or v4)`);
  const numClass = Number(header.get("num_class") ?? "1");
  if (numClass !== 1) fail(`multiclass models (num_class=${numClass}) are not supported`);
  const perIteration = Number(header.get("num_tree_per_iteration") ?? "1");
  if (perIteration !== 1) fail(`num_tree_per_iteration=${perIteration} is not supported`);
  if (header.has("average_output")) fail("average_output (random forest boosting) is not supported");
  const numFeatures = Number(header.get("max_feature_idx")) + 1;
  if (!Number.isInteger(numFeatures) || numFeatures < 1) fail("max_feature_idx is missing");
  const featureNames = (header.get("feature_names") ?? "").split(/\s+/).filter((s) => s !== "");
  if (featureNames.length !== numFeatures) {
    fail(`${featureNames.length} feature names for max_feature_idx=${numFeatures - 1}`);
  }
  const objective = header.get("objective");
  const output = readObjective(objective);

  const blocks: Block[] = [];
  let ended = false;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "end of trees") {
      ended = true;
      break;
    }
    if (line.startsWith("Tree=")) {
      if (Number(line.slice(5)) !== blocks.length) fail(`expected Tree=${blocks.length}, found ${line}`);
      blocks.push(new Map());
    } else if (line !== "") {
      if (blocks.length === 0) fail(`unexpected line before the first tree: ${line.slice(0, 60)}`);
      readLine(blocks[blocks.length - 1], line);
    }
  }
  if (!ended) fail('no "end of trees" line: the file is truncated');
  const sizes = header.get("tree_sizes");
  if (sizes !== undefined && sizes.split(/\s+/).filter(Boolean).length !== blocks.length) {
    fail(`tree_sizes lists ${sizes.split(/\s+/).length} trees, the file has ${blocks.length}`);
  }

  const trees = blocks.map((block, t) => readTree(block, t, numFeatures));
  return {
    library: "lightgbm",
    version,
    objective: objective!,
    horizon: 0,
    featureNames,
    numTrees: trees.length,
    output,
    forest: flattenForest(trees, { numFeatures, float32: false, leftWhenEqual: true, baseMargin: 0 }),
  };
}
