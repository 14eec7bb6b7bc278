// Where the compiled cores live and how Node reads them. The browser gets the same files through
// Vite (`import url from "../build/<name>.wasm?url"`), so both sides run identical bytes.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type CoreName = "emissions" | "gbdt";

export function wasmFilePath(name: CoreName): string {
  return fileURLToPath(new URL(`../build/${name}.wasm`, import.meta.url));
}

export function readWasmFile(name: CoreName): Uint8Array {
  try {
    return readFileSync(wasmFilePath(name));
  } catch (cause) {
    throw new Error(`wasm-core/build/${name}.wasm is missing: run "npm run build:wasm" first`, { cause });
  }
}
