// Every worked example of the methodology (each type's `vectors` and the formula tables) against the
// WASM build in Node: relative tolerance 1e-9, sensitivity coefficients and gap filling 1e-6.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  FieldError,
  MESSAGES,
  calculate,
  evaluate,
  calculateBatch,
  emissionsCore,
  fillBlanks,
  fuelLitresToTonnes,
  gasM3ToTonnes,
  openBatch,
  recycleTechnology,
  sensitivity,
  warnings,
} from "./emissions";
import { RECYCLE_INVALID, SECTION_7_VECTORS, TYPE_VECTORS, inputsOf, vectors } from "./methodology-vectors";
import { EMISSION_TYPES, REGISTRY, TYPE_MODULES, type EmissionType } from "./registry";

const REL = 1e-9;

function expectClose(actual: number, expected: number, rel = REL): void {
  const scale = Math.max(Math.abs(expected), 1e-300);
  if (expected === 0) expect(Math.abs(actual)).toBeLessThanOrEqual(1e-12);
  else expect(Math.abs(actual - expected) / scale, `${actual} vs ${expected}`).toBeLessThanOrEqual(rel);
}

// Section 5 of the methodology as copied into the repository (tests/fixtures/methodology/README.md says from where).
const METHODOLOGY_VECTORS = new URL("../../tests/fixtures/methodology/vectors.json", import.meta.url);

describe("methodology vectors fixture", () => {
  it("is section 5 of the methodology verbatim", () => {
    expect(JSON.parse(readFileSync(METHODOLOGY_VECTORS, "utf8"))).toEqual(vectors);
  });
});

// Each type's block is named by the methodology's section its worked examples come from (its module's `vectors.section`).
describe.each(EMISSION_TYPES.map((type) => [type, TYPE_MODULES[type].vectors?.section ?? "no section"] as const))(
  "%s, %s vectors",
  (type: EmissionType) => {
    const rows = TYPE_VECTORS[type];
    // A table result (underground's measurement periods, D14) is not the core's.
    const resultNames = REGISTRY[type].results.filter((f) => f.type === "number").map((f) => f.name);

    it.each(rows.map((row, i) => [i, row] as const))("row %i at GWP 25", (_i, row) => {
      const results = calculate(type, inputsOf(type, row), { gwp_ch4: vectors.gwp_ch4 }) as Record<string, number>;
      expect(Object.keys(results)).toEqual(resultNames);
      for (const name of resultNames) expectClose(results[name], row[name] as number);
    });

    it("uses GWP 25 when no coefficient is given (D1)", () => {
      const row = rows[0];
      expect(calculate(type, inputsOf(type, row))).toEqual(calculate(type, inputsOf(type, row), { gwp_ch4: 25 }));
    });

    it("computes the whole set in one batch", () => {
      const columns: Record<string, number[]> = {};
      for (const row of rows) for (const [k, v] of Object.entries(inputsOf(type, row))) (columns[k] ??= []).push(v);
      const batch = calculateBatch(type, columns) as Record<string, Float64Array>;
      rows.forEach((row, i) => {
        for (const name of resultNames) expectClose(batch[name][i], row[name] as number);
      });
    });
  },
);

describe("section 4 tables", () => {
  it.each([
    [18, 337_680],
    [10, 187_600],
    [25, 469_000],
  ])("4.1 underground_emission_ch4: 1 000 000 t × %d m³/t at GWP 28 → %d t CO2e", (ef, co2e) => {
    expectClose(calculate("underground_emission_ch4", { volume: 1_000_000, ef }, { gwp_ch4: 28 }).res_ch4_to_co2, co2e);
  });

  it("4.1 underground_emission_ch4: zero production gives zero", () => {
    expect(calculate("underground_emission_ch4", { volume: 0, ef: 18, koef_transform: 0.67 })).toEqual({ res_ch4: 0, res_ch4_to_co2: 0 });
  });

  it("4.2 handling_underground_ch4 at GWP 28 → 46 900 t CO2e", () => {
    const r = calculate("handling_underground_ch4", { volume: 1_000_000, ef: 2.5, koef_transform: 0.67 }, { gwp_ch4: 28 });
    expectClose(r.res_ch4, 1675);
    expectClose(r.res_ch4_to_co2, 46_900);
  });

  it("4.6 disposal_co2_torch: 0.98 × 1000 × 0.67 × 2.75 = 1805.65 t", () => {
    expectClose(calculate("disposal_co2_torch", { volume: 1000, ef: 2.75, koef_transform: 0.67 }).res_co2, 1805.65);
  });

  it("4.7 torch_ch4 of 760 thousand m³ CH4 (1000 of 76 % mixture) → 10.184 t", () => {
    expectClose(calculate("torch_ch4", { volume: 760, koef_transform: 0.67 }).res_ch4, 10.184);
  });

  it("4.9 converters, incl. CH4 at 0 °C", () => {
    for (const v of vectors.convert_fuel_litres_to_t) expectClose(fuelLitresToTonnes(v.quantity, v.p), v.result_t);
    for (const v of vectors.convert_gas_m3_to_t) expectClose(gasM3ToTonnes(v.quantity, v.density), v.result_t);
    expectClose(gasM3ToTonnes(1000, 0.717), 0.717);
  });

  it("4.4 diesel given in litres: 1000 L × 0.840 → 0.84 t → 2.64516 t CO2", () => {
    const tonnes = fuelLitresToTonnes(1000, 0.84);
    expectClose(calculate("open_mining_co2", { volume: tonnes, ef: 3.149 }).res_co2, 2.64516);
  });
});

describe("a create's one call (evaluate): bounds once, formula, results' bounds", () => {
  const refusal = (run: () => unknown): FieldError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  };

  it("computes what calculate computes within the bounds", () => {
    const values = { volume: 1_000_000, ef: 18, koef_transform: 0.67, gwp_ch4: 25 };
    expect(evaluate("underground_emission_ch4", values)).toEqual(calculate("underground_emission_ch4", values, { gwp_ch4: 25 }));
  });

  it("names a value over its bound by its label, in the unit it was typed in, as data", () => {
    const over = refusal(() => evaluate("open_mining_ch4", { volume: 2e8, ef: 1.2, koef_transform: 0.67 }, { volume: { unit: "тыс. т" } }));
    expect([over.field, over.code, over.params]).toEqual(["volume", "too_big", { maximum: 100_000, unit: "тыс. т" }]);
    expect(over.message).toBe("«Объём добычи угля открытым способом»: Значение должно быть не больше 100 000 тыс. т");
    // The same check and message without a unit typed: the field's own.
    expect(refusal(() => evaluate("open_mining_ch4", { volume: 2e8, ef: 1.2, koef_transform: 0.67 })).message).toBe(
      "«Объём добычи угля открытым способом»: Значение должно быть не больше 100 000 000 т",
    );
  });

  it("refuses a result over its bound, naming the result", () => {
    const over = refusal(() => evaluate("open_mining_co2", { volume: 300_000, ef: 10 }));
    expect([over.field, over.code]).toEqual(["res_co2", "too_big"]);
    expect(over.message).toMatch(/^«Выбросы CO2» — 3 000 000 т CO2, больше предела 1 000 000 т CO2 для одного расчета/);
  });
});

describe("7.1 torch_composition (Order 371 formulas 2.2 and 2.4)", () => {
  const example = SECTION_7_VECTORS.torch_composition[0];
  const inputs = { volume: 2500, w_ch4: 60, w_co2: 5, w_c2h6: 1, w_c3h8: 0.5, cf: 0.0006, p_co2: 1.8393, p_ch4: 0.668 };
  const fieldError = (run: () => unknown): FieldError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  };
  const expectAbs = (actual: number, expected: number) =>
    expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);

  it("reproduces the worked example to 1e-9 (missing butane and pentane count as 0)", () => {
    const r = calculate("torch_composition", inputs, { gwp_ch4: 25 });
    expect(Object.keys(r)).toEqual(["ef_co2", "ef_ch4", "res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"]);
    for (const name of Object.keys(r) as (keyof typeof r)[]) expectAbs(r[name], example[name] as number);
    expect(calculate("torch_composition", { ...inputs, w_c4h10: 0, w_c5h12: null })).toEqual(r);
  });

  it("counts the carbon atoms of every hydrocarbon: butane 4, pentane 5", () => {
    const only = (w: Record<string, number>) => calculate("torch_composition", { volume: 1, cf: 0, p_co2: 1, p_ch4: 1, ...w }).ef_co2;
    expectAbs(only({ w_c4h10: 10 }), 0.4);
    expectAbs(only({ w_c5h12: 10 }), 0.5);
    expectAbs(only({ w_co2: 10 }), 0.1);
  });

  it("a sooty flame (CF 0.035) leaves 76 % × 0.035 × 0.668 × 10⁻² = 0.0177688 t CH4 per thousand m³ (Table 2.1 check of 1.3)", () => {
    expectAbs(calculate("torch_composition", { volume: 1, w_ch4: 76, cf: 0.035, p_co2: 1.8393, p_ch4: 0.668 }).ef_ch4, 0.0177688);
  });

  it("refuses contents that sum above 100 % vol, naming the fields", () => {
    const error = fieldError(() => calculate("torch_composition", { ...inputs, w_ch4: 95 }));
    expect(error.field).toBe("w_ch4");
    expect(error.message).toContain("(«Содержание CH4 в смеси» + «Содержание CO2 в смеси» + «Содержание этана C2H6 в смеси»");
    expect(error.message).not.toMatch(/w_c/);
    expect(error.message).toContain("не больше 100");
    expect(() => calculate("torch_composition", { ...inputs, w_ch4: 60, w_co2: 30, w_c2h6: 10, w_c3h8: 0 })).not.toThrow();
    const batch = () => calculateBatch("torch_composition", { ...inputs, w_ch4: [60, 95] });
    expect(fieldError(batch).row).toBe(1);
  });

  it("refuses a CF above 1 and a negative content", () => {
    expect(fieldError(() => calculate("torch_composition", { ...inputs, cf: 1.5 })).field).toBe("cf");
    expect(fieldError(() => calculate("torch_composition", { ...inputs, w_c3h8: -1 })).field).toBe("w_c3h8");
  });

  it("the scalar exports give the emission factors", () => {
    const core = emissionsCore().exports as unknown as Record<string, (...args: number[]) => number>;
    expectAbs(core.torch_composition_ef_co2(60, 5, 1, 0.5, 0, 0, 0.0006, 1.8393), 1.2592197267);
    expectAbs(core.torch_composition_ef_ch4(60, 0.0006, 0.668), 0.00024048);
    expectAbs(core.torch_composition(2500, 60, 5, 1, 0.5, 0, 0, 0.0006, 1.8393, 0.668, 25), 3163.07931675);
  });
});

describe("4.8 with D24/D28: drained gas of known composition in a boiler or engine", () => {
  // The mine-gas entry: ef = ρ CO2 at 20 °C, t CO2 per thousand m³, k = 1.
  const drained = { volume: 1000, ef: 1.8393, k: 1, of: 1, w_ch4: 60, w_co2: 5 };
  const fieldError = (run: () => unknown): FieldError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  };

  it("emits the CO2 of the burnt CH4 and the mixture's own: V × (W_CO2 + W_CH4 × OF) × ρ_CO2 × 10⁻²", () => {
    // 1 000 × (5 + 60) × 1,8393 / 100 = 1 195,545 t, of which 91,965 t the gas carried.
    expectClose(calculate("disposal_co2_stat_sources", drained).res_co2, 1195.545);
    expectClose(calculate("disposal_co2_stat_sources", { ...drained, of: 0.995 }).res_co2, 1190.0271);
    // Without a composition the entry stands (4.8's pure CMM vector, 1 839,3 t).
    expectClose(calculate("disposal_co2_stat_sources", { ...drained, w_ch4: null, w_co2: undefined }).res_co2, 1839.3);
    const core = emissionsCore().exports as unknown as Record<string, (...args: number[]) => number>;
    expectClose(core.disposal_co2_stat_sources(1000, 1.8393, 1, 1, 60, 5), 1195.545);
    const batch = calculateBatch("disposal_co2_stat_sources", { ...drained, w_ch4: [60, 0, 100], w_co2: [5, 0, 0] });
    expect([...batch.res_co2].map((v) => Math.round(v * 1000) / 1000)).toEqual([1195.545, 1839.3, 1839.3]);
  });

  it("refuses contents above 100 % vol together, naming the field", () => {
    const error = fieldError(() => calculate("disposal_co2_stat_sources", { ...drained, w_ch4: 96 }));
    expect(error.field).toBe("w_ch4");
    expect(error.message).toContain("«Содержание CH4 в смеси» + «Содержание CO2 в смеси»");
    expect(fieldError(() => calculate("disposal_co2_stat_sources", { ...drained, w_co2: -1 })).field).toBe("w_co2");
  });
});

describe("the core's scalar exports (one per formula)", () => {
  const core = emissionsCore().exports as unknown as Record<string, (...args: number[]) => number>;

  it("match the section 5 vectors", () => {
    for (const r of vectors.underground_emission_ch4)
      expectClose(core.underground_emission_ch4(+r.volume, +r.ef, +r.koef_transform), +r.res_ch4);
    for (const r of vectors.handling_underground_ch4)
      expectClose(core.handling_underground_ch4(+r.volume, +r.ef, +r.koef_transform), +r.res_ch4);
    for (const r of vectors.open_mining_ch4) expectClose(core.open_mining_ch4(+r.volume, +r.ef, +r.koef_transform), +r.res_ch4);
    for (const r of vectors.open_mining_ch4) expectClose(core.ch4_to_co2(+r.res_ch4, 25), +r.res_ch4_to_co2);
    for (const r of vectors.open_mining_co2) expectClose(core.open_mining_co2(+r.volume, +r.ef), +r.res_co2);
    for (const r of vectors.underground) {
      expectClose(core.underground_ch4(+r.volume, +r.p_ch4, +r.ef_ch4), +r.res_ch4);
      expectClose(core.underground_co2(+r.volume, +r.p_co2, +r.ef_co2), +r.res_co2);
      expectClose(core.underground(+r.volume, +r.p_co2, +r.p_ch4, +r.ef_co2, +r.ef_ch4, 25), +r.sum_co2);
    }
    for (const r of vectors.disposal_co2_torch) expectClose(core.disposal_co2_torch(+r.volume, +r.ef, +r.koef_transform), +r.res_co2);
    for (const r of vectors.torch_ch4) expectClose(core.torch_ch4(+r.volume, +r.koef_transform), +r.res_ch4);
    for (const r of vectors.disposal_co2_stat_sources)
      expectClose(core.disposal_co2_stat_sources(+r.volume, +r.ef, +r.of, +r.k, 0, 0), +r.res_co2);
  });
});

describe("4.10 recycle_technology", () => {
  it.each(vectors.recycle_technology.map((v) => [v.metan, v.a_metan, v.code] as const))(
    "(%d %%, %d m³/min) → %s",
    (metan, a_metan, code) => {
      const result = recycleTechnology(metan, a_metan);
      expect(result.code).toBe(code);
      expect(calculate("recycle_technology", { metan, a_metan })).toEqual(result);
    },
  );

  it.each(RECYCLE_INVALID.map((v) => [v.metan, v.a_metan, v.field] as const))(
    "(%d, %d) is a validation error of %s",
    (metan, a_metan, field) => {
      expect(() => recycleTechnology(metan, a_metan)).toThrow(FieldError);
      try {
        calculate("recycle_technology", { metan, a_metan });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(FieldError);
        expect((error as FieldError).field).toBe(field);
      }
    },
  );

  it("gives the Russian texts of the 4.10 table", () => {
    expect(recycleTechnology(50, 0).technology).toBe("Дебит метана равен нулю — утилизация не требуется.");
    expect(recycleTechnology(45, 0.3).technology).toBe(
      "Сжигание на факельной установке (утилизация энергии нецелесообразна из-за малого дебита).",
    );
  });

  it("takes the flow thresholds from the dictionary (D5)", () => {
    expect(recycleTechnology(45, 8).code).toBe("GAS_ENGINE_CHP");
    expect(recycleTechnology(45, 8, { q_power_plant: 8 }).code).toBe("POWER_PLANT");
    expect(recycleTechnology(45, 1.5, { q_gas_engine: 1 }).code).toBe("GAS_ENGINE_CHP");
    expect(recycleTechnology(0.6, 4, { q_vam_energy: 4 }).code).toBe("VAM_ENERGY");
    expect(recycleTechnology(95, 8, { q_pipeline: 8 }).code).toBe("PIPELINE_CNG_LNG");
    expect(() => recycleTechnology(45, 8, { q_boiler: -1 })).toThrow(FieldError);
  });
});

describe("4.11 sensitivity", () => {
  const { params, rows, tolerance_abs_sn } = vectors.sensitivity;
  const input = rows.map(({ year, volume, methane }) => ({ year, volume, methane }));

  it("matches the vectors: emissions to 1e-9, coefficients to 1e-6", () => {
    const result = sensitivity(input, params);
    expect(result.map((r) => r.year)).toEqual(rows.map((r) => r.year));
    result.forEach((r, i) => {
      expectClose(r.res_co2, rows[i].res_co2);
      expectClose(r.res_co2_transport, rows[i].res_co2_transport);
      expectClose(r.res_co2_all, rows[i].res_co2_all);
      expect(Math.abs((r.sn_volume ?? NaN) - rows[i].sn_volume)).toBeLessThanOrEqual(tolerance_abs_sn);
      expect(Math.abs((r.sn_methan ?? NaN) - rows[i].sn_methan)).toBeLessThanOrEqual(tolerance_abs_sn);
    });
  });

  it("returns alternative B as el_volume / el_methan (table of 4.11)", () => {
    const result = sensitivity(input, params);
    expect(result[0].el_volume).toBeNull();
    expect(result[0].el_methan).toBeNull();
    const expected = [
      [0.434325, -0.750198],
      [-1.262948, 0.549108],
    ];
    expected.forEach(([volume, methan], i) => {
      expect(Math.abs((result[i + 1].el_volume ?? NaN) - volume)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs((result[i + 1].el_methan ?? NaN) - methan)).toBeLessThanOrEqual(1e-6);
    });
  });

  it("sorts by year and uses the registry defaults (ρ 0.67, GWP 25, k_tr 0.003149, δ 10 %)", () => {
    const shuffled = [input[2], input[0], input[1]];
    expect(sensitivity(shuffled)).toEqual(sensitivity(input, params));
  });

  it("uses transport_fuel × 3.149 when the file has that column (D6)", () => {
    const result = sensitivity([{ year: 2020, volume: 1_000_000, methane: 10, transport_fuel: 1000 }], params);
    expectClose(result[0].res_co2_transport, 3149);
    expectClose(result[0].sn_volume ?? NaN, 167_500 / 170_649, 1e-9);
  });

  it("gives null coefficients when there is nothing to emit, and null elasticities when a driver is flat", () => {
    const result = sensitivity([
      { year: 2020, volume: 0, methane: 10 },
      { year: 2021, volume: 0, methane: 12 },
    ]);
    expect(result[0]).toMatchObject({ res_co2_all: 0, sn_volume: null, sn_methan: null });
    expect(result[1].el_volume).toBeNull();
    expect(result[1].el_methan).toBeNull();
  });

  it("rejects a repeated year, a negative volume and a partial transport column", () => {
    expect(() => sensitivity([input[0], input[0]])).toThrow(/повторяется/);
    expect(() => sensitivity([{ ...input[0], volume: -1 }])).toThrow(FieldError);
    expect(() => sensitivity([{ ...input[0], transport_fuel: 1 }, input[1]])).toThrow(FieldError);
  });
});

describe("4.12 filling_blanks", () => {
  it.each(vectors.filling_blanks.map((v, i) => [i, v] as const))("vector %i", (_i, v) => {
    const filled = fillBlanks(v.years, v.values);
    filled.forEach((cell, i) => {
      expect(cell.year).toBe(v.years[i]);
      expect(Math.abs((cell.value ?? NaN) - v.filled[i])).toBeLessThanOrEqual(1e-6);
    });
  });

  it("flags every filled value with its method (D7)", () => {
    const [a, b, c] = vectors.filling_blanks;
    expect(fillBlanks(a.years, a.values).map((f) => f.method)).toEqual([
      "trend",
      null,
      "interp",
      "interp",
      null,
      null,
      "interp",
      null,
      "trend",
      "trend",
    ]);
    expect(fillBlanks(b.years, b.values).map((f) => f.method)).toEqual([null, null, "interp", null, "clipped"]);
    expect(fillBlanks(c.years, c.values).map((f) => f.method)).toEqual(["constant", "constant", null, "constant", "constant"]);
  });

  it("leaves an element with no observation blank and flagged", () => {
    expect(fillBlanks([2020, 2021], [null, null])).toEqual([
      { year: 2020, value: null, method: "empty" },
      { year: 2021, value: null, method: "empty" },
    ]);
  });

  it("interpolates on the year axis for unevenly spaced, unsorted years", () => {
    const filled = fillBlanks([2030, 2010, 2012], [30, 10, null]);
    expect(filled[2]).toEqual({ year: 2012, value: 12, method: "interp" });
  });
});

describe("validation before the core runs", () => {
  const valid = { volume: 10_000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

  function fieldError(run: () => unknown): FieldError {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  }

  it.each([
    ["volume", -1, "Значение должно быть неотрицательным числом"],
    ["volume", Number.NaN, "Значение должно быть неотрицательным числом"],
    ["p_co2", Number.POSITIVE_INFINITY, "Значение должно быть неотрицательным числом"],
    ["ef_ch4", 100.5, "«Содержание CH4 в смеси»: Значение должно быть не больше 100 % об."],
    ["ef_co2", "10", "Значение должно быть неотрицательным числом"],
    ["p_ch4", undefined, "Поле обязательно для заполнения"],
    ["p_ch4", null, "Поле обязательно для заполнения"],
  ])("underground: %s = %s is rejected", (field, value, message) => {
    const error = fieldError(() => calculate("underground", { ...valid, [field]: value }));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  it("keeps koef_transform of underground_emission_ch4 at 0.67", () => {
    expect(calculate("underground_emission_ch4", { volume: 1, ef: 18 })).toEqual(
      calculate("underground_emission_ch4", { volume: 1, ef: 18, koef_transform: 0.67 }),
    );
    expect(fieldError(() => calculate("underground_emission_ch4", { volume: 1, ef: 18, koef_transform: 0.7 })).field).toBe(
      "koef_transform",
    );
  });

  it("rejects an oxidation factor above 1, a bad GWP and an unknown type", () => {
    expect(fieldError(() => calculate("disposal_co2_stat_sources", { volume: 1, ef: 1, of: 1.1, k: 1 })).field).toBe("of");
    expect(fieldError(() => calculate("torch_ch4", { volume: 1, koef_transform: 0.67 }, { gwp_ch4: -25 })).field).toBe("gwp_ch4");
    expect(fieldError(() => calculate("filling_blanks" as never, {})).field).toBe("type");
  });

  it("names the row of a bad batch value and checks column lengths", () => {
    const error = fieldError(() => calculateBatch("open_mining_co2", { volume: [1, 2, -3], ef: 3.149 }));
    expect([error.field, error.row]).toEqual(["volume", 2]);
    expect(fieldError(() => calculateBatch("open_mining_co2", { volume: [1, 2], ef: [3.149] })).field).toBe("ef");
    expect(fieldError(() => calculateBatch("open_mining_co2", { volume: [1, 2] })).field).toBe("ef");
  });

  it("rejects bad converter input", () => {
    expect(fieldError(() => fuelLitresToTonnes(-5, 0.84)).field).toBe("quantity");
    expect(fieldError(() => gasM3ToTonnes(1000, Number.NaN)).field).toBe("density");
  });

  it("warns, without rejecting, outside the IPCC range of 1.6", () => {
    expect(warnings("underground_emission_ch4", { volume: 1, ef: 30 })).toEqual([
      { field: "ef", message: "Значение вне типичного диапазона МГЭИК 10–25 м³/т" },
    ]);
    expect(warnings("underground_emission_ch4", { volume: 1, ef: 18 })).toEqual([]);
  });
});

describe("Float64Array batches (checked in the core)", () => {
  const rows = emissionsCore().batchRows + 5;
  const column = (value: number) => new Float64Array(rows).fill(value);
  const fieldError = (run: () => unknown): FieldError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  };

  it("names the same field and row as the value-by-value check", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const volume = column(2);
      volume[rows - 3] = bad;
      const typed = fieldError(() => calculateBatch("open_mining_co2", { volume, ef: column(3.149) }));
      const plain = fieldError(() => calculateBatch("open_mining_co2", { volume: Array.from(volume), ef: 3.149 }));
      expect([typed.field, typed.row, typed.message]).toEqual([plain.field, plain.row, plain.message]);
      expect([typed.field, typed.row]).toEqual(["volume", rows - 3]);
    }
    // The first bad field in registry order wins, whatever row or chunk the other one is in.
    const volume = column(1);
    volume[rows - 1] = -1;
    const ef = column(1);
    ef[0] = -1;
    expect(fieldError(() => calculateBatch("open_mining_co2", { volume, ef }))).toMatchObject({ field: "volume", row: rows - 1 });
    // Upper bounds and fixed fields.
    const of = column(1);
    of[7] = 1.1;
    expect(fieldError(() => calculateBatch("disposal_co2_stat_sources", { volume: column(1), ef: 1, of, k: 1 }))).toMatchObject({
      field: "of",
      row: 7,
    });
    const koef = column(0.67);
    koef[rows - 1] = 0.68;
    expect(fieldError(() => calculateBatch("underground_emission_ch4", { volume: column(1), ef: 18, koef_transform: koef }))).toMatchObject(
      {
        field: "koef_transform",
        row: rows - 1,
      },
    );
  });

  it("checks the cross-field sums row by row after the fields", () => {
    const w = (value: number) => column(value);
    const w_ch4 = w(60);
    w_ch4[rows - 2] = 95;
    const inputs = {
      volume: w(1),
      w_ch4,
      w_co2: w(30),
      w_c2h6: w(0),
      w_c3h8: w(0),
      w_c4h10: w(0),
      w_c5h12: w(0),
      cf: 0.005,
      p_co2: 1.8393,
      p_ch4: 0.668,
    };
    expect(fieldError(() => calculateBatch("torch_composition", inputs))).toMatchObject({ field: "w_ch4", row: rows - 2 });
  });

  it("fills the result arrays it is given, with the same numbers", () => {
    const volume = Float64Array.from({ length: rows }, (_, i) => i * 7.5);
    const columns = { volume, p_co2: 1.8393, p_ch4: 0.668, ef_co2: column(0.4), ef_ch4: column(36.2) };
    const fresh = calculateBatch("underground", columns);
    const out = { sum_co2: new Float64Array(rows), res_ch4: new Float64Array(rows) };
    const filled = calculateBatch("underground", columns, undefined, out);
    expect(filled.sum_co2).toBe(out.sum_co2);
    expect(filled.res_ch4).toBe(out.res_ch4);
    // Every column bit for bit, compared as bytes: toEqual walks 16 389 × 4 numbers one by one (4 s of CPU).
    const bytes = (column: Float64Array) => Buffer.from(column.buffer, column.byteOffset, column.byteLength);
    expect(Object.keys(filled)).toEqual(Object.keys(fresh));
    for (const [name, column] of Object.entries(fresh))
      expect(bytes(filled[name as keyof typeof filled]).equals(bytes(column)), name).toBe(true);
    expect(() => calculateBatch("underground", columns, undefined, { sum_co2: new Float64Array(rows - 1) })).toThrow(/sum_co2/);
  });
});

describe("in-place batches (columns written into the core's memory)", () => {
  const fieldError = (run: () => unknown): FieldError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FieldError) return error;
      throw error;
    }
    throw new Error("no FieldError");
  };

  it("give every methodology vector exactly what a single calculation gives", () => {
    for (const type of EMISSION_TYPES) {
      const rows = TYPE_VECTORS[type];
      const batch = openBatch(type, rows.length);
      const inputs = batch.inputs as Record<string, Float64Array>;
      rows.forEach((row, i) => {
        for (const [name, value] of Object.entries(inputsOf(type, row))) inputs[name][i] = value;
      });
      const results = batch.run({ gwp_ch4: 28 } as never) as Record<string, Float64Array>;
      expect(results).toBe(batch.results);
      rows.forEach((row, i) => {
        const single = calculate(type, inputsOf(type, row), { gwp_ch4: 28 } as never) as Record<string, number>;
        for (const [name, value] of Object.entries(single)) expect(Object.is(results[name][i], value), `${type} ${name} ${i}`).toBe(true);
      });
    }
  });

  it("come with fixed fields filled, optional ones 0 and the others NaN, so a column left out fails", () => {
    const batch = openBatch("underground_emission_ch4", 3);
    expect(Array.from(batch.inputs.koef_transform)).toEqual([0.67, 0.67, 0.67]);
    batch.inputs.volume.fill(10);
    expect(fieldError(() => batch.run())).toMatchObject({ field: "ef", row: 0, message: MESSAGES.nonNegative });
    batch.inputs.ef.fill(18);
    expect(Array.from(batch.run().res_ch4)).toEqual(
      [10, 10, 10].map((volume) => calculate("underground_emission_ch4", { volume, ef: 18 }).res_ch4),
    );
    const stat = openBatch("disposal_co2_stat_sources", 2);
    expect(Array.from(stat.inputs.w_ch4)).toEqual([0, 0]);
  });

  it("name the same field and row as calculateBatch, the first bad field in registry order", () => {
    const rows = emissionsCore().batchRows + 5;
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      for (const row of [0, rows - 2, rows - 1]) {
        const batch = openBatch("open_mining_co2", rows);
        batch.inputs.volume.fill(2);
        batch.inputs.ef.fill(3.149);
        batch.inputs.volume[row] = bad;
        const copied = fieldError(() => calculateBatch("open_mining_co2", { volume: Float64Array.from(batch.inputs.volume), ef: 3.149 }));
        const inPlace = fieldError(() => batch.run());
        expect([inPlace.field, inPlace.row, inPlace.message]).toEqual([copied.field, copied.row, copied.message]);
        expect([inPlace.field, inPlace.row]).toEqual(["volume", row]);
      }
    }
    const batch = openBatch("disposal_co2_stat_sources", 9);
    batch.inputs.volume.fill(1);
    batch.inputs.ef.fill(1);
    batch.inputs.of.fill(1);
    batch.inputs.k.fill(1);
    batch.inputs.w_co2[8] = -1;
    batch.inputs.of[7] = 1.1;
    expect(fieldError(() => batch.run())).toMatchObject({ field: "of", row: 7 });
    const fixed = openBatch("underground_emission_ch4", 4);
    fixed.inputs.volume.fill(1);
    fixed.inputs.ef.fill(18);
    fixed.inputs.koef_transform[3] = 0.68;
    expect(fieldError(() => fixed.run())).toMatchObject({ field: "koef_transform", row: 3 });
  });

  it("check the cross-field sums row by row", () => {
    const batch = openBatch("torch_composition", 5);
    const set = (values: Record<string, number>) => {
      for (const [name, value] of Object.entries(values)) (batch.inputs as Record<string, Float64Array>)[name].fill(value);
    };
    set({ volume: 1, w_ch4: 60, w_co2: 30, w_c2h6: 0, w_c3h8: 0, w_c4h10: 0, w_c5h12: 0, cf: 0.005, p_co2: 1.8393, p_ch4: 0.668 });
    batch.inputs.w_ch4[3] = 95;
    expect(fieldError(() => batch.run())).toMatchObject({ field: "w_ch4", row: 3 });
  });

  it("refuse to run once a later batch has their memory, and a size beyond the core's bound", () => {
    const first = openBatch("open_mining_co2", 2);
    openBatch("open_mining_co2", 2);
    expect(() => first.run()).toThrow(/later batch/);
    const max = emissionsCore().exports.max_reserved_rows();
    expect(fieldError(() => openBatch("open_mining_co2", max + 1))).toMatchObject({ field: "file_data" });
    expect(openBatch("open_mining_co2", 0).run().res_co2.length).toBe(0);
  });
});

describe("batch chunking", () => {
  it("splits rows beyond the core's buffer without seams", () => {
    const n = emissionsCore().batchRows * 2 + 17;
    const volume = Float64Array.from({ length: n }, (_, i) => i * 10);
    const { res_ch4 } = calculateBatch("underground_emission_ch4", { volume, ef: 18 });
    expect(res_ch4.length).toBe(n);
    for (const i of [0, 1, n / 2 - 1, emissionsCore().batchRows, emissionsCore().batchRows + 1, n - 1].map(Math.floor)) {
      expect(res_ch4[i]).toBe(calculate("underground_emission_ch4", { volume: volume[i], ef: 18 }).res_ch4);
    }
  });
});
