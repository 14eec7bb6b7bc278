// GBDT inference in the browser: the same gbdt.wasm bytes as in Node, served by Vite.
import wasmUrl from "../../build/gbdt.wasm?url";
import trainWasmUrl from "../../build/gbdt-train.wasm?url";
import { trainWithModule, type TrainingData, type TrainOptions, type TrainParams, type TrainResult } from "./train";
import type { ParsedModel } from "./model";
import { instantiateModel, type GbdtModel, type LoadOptions } from "./wasm-forest";
import { fetchWasmBytes, loadOnce } from "../wasm-fetch";

export * from "./api";
export { readForecastHistoryCsv } from "./train-csv";

/** The two modules, each fetched and compiled once per page. */
const compiledFrom = (url: string) => loadOnce(async () => WebAssembly.compile(await fetchWasmBytes(url)));
const compiled = compiledFrom(wasmUrl);
const compiledTrainer = compiledFrom(trainWasmUrl);

/** Trains a model in gbdt-train.wasm (the same bytes as in Node); the result holds its XGBoost JSON. */
export async function trainModel(data: TrainingData, params: TrainParams, options?: TrainOptions): Promise<TrainResult> {
  return trainWithModule(await compiledTrainer(), data, params, options);
}

/** Parses a model file (format detected from the content) and loads it into its own WASM instance. */
export async function loadModel(source: string | ParsedModel, options?: LoadOptions): Promise<GbdtModel> {
  return instantiateModel(await compiled(), source, options);
}
