// npm run --silent gbdt -- predict --model FILE --csv FILE
//   One prediction per CSV data row on stdout, as the shortest string that reads back to the same
//   double. The model format (XGBoost JSON / LightGBM text) is detected from the content.
// npm run --silent gbdt -- info --model FILE
//   The model's library, version, objective, features, number of trees, and the engine predict
//   runs it on (QuickScorer or the tree walk) with the reason.
// Errors go to stderr, exit code 1 (2 for bad usage).
import { readFileSync } from "node:fs";
import { readFeatureCsv } from "./gbdt/csv";
import { chooseEngine, loadModel, parseModel, predict } from "./gbdt/index";

const USAGE = "usage: gbdt predict --model FILE --csv FILE\n       gbdt info --model FILE";

class UsageError extends Error {}

function options(args: string[]): Map<string, string> {
  const result = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i];
    const value = args[i + 1];
    if (!key.startsWith("--") || value === undefined) throw new UsageError(`unexpected argument "${key}"`);
    result.set(key.slice(2), value);
  }
  return result;
}

function required(opts: Map<string, string>, key: string): string {
  const value = opts.get(key);
  if (value === undefined) throw new UsageError(`--${key} is required`);
  return value;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (cause) {
    throw new Error(`cannot read ${what} ${path}: ${(cause as Error).message}`);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const opts = options(rest);
  if (command === "info") {
    const model = parseModel(readText(required(opts, "model"), "model"));
    const { library, version, objective, featureNames, numTrees } = model;
    // The engine predict runs this model on (QuickScorer or the tree walk) and why.
    const { engine, reason: engineReason } = chooseEngine(model.forest);
    process.stdout.write(JSON.stringify({ library, version, objective, featureNames, numTrees, engine, engineReason }, null, 2) + "\n");
  } else if (command === "predict") {
    const modelPath = required(opts, "model");
    const csvPath = required(opts, "csv");
    const model = await loadModel(readText(modelPath, "model"));
    const { rows } = readFeatureCsv(readText(csvPath, "CSV"), model.featureNames);
    const predictions = predict(model, rows);
    // String(double) is the shortest round-trip representation.
    process.stdout.write(predictions.length > 0 ? Array.from(predictions, String).join("\n") + "\n" : "");
  } else {
    throw new UsageError(command === undefined ? "no command" : `unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`gbdt: ${error.message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`gbdt: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
});
