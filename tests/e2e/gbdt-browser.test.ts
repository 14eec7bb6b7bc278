// The GBDT core's browser entry (wasm-core/src/gbdt/browser.ts) in headless Chromium: bundled with esbuild for the browser platform
// (so a Node import would fail the build), served with the built gbdt.wasm and both default models
// from a throwaway server on 127.0.0.1. The page must reproduce the golden predictions exactly.
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTestPage, type TestPage } from "../support/test-page";
import { workerBrowser } from "../support/browser";
import { readCsvWithColumn, readText, modelFixture } from "@core/gbdt/test-fixtures";

const gbdtSources = fileURLToPath(new URL("../../wasm-core/src/gbdt/", import.meta.url));
const features = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];

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
    result[name + "-engine"] = model.wasm.choice.engine;
  }
  return result;
}
run().then((result) => { window.__result = result; }, (error) => { window.__result = { error: String(error) }; });
`;

describe("GBDT inference in Chromium", () => {
  let testPage: TestPage;
  let context: BrowserContext;
  let origin = "";

  beforeAll(async () => {
    testPage = await serveTestPage({
      script: PAGE_SCRIPT,
      resolveDir: gbdtSources,
      wasm: "gbdt",
      files: {
        "/xgboost": ["application/json", readText(modelFixture("methane-xgboost.json"))],
        "/lightgbm": ["text/plain", readText(modelFixture("methane-lightgbm.txt"))],
        "/golden.csv": ["text/csv", readText(modelFixture("golden-default.csv"))],
      },
    });
    origin = testPage.origin;
    // A context of its own in the worker's Chromium.
    context = await (await workerBrowser()).newContext();
  });

  afterAll(async () => {
    await context?.close();
    await testPage?.close();
  });

  it("reproduces the golden predictions of both default models bit for bit, on the engines Node picks", async () => {
    const page = await context.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, null, {
      timeout: 30_000,
    });
    const result = (await page.evaluate(() => (window as unknown as { __result: unknown }).__result)) as Record<string, unknown>;
    expect(result.error).toBeUndefined();
    for (const [name, column, engine] of [
      ["xgboost", "pred_xgboost", "quickscorer"],
      ["lightgbm", "pred_lightgbm", "quickscorer"],
    ] as const) {
      const golden = readCsvWithColumn(modelFixture("golden-default.csv"), features, column);
      expect(result[name]).toEqual(Array.from(golden.values));
      // The same SIMD module runs in the browser: the faster engine is picked there too.
      expect(result[`${name}-engine`]).toBe(engine);
    }
  });
});
