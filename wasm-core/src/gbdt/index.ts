// GBDT inference for Node (API server, Lambda, CLI): XGBoost JSON and LightGBM text models run in
// wasm-core/build/gbdt.wasm. The browser imports ./browser instead (no node:fs there).
import { readWasmFile } from "../wasm-file";
import type { ParsedModel } from "./model";
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
export {
  AIR_FEATURE,
  MAX_WHAT_IF_STEPS,
  airNeeded,
  featureSteps,
  whatIf,
  type AirNeeded,
  type FeatureRow,
  type WhatIfPoint,
} from "./what-if";

let compiled: Promise<WebAssembly.Module> | undefined;

/** Parses a model file (format detected from the content) and loads it into its own WASM instance. */
export async function loadModel(source: string | ParsedModel, options?: LoadOptions): Promise<GbdtModel> {
  compiled ??= WebAssembly.compile(readWasmFile("gbdt") as Uint8Array<ArrayBuffer>);
  return instantiateModel(await compiled, source, options);
}
