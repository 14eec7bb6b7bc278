// The unit tier's setup, run before each of its files (they share their worker's module graph,
// vitest.config.ts): a component test (*.test.tsx, `// @vitest-environment happy-dom`) gets what the
// web app needs of a browser that happy-dom answers otherwise (dom-globals.ts), each file anew and
// undone after it; the tier's other files run in Node and get nothing.
import { vi } from "vitest";

// The page loads the cores' wasm by URL, which happy-dom does not fetch (and its URL is not Node's, so
// wasm-file.ts's path lookup fails there too): the same bytes are read from wasm-core/build, as the
// server reads them. Only the component tests import these browser entries.
vi.mock("@core/emissions-browser", async () => {
  const [{ readFileSync }, core] = await Promise.all([import("node:fs"), import("@core/emissions-core")]);
  const bytes = readFileSync(`${import.meta.dirname}/../../../wasm-core/build/emissions.wasm`);
  let instance: ReturnType<typeof core.EmissionsCore.fromBytes> | undefined;
  return { ...core, loadEmissions: async () => (instance ??= core.EmissionsCore.fromBytes(bytes)) };
});
vi.mock("@core/uncertainty-browser", async () => {
  const [{ readFileSync }, core] = await Promise.all([import("node:fs"), import("@core/uncertainty-core")]);
  const bytes = readFileSync(`${import.meta.dirname}/../../../wasm-core/build/uncertainty.wasm`);
  let instance: ReturnType<typeof core.UncertaintyCore.fromBytes> | undefined;
  return { ...core, loadUncertainty: async () => (instance ??= core.UncertaintyCore.fromBytes(bytes)) };
});

if (typeof window !== "undefined") (await import("./dom-globals")).installDomGlobals();
