import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../../testing/fakes";
import { clampDecimals, readStoredDecimals, storeDecimals } from "./decimals";

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
