// Compiles every top-level AssemblyScript entry in wasm-core/assembly/ into wasm-core/build/<name>.wasm.
// Uses the project's own assemblyscript devDependency, so no global tool is needed.
// The build is skipped when the sources, this script and the compiler's version are what the last
// build compiled (their hash in build/.sources): each run of the tests builds first, and the four
// compilations cost about 22 s of CPU, most of it binaryen optimising gbdt.ts. A change to them builds
// again; a fresh clone, another worktree or a branch switched back takes the files from the machine's
// build cache when they were built from the same hash before (see WASM_BUILD_CACHE below).
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const entries = readdirSync(join(root, "assembly")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
mkdirSync(join(root, "build"), { recursive: true });
const SIMD = new Set(["emissions", "gbdt", "gbdt-train"]);
// The entries whose exports the TypeScript facade types from the declarations asc writes beside the
// module (build/<name>.d.ts, with its small .js loader, which nothing imports): the emission core,
// whose kernel per registry type the facade's typed map holds (src/emissions-core.ts, `Kernels`), so
// `npm run typecheck` builds first.
const TYPED = new Set(["emissions"]);

const compiler = createRequire(import.meta.url)("assemblyscript/package.json").version;
const hash = createHash("sha256").update(`assemblyscript ${compiler}\n`).update(readFileSync(fileURLToPath(import.meta.url)));
for (const file of readdirSync(join(root, "assembly"), { recursive: true }).map(String).sort()) {
  if (file.endsWith(".ts")) hash.update(`${file}\n`).update(readFileSync(join(root, "assembly", file)));
}
const sources = hash.digest("hex");
const stamp = join(root, "build", ".sources");
const outputs = entries.flatMap((file) => {
  const name = file.replace(/\.ts$/, "");
  return [".wasm", ".wat", ...(TYPED.has(name) ? [".d.ts", ".js"] : [])].map((ext) => `${name}${ext}`);
});
const built = outputs.every((file) => existsSync(join(root, "build", file)));
if (built && existsSync(stamp) && readFileSync(stamp, "utf8") === sources) {
  console.log("wasm-core: build/ is up to date with assembly/");
  process.exit(0);
}
// A build that stops midway leaves no hash behind, so the next run builds every entry again.
rmSync(stamp, { force: true });

// The machine's build cache: one folder per hash of the sources, the compiler and this script, so a
// hit is exactly what compiling would write. WASM_BUILD_CACHE names another folder, or "off".
const CACHE_KEPT = 8;
const cacheRoot = process.env.WASM_BUILD_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "fugitive-emissions-platform", "wasm-core");
const cached = cacheRoot === "off" ? undefined : join(cacheRoot, sources);
if (cached && outputs.every((file) => existsSync(join(cached, file)))) {
  for (const file of outputs) copyFileSync(join(cached, file), join(root, "build", file));
  writeFileSync(stamp, sources);
  const now = new Date();
  utimesSync(cached, now, now); // kept as recently used
  console.log(`wasm-core: build/ taken from the build cache (${cached})`);
  process.exit(0);
}
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
      ...(TYPED.has(name) ? ["--bindings", "raw"] : []),
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
if (cached) {
  try {
    storeInCache(cached);
  } catch (error) {
    // The build itself is done; a cache that cannot be written costs only the next build's time.
    console.log(`wasm-core: not cached (${error.message})`);
  }
}

/** Copies the outputs into the cache through a folder of its own renamed into place (builds of other
 *  clones may run at the same time), then keeps the CACHE_KEPT most recent hashes. */
function storeInCache(folder) {
  mkdirSync(cacheRoot, { recursive: true });
  const partial = `${folder}.${process.pid}.partial`;
  mkdirSync(partial, { recursive: true });
  for (const file of outputs) copyFileSync(join(root, "build", file), join(partial, file));
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  const hashes = readdirSync(cacheRoot)
    .filter((name) => /^[0-9a-f]{64}$/.test(name))
    .map((name) => ({ name, time: statSync(join(cacheRoot, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of hashes.slice(CACHE_KEPT)) rmSync(join(cacheRoot, name), { recursive: true, force: true });
}
