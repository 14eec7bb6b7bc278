import { describe, expect, it } from "vitest";
import { describeCoefficient } from "./content";

describe("describeCoefficient", () => {
  it("writes every source in Russian, a setting left at its default as a fixed value", () => {
    const use = (source: "custom" | "fixed" | "input" | "default") => describeCoefficient({ value: 0.5, unit: "", source });
    expect(use("default")).toBe("Фиксированное значение (по умолчанию)");
    expect(use("fixed")).toBe("Фиксированное значение");
    expect(use("input")).toBe("Введено пользователем");
    expect(use("custom")).toMatch(/^Фактическое значение; без обоснования/);
    for (const source of ["custom", "fixed", "input", "default"] as const) expect(use(source)).not.toMatch(/[a-z]/i);
  });
});
