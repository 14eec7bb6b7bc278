import { describe, expect, it } from "vitest";
import { REGISTRY } from "../../../wasm-core/src/registry";
import { DICTIONARY_NAMES, REFERENCES, REFERENCE_DICTIONARIES } from "./reference-data";

const SPEC_NAMES = [
  "get_recycle_technology", "get_coeff_co2_density", "get_disposal_co2_stat_sources", "get_disposal_co2_torch",
  "get_torch_ch4", "get_enrichment", "get_gas_content", "get_methane_abundance", "get_handling_underground_ch4",
  "get_underground_emission_ch4", "get_open_mining_ch4", "get_open_mining_co2", "get_underground", "get_underground_content",
];

const itemsOf = (name: string) => {
  const d = REFERENCE_DICTIONARIES.find((x) => x.name === name)!;
  return d.sameItemsAs ? REFERENCE_DICTIONARIES.find((x) => x.name === d.sameItemsAs)!.items : d.items;
};

describe("reference-data.json", () => {
  it("has every dictionary SPEC section 7 names, plus the GWP sets", () => {
    expect(DICTIONARY_NAMES).toEqual(expect.arrayContaining([...SPEC_NAMES, "get_gwp"]));
  });

  it("gives every value a unit, a provenance tag and a known reference", () => {
    for (const dictionary of REFERENCE_DICTIONARIES) {
      for (const item of dictionary.items) {
        expect(Object.keys(item.values).length, `${dictionary.name}#${item.id}`).toBeGreaterThan(0);
        for (const [field, v] of Object.entries(item.values)) {
          const where = `${dictionary.name}#${item.id}.${field}`;
          expect(Number.isFinite(v.value), where).toBe(true);
          expect(v.unit, where).not.toBe("");
          expect(v.tag, where).toMatch(/^(S\d+|T|R|A)$/);
          expect(REFERENCES[v.ref], where).toBeDefined();
        }
      }
    }
  });

  it("keeps ids unique and positive within each dictionary", () => {
    for (const dictionary of REFERENCE_DICTIONARIES) {
      const ids = dictionary.items.map((i) => i.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    }
  });

  it("fills every input the calculation registry binds to a dictionary", () => {
    for (const [type, definition] of Object.entries(REGISTRY)) {
      for (const binding of definition.dictionaries) {
        const items = itemsOf(binding.dictionary);
        expect(items.length, `${type} ← ${binding.dictionary}`).toBeGreaterThan(0);
        for (const item of items) {
          for (const field of binding.fields) {
            expect(item.values[field], `${type}: ${binding.dictionary}#${item.id} lacks ${field}`).toBeDefined();
          }
        }
      }
    }
  });

  it("carries the methodology defaults", () => {
    const value = (name: string, id: number, field: string) => itemsOf(name).find((i) => i.id === id)!.values[field].value;
    expect(value("get_coeff_co2_density", 1, "p_ch4")).toBe(0.668);
    expect(value("get_coeff_co2_density", 1, "p_co2")).toBe(1.8393);
    expect(value("get_underground_emission_ch4", 1, "ef")).toBe(18);
    expect(value("get_handling_underground_ch4", 1, "ef")).toBe(2.5);
    expect(value("get_open_mining_ch4", 1, "ef")).toBe(1.2);
    expect(value("get_open_mining_co2", 2, "p")).toBe(0.84);
    expect(value("get_disposal_co2_torch", 1, "ef")).toBe(2.75);
    expect(value("get_gwp", 1, "gwp_ch4")).toBe(25);
  });
});
