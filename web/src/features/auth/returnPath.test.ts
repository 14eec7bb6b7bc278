import { describe, expect, it } from "vitest";
import { returnPathFrom, safeReturnPath } from "./returnPath";

describe("safeReturnPath", () => {
  it("keeps a path of the app with its query and hash", () => {
    expect(safeReturnPath("/projects?page=2&search=%D0%A8")).toBe("/projects?page=2&search=%D0%A8");
    expect(safeReturnPath("/projects/abc/calculations?type=torch_ch4&page=3#top")).toBe(
      "/projects/abc/calculations?type=torch_ch4&page=3#top",
    );
  });

  it("refuses another origin, a protocol-relative or backslashed path, and /login itself", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "/\t/evil.example",
      "javascript:alert(1)",
      "projects",
      "",
      "/login",
      "/login?x=1",
      `/${"a".repeat(3000)}`,
      42,
      null,
      undefined,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("returnPathFrom", () => {
  it("answers the landing page without a usable target", () => {
    expect(returnPathFrom(null)).toBe("/");
    expect(returnPathFrom({ from: "//evil.example" })).toBe("/");
    expect(returnPathFrom({ from: "/export?page=2" })).toBe("/export?page=2");
  });
});
