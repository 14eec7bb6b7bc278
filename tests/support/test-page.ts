// A throwaway page for running browser-side code in Chromium: the script is bundled by esbuild for
// the browser platform (so a Node import fails the build), `import url from "x.wasm?url"` stands
// in for Vite's by pointing at the served wasm, and a loopback server hands out fixed files.
import { build, type Plugin } from "esbuild";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readWasmFile, type CoreName } from "@core/wasm-file";

export interface TestPage {
  origin: string;
  close(): Promise<void>;
}

export async function serveTestPage(options: {
  script: string;
  resolveDir: string;
  wasm: CoreName;
  files?: Record<string, [contentType: string, body: string | Uint8Array]>;
}): Promise<TestPage> {
  const wasmUrl: Plugin = {
    name: "wasm-url",
    setup(b) {
      b.onResolve({ filter: /\.wasm\?url$/ }, () => ({ path: `${options.wasm}.wasm`, namespace: "wasm-url" }));
      b.onLoad({ filter: /.*/, namespace: "wasm-url" }, () => ({ contents: `export default "/${options.wasm}.wasm";`, loader: "js" }));
    },
  };
  const bundle = await build({
    stdin: { contents: options.script, resolveDir: options.resolveDir, loader: "ts", sourcefile: "page.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    plugins: [wasmUrl],
  });
  const files: Record<string, [string, string | Uint8Array]> = {
    "/": ["text/html; charset=utf-8", '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>'],
    "/page.js": ["text/javascript; charset=utf-8", bundle.outputFiles[0].text],
    [`/${options.wasm}.wasm`]: ["application/wasm", readWasmFile(options.wasm)],
    ...options.files,
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
