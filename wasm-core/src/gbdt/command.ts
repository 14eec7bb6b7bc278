// The commands of `npm run --silent gbdt` (the entry is ../gbdt-cli.ts):
// npm run --silent gbdt -- predict --model FILE --csv FILE
//   One line per CSV data row on stdout: the prediction as the shortest string that reads back to
//   the same double, or an empty line for a row whose feature cells are all empty. The CSV's
//   delimiter is the product's («;», a tab or «,», ./csv.ts). The model format (XGBoost JSON /
//   LightGBM text) is detected from the content.
// npm run --silent gbdt -- info --model FILE
//   The model's library, version, objective, features, number of trees, and the engine predict
//   runs it on (QuickScorer or the tree walk) with the reason.
// npm run --silent gbdt -- train --csv FILE --target y --out model.json [--n_estimators 300 ...]
//   Trains a model in the core on the file's rows (features: every column but the target, id and t;
//   validation: the latest rows by t when the file has it) and writes it as XGBoost 1.7 JSON. Every
//   parameter of MODEL_FORMATS.md («Models we train») by its XGBoost name. The error per round goes
//   to stderr; a summary (rows, rounds, errors, importance) to stdout as JSON.
// Errors go to stderr in Russian, as the product words them, exit code 1 (2 for bad usage).
import { readFileSync, writeFileSync } from "node:fs";
import { readFeatureCsv } from "./csv";
import { chooseEngine, DEFAULT_TRAIN_PARAMS, loadModel, parseModel, predict, trainModel, trainParams } from "./index";
import { readTrainingCsv } from "./train-csv";

const USAGE =
  "как вызывать: gbdt predict --model FILE --csv FILE\n              gbdt info --model FILE\n" +
  `              gbdt train --csv FILE --target y --out model.json [${Object.keys(DEFAULT_TRAIN_PARAMS)
    .map((key) => `--${key} V`)
    .join(" ")}]`;

class UsageError extends Error {}

function options(args: string[]): Map<string, string> {
  const result = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i];
    const value = args[i + 1];
    if (!key.startsWith("--") || value === undefined) throw new UsageError(`неожиданный аргумент «${key}»`);
    result.set(key.slice(2), value);
  }
  return result;
}

function required(opts: Map<string, string>, key: string): string {
  const value = opts.get(key);
  if (value === undefined) throw new UsageError(`нужен параметр --${key}`);
  return value;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (cause) {
    throw new Error(`не удалось прочитать ${what} ${path}: ${(cause as Error).message}`);
  }
}

/** Where a command writes: the process's stdout and stderr, or a test's buffers. */
export interface GbdtOutput {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_OUTPUT: GbdtOutput = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs one command line; resolves to the exit code (2: bad usage, 1: an error). */
export async function gbdtCommand(argv: string[], io: GbdtOutput = PROCESS_OUTPUT): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`gbdt: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    io.err(`gbdt: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function run(argv: string[], io: GbdtOutput): Promise<void> {
  const [command, ...rest] = argv;
  const opts = options(rest);
  if (command === "info") {
    const model = parseModel(readText(required(opts, "model"), "файл модели"));
    const { library, version, objective, featureNames, numTrees } = model;
    // The engine predict runs this model on (QuickScorer or the tree walk) and why.
    const { engine, reason: engineReason } = chooseEngine(model.forest);
    io.out(JSON.stringify({ library, version, objective, featureNames, numTrees, engine, engineReason }, null, 2) + "\n");
  } else if (command === "predict") {
    const modelPath = required(opts, "model");
    const csvPath = required(opts, "csv");
    const model = await loadModel(readText(modelPath, "файл модели"));
    const { rows, emptyRows } = readFeatureCsv(readText(csvPath, "файл CSV"), model.featureNames);
    const predictions = predict(model, rows);
    // String(double) is the shortest round-trip representation; a row with nothing to predict from
    // keeps its line, empty.
    const lines = Array.from(predictions, String);
    for (const r of emptyRows) lines[r] = "";
    io.out(lines.length > 0 ? lines.join("\n") + "\n" : "");
  } else if (command === "train") {
    const csvPath = required(opts, "csv");
    const target = required(opts, "target");
    const out = required(opts, "out");
    const given: Record<string, string> = {};
    for (const [key, value] of opts) if (!["csv", "target", "out"].includes(key)) given[key] = value;
    let params: ReturnType<typeof trainParams>;
    try {
      params = trainParams(given);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const data = readTrainingCsv(readText(csvPath, "файл CSV"), target);
    const result = await trainModel(data, params, {
      onRound: ({ round, rounds, train_rmse, valid_rmse }) => {
        if (round === 1 || round % 50 === 0 || round === rounds) {
          io.err(
            `[${round}/${rounds}] RMSE на обучающих строках ${train_rmse.toPrecision(6)}${valid_rmse === null ? "" : `, на проверочных ${valid_rmse.toPrecision(6)}`}\n`,
          );
        }
      },
    });
    writeFileSync(out, result.json);
    const { json: _json, validation_rows, stopping_rows, calibration_rows, rounds, ...summary } = result;
    io.out(
      JSON.stringify(
        {
          ...summary,
          features: data.featureNames,
          rounds_trained: rounds.length,
          validation_rows: validation_rows.length,
          stopping_rows: stopping_rows.length,
          calibration_rows: calibration_rows.length,
          model: out,
        },
        null,
        2,
      ) + "\n",
    );
  } else {
    throw new UsageError(command === undefined ? "не указана команда" : `неизвестная команда «${command}»`);
  }
}
