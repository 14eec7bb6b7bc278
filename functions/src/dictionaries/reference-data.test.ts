import { describe, expect, it } from "vitest";
import { CALCULATION_TYPES, REGISTRY, TYPE_MODULES, calculationDefinition } from "@core/registry";
import { readFileSync } from "node:fs";
import {
  DICTIONARY_NAMES,
  REFERENCES,
  REFERENCE_DICTIONARIES,
  SECONDARY_SOURCES,
  describeSource,
  plainReference,
  transcribedValues,
  transcribedValuesMarkdown,
  verificationOf,
} from "./reference-data";

const SPEC_NAMES = [
  "get_recycle_technology",
  "get_coeff_co2_density",
  "get_disposal_co2_stat_sources",
  "get_disposal_co2_torch",
  "get_torch_ch4",
  "get_enrichment",
  "get_gas_content",
  "get_methane_abundance",
  "get_handling_underground_ch4",
  "get_underground_emission_ch4",
  "get_open_mining_ch4",
  "get_open_mining_co2",
  "get_underground",
  "get_underground_content",
];

const itemsOf = (name: string) => {
  const d = REFERENCE_DICTIONARIES.find((x) => x.name === name)!;
  return d.sameItemsAs ? REFERENCE_DICTIONARIES.find((x) => x.name === d.sameItemsAs)!.items : d.items;
};

describe("reference-data.json", () => {
  it("has every dictionary docs/api.md names, plus the GWP sets", () => {
    expect(DICTIONARY_NAMES).toEqual(expect.arrayContaining([...SPEC_NAMES, "get_gwp"]));
  });

  // The core names a dictionary by its name here and nowhere else (DictionaryName): every one a type
  // binds to its fields, takes a unit from or shows on the reference page is in the data.
  it("has every dictionary a type's module names", () => {
    for (const type of CALCULATION_TYPES) {
      const def = calculationDefinition(type);
      for (const binding of def.dictionaries) expect(DICTIONARY_NAMES, type).toContain(binding.dictionary);
      for (const field of [...def.inputs, ...def.settings]) {
        if ("unitByEntry" in field && field.unitByEntry) expect(DICTIONARY_NAMES, `${type}.${field.name}`).toContain(field.unitByEntry);
      }
    }
    for (const type of CALCULATION_TYPES) {
      for (const name of TYPE_MODULES[type].reference?.dictionaries ?? []) expect(DICTIONARY_NAMES, type).toContain(name);
    }
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
          expect(dictionary.labels[field], where).toMatch(/^[А-ЯЁ]/);
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

  it("words every reference for users: documents and tables, no tags or internal ids", () => {
    for (const [key, text] of Object.entries(REFERENCES)) {
      expect(text, key).not.toMatch(/\[[A-Z]\d*\]|\bD\d+\b|\bQ\d+\b|methodology|get_[a-z_]+/);
    }
    expect(describeSource({ ref: "371-1.2" })).toBe("Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2");
    expect(verificationOf("T")).toBe("transcription");
    expect(verificationOf("S7")).toBe("transcription");
    expect(verificationOf("S5")).toBe("transcription");
    expect(verificationOf("S3")).toBe("verified");
  });

  it("lists every default read through a secondary copy in docs/methodology.md, by document, table and row", () => {
    const list = transcribedValues();
    expect(list.length).toBeGreaterThan(40);
    expect(list.filter((t) => !/табл\.|формула|уравнени|гл\.|^Постановление/.test(t.document) || !t.row || !t.copy)).toEqual([]);
    expect(list).toContainEqual(
      expect.objectContaining({ dictionary: "get_open_mining_co2", id: 1, field: "ef", row: "Дизельное топливо летнее" }),
    );
    // The corrected 15 °C CO2 density comes from the standard, not from the copy.
    expect(list.find((t) => t.dictionary === "get_coeff_co2_density" && t.id === 2 && t.field === "p_co2")).toBeUndefined();
    const doc = readFileSync(new URL("../../../docs/methodology.md", import.meta.url), "utf8");
    const section = doc.split("<!-- transcribed-values:begin -->")[1]?.split("<!-- transcribed-values:end -->")[0]?.trim();
    expect(section, "docs/methodology.md: npx tsx functions/src/dictionaries/transcribed-values.ts").toBe(transcribedValuesMarkdown());
  });
});

describe("the panel's name", () => {
  it("is «МГЭИК» in every item name, dictionary title, label and reference a user reads, never «IPCC»", () => {
    const read = [
      ...REFERENCE_DICTIONARIES.flatMap((d) => [d.title, ...Object.values(d.labels), ...d.items.map((i) => i.name)]),
      ...Object.values(REFERENCES),
      ...Object.values(SECONDARY_SOURCES),
    ];
    expect(read.filter((text) => /IPCC/.test(text))).toEqual([]);
    expect(read.filter((text) => text.includes("МГЭИК")).length).toBeGreaterThan(20);
  });
});

describe("plainReference", () => {
  // What calculations stored before plain references recorded (describeSource put the tag first).
  it.each([
    [
      "[T] Приказ Минприроды России № 371 от 27.05.2022, табл. 1.1 (по транскрипции [S4], не сверено с официальным текстом)",
      "Приказ Минприроды России № 371 от 27.05.2022, табл. 1.1",
    ],
    [
      "[T] Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2 (по транскрипции [S4]); сверено со справочными данными [S10]",
      "Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2",
    ],
    [
      "[S5] IPCC 2006, т. 2, гл. 4.1 (добыча угля), уравнения 4.1.3–4.1.8; коэффициент пересчета 0,67·10⁻⁶ Гг/м³ при 20 °C[S6]",
      "МГЭИК 2006, т. 2, гл. 4.1 (добыча угля), уравнения 4.1.3–4.1.8; коэффициент пересчета 0,67·10⁻⁶ Гг/м³ при 20 °C",
    ],
    [
      "[R] IPCC 2006, т. 2, гл. 4.1, коэффициенты уровня 1 (methodology 1.6) [S5][S6][S7]",
      "МГЭИК 2006, т. 2, гл. 4.1, коэффициенты уровня 1",
    ],
    [
      "[A] IPCC 2006: коэффициент окисления 1,0 при отсутствии измерений (решение D4)",
      "МГЭИК 2006: коэффициент окисления 1,0 при отсутствии измерений",
    ],
    ["[R] IPCC AR5, ПГП на 100 лет (по памяти автора методики [R])", "МГЭИК AR5, ПГП на 100 лет"],
    [
      "[A] Таблица выбора технологии, methodology 4.10; пороги дебита — инженерные допущения по энергосодержанию (Q14)",
      "Таблица выбора технологии; пороги дебита — инженерные допущения по энергосодержанию",
    ],
    ["[A] Уточнение по замерам шахты", "Уточнение по замерам шахты"],
    ["Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1", "Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1"],
  ])("reads %s plainly", (stored, plain) => {
    expect(plainReference(stored)).toBe(plain);
  });
});
