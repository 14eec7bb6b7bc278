import { describe, expect, it } from "vitest";
import { isChunkLoadError } from "./routeError";

describe("isChunkLoadError", () => {
  it.each([
    "Failed to fetch dynamically imported module: http://x/assets/ProjectsPage-1.js",
    "error loading dynamically imported module",
    "Importing a module script failed.",
    "Loading chunk 12 failed.",
    "Unable to preload CSS for /assets/a.css",
  ])("recognises %s", (text) => {
    expect(isChunkLoadError(new Error(text))).toBe(true);
  });

  it("leaves other errors to the generic message", () => {
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("Failed to fetch dynamically imported module")).toBe(false);
  });
});
