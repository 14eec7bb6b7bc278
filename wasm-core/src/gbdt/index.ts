// GBDT inference for Node (API server, Lambda, CLI): XGBoost JSON and LightGBM text models run in
// wasm-core/build/gbdt.wasm. The browser imports ./browser instead (no node:fs there).
import { readWasmFile } from "../wasm-file";
import type { ParsedModel } from "./model";
import { trainWithModule, type TrainingData, type TrainOptions, type TrainParams, type TrainResult } from "./train";
import { instantiateModel, type GbdtModel, type LoadOptions } from "./wasm-forest";

export { predict, type GbdtModel, type LoadOptions } from "./wasm-forest";
export { chooseEngine, ENGINE_LABEL, type EngineChoice, type GbdtEngine } from "./engine";
export { parseModel } from "./parse";
export { readFeatureCsv } from "./csv";
export { predictTs } from "./evaluate";
export type { FlatForest, GbdtLibrary, OutputTransform, ParsedModel } from "./model";
export type { Rows } from "./rows";
export * from "./conformal";
export * from "./backtest";
export * from "./horizon";
export {
  AIR_FEATURE,
  MAX_WHAT_IF_STEPS,
  OUTSIDE_TRAINING,
  airFormula,
  airNeeded,
  outsideTraining,
  featureSteps,
  whatIf,
  type AirFormula,
  type AirNeeded,
  type FeatureRow,
  type WhatIfPoint,
} from "./what-if";
export {
  checkTrainingData,
  DEFAULT_TRAIN_PARAMS,
  MAX_MODEL_NODES,
  MAX_TRAINING_ROWS,
  modelNodes,
  MIN_TRAINING_ROWS,
  TRAIN_OBJECTIVES,
  TRAIN_PARAM_LIMITS,
  trainParams,
  TrainingCancelled,
  TrainingInputError,
  type FeatureImportance,
  type RoundInfo,
  type TrainingData,
  type TrainOptions,
  type TrainParams,
  type TrainResult,
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
