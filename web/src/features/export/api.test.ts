import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../../testing/fakes";
import { exportPath, storedDecimals } from "./api";

beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
afterEach(() => vi.unstubAllGlobals());

describe("exportPath", () => {
  it("sends detail only for the detailed export (docs/api.md) and the saved decimals", async () => {
    expect(await exportPath({ projectId: "p 1", format: "xlsx", detail: false })).toBe("v1/projects/p%201/export_to_xlsx/");
    expect(await exportPath({ projectId: "p1", format: "xls", detail: true })).toBe("v1/projects/p1/export_to_xls/?detail=true");
    localStorage.setItem("comma", "3");
    expect(await exportPath({ projectId: "p1", format: "txt", detail: false })).toBe("v1/projects/p1/export_to_txt/?decimals=3");
  });

  it("clamps the stored setting to 0..4 and leaves the server's default when none is saved", () => {
    expect(storedDecimals()).toBeUndefined();
    localStorage.setItem("comma", "9");
    expect(storedDecimals()).toBe(4);
    localStorage.setItem("comma", "abc");
    expect(storedDecimals()).toBe(2);
  });
});
