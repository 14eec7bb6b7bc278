// The registry against docs/api.md, docs/user-guide.md (conventions) and methodology D8, and against the core.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CALCULATION_TYPES,
  columnHeaderKeys,
  headerKey,
  uploadHeader,
  EMISSION_TYPES,
  FORMULA_TYPES,
  RECYCLE_TECHNOLOGIES,
  REGISTRY,
  CUSTOM_LABEL,
  FORECAST_FEATURES,
  calculationDefinition,
  columnDescription,
  uploadColumns,
  customMode,
  plausibleBand,
  fuelUnitOf,
  unitWith,
  usedEntry,
  isCalculationType,
  isEmissionType,
  isFormulaType,
  type DictionaryName,
  type NumberField,
} from "./registry";

// The product's original list of types (docs/api.md, Calculations), in order: the registry keeps every
// one of them in this order and adds a new type after them, each from its own module. The tests of the
// types themselves read the registry (CALCULATION_TYPES, FORMULA_TYPES, ...); docs/api.md's list and the
// count README.md gives are generated blocks held by tests/integration/docs-numbers.test.ts.
const SPEC_TYPES = [
  "recycle_technology",
  "handling_underground_ch4",
  "open_mining_ch4",
  "open_mining_co2",
  "underground",
  "underground_emission_ch4",
  "disposal_co2_torch",
  "disposal_co2_stat_sources",
  "torch_ch4",
  "torch_composition",
  "regres_methane",
  "filling_blanks",
  "sensitivity",
];

// docs/api.md, «Fields by type»: inputs and results of the original list's formula types.
const SPEC_FIELDS: Record<string, [string[], string[]]> = {
  handling_underground_ch4: [
    ["volume", "ef", "koef_transform"],
    ["res_ch4", "res_ch4_to_co2"],
  ],
  open_mining_ch4: [
    ["volume", "ef", "koef_transform"],
    ["res_ch4", "res_ch4_to_co2"],
  ],
  open_mining_co2: [["volume", "ef"], ["res_co2"]],
  underground: [
    ["volume", "p_co2", "p_ch4", "ef_co2", "ef_ch4", "periods", "file_data"],
    ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2", "periods"],
  ],
  underground_emission_ch4: [
    ["volume", "ef", "koef_transform"],
    ["res_ch4", "res_ch4_to_co2"],
  ],
  disposal_co2_torch: [["volume", "ef", "koef_transform"], ["res_co2"]],
  disposal_co2_stat_sources: [["volume", "ef", "of", "k", "w_ch4", "w_co2"], ["res_co2"]],
  torch_ch4: [
    ["volume", "koef_transform"],
    ["res_ch4", "res_ch4_to_co2"],
  ],
  // an earlier round / docs/methodology.md, D11: Order 371 flaring by composition.
  torch_composition: [
    ["volume", "w_ch4", "w_co2", "w_c2h6", "w_c3h8", "w_c4h10", "w_c5h12", "cf", "p_co2", "p_ch4"],
    ["ef_co2", "ef_ch4", "res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"],
  ],
  recycle_technology: [["metan", "a_metan"], ["technology"]],
};

const CYRILLIC = /[А-Яа-яЁё]/;

describe("calculation registry", () => {
  it("declares every type of docs/api.md's original list, in its order, first, each once", () => {
    expect(CALCULATION_TYPES.slice(0, SPEC_TYPES.length)).toEqual(SPEC_TYPES);
    expect(new Set(CALCULATION_TYPES).size).toBe(CALCULATION_TYPES.length);
    const specFormulaTypes = Object.keys(SPEC_FIELDS).sort((a, b) => SPEC_TYPES.indexOf(a) - SPEC_TYPES.indexOf(b));
    expect(FORMULA_TYPES.filter((type) => SPEC_TYPES.includes(type))).toEqual(specFormulaTypes);
    expect(FORMULA_TYPES).toEqual(CALCULATION_TYPES.filter((type) => REGISTRY[type].kind === "formula"));
    expect(EMISSION_TYPES).not.toContain("recycle_technology");
  });

  it("has type guards that accept only registry types", () => {
    for (const type of SPEC_TYPES) expect(isCalculationType(type)).toBe(true);
    for (const other of ["", "toString", "__proto__", "Underground", 1, null, undefined, {}]) expect(isCalculationType(other)).toBe(false);
    expect(isFormulaType("underground")).toBe(true);
    expect(isFormulaType("sensitivity")).toBe(false);
    expect(isEmissionType("recycle_technology")).toBe(false);
    expect(calculationDefinition("torch_ch4")).toBe(REGISTRY.torch_ch4);
  });

  it.each(Object.entries(SPEC_FIELDS))("gives %s the fields of docs/api.md, in order", (type, [inputs, results]) => {
    const def = calculationDefinition(type as keyof typeof REGISTRY);
    expect(def.kind).toBe("formula");
    expect(def.inputs.map((f) => f.name)).toEqual(inputs);
    expect(def.results.map((f) => f.name)).toEqual(results);
  });

  it("labels every type, field and setting in Russian, with a unit on every number", () => {
    for (const type of CALCULATION_TYPES) {
      const def = calculationDefinition(type);
      expect(def.title).toMatch(CYRILLIC);
      for (const field of [...def.inputs, ...def.results, ...def.settings]) {
        expect(field.label, `${type}.${field.name}`).toMatch(CYRILLIC);
        if (def.kind === "formula" && field.type === "number") expect(field.unit, `${type}.${field.name}`).not.toBe("");
      }
    }
  });

  it("uses the volume units of methodology D8", () => {
    const unit = (type: keyof typeof REGISTRY) => calculationDefinition(type).inputs.find((f) => f.name === "volume")?.unit;
    for (const type of ["underground_emission_ch4", "handling_underground_ch4", "open_mining_ch4"] as const) expect(unit(type)).toBe("т");
    expect(unit("open_mining_co2")).toBe("т топлива");
    for (const type of ["underground", "disposal_co2_torch", "torch_ch4"] as const) expect(unit(type)).toBe("тыс. м³");
  });

  it("bounds concentrations at 100 % and fixes koef_transform of underground_emission_ch4 at 0.67", () => {
    const field = (type: keyof typeof REGISTRY, name: string) =>
      calculationDefinition(type).inputs.find((f) => f.name === name) as { max?: number; fixed?: number };
    expect(field("underground", "ef_co2").max).toBe(100);
    expect(field("underground", "ef_ch4").max).toBe(100);
    expect(field("recycle_technology", "metan").max).toBe(100);
    expect(field("underground_emission_ch4", "koef_transform").fixed).toBe(0.67);
    const fixedElsewhere = CALCULATION_TYPES.filter((t) => t !== "underground_emission_ch4")
      .flatMap((t) => calculationDefinition(t).inputs)
      .filter((f) => "fixed" in f);
    expect(fixedElsewhere).toEqual([]);
  });

  // That each dictionary is in the data: reference-data.test.ts.
  it("binds dictionaries to fields the type has", () => {
    for (const type of CALCULATION_TYPES) {
      const def = calculationDefinition(type);
      const names = [...def.inputs, ...def.settings].map((f) => f.name);
      for (const binding of def.dictionaries) {
        for (const field of binding.fields) expect(names, `${type} ← ${binding.dictionary}`).toContain(field);
      }
    }
  });

  it("offers «Фактическое значение» for every dictionary-fed coefficient (D10); open_mining_ch4 fixes koef_transform", () => {
    for (const t of CALCULATION_TYPES) {
      for (const b of calculationDefinition(t).dictionaries) expect(customMode(b).label, `${t} ${b.dictionary}`).toBe(CUSTOM_LABEL);
    }
    expect(customMode(REGISTRY.open_mining_ch4.dictionaries[0]).fixed).toEqual({ koef_transform: 0.67 });
    expect(customMode(REGISTRY.underground_emission_ch4.dictionaries[0]).fixed).toBeUndefined();
  });

  it("gives the plausible band of D10: IPCC range ×2, densities, oxidation, concentrations", () => {
    const field = (t: keyof typeof REGISTRY, name: string) =>
      [...REGISTRY[t].inputs, ...REGISTRY[t].settings].find((f) => f.name === name) as NumberField;
    expect(plausibleBand(field("underground_emission_ch4", "ef"))).toEqual({ min: 5, max: 50 });
    expect(plausibleBand(field("handling_underground_ch4", "ef"))).toEqual({ min: 0.45, max: 8 });
    expect(plausibleBand(field("underground", "p_co2"))).toEqual({ min: 0.5, max: 2.2 });
    expect(plausibleBand(field("disposal_co2_stat_sources", "of"))).toEqual({ min: 0.9, max: 1 });
    expect(plausibleBand(field("underground", "ef_ch4"))).toEqual({ min: 0, max: 100 });
    expect(plausibleBand(field("disposal_co2_stat_sources", "k"))).toBeUndefined();
  });

  it("hides edit only for recycle_technology", () => {
    expect(CALCULATION_TYPES.filter((t) => !calculationDefinition(t).editable)).toEqual(["recycle_technology"]);
  });

  // Each emission type's kernel is checked by the compiler (emissions-core.ts, `Kernels`), not here.
  it("names the kinds and the core of every type", () => {
    for (const type of CALCULATION_TYPES) {
      expect(["formula", "forecast", "file"]).toContain(calculationDefinition(type).kind);
    }
    expect(REGISTRY.regres_methane.kind).toBe("forecast");
    expect(REGISTRY.regres_methane.core.module).toBe("gbdt");
    expect([REGISTRY.filling_blanks.kind, REGISTRY.sensitivity.kind]).toEqual(["file", "file"]);
  });

  it("lists the columns of every upload file once, in template order", () => {
    const names = (type: Parameters<typeof uploadColumns>[0]) => uploadColumns(type).map((c) => c.name);
    expect(names("sensitivity")).toEqual(["year", "volume", "methane", "transport_fuel", "element", "volume_unit"]);
    expect(names("filling_blanks")).toEqual(["year", "element", "value"]);
    expect(names("regres_methane")).toEqual(["id", ...FORECAST_FEATURES, "y", "p_atm", "t"]);
    expect(FORECAST_FEATURES).toEqual(["x1", "x2", "x7", "x8", "x12", "x13", "x15"]);
    // The manual table and the upload share the data columns.
    const table = REGISTRY.regres_methane.inputs.find((f) => f.name === "data") as { columns: readonly NumberField[] };
    expect(table.columns.map((c) => c.name)).toEqual(FORECAST_FEATURES);
    // D14: measurement periods from a file, the same columns as the dialog's period table.
    expect(names("underground")).toEqual(["from", "to", "flow_m3_min", "hours", "w_ch4", "w_co2"]);
    expect(uploadColumns("underground_emission_ch4")).toEqual([]);
    // filling_blanks: the value and element columns are the ones the user names.
    expect(uploadColumns("filling_blanks").map((c) => c.namedBy)).toEqual([undefined, "name_element", "name_value"]);
  });

  it("describes an upload column with its unit, whether it may be left out and its note", () => {
    const column = (type: "sensitivity", name: string) => uploadColumns(type).find((c) => c.name === name)!;
    expect(columnDescription(column("sensitivity", "volume"))).toBe("Добыча угля, т");
    expect(columnDescription(column("sensitivity", "transport_fuel"))).toBe(
      "Необязательно: расход дизельного топлива на транспорт, т. Для всех лет или ни для одного",
    );
  });

  it("lists the twelve technologies of the 4.10 table with unique codes", () => {
    expect(RECYCLE_TECHNOLOGIES).toHaveLength(12);
    expect(new Set(RECYCLE_TECHNOLOGIES.map((t) => t.code)).size).toBe(12);
  });

  it("is plain data (survives JSON) and imports nothing from Node, so browsers and the API can share it", () => {
    expect(JSON.parse(JSON.stringify(REGISTRY))).toEqual(REGISTRY);
    for (const file of ["registry.ts", "coefficient-rules.ts", "emissions-core.ts", "emissions-browser.ts", "methodology-vectors.ts"]) {
      const source = readFileSync(new URL(file, import.meta.url), "utf8");
      expect(source, file).not.toMatch(/from\s+["'](node:|fs|path|\.\/wasm-file|\.\/emissions["'])/);
    }
  });
});

describe("upload headers (one table: UPLOAD_HEADER_ALIASES)", () => {
  it.each(CALCULATION_TYPES.filter((t) => uploadColumns(t).length > 0))("%s: no header reads as two columns", (type) => {
    const owner = new Map<string, string>();
    for (const column of uploadColumns(type)) {
      for (const key of columnHeaderKeys(column)) {
        expect(owner.get(key) ?? column.name, `«${key}»`).toBe(column.name);
        owner.set(key, column.name);
      }
    }
  });

  it("compares headers case, spaces, punctuation and superscripts aside", () => {
    expect(headerKey(" Расход газовой смеси,  м3/мин ")).toBe(headerKey("РАСХОД ГАЗОВОЙ СМЕСИ, м³/мин"));
    expect(headerKey("Flow_M3_Min")).toBe("flowm3min");
    expect(uploadHeader(uploadColumns("underground")[2])).toBe("Расход газовой смеси, м³/мин");
  });

  it("heads the gap-filling template's columns in Russian, the ones the user names too", () => {
    expect(uploadColumns("filling_blanks").map(uploadHeader)).toEqual(["Год", "Шахта", "Значение"]);
    expect(uploadColumns("sensitivity").map(uploadHeader).join(" ")).not.toMatch(/[a-z]{3,}/);
  });
});

describe("units that follow the fuel (4.8)", () => {
  const def = REGISTRY.disposal_co2_stat_sources;
  const field = (name: string) => def.inputs.find((f) => f.name === name) as NumberField;

  it("reads a fuel's unit from the end of its entry's name, and no other ending", () => {
    expect(fuelUnitOf("Топливо дизельное, т")).toBe("т");
    expect(fuelUnitOf("Газ горючий природный (через т у.т.), тыс. м³")).toBe("тыс. м³");
    expect(fuelUnitOf("Каптированный шахтный метан (100 % CH4), тыс. м³")).toBe("тыс. м³");
    expect(fuelUnitOf("Подземная добыча, среднее значение МГЭИК")).toBeUndefined();
    expect(fuelUnitOf(undefined)).toBeUndefined();
  });

  it("gives the consumption, the factor and the conversion the chosen entry's units; the field's own without one", () => {
    const mineGas = { name: "Каптированный шахтный метан (100 % CH4), тыс. м³", units: { ef: "т CO2/тыс. м³", k: "—" } };
    const chosen = (entry?: typeof mineGas) => (name: DictionaryName) => (name === "get_disposal_co2_stat_sources" ? entry : undefined);
    expect(["volume", "ef", "k"].map((name) => unitWith(def, field(name), chosen(mineGas)))).toEqual(["тыс. м³", "т CO2/тыс. м³", ""]);
    expect(["volume", "ef", "k"].map((name) => unitWith(def, field(name), chosen()))).toEqual([
      "тыс. м³ или т",
      "т CO2/т у.т.",
      "т у.т./ед.",
    ]);
    // A stored calculation's entry, as its coefficients recorded it.
    const use = { unit: "т CO2/тыс. м³", dictionary: "get_disposal_co2_stat_sources", item_name: mineGas.name };
    expect(usedEntry({ ef: use, volume: { unit: "тыс. м³ или т" } }, "get_disposal_co2_stat_sources")).toEqual({
      name: mineGas.name,
      units: { ef: "т CO2/тыс. м³" },
    });
  });
});
