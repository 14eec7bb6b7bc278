import { describe, expect, it } from "vitest";
import { REFERENCE_DICTIONARIES } from "@server/dictionaries/reference-data";
import { toEntry } from "@server/domain/reference/dictionaries";
import { REGISTRY, isCalculationType } from "@core/registry";
import { CATEGORIES, coefficientLabel, typeTitle } from "./categories";
import { coefficientTable } from "./coefficients";

const dictionary = (name: string) => REFERENCE_DICTIONARIES.find((d) => d.name === name);
/** get_underground serves the items of get_coeff_co2_density: one table, two API names. */
const storedAs = (name: string) => dictionary(name)?.sameItemsAs ?? name;

/** The seeded items of a dictionary as the API returns them. */
function entries(name: string) {
  const stored = dictionary(storedAs(name));
  return (stored?.items ?? []).map((item) =>
    toEntry({
      dictionary: stored!.name,
      id: item.id,
      name: item.name,
      values: item.values,
      version: 1,
      effective_from: "2026-01-01",
      changed_at: "2026-01-01T00:00:00.000Z",
      changed_by: "system",
      reason: "seed",
    }),
  );
}

describe("emission categories of /dictionary", () => {
  it("declares the 8 categories of docs/user-guide.md and an earlier round's flaring by composition first, in index order, one per calculation type", () => {
    // A type added since has its category after these (its module's reference part).
    expect(CATEGORIES.map((c) => c.index)).toEqual(CATEGORIES.map((_, i) => i));
    expect(new Set(CATEGORIES.map((c) => c.type)).size).toBe(CATEGORIES.length);
    expect(CATEGORIES.slice(0, 9).map((c) => c.type)).toEqual([
      "underground",
      "open_mining_co2",
      "handling_underground_ch4",
      "open_mining_ch4",
      "underground_emission_ch4",
      "torch_ch4",
      "disposal_co2_stat_sources",
      "disposal_co2_torch",
      "torch_composition",
    ]);
  });

  it("gives the boiler on drained gas its composition formula (D28) beside the fuel's, in Russian decimals", () => {
    const boiler = CATEGORIES.find((c) => c.type === "disposal_co2_stat_sources")!;
    expect(boiler.formula).toEqual(["E_CO2 = FC × k × EF × OF", "E_CO2 = FC × (W_CO2 + W_CH4 × OF) × ρ_CO2 × 10⁻²"]);
    expect(boiler.clause).toBe("формулы 1.1, 1.2, 1.3, табл. 1.1");
    expect(CATEGORIES.flatMap((c) => c.formula).filter((line) => /\d\.\d/.test(line))).toEqual([]);
  });

  it("reads each type title from the registry", () => {
    for (const category of CATEGORIES) {
      expect(isCalculationType(category.type)).toBe(true);
      expect(typeTitle(category)).toBe(REGISTRY[category.type].title);
    }
  });

  it("binds only dictionaries the server has, with items", () => {
    for (const category of CATEGORIES) {
      expect(category.dictionaries.length, category.category).toBeGreaterThan(0);
      for (const name of category.dictionaries) {
        expect(dictionary(name), name).toBeDefined();
        expect(entries(name).length, name).toBeGreaterThan(0);
      }
    }
  });

  it("shows every dictionary the calculation type reads (by stored table)", () => {
    for (const category of CATEGORIES) {
      const shown = category.dictionaries.map(storedAs);
      for (const binding of REGISTRY[category.type].dictionaries) {
        expect(shown, `${category.type}: ${binding.dictionary}`).toContain(storedAs(binding.dictionary));
      }
    }
  });

  it("index 0 shows the densities by measurement conditions and the contents by mixture kind", () => {
    expect(CATEGORIES[0].dictionaries).toEqual(["get_coeff_co2_density", "get_underground_content"]);
  });

  it("names a formula symbol and a readable label for every coefficient it shows", () => {
    for (const category of CATEGORIES) {
      for (const name of category.dictionaries) {
        for (const entry of entries(name)) {
          for (const field of Object.keys(entry.units)) {
            expect(category.symbols[field], `${category.type}.${field}`).toBeDefined();
            expect(coefficientLabel(category, field), `${category.type}.${field}`).not.toBe(field);
          }
        }
      }
    }
  });

  it("has a formula and a document link on an https address", () => {
    for (const category of CATEGORIES) {
      expect(category.formula.join(" ")).toMatch(/^E/);
      expect(category.document.label).toMatch(/Приказ Минприроды № 371|МГЭИК 2006/);
      expect(new URL(category.document.url).protocol).toBe("https:");
    }
  });
});

describe("coefficientTable", () => {
  it("numbers distinct sources in order of first use", () => {
    const { rows, sources } = coefficientTable(CATEGORIES[4], entries("get_underground_emission_ch4"));
    expect(sources).toEqual([
      "МГЭИК 2006, т. 2, гл. 4.1, коэффициенты выбросов уровня 1",
      "МГЭИК 2006, т. 2, гл. 4.1 (добыча угля), уравнения 4.1.3–4.1.8; коэффициент пересчета 0,67·10⁻⁶ Гг/м³ при 20 °C",
    ]);
    expect(rows.map((row) => row.sourceNumber)).toEqual([1, 2, 1, 2, 1, 2]);
    for (const row of rows) expect(sources[row.sourceNumber - 1]).toBe(row.source);
  });

  it("gives one row per value with unit and source, and spans the item's cells", () => {
    const { rows, sources } = coefficientTable(CATEGORIES[0], entries("get_coeff_co2_density"));
    expect(rows).toHaveLength(6);
    const first = rows.find((row) => row.itemId === 1 && row.field === "p_ch4");
    expect(first).toMatchObject({
      itemName: "20 °C, 101,325 кПа (стандартные условия, ГОСТ 2939-63)",
      label: "Плотность CH4",
      symbol: "ρ_CH4",
      value: "0,668",
      unit: "кг/м³",
      version: 1,
      effectiveFrom: "2026-01-01",
    });
    expect(first?.source).toBe("Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2");
    expect(rows.map((row) => row.itemSpan)).toEqual([2, 0, 2, 0, 2, 0]);
    // Five densities come from one table of the order; the corrected CO2 density at 15 °C from the
    // gas standard: two numbered sources, each row pointing at its own.
    expect(sources).toHaveLength(2);
    expect(sources[0]).toBe(first?.source);
    const corrected = rows.filter((row) => row.sourceNumber === 2);
    expect(corrected.map((row) => [row.field, row.value])).toEqual([["p_co2", "1,8718"]]);
    expect(sources[1]).toContain("31369");
    expect(rows.filter((row) => row.sourceNumber === 1)).toHaveLength(5);
  });

  it("labels the fuel density, which no calculation input has", () => {
    const { rows } = coefficientTable(CATEGORIES[1], entries("get_open_mining_co2"));
    const winter = rows.find((row) => row.itemName === "Дизельное топливо зимнее" && row.field === "p");
    expect(winter).toMatchObject({ label: "Плотность топлива", value: "0,84", unit: "кг/л" });
  });
});
