// Compiles every top-level AssemblyScript entry in wasm-core/assembly/ into wasm-core/build/<name>.wasm.
// Uses the project's own assemblyscript devDependency, so no global tool is needed.
// The build is skipped when the sources, this script and the compiler's version are what the last
// build compiled (their hash in build/.sources): each run of the tests builds first, and the four
// compilations cost about 9 s of CPU. A fresh clone, or any change to them, builds again.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const entries = readdirSync(join(root, "assembly")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
mkdirSync(join(root, "build"), { recursive: true });
const SIMD = new Set(["emissions", "gbdt", "gbdt-train"]);

const compiler = createRequire(import.meta.url)("assemblyscript/package.json").version;
const hash = createHash("sha256").update(`assemblyscript ${compiler}\n`).update(readFileSync(fileURLToPath(import.meta.url)));
for (const file of readdirSync(join(root, "assembly"), { recursive: true }).map(String).sort()) {
  if (file.endsWith(".ts")) hash.update(`${file}\n`).update(readFileSync(join(root, "assembly", file)));
}
const sources = hash.digest("hex");
const stamp = join(root, "build", ".sources");
const built = entries.every((file) => existsSync(join(root, "build", file.replace(/\.ts$/, ".wasm"))));
if (built && existsSync(stamp) && readFileSync(stamp, "utf8") === sources) {
  console.log("wasm-core: build/ is up to date with assembly/");
  process.exit(0);
}
// A build that stops midway leaves no hash behind, so the next run builds every entry again.
rmSync(stamp, { force: true });
const { default: asc } = await import("assemblyscript/asc");

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
writeFileSync(stamp, sources);
