import { describe, expect, it } from "vitest";
import { cellDecimals, describeCoefficient } from "./content";

describe("describeCoefficient", () => {
  it("writes every source in Russian, a setting left at its default as a fixed value", () => {
    const use = (source: "custom" | "fixed" | "input" | "default" | "periods") => describeCoefficient({ value: 0.5, unit: "", source });
    expect(use("default")).toBe("Фиксированное значение (по умолчанию)");
    expect(use("fixed")).toBe("Фиксированное значение");
    expect(use("input")).toBe("Введено пользователем");
    expect(use("custom")).toMatch(/^Фактическое значение; без обоснования/);
    for (const source of ["custom", "fixed", "input", "default", "periods"] as const) expect(use(source)).not.toMatch(/[a-z]/i);
  });
});

describe("cellDecimals", () => {
  const column = { header: "", kind: "number" as const, decimals: 2, width: 10 };
  it("keeps two significant digits of a small non-zero value, the column's decimals otherwise", () => {
    expect(cellDecimals(0.0006, column)).toBe(4);
    expect(cellDecimals(0.00024048, column)).toBe(5);
    expect(cellDecimals(1.2e-7, column)).toBe(8);
    expect(cellDecimals(0.25, column)).toBe(2);
    expect(cellDecimals(0.668, column)).toBe(2);
    expect(cellDecimals(12.0004, column)).toBe(2);
    expect(cellDecimals(0, column)).toBe(2);
  });
});
