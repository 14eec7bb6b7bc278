// The browser entry (browser.ts) in headless Chromium: bundled with esbuild for the browser platform
// (so a Node import would fail the build), served with the built gbdt.wasm and both default models
// from a throwaway server on 127.0.0.1. The page must reproduce the golden predictions exactly.
import { build, type Plugin } from "esbuild";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchBrowser } from "../../../tests/support/browser";
import { readWasmFile } from "../wasm-file";
import { readCsvWithColumn, readText, sharedModel } from "./test-fixtures";

const here = fileURLToPath(new URL(".", import.meta.url));
const features = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];

// Stands in for Vite's `?url` import: the page fetches the wasm from this server.
const wasmUrl: Plugin = {
  name: "wasm-url",
  setup(b) {
    b.onResolve({ filter: /\.wasm\?url$/ }, () => ({ path: "gbdt.wasm", namespace: "wasm-url" }));
    b.onLoad({ filter: /.*/, namespace: "wasm-url" }, () => ({ contents: 'export default "/gbdt.wasm";', loader: "js" }));
  },
};

// JSON cannot carry NaN, so the rows travel as the CSV text and are read in the page.
const PAGE_SCRIPT = `
import { loadModel, predict } from "./browser.ts";
import { readFeatureCsv } from "./csv.ts";
async function run() {
  const csv = await (await fetch("/golden.csv")).text();
  const result = {};
  for (const name of ["xgboost", "lightgbm"]) {
    const model = await loadModel(await (await fetch("/" + name)).text());
    const { rows } = readFeatureCsv(csv, model.featureNames);
    result[name] = Array.from(predict(model, rows));
  }
  return result;
}
run().then((result) => { window.__result = result; }, (error) => { window.__result = { error: String(error) }; });
`;

describe.skipIf(!chromiumAvailable())("GBDT inference in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let origin = "";

  beforeAll(async () => {
    const bundle = await build({
      stdin: { contents: PAGE_SCRIPT, resolveDir: here, loader: "ts", sourcefile: "page.ts" },
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
      "/gbdt.wasm": ["application/wasm", readWasmFile("gbdt")],
      "/xgboost": ["application/json", readText(sharedModel("methane-xgboost.json"))],
      "/lightgbm": ["text/plain", readText(sharedModel("methane-lightgbm.txt"))],
      "/golden.csv": ["text/csv", readText(sharedModel("golden-default.csv"))],
    };
    server = createServer((req, res) => {
      const file = files[req.url ?? ""];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": file[0] }).end(file[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("reproduces the golden predictions of both default models bit for bit", async () => {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, null, {
      timeout: 30_000,
    });
    const result = (await page.evaluate(() => (window as unknown as { __result: unknown }).__result)) as Record<string, number[]>;
    expect(result.error).toBeUndefined();
    for (const [name, column] of [["xgboost", "pred_xgboost"], ["lightgbm", "pred_lightgbm"]] as const) {
      const golden = readCsvWithColumn(sharedModel("golden-default.csv"), features, column);
      expect(result[name]).toEqual(Array.from(golden.values));
    }
  });
});
