// The Lambda bundle finds the compiled cores next to itself: an entry that loads both cores is
// bundled the way infra/lib/stack.ts bundles the API (esbuild, ESM), the .wasm files are copied
// beside it as the afterBundling hook does, and it runs from a folder with no wasm-core/build.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, WASM_FILES } from "../../infra/lib/stack";

describe("wasm in a Lambda bundle", () => {
  it("loads emissions.wasm and gbdt.wasm from beside the bundle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wasm-bundle-"));
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      [
        `import { emissionsCore } from ${JSON.stringify(join(REPO_ROOT, "wasm-core/src/emissions.ts"))};`,
        `import { readWasmFile, wasmFilePath } from ${JSON.stringify(join(REPO_ROOT, "wasm-core/src/wasm-file.ts"))};`,
        `emissionsCore();`,
        `await WebAssembly.compile(readWasmFile("gbdt"));`,
        `console.log(JSON.stringify([wasmFilePath("emissions"), wasmFilePath("gbdt")]));`,
      ].join("\n"),
    );
    const out = join(dir, "task");
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      minify: true,
      mainFields: ["module", "main"],
      outfile: join(out, "index.mjs"),
      logLevel: "silent",
    });
    for (const file of WASM_FILES) copyFileSync(join(REPO_ROOT, "wasm-core/build", file), join(out, file));

    const printed = execFileSync(process.execPath, [join(out, "index.mjs")], { cwd: out, encoding: "utf8" });
    expect(JSON.parse(printed)).toEqual([join(out, "emissions.wasm"), join(out, "gbdt.wasm")]);
  });
});
