// The uncertainty core in headless Chromium: the browser entry bundled for the browser, served
// with the built uncertainty.wasm, computing the worked examples and a seeded Monte Carlo run;
// every number must be identical (Object.is) to Node's.
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTestPage, type TestPage } from "../support/test-page";
import { workerBrowser } from "../support/browser";
import { uncertaintyCore } from "@core/uncertainty-node";
import { uncertaintyExamples } from "./uncertainty-examples";

const root = fileURLToPath(new URL("../..", import.meta.url));

const PAGE_SCRIPT = `
import { loadUncertainty } from "./wasm-core/src/uncertainty-browser.ts";
import { uncertaintyExamples } from "./tests/e2e/uncertainty-examples.ts";
loadUncertainty().then(
  (core) => { window.__examples = uncertaintyExamples(core); },
  (error) => { window.__examples = { loadError: String(error) }; },
);
`;

describe("uncertainty core in Chromium", () => {
  let testPage: TestPage;
  let context: BrowserContext;

  beforeAll(async () => {
    testPage = await serveTestPage({ script: PAGE_SCRIPT, resolveDir: root, wasm: "uncertainty" });
    // A context of its own in the worker's Chromium.
    context = await (await workerBrowser()).newContext();
  });

  afterAll(async () => {
    await context?.close();
    await testPage?.close();
  });

  it("gives the same numbers as Node, to the bit", async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${testPage.origin}/`);
    await page.waitForFunction(() => (window as unknown as { __examples?: unknown }).__examples !== undefined, null, { timeout: 30_000 });
    const inBrowser = await page.evaluate(() => (window as unknown as { __examples: unknown }).__examples);
    await page.close();
    expect(pageErrors).toEqual([]);
    expect(inBrowser).toStrictEqual(uncertaintyExamples(uncertaintyCore()));
  });
});
