// Browser entry of the emission core: Vite serves the same emissions.wasm bytes the server runs.
// Kept apart from emissions.ts so no node:fs import reaches the web bundle.
import wasmUrl from "../build/emissions.wasm?url";
import { EmissionsCore } from "./emissions-core";
import { loadOnce } from "./wasm-fetch";

export * from "./emissions-core";

/** Loads the core once per page; every caller shares the instance. */
export const loadEmissions: () => Promise<EmissionsCore> = loadOnce(() => EmissionsCore.fromUrl(wasmUrl));
