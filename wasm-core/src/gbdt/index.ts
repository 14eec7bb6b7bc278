// GBDT inference for Node (API server, Lambda, CLI): XGBoost JSON and LightGBM text models run in
// wasm-core/build/gbdt.wasm. The browser imports ./browser instead (no node:fs there).
import { readWasmFile } from "../wasm-file";
import type { ParsedModel } from "./model";
import { trainWithModule, type TrainingData, type TrainOptions, type TrainParams, type TrainResult } from "./train";
import { instantiateModel, type GbdtModel, type LoadOptions } from "./wasm-forest";

export * from "./api";
export { predictTs } from "./evaluate";
export type { FlatForest, OutputTransform } from "./model";
export {
  checkTrainingData,
  DEFAULT_TRAIN_PARAMS,
  MAX_MODEL_NODES,
  MAX_TRAINING_ROWS,
  modelNodes,
  MIN_TRAINING_ROWS,
  TRAIN_OBJECTIVES,
  TRAIN_PARAM_LIMITS,
  TrainingCancelled,
  type FeatureImportance,
  type TrainingData,
  type TrainOptions,
} from "./train";

let compiled: Promise<WebAssembly.Module> | undefined;
let compiledTrainer: Promise<WebAssembly.Module> | undefined;

/** Trains a model in wasm-core/build/gbdt-train.wasm (train.ts); the result holds its XGBoost JSON. */
export async function trainModel(data: TrainingData, params: TrainParams, options?: TrainOptions): Promise<TrainResult> {
  compiledTrainer ??= WebAssembly.compile(readWasmFile("gbdt-train") as Uint8Array<ArrayBuffer>);
  return trainWithModule(await compiledTrainer, data, params, options);
}

/** Parses a model file (format detected from the content) and loads it into its own WASM instance. */
export async function loadModel(source: string | ParsedModel, options?: LoadOptions): Promise<GbdtModel> {
  compiled ??= WebAssembly.compile(readWasmFile("gbdt") as Uint8Array<ArrayBuffer>);
  return instantiateModel(await compiled, source, options);
}
