// Compiles every top-level AssemblyScript entry in wasm-core/assembly/ into wasm-core/build/<name>.wasm.
// Uses the project's own assemblyscript devDependency, so no global tool is needed.
import asc from "assemblyscript/asc";
import { readdirSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const entries = readdirSync(join(root, "assembly")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
mkdirSync(join(root, "build"), { recursive: true });
const SIMD = new Set(["emissions", "gbdt", "gbdt-train"]);

for (const file of entries) {
  const name = file.replace(/\.ts$/, "");
  const { error, stderr } = await asc.main(
    [
      join("assembly", file),
      "--outFile", join("build", `${name}.wasm`),
      "--textFile", join("build", `${name}.wat`),
      "--optimizeLevel", "3",
      "--shrinkLevel", "0",
      "--runtime", "stub",
      "--noAssert",
      "--exportRuntime",
      "--baseDir", root,
      // The emission batch kernels and the GBDT QuickScorer engine use WASM SIMD (Node 16.4+, every current browser engine).
      ...(SIMD.has(name) ? ["--enable", "simd"] : []),
    ],
    { stdout: process.stdout, stderr: process.stderr },
  );
  if (error) {
    console.error(`wasm-core: ${file} failed: ${error.message}\n${stderr.toString()}`);
    process.exit(1);
  }
  console.log(`wasm-core: built build/${name}.wasm`);
}
