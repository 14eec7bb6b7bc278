// The emission core in headless Chromium: the browser entry (emissions-browser.ts) is bundled with
// esbuild for the browser platform (so a Node import would fail the build), served with the built
// emissions.wasm from a throwaway server on 127.0.0.1, and every methodology vector (the types' modules' `vectors`) is
// computed in the page. The numbers must be identical (===) to the ones Node computes.
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTestPage, type TestPage } from "../support/test-page";
import { emissionsCore } from "@core/emissions";
import { computeVectors } from "@core/methodology-vectors";
import { workerBrowser } from "../support/browser";

const root = fileURLToPath(new URL("../..", import.meta.url));

const PAGE_SCRIPT = `
import { loadEmissions } from "./wasm-core/src/emissions-browser.ts";
import { computeVectors } from "./wasm-core/src/methodology-vectors.ts";
loadEmissions().then(
  (core) => { window.__vectors = computeVectors(core); },
  (error) => { window.__vectors = { loadError: String(error) }; },
);
`;

/** Counts the numbers of a JSON tree and checks each with Object.is against the other tree. */
function identicalNumbers(a: unknown, b: unknown, path = "$"): number {
  if (typeof a === "number") {
    expect(Object.is(a, b), `${path}: ${String(a)} vs ${String(b)}`).toBe(true);
    return 1;
  }
  if (a === null || typeof a !== "object") return 0;
  let count = 0;
  for (const [key, value] of Object.entries(a)) count += identicalNumbers(value, (b as Record<string, unknown>)[key], `${path}.${key}`);
  return count;
}

describe("emission core in Chromium", () => {
  let testPage: TestPage;
  let context: BrowserContext;
  let origin = "";

  beforeAll(async () => {
    testPage = await serveTestPage({ script: PAGE_SCRIPT, resolveDir: root, wasm: "emissions" });
    origin = testPage.origin;
    // A context of its own in the worker's Chromium.
    context = await (await workerBrowser()).newContext();
  });

  afterAll(async () => {
    await context?.close();
    await testPage?.close();
  });

  it("computes every section-5 vector identically to Node", async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as unknown as { __vectors?: unknown }).__vectors !== undefined);
    const inBrowser = await page.evaluate(() => (window as unknown as { __vectors: unknown }).__vectors);
    await page.close();

    expect(pageErrors).toEqual([]);
    const inNode = computeVectors(emissionsCore());
    expect(inBrowser).toStrictEqual(inNode);
    expect(identicalNumbers(inBrowser, inNode)).toBeGreaterThan(150);
  });
});
