// Browser entry of the emission core: Vite serves the same emissions.wasm bytes the server runs.
// Kept apart from emissions.ts so no node:fs import reaches the web bundle.
import wasmUrl from "../build/emissions.wasm?url";
import { EmissionsCore } from "./emissions-core";

export * from "./emissions-core";

let loading: Promise<EmissionsCore> | undefined;

/** Loads the core once per page; every caller shares the instance. */
export function loadEmissions(): Promise<EmissionsCore> {
  loading ??= EmissionsCore.fromUrl(wasmUrl).catch((error: unknown) => {
    loading = undefined; // let a later call retry after a network failure
    throw error;
  });
  return loading;
}
