import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../testing/fakes";
import {
  acceptsNumericInput,
  clampDecimals,
  formatResult,
  inputDecimals,
  parseNumericInput,
  readStoredDecimals,
  storeDecimals,
} from "./decimals";

describe("clampDecimals", () => {
  it("keeps 0..4 as they are", () => {
    for (const value of [0, 1, 2, 3, 4]) expect(clampDecimals(value)).toBe(value);
  });

  it("clamps out-of-range numbers to 0..4 and drops fractions", () => {
    expect(clampDecimals(-3)).toBe(0);
    expect(clampDecimals(9)).toBe(4);
    expect(clampDecimals(2.7)).toBe(2);
  });

  it("reads stored strings", () => {
    expect(clampDecimals("3")).toBe(3);
    expect(clampDecimals(" 1 ")).toBe(1);
  });

  it("falls back for a missing or non-numeric value", () => {
    expect(clampDecimals(null)).toBe(4);
    expect(clampDecimals("")).toBe(4);
    expect(clampDecimals("abc")).toBe(4);
    expect(clampDecimals(Number.NaN)).toBe(4);
    expect(clampDecimals(undefined, 2)).toBe(2);
  });
});

describe("stored decimals", () => {
  beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it("defaults to 4 and round-trips through local storage key `comma`", () => {
    expect(readStoredDecimals()).toBe(4);
    expect(storeDecimals(2)).toBe(2);
    expect(localStorage.getItem("comma")).toBe("2");
    expect(readStoredDecimals()).toBe(2);
  });

  it("stores the clamped value", () => {
    expect(storeDecimals(7)).toBe(4);
    expect(localStorage.getItem("comma")).toBe("4");
  });
});

describe("inputDecimals", () => {
  it("uses the stored setting clamped to 0..4 in both modes", () => {
    expect(inputDecimals("create", "3")).toBe(3);
    expect(inputDecimals("edit", "3")).toBe(3);
    expect(inputDecimals("create", "0")).toBe(0);
    expect(inputDecimals("edit", "9")).toBe(4);
    expect(inputDecimals("create", "-1")).toBe(0);
  });

  it("falls back to 4 on create and 2 on edit when the setting is missing or not a number", () => {
    for (const stored of [null, "", "  ", "abc", "NaN"]) {
      expect(inputDecimals("create", stored)).toBe(4);
      expect(inputDecimals("edit", stored)).toBe(2);
    }
  });

  describe("reading local storage", () => {
    beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
    afterEach(() => vi.unstubAllGlobals());

    it("reads key `comma` when no value is given", () => {
      expect(inputDecimals("edit")).toBe(2);
      localStorage.setItem("comma", "1");
      expect(inputDecimals("edit")).toBe(1);
      expect(inputDecimals("create")).toBe(1);
    });
  });
});

describe("acceptsNumericInput", () => {
  it("accepts digits with an optional dot and up to the allowed decimals", () => {
    for (const text of ["", "0", "1000", "1000.", "12.5", "12.3456", ".5"]) {
      expect(acceptsNumericInput(text, 4), text).toBe(true);
    }
    expect(acceptsNumericInput("12.34", 2)).toBe(true);
  });

  it("refuses letters, signs, commas, spaces, a second dot and extra decimals", () => {
    for (const text of ["a", "12a", "-1", "+1", "1,5", "1 000", "1.2.3", "1e3", "12.34567"]) {
      expect(acceptsNumericInput(text, 4), text).toBe(false);
    }
    expect(acceptsNumericInput("12.345", 2)).toBe(false);
  });

  it("allows no dot at all with 0 decimals", () => {
    expect(acceptsNumericInput("12", 0)).toBe(true);
    expect(acceptsNumericInput("12.", 0)).toBe(false);
  });
});

describe("parseNumericInput", () => {
  it("reads accepted text as a number", () => {
    expect(parseNumericInput("1000")).toBe(1000);
    expect(parseNumericInput("12.")).toBe(12);
    expect(parseNumericInput(".5")).toBe(0.5);
  });

  it("has no number for an empty field or a lone dot", () => {
    expect(parseNumericInput("")).toBeUndefined();
    expect(parseNumericInput(".")).toBeUndefined();
    expect(parseNumericInput("abc")).toBeUndefined();
  });
});

describe("formatResult", () => {
  it("rounds to the given decimals and keeps trailing zeros", () => {
    expect(formatResult(0.668, 4)).toBe("0.6680");
    expect(formatResult(0.668, 3)).toBe("0.668");
    expect(formatResult(0.668, 2)).toBe("0.67");
    expect(formatResult(1.8393, 4)).toBe("1.8393");
    expect(formatResult(1.8393, 0)).toBe("2");
  });

  it("rounds decimal halves up, whatever their binary form", () => {
    expect(formatResult(1.005, 2)).toBe("1.01");
    expect(formatResult(0.00125, 4)).toBe("0.0013");
    expect(formatResult(2.5, 0)).toBe("3");
    expect(formatResult(-2.5, 0)).toBe("-3");
  });

  it("handles very small and large magnitudes", () => {
    expect(formatResult(1e-7, 4)).toBe("0.0000");
    expect(formatResult(-1e-7, 2)).toBe("0.00");
    expect(formatResult(123456789.12345, 2)).toBe("123456789.12");
  });

  it("shows nothing for a missing or non-finite value", () => {
    expect(formatResult(undefined, 2)).toBe("");
    expect(formatResult(null, 2)).toBe("");
    expect(formatResult(Number.NaN, 2)).toBe("");
    expect(formatResult(Number.POSITIVE_INFINITY, 2)).toBe("");
  });
});
