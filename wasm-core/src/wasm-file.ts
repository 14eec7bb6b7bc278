// Where the compiled cores live and how Node reads them. The browser gets the same files through
// Vite (`import url from "../build/<name>.wasm?url"`), so both sides run identical bytes.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type CoreName = "emissions" | "gbdt" | "gbdt-train" | "uncertainty";

/** From source the files are in wasm-core/build beside src/. In a Lambda bundle import.meta.url is
 *  the bundle itself, and the deployment copies the files next to it (infra/lib/stack.ts). */
export function wasmFilePath(name: CoreName): string {
  const fromSource = fileURLToPath(new URL(`../build/${name}.wasm`, import.meta.url));
  if (existsSync(fromSource)) return fromSource;
  const besideBundle = fileURLToPath(new URL(`./${name}.wasm`, import.meta.url));
  return existsSync(besideBundle) ? besideBundle : fromSource;
}

export function readWasmFile(name: CoreName): Uint8Array {
  try {
    return readFileSync(wasmFilePath(name));
  } catch (cause) {
    throw new Error(`wasm-core/build/${name}.wasm is missing: run "npm run build:wasm" first`, { cause });
  }
}
