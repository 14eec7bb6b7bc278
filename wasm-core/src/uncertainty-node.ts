// Node entry of the uncertainty core: the same uncertainty.wasm the browser loads
// (uncertainty-browser.ts), read from wasm-core/build and instantiated on first use.
import { readWasmFile } from "./wasm-file";
import { UncertaintyCore } from "./uncertainty-core";

export * from "./uncertainty-core";

let instance: UncertaintyCore | undefined;

/** The process-wide core instance (the facade is not re-entrant; JS is single-threaded). */
export function uncertaintyCore(): UncertaintyCore {
  return (instance ??= UncertaintyCore.fromBytes(readWasmFile("uncertainty")));
}
