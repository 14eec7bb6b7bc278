import { describe, expect, it } from "vitest";
import type { StoredCalculation } from "../ports";
import { cellDecimals, describeCoefficient, mainSheet, NOT_COUNTED, totalsSheet } from "./content";

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

describe("the detailed export's tiers (D29)", () => {
  it("writes each coefficient's tier beside its source: the facility's own measured contents tier 3, its own factor tier 2, a default tier 1", async () => {
    const calculation = (type: string, coefficients: Record<string, unknown>) =>
      ({ id: type, name: type, type, inputs: {}, results: {}, coefficients }) as unknown as StoredCalculation;
    const cells = async (type: "underground" | "underground_emission_ch4", coefficients: Record<string, unknown>) => {
      const sheet = mainSheet(
        { type, title: type, calculations: [calculation(type, coefficients)] },
        { detail: true, decimals: 2, now: new Date(0), zone: "Asia/Novokuznetsk" },
        type,
      );
      const headers = sheet.columns.map((c) => c.header);
      for await (const row of sheet.rows) return Object.fromEntries(headers.map((h, i) => [h, (row as unknown[])[i]]));
      return {};
    };
    const measured = await cells("underground", {
      ef_ch4: { value: 100, unit: "% об.", source: "custom", justification: "замер" },
      p_ch4: { value: 0.668, unit: "кг/м³", source: "dictionary", dictionary: "get_coeff_ch4_density", item_id: 1 },
    });
    expect(measured["Уровень: Содержание CH4 в смеси"]).toBe("Уровень 3 (измерения организации)");
    expect(measured["Уровень: Плотность CH4"]).toBe("Уровень 1 (значение по умолчанию)");
    const estimate = await cells("underground_emission_ch4", { ef: { value: 18, unit: "м³/т", source: "custom", justification: "отчет" } });
    expect(Object.entries(estimate).find(([h]) => h.startsWith("Уровень: "))?.[1]).toBe("Уровень 2 (коэффициент организации)");
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

describe("cellDecimals of a value as entered", () => {
  const column = { header: "", kind: "number" as const, decimals: 2, width: 10, asStored: true as const };
  it("prints every decimal an input has, at least the column's", () => {
    expect(cellDecimals(0.954059, column)).toBe(6);
    expect(cellDecimals(1_250_000, column)).toBe(2);
    expect(cellDecimals(12.0004, column)).toBe(4);
    expect(cellDecimals(1e-7, column)).toBe(7);
  });
});

describe("totalsSheet", () => {
  it("says «не учтен» of a type whose every calculation is an alternative, sums the others and counts only what it sums", async () => {
    const sheet = totalsSheet(
      [
        { title: "Факел по МГЭИК", count: 1, counted: 0, co2e: 0 },
        { title: "Факел по составу", count: 2, counted: 2, co2e: 149_301.68 },
        { title: "Прогноз", count: 1, counted: 1, co2e: null },
      ],
      { detail: false, decimals: 2, now: new Date(0), zone: "Asia/Novokuznetsk" },
      "Итоги",
    );
    const rows: unknown[][] = [];
    for await (const row of sheet.rows) rows.push(row as unknown[]);
    // D18: «Расчетов» counts the calculations the sums count, never the alternative they leave out.
    expect(rows).toEqual([
      ["Факел по МГЭИК", 0, NOT_COUNTED],
      ["Факел по составу", 2, 149_301.68],
      ["Прогноз", 1, null],
      ["Всего", 3, 149_301.68],
    ]);
  });
});
