// Holds the browser-weight budget of issue 20: a route's initial JavaScript (the entry and the
// route's lazy page chunks with their static imports, gzip) within 300 KB. Builds the app with
// Vite's manifest into a temporary folder, as `npm run bench -- web` does.
import { describe, expect, it } from "vitest";
import { INITIAL_JS_BUDGET_KB, measureWebWeight } from "../bench/web-weight";

describe("web app weight", () => {
  it(`keeps every route's initial JS within ${INITIAL_JS_BUDGET_KB} KB gzip`, async () => {
    const weight = await measureWebWeight();
    expect(weight.routes.length).toBeGreaterThanOrEqual(15);
    const over = weight.routes
      .filter((r) => r.gzip > INITIAL_JS_BUDGET_KB * 1024)
      .map((r) => `${r.route}: ${(r.gzip / 1024).toFixed(1)} KB`);
    expect(over).toEqual([]);
  }, 240_000);
});
