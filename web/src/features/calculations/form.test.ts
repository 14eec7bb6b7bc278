import { afterEach, describe, expect, it, vi } from "vitest";
import { calculate, emissionsCore } from "@core/emissions";
import { FORMULA_TYPES, REGISTRY, type FormulaType, type NumberField } from "@core/registry";
import { roleOf } from "@core/inventory";
import { vectors } from "@core/methodology-vectors";
import { REFERENCE_DICTIONARIES } from "@server/dictionaries/reference-data";
import type { Calculation, CoefficientUse, DictionaryEntry } from "../../api/calculations";
import {
  CUSTOM,
  GWP_DICTIONARY,
  bandWarnings,
  buildPayload,
  compositionHidden,
  chooseEntry,
  chooseGwp,
  chooseUnit,
  gwpSetInForce,
  computePreview,
  formLayout,
  initialState,
  matchEntry,
  previewArgs,
  addPeriod,
  periodsFileForm,
  setJustification,
  setPeriodText,
  setText,
  shownUnit,
  splitDetail,
  withPeriods,
  withCoalOutput,
  withPointNotes,
  type FormContext,
  type FormState,
} from "./form";
import { refusal } from "../../testing/refusal";

/** The seeded dictionaries as GET v1/dictionary/{name}/ returns them. */
function entries(name: string, version = 1): DictionaryEntry[] {
  const def = REFERENCE_DICTIONARIES.find((d) => d.name === name)!;
  const items = def.sameItemsAs ? REFERENCE_DICTIONARIES.find((d) => d.name === def.sameItemsAs)!.items : def.items;
  return items.map((item) => {
    const entry: DictionaryEntry = { id: item.id, name: item.name, units: {}, sources: {}, version, effective_from: "2026-01-01" };
    for (const [field, v] of Object.entries(item.values)) {
      entry[field] = v.value;
      entry.units[field] = v.unit;
      entry.sources[field] = `[${v.tag}] ${v.ref}`;
    }
    return entry;
  });
}

function context(type: FormulaType, stored?: Calculation): FormContext {
  const dictionaries = Object.fromEntries(formLayout(type).dictionaries.map((name) => [name, entries(name)]));
  // D12: set 1 (2979-р, CH4 = 25) is in force for the project's reporting year.
  return { type, mode: stored ? "edit" : "create", dictionaries, stored, gwpInForce: 1 };
}

function typed(state: FormState, texts: Record<string, string>, name = "Расчет"): FormState {
  return Object.entries(texts).reduce((s, [field, text]) => setText(s, field, text), { ...state, name });
}

const core = emissionsCore();
const close = (actual: unknown, expected: number) => {
  expect(actual).toBeTypeOf("number");
  expect(Math.abs(Number(actual) - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
};

afterEach(() => vi.restoreAllMocks());

describe("formLayout", () => {
  it("places every numeric input of every formula type exactly once, selectors above what they fill", () => {
    for (const type of FORMULA_TYPES) {
      const layout = formLayout(type);
      const shown = layout.rows.flatMap((r) => (r.kind === "select" ? [] : [r.field.name]));
      // Numeric inputs only: underground's periods (D14) have a table of their own.
      const inputs = (REGISTRY[type].inputs as readonly NumberField[]).filter((f) => f.type === "number").map((f) => f.name);
      for (const name of inputs)
        expect(
          shown.filter((n) => n === name),
          `${type}.${name}`,
        ).toHaveLength(1);
      layout.rows.forEach((r, i) => {
        if (r.kind === "bound") expect(layout.rows.slice(0, i).some((x) => x.kind === "select" && x.binding === r.binding)).toBe(true);
      });
    }
  });

  it("draws underground as volume, densities by conditions, mixture content and the GWP set", () => {
    const rows = formLayout("underground").rows.map((r) =>
      r.kind === "select" ? `select:${r.binding.binding.dictionary}` : `${r.kind}:${r.field.name}`,
    );
    expect(rows).toEqual([
      "free:volume",
      "select:get_underground",
      "bound:p_co2",
      "bound:p_ch4",
      "select:get_underground_content",
      "bound:ef_co2",
      "bound:ef_ch4",
      "gwp:gwp_ch4",
    ]);
  });

  it("shows the fixed 0.67 of underground_emission_ch4 as fixed, and the recycle thresholds as dictionary values", () => {
    expect(formLayout("underground_emission_ch4").fixed.map((f) => [f.name, f.fixed])).toEqual([["koef_transform", 0.67]]);
    const recycle = formLayout("recycle_technology");
    expect(recycle.free.map((f) => f.name)).toEqual(["metan", "a_metan"]);
    expect(recycle.bindings[0].fields.map((f) => f.name)).toEqual([
      "q_boiler",
      "q_gas_engine",
      "q_vam_energy",
      "q_pipeline",
      "q_power_plant",
    ]);
    expect(recycle.gwp).toBeUndefined();
    expect(recycle.dictionaries).toEqual(["get_recycle_technology"]);
    expect(formLayout("torch_ch4").dictionaries).toEqual(["get_torch_ch4", GWP_DICTIONARY]);
  });
});

describe("create: first entries preselected, preview = methodology vectors", () => {
  it("preselects the first entry of every list and no GWP set (the one in force); free inputs start from registry defaults", () => {
    const state = initialState(context("disposal_co2_stat_sources"));
    expect(state.choices).toEqual({ get_disposal_co2_stat_sources: 1 });
    expect(state.texts).toEqual({ volume: "", of: "1", w_ch4: "", w_co2: "" });
    expect(initialState(context("underground")).gwpSet).toBeUndefined();
  });

  it("asks a boiler the gas composition only for drained mine gas, and sends it then only (D28)", () => {
    const ctx = context("disposal_co2_stat_sources");
    const typed = { ...initialState(ctx), texts: { volume: "1000", of: "1", w_ch4: "60", w_co2: "5" } };
    expect(compositionHidden("disposal_co2_stat_sources", typed, "w_ch4")).toBe(true);
    expect(compositionHidden("torch_composition", typed, "w_ch4")).toBe(false);
    expect(buildPayload(ctx, typed, "p1")).not.toHaveProperty("w_ch4");
    const drained = { ...typed, choices: { get_disposal_co2_stat_sources: 8 } };
    expect(compositionHidden("disposal_co2_stat_sources", drained, "w_co2")).toBe(false);
    expect(buildPayload(ctx, drained, "p1")).toMatchObject({ w_ch4: 60, w_co2: 5, dictionary_items: { get_disposal_co2_stat_sources: 8 } });
  });

  it("underground_emission_ch4: 1 000 000 t with the 18 m³/t entry → 12 060 t CH4, 301 500 t CO2-eq", () => {
    const ctx = context("underground_emission_ch4");
    const state = typed(initialState(ctx), { volume: "1000000" });
    expect(previewArgs(ctx, state)).toEqual({ inputs: { volume: 1_000_000, ef: 18, koef_transform: 0.67 }, coefficients: { gwp_ch4: 25 } });
    const preview = computePreview(core, ctx, state);
    expect(preview.kind).toBe("results");
    if (preview.kind !== "results") return;
    close(preview.results.res_ch4, 12060);
    close(preview.results.res_ch4_to_co2, 301500);
    // What the server computes from the same values, bit for bit.
    expect(preview.results).toEqual(calculate("underground_emission_ch4", { volume: 1_000_000, ef: 18 }, { gwp_ch4: 25 }));
  });

  it("underground: 10 000 thousand m³ at 20 °C of coal-seam degasification gas → every result of the vector", () => {
    const ctx = context("underground");
    const preview = computePreview(core, ctx, typed(initialState(ctx), { volume: "10000" }));
    if (preview.kind !== "results") throw new Error(JSON.stringify(preview));
    const [vector] = vectors.underground;
    for (const name of ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"] as const) close(preview.results[name], vector[name]);
  });

  it("underground at 0 °C densities (third entry) gives the second vector", () => {
    const ctx = context("underground");
    const state = chooseEntry(ctx, typed(initialState(ctx), { volume: "10000" }), "get_underground", 3);
    const preview = computePreview(core, ctx, state);
    if (preview.kind !== "results") throw new Error(JSON.stringify(preview));
    close(preview.results.sum_co2, vectors.underground[1].sum_co2);
  });

  it("takes the GWP of the chosen set (AR5: 28)", () => {
    const ctx = context("underground_emission_ch4");
    const state = chooseGwp(typed(initialState(ctx), { volume: "1000000" }), 2);
    const preview = computePreview(core, ctx, state);
    if (preview.kind !== "results") throw new Error(JSON.stringify(preview));
    close(preview.results.res_ch4_to_co2, 337680);
    expect(buildPayload(ctx, state, "p1").gwp_set).toBe(2);
  });

  it("recycle_technology: 60 % at 40 m³/min → mini CHP plant, with the thresholds of the dictionary", () => {
    const ctx = context("recycle_technology");
    const state = typed(initialState(ctx), { metan: "60", a_metan: "40" });
    const preview = computePreview(core, ctx, state);
    expect(preview).toMatchObject({ kind: "results", results: { code: "POWER_PLANT" } });
    if (preview.kind === "results") expect(preview.results.technology).toMatch(/^Мини-ТЭС на шахтном метане/);
    expect(previewArgs(ctx, state).coefficients).toEqual({
      q_boiler: 0.5,
      q_gas_engine: 2,
      q_vam_energy: 5,
      q_pipeline: 10,
      q_power_plant: 25,
    });
  });

  it("names the field the core refuses instead of a result", () => {
    const ctx = context("underground_emission_ch4");
    expect(computePreview(core, ctx, initialState(ctx))).toMatchObject({ kind: "error", field: "volume" });
    const recycle = context("recycle_technology");
    expect(computePreview(core, recycle, typed(initialState(recycle), { metan: "101", a_metan: "5" }))).toMatchObject({
      kind: "error",
      field: "metan",
    });
  });

  it("builds the POST body: name, project, every value used, the entries; no GWP set unless picked; never the fixed 0.67", () => {
    const ctx = context("underground_emission_ch4");
    const state = typed(initialState(ctx), { volume: "1000000" }, "  Шахта №1 ");
    expect(buildPayload(ctx, state, "p1")).toEqual({
      name: "Шахта №1",
      project: "p1",
      volume: 1_000_000,
      ef: 18,
      dictionary_items: { get_underground_emission_ch4: 1 },
    });
  });

  it("D15: sends the inventory role only when it is not the default primary, and only for inventory types", () => {
    const ctx = context("underground_emission_ch4");
    const state = typed(initialState(ctx), { volume: "1000000" }, "Сценарий");
    expect(state.inventoryRole).toBe("primary");
    expect(buildPayload(ctx, { ...state, inventoryRole: "alternative" }, "p1")).toMatchObject({ inventory_role: "alternative" });
    expect(initialState(context("recycle_technology")).inventoryRole).toBeUndefined();
  });

  it("D22: starts an IPCC flare calculation as alternative and sends primary only when chosen", () => {
    const ctx = context("torch_ch4");
    const state = typed(initialState(ctx), { volume: "1000" }, "Факел");
    expect(state.inventoryRole).toBe("alternative");
    expect(buildPayload(ctx, state, "p1")).not.toHaveProperty("inventory_role");
    expect(buildPayload(ctx, { ...state, inventoryRole: "primary" }, "p1")).toMatchObject({ inventory_role: "primary" });
    expect(initialState(context("torch_composition")).inventoryRole).toBe("primary");
  });

  it("D19: sends the chosen period, and null when an edit goes back to the whole period", () => {
    const ctx = context("underground_emission_ch4");
    const state = typed(initialState(ctx), { volume: "1000000" }, "2 квартал");
    expect(buildPayload(ctx, state, "p1")).not.toHaveProperty("period");
    const q2 = { from: "2025-04-01", to: "2025-06-30" };
    expect(buildPayload(ctx, { ...state, period: q2 }, "p1")).toMatchObject({ period: q2 });
    const stored = { ...storedCalculation("underground_emission_ch4", { volume: 1000, ef: 18 }, {}), period: q2 };
    const edit = context("underground_emission_ch4", stored);
    const reopened = initialState(edit);
    expect(reopened.period).toEqual(q2);
    expect(buildPayload(edit, { ...reopened, period: undefined })).toMatchObject({ period: null });
  });

  it("D12: picks the set in force by the reporting year as the server does", () => {
    const sets = [
      { id: 1, name: "2979-р", gwp_ch4: 25, year_from: 1990, year_to: 9999 },
      { id: 2, name: "AR5", gwp_ch4: 28, year_from: 2025, year_to: 2025 },
      { id: 3, name: "AR6", gwp_ch4: 27.9, year_from: 0, year_to: 0 },
    ].map((e) => ({ ...e, units: {}, sources: {}, version: 1, effective_from: "2024-01-01" }) as unknown as DictionaryEntry);
    expect(gwpSetInForce(sets, 2024)?.id).toBe(1);
    expect(gwpSetInForce(sets, 2025)?.id).toBe(2);
    expect(gwpSetInForce(sets, 2026)?.id).toBe(1);
    expect(gwpSetInForce(sets, undefined)).toBeUndefined();
  });
});

describe("«Фактическое значение»", () => {
  it("open_mining_ch4: ef typed, koef_transform fixed at 0.67, sent with a null entry", () => {
    const ctx = context("open_mining_ch4");
    let state = chooseEntry(ctx, typed(initialState(ctx), { volume: "1000000" }), "get_open_mining_ch4", CUSTOM);
    expect(state.texts.ef).toBe("1,2"); // starts from the entry shown before, with a decimal comma
    state = setText(state, "ef", "1.7");
    const preview = computePreview(core, ctx, state);
    if (preview.kind !== "results") throw new Error(JSON.stringify(preview));
    close(preview.results.res_ch4, 1_000_000 * 1.7 * 0.67e-3);
    expect(buildPayload(ctx, state, "p1")).toMatchObject({
      ef: 1.7,
      koef_transform: 0.67,
      dictionary_items: { get_open_mining_ch4: null },
    });
  });

  it("reads a typed decimal comma: «845,5» is 845.5 in the preview and in the body", () => {
    const ctx = context("open_mining_ch4");
    let state = chooseEntry(ctx, typed(initialState(ctx), { volume: "845,5" }), "get_open_mining_ch4", CUSTOM);
    state = setText(state, "ef", "1,7");
    expect(previewArgs(ctx, state).inputs).toMatchObject({ volume: 845.5, ef: 1.7 });
    expect(buildPayload(ctx, state, "p1")).toMatchObject({ volume: 845.5, ef: 1.7 });
  });

  it("underground content: both contents typed; a blank one is the core's field error", () => {
    const ctx = context("underground");
    let state = chooseEntry(ctx, typed(initialState(ctx), { volume: "500000" }), "get_underground_content", CUSTOM);
    state = setText(setText(state, "ef_ch4", "0.4"), "ef_co2", "0");
    const preview = computePreview(core, ctx, state);
    if (preview.kind !== "results") throw new Error(JSON.stringify(preview));
    close(preview.results.sum_co2, 33400);
    expect(computePreview(core, ctx, setText(state, "ef_co2", ""))).toMatchObject({ kind: "error", field: "ef_co2" });
  });
});

describe("bandWarnings (D10)", () => {
  it("warns of a typed custom value outside the plausible band, naming the band; not of one inside it", () => {
    const ctx = context("underground_emission_ch4");
    const start = typed(initialState(ctx), { volume: "1000" });
    // A dictionary entry chosen: nothing is typed, nothing is warned of.
    expect(bandWarnings(ctx, start)).toEqual({});
    const custom = chooseEntry(ctx, start, "get_underground_emission_ch4", CUSTOM);
    // ef: IPCC 10–25 m³/t widened ×2, so 5–50.
    expect(bandWarnings(ctx, setText(custom, "ef", "14,3"))).toEqual({});
    expect(bandWarnings(ctx, setText(custom, "ef", "50"))).toEqual({});
    for (const text of ["60", "4,9"]) {
      const found = bandWarnings(ctx, setText(custom, "ef", text));
      expect(Object.keys(found)).toEqual(["ef"]);
      expect(found.ef).toContain("вне правдоподобного диапазона (5–50 м³/т)");
    }
    // A blank or unreadable text is NumericInput's or the core's to report, not a band warning.
    expect(bandWarnings(ctx, setText(custom, "ef", ""))).toEqual({});
    expect(bandWarnings(ctx, setText(custom, "ef", "abc"))).toEqual({});
  });

  it("densities typed by the user: 0.5–2.2 kg/m³", () => {
    const ctx = context("underground");
    const custom = chooseEntry(ctx, typed(initialState(ctx), { volume: "1000" }), "get_underground", CUSTOM);
    expect(bandWarnings(ctx, setText(custom, "p_ch4", "0,668"))).toEqual({});
    expect(bandWarnings(ctx, setText(custom, "p_ch4", "668")).p_ch4).toContain("0,5–2,2 кг/м³");
  });
});

// ---- edit -------------------------------------------------------------------------------------

function use(value: number, extra: Partial<CoefficientUse> = {}): CoefficientUse {
  return { value, unit: "", source: "input", ...extra };
}

function storedCalculation(type: FormulaType, values: Record<string, number>, coefficients: Record<string, CoefficientUse>): Calculation {
  return {
    id: "c1",
    type,
    name: "Расчет",
    project: "p1",
    is_active: true,
    is_deleted: false,
    version: 3,
    created_at: "2026-01-02T10:00:00.000Z",
    created_by: "demo@example.com",
    updated_at: "2026-01-02T10:00:00.000Z",
    updated_by: "demo@example.com",
    methodology_version: "2026.1",
    inventory_role: roleOf({ type }),
    ...values,
    coefficients,
    flags: [],
  };
}

const fromDictionary = (dictionary: string, item_id: number, value: number, item_version = 1) =>
  use(value, { source: "dictionary", dictionary, item_id, item_version, item_name: `запись ${item_id}` });

describe("edit: stored entries matched back (docs/user-guide.md)", () => {
  const handling = (efUse: CoefficientUse, koefUse: CoefficientUse) =>
    storedCalculation(
      "handling_underground_ch4",
      { volume: 2_000_000, ef: efUse.value, koef_transform: koefUse.value, gwp_ch4: 28, res_ch4: 0, res_ch4_to_co2: 0 },
      { volume: use(2_000_000), ef: efUse, koef_transform: koefUse, gwp_ch4: fromDictionary(GWP_DICTIONARY, 2, 28) },
    );
  const layoutOf = (type: FormulaType) => formLayout(type).bindings[0];

  it("prefers the recorded entry id over the values", () => {
    const stored = handling(
      fromDictionary("get_handling_underground_ch4", 3, 2.5),
      fromDictionary("get_handling_underground_ch4", 3, 0.67),
    );
    expect(matchEntry(layoutOf("handling_underground_ch4"), stored, entries("get_handling_underground_ch4")).choice).toBe(3);
  });

  it("matches by value when no entry is recorded", () => {
    const stored = handling(use(0.9), use(0.67));
    expect(matchEntry(layoutOf("handling_underground_ch4"), stored, entries("get_handling_underground_ch4")).choice).toBe(2);
  });

  it("matches by every bound field, as the server does: ef of an entry with another k is the mine's own", () => {
    const statSources = (k: number) =>
      storedCalculation(
        "disposal_co2_stat_sources",
        { volume: 10, ef: 1.59, of: 1, k, res_co2: 0 },
        { volume: use(10), ef: use(1.59), of: use(1), k: use(k) },
      );
    const layout = formLayout("disposal_co2_stat_sources").bindings[0];
    const fuels = entries("get_disposal_co2_stat_sources");
    expect(matchEntry(layout, statSources(1.129), fuels).choice).toBe(1);
    expect(matchEntry(layout, statSources(1.2), fuels)).toMatchObject({ choice: CUSTOM, note: expect.stringContaining("ef, k") });
  });

  it("falls back to «Фактическое значение» for open_mining_ch4, holding the stored value", () => {
    const ctx = context(
      "open_mining_ch4",
      storedCalculation(
        "open_mining_ch4",
        { volume: 10, ef: 1.7, koef_transform: 0.67, gwp_ch4: 25 },
        { ef: use(1.7), koef_transform: use(0.67) },
      ),
    );
    const state = initialState(ctx);
    expect(state.choices.get_open_mining_ch4).toBe(CUSTOM);
    expect(state.texts.ef).toBe("1,7");
  });

  it("opens a stored value that matches no entry as «Фактическое значение» (D10: every coefficient has it)", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const stored = storedCalculation("open_mining_co2", { volume: 100, ef: 9.99 }, { volume: use(100), ef: use(9.99) });
    const ctx = context("open_mining_co2", stored);
    const state = initialState(ctx);
    expect(state.choices.get_open_mining_co2).toBe(CUSTOM);
    expect(info).toHaveBeenCalledOnce();
    // The stored value is what the form shows and sends: the server keeps it as the mine's own.
    expect(previewArgs(ctx, state).inputs).toEqual({ volume: 100, ef: 9.99 });
    expect(buildPayload(ctx, state)).toEqual({
      name: "Расчет",
      volume: 100,
      ef: 9.99,
      dictionary_items: { get_open_mining_co2: null },
      version: 3,
    });
  });

  it("offers «Фактическое значение» for underground_emission_ch4 and sends 14,3 with its justification", () => {
    const ctx = context("underground_emission_ch4");
    let state = chooseEntry(ctx, initialState(ctx), "get_underground_emission_ch4", CUSTOM);
    state = setText(setText(state, "volume", "1000"), "ef", "14,3");
    state = setJustification(state, "ef", "  Замеры 2024 г. ");
    expect(buildPayload(ctx, state, "p1")).toMatchObject({
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры 2024 г." },
    });
    // No text: no justification sent (the server flags the value).
    expect(buildPayload(ctx, setJustification(state, "ef", " "), "p1").justifications).toBeUndefined();
  });

  it("sends the version held, the entry and the values, but keeps the stored GWP set until it is changed", () => {
    const stored = handling(
      fromDictionary("get_handling_underground_ch4", 1, 2.5),
      fromDictionary("get_handling_underground_ch4", 1, 0.67),
    );
    const ctx = context("handling_underground_ch4", stored);
    const state = setText(initialState(ctx), "volume", "3000000");
    expect(state.texts.volume).toBe("3000000");
    expect(previewArgs(ctx, state).coefficients).toEqual({ gwp_ch4: 28 });
    expect(buildPayload(ctx, state)).toEqual({
      name: "Расчет",
      volume: 3_000_000,
      ef: 2.5,
      koef_transform: 0.67,
      dictionary_items: { get_handling_underground_ch4: 1 },
      version: 3,
    });
    expect(buildPayload(ctx, chooseGwp(state, 1))).toMatchObject({ gwp_set: 1 });
    // «по отчетному году проекта» on an edit names the set in force (the server keeps the stored one otherwise).
    expect(buildPayload({ ...ctx, gwpInForce: 1 }, chooseGwp(state, undefined))).toMatchObject({ gwp_set: 1 });
  });

  it("keeps values of an older entry version until another entry is chosen", () => {
    // Stored with version 1 (ef 2.5); the dictionary now holds version 2 with ef 3.
    const stored = handling(
      fromDictionary("get_handling_underground_ch4", 1, 2.5),
      fromDictionary("get_handling_underground_ch4", 1, 0.67),
    );
    const dictionaries = {
      get_handling_underground_ch4: entries("get_handling_underground_ch4", 2).map((e) => (e.id === 1 ? { ...e, ef: 3 } : e)),
      [GWP_DICTIONARY]: entries(GWP_DICTIONARY),
    };
    const ctx: FormContext = { type: "handling_underground_ch4", mode: "edit", dictionaries, stored };
    const state = initialState(ctx);
    expect(previewArgs(ctx, state).inputs.ef).toBe(2.5);
    const body = buildPayload(ctx, state);
    expect(body).toMatchObject({ ef: 2.5 });
    expect(body.dictionary_items).toBeUndefined();
    // Choosing the entry again applies its current version.
    const rechosen = chooseEntry(ctx, state, "get_handling_underground_ch4", 1);
    expect(previewArgs(ctx, rechosen).inputs.ef).toBe(3);
    expect(buildPayload(ctx, rechosen)).toMatchObject({ ef: 3, dictionary_items: { get_handling_underground_ch4: 1 } });
  });
});

describe("splitDetail", () => {
  const layout = formLayout("underground");

  it("puts a server detail under the field, selector or GWP set it names", () => {
    expect(splitDetail(layout, refusal([["volume", "поле обязательно для заполнения"]]))).toEqual({
      target: "volume",
      message: "Поле обязательно для заполнения",
    });
    expect(splitDetail(layout, refusal([["dictionary_items.get_underground", "запись 9 не найдена"]]))).toEqual({
      target: "get_underground",
      message: "Запись 9 не найдена",
    });
    expect(splitDetail(layout, refusal([["gwp_set", "набор ПГП 9 не найден"]]))).toMatchObject({ target: GWP_DICTIONARY });
    expect(splitDetail(layout, refusal([["name", "введите название расчета"]]))).toMatchObject({ target: "name" });
  });

  it("leaves other details whole (they show on top)", () => {
    expect(splitDetail(layout, refusal("Проект находится в архиве"))).toEqual({ message: "Проект находится в архиве" });
    expect(splitDetail(layout, refusal([["metan", "не поле этого типа"]]))).toEqual({ message: "metan: не поле этого типа" });
  });
});

describe("underground by measurement periods (D14)", () => {
  /** Two periods typed as a user types them: dates, decimal commas. */
  function twoPeriods(state: FormState): FormState {
    let next = addPeriod(withPeriods(state, true));
    const rows = [
      { from: "01.01.2025", to: "31.01.2025", flow_m3_min: "12,5", hours: "744", w_ch4: "76", w_co2: "10,6" },
      { from: "01.02.2025", to: "28.02.2025", flow_m3_min: "10,25", hours: "650,5", w_ch4: "76", w_co2: "10,6" },
    ] as const;
    rows.forEach((row, i) => {
      for (const [field, text] of Object.entries(row)) next = setPeriodText(next, i, field as keyof typeof row, text);
    });
    return next;
  }
  const VOLUME = (12.5 * 744 * 60) / 1000 + (10.25 * 650.5 * 60) / 1000;

  it("previews what the summed volume gives when the contents are equal, with each period's contribution", () => {
    const ctx = context("underground");
    const byPeriods = computePreview(core, ctx, twoPeriods(typed(initialState(ctx), {})));
    const byVolume = computePreview(core, ctx, typed(initialState(ctx), { volume: String(VOLUME).replace(".", ",") }));
    if (byPeriods.kind !== "results" || byVolume.kind !== "results") throw new Error(JSON.stringify([byPeriods, byVolume]));
    close(byPeriods.results.volume, VOLUME);
    for (const name of ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"])
      close(byPeriods.results[name], byVolume.results[name] as number);
    const periods = byPeriods.results.periods as Array<Record<string, unknown>>;
    expect(periods.map((p) => p.volume)).toEqual([558, (10.25 * 650.5 * 60) / 1000]);
  });

  it("sends the periods instead of the volume and the contents", () => {
    const ctx = context("underground");
    const body = buildPayload(ctx, twoPeriods(typed(initialState(ctx), {})), "p1");
    expect(body).not.toHaveProperty("volume");
    expect(body).not.toHaveProperty("ef_ch4");
    expect(body.dictionary_items).toEqual({ get_underground: 1 });
    expect(body.periods).toEqual([
      { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 12.5, hours: 744, w_ch4: 76, w_co2: 10.6 },
      { from: "01.02.2025", to: "28.02.2025", flow_m3_min: 10.25, hours: 650.5, w_ch4: 76, w_co2: 10.6 },
    ]);
  });

  it("names the period's field the core refuses, and a server detail finds the same cell", () => {
    const ctx = context("underground");
    const state = setPeriodText(twoPeriods(typed(initialState(ctx), {})), 1, "hours", "700");
    expect(computePreview(core, ctx, state)).toMatchObject({ kind: "error", field: "periods[1].hours" });
    expect(
      splitDetail(formLayout("underground"), refusal([["periods[1].hours", "время работы больше продолжительности периода (672 ч)"]])),
    ).toEqual({
      target: "periods[1].hours",
      message: "Время работы больше продолжительности периода (672 ч)",
    });
  });

  it("reopens a stored calculation by periods with its periods as typed", () => {
    const stored = {
      id: "c1",
      name: "Дегазация",
      version: 1,
      volume: VOLUME,
      coefficients: {},
      periods: [{ from: "2025-01-01", to: "2025-01-31", flow_m3_min: 12.5, hours: 744, w_ch4: 76, w_co2: 10.6, volume: 558 }],
    } as unknown as Calculation;
    const state = initialState(context("underground", stored));
    expect(state.periods).toEqual([
      { from: "01.01.2025", to: "31.01.2025", flow_m3_min: "12,5", hours: "744", w_ch4: "76", w_co2: "10,6" },
    ]);
  });

  it("sends a file of periods as a multipart form with the same fields, without typed periods", () => {
    const ctx = context("underground");
    const body = buildPayload(ctx, twoPeriods(typed(initialState(ctx), {})), "p1");
    const form = periodsFileForm(body, new File(["from,to\n"], "мониторинг.csv"));
    expect(form.get("periods")).toBeNull();
    expect(form.get("project")).toBe("p1");
    expect(JSON.parse(form.get("dictionary_items") as string)).toEqual({ get_underground: 1 });
    expect(form.get("p_ch4")).toBe("0.668");
    expect((form.get("file_data") as File).name).toBe("мониторинг.csv");
  });

  it("sends the emission point with the file, and a point cleared in an edit as an empty field, never «null»", () => {
    const form = (point: string | null) =>
      periodsFileForm({ project: "p1", point, period: null }, new File(["from,to\n"], "мониторинг.csv"));
    expect(form("pt-1").get("point")).toBe("pt-1");
    expect(form(null).get("point")).toBe("");
    expect(form(null).get("period")).toBe("null");
  });
});

describe("units as users keep them (D13)", () => {
  it("a production typed as 3 100 in thousand t previews and sends what 3 100 000 t does, with what was entered", () => {
    const ctx = context("underground_emission_ch4");
    const inThousands = chooseUnit(typed(initialState(ctx), { volume: "3100" }), "volume", "тыс. т");
    const inTonnes = typed(initialState(ctx), { volume: "3100000" });
    expect(previewArgs(ctx, inThousands)).toEqual(previewArgs(ctx, inTonnes));
    expect(computePreview(core, ctx, inThousands)).toEqual(computePreview(core, ctx, inTonnes));
    const body = buildPayload(ctx, inThousands, "p1");
    expect(body.volume).toBe(3_100_000);
    expect(body.entered).toEqual({ volume: { value: 3100, unit: "тыс. т" } });
    // In the canonical unit there is nothing else to keep.
    expect(buildPayload(ctx, inTonnes, "p1")).not.toHaveProperty("entered");
  });

  it("keeps the text as typed when the unit changes: the unit says what it means", () => {
    const ctx = context("torch_ch4");
    const state = chooseUnit(typed(initialState(ctx), { volume: "1500" }), "volume", "м³");
    expect(state.texts.volume).toBe("1500");
    expect(previewArgs(ctx, state).inputs.volume).toBe(1.5);
  });

  it("reopens a value entered in another unit as it was typed", () => {
    const stored = {
      id: "c1",
      name: "Добыча",
      version: 1,
      type: "underground_emission_ch4",
      volume: 3_100_000,
      ef: 18,
      koef_transform: 0.67,
      entered: { volume: { value: 3100, unit: "тыс. т" } },
      coefficients: {},
    } as unknown as Calculation;
    const state = initialState(context("underground_emission_ch4", stored));
    expect(state.texts.volume).toBe("3100");
    expect(state.units).toEqual({ volume: "тыс. т" });
  });
});

describe("the facility-year's coal output", () => {
  it("starts an empty production field as «3 100» t, which sends 3 100 t, and leaves a typed one alone", () => {
    const ctx = context("handling_underground_ch4");
    const offered = withCoalOutput(initialState(ctx), "volume", 3100);
    expect(offered.texts.volume).toBe("3 100");
    expect(offered.units).toEqual({ volume: "т" });
    const body = buildPayload(ctx, { ...offered, name: "Обработка" }, "p1");
    expect(body.volume).toBe(3100);
    expect(body).not.toHaveProperty("entered");
    const typedOwn = chooseUnit(typed(initialState(ctx), { volume: "2,5" }), "volume", "млн т");
    expect(withCoalOutput(typedOwn, "volume", 3100)).toBe(typedOwn);
  });
});

describe("an emission point's instrument and frequency", () => {
  const shaft = { instrument: "АГК «Микон-1Р», датчики ДМС-03", frequency: "непрерывно" };
  const station = { instrument: "расходомер «Метран-350»", frequency: "ежесуточно" };

  it("fill the measurement notes when a point is chosen, and follow another point while not retyped", () => {
    const start = initialState(context("underground"));
    const chosen = withPointNotes(start, undefined, shaft);
    expect(chosen.measurement).toEqual({ measurement_instruments: shaft.instrument, measurement_frequency: "непрерывно" });
    expect(withPointNotes(chosen, shaft, station).measurement).toEqual({
      measurement_instruments: station.instrument,
      measurement_frequency: "ежесуточно",
    });
    expect(withPointNotes(chosen, shaft, undefined).measurement).toEqual({ measurement_instruments: "", measurement_frequency: "" });
  });

  it("keep a note the user typed, and touch no type without notes", () => {
    const start = initialState(context("underground"));
    const typedOwn = { ...start, measurement: { measurement_instruments: "переносной метанометр", measurement_frequency: "" } };
    expect(withPointNotes(typedOwn, undefined, shaft).measurement).toEqual({
      measurement_instruments: "переносной метанометр",
      measurement_frequency: "непрерывно",
    });
    const flare = initialState(context("torch_ch4"));
    expect(withPointNotes(flare, undefined, shaft)).toBe(flare);
  });
});

describe("units that follow the fuel (4.8)", () => {
  const ctx = context("disposal_co2_stat_sources");
  const field = (name: string) => REGISTRY.disposal_co2_stat_sources.inputs.find((f) => f.name === name) as NumberField;
  const unitsWith = (state: FormState) => ["volume", "ef", "k"].map((name) => shownUnit(ctx, state, field(name)));

  it("reads the consumption, the factor and the conversion in the chosen fuel's units, never «тыс. м³ или т»", () => {
    const start = initialState(ctx);
    expect(unitsWith(start)).toEqual(["тыс. м³", "т CO2/т у.т.", "т у.т./тыс. м³"]);
    const pick = (id: Parameters<typeof chooseEntry>[3]) => chooseEntry(ctx, start, "get_disposal_co2_stat_sources", id);
    expect(unitsWith(pick(6))).toEqual(["т", "т CO2/т у.т.", "т у.т./т"]);
    // Drained mine gas: its factor is per thousand m³ and it has no conversion to t c.e.
    expect(unitsWith(pick(8))).toEqual(["тыс. м³", "т CO2/тыс. м³", ""]);
    // The company's own coefficients: the fuel is not known, the field says both.
    expect(unitsWith(pick(CUSTOM))[0]).toBe("тыс. м³ или т");
  });

  it("keeps a stored drained-gas boiler's units on an edit", () => {
    const dictionaryUse = (value: number, unit: string): CoefficientUse => ({
      value,
      unit,
      source: "dictionary",
      dictionary: "get_disposal_co2_stat_sources",
      item_id: 8,
      item_name: "Каптированный шахтный метан (100 % CH4), тыс. м³",
      item_version: 1,
    });
    const stored = storedCalculation(
      "disposal_co2_stat_sources",
      { volume: 1000, ef: 1.8393, of: 1, k: 1, res_co2: 1839.3 },
      { volume: use(1000), ef: dictionaryUse(1.8393, "т CO2/тыс. м³"), k: dictionaryUse(1, "—") },
    );
    const edit = context("disposal_co2_stat_sources", stored);
    const state = initialState(edit);
    expect(["volume", "ef", "k"].map((name) => shownUnit(edit, state, field(name)))).toEqual(["тыс. м³", "т CO2/тыс. м³", ""]);
  });
});
