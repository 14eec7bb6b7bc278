// What both GBDT entry points give besides loading the two modules: Node's index.ts (from disk) and
// the browser's browser.ts (from the web host) each export this and their own trainModel/loadModel.
export { predict, type GbdtModel, type LoadOptions } from "./wasm-forest";
export { chooseEngine, ENGINE_LABEL, type EngineChoice, type GbdtEngine } from "./engine";
export { parseModel } from "./parse";
export { readFeatureCsv } from "./csv";
export type { GbdtLibrary, ParsedModel } from "./model";
export type { Rows } from "./rows";
export { trainParams, TrainingInputError, type RoundInfo, type TrainParams, type TrainResult } from "./train";
export * from "./conformal";
export * from "./backtest";
export * from "./probability";
export * from "./horizon";
export * from "./what-if";
