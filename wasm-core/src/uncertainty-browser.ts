// Browser entry of the uncertainty core: Vite serves the same uncertainty.wasm bytes Node runs.
import wasmUrl from "../build/uncertainty.wasm?url";
import { UncertaintyCore } from "./uncertainty-core";
import { loadOnce } from "./wasm-fetch";

export * from "./uncertainty-core";

/** Loads the core once per page; every caller shares the instance. */
export const loadUncertainty: () => Promise<UncertaintyCore> = loadOnce(() => UncertaintyCore.fromUrl(wasmUrl));
