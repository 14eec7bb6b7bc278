// Browser entry of the uncertainty core: Vite serves the same uncertainty.wasm bytes Node runs.
import wasmUrl from "../build/uncertainty.wasm?url";
import { UncertaintyCore } from "./uncertainty-core";

export * from "./uncertainty-core";

let loading: Promise<UncertaintyCore> | undefined;

/** Loads the core once per page; every caller shares the instance. */
export function loadUncertainty(): Promise<UncertaintyCore> {
  loading ??= UncertaintyCore.fromUrl(wasmUrl).catch((error: unknown) => {
    loading = undefined; // let a later call retry after a network failure
    throw error;
  });
  return loading;
}
