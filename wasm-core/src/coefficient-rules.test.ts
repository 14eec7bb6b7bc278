// The coefficient rules shared by the server and the dialog (docs/user-guide.md, conventions: dialogs; D10), on entries given as data.
import { describe, expect, it } from "vitest";
import {
  CUSTOM,
  boundFields,
  choiceForValues,
  customValue,
  matchingEntry,
  outsidePlausibleBand,
  preselectedEntry,
  storedChoice,
  type CoefficientEntry,
} from "./coefficient-rules";
import { REGISTRY, type NumberField } from "./registry";

const HANDLING: CoefficientEntry[] = [
  { id: 1, values: { ef: 0.9, koef_transform: 0.67 } },
  { id: 2, values: { ef: 2.5, koef_transform: 0.67 } },
  { id: 3, values: { ef: 2.5, koef_transform: 0.72 } },
];
const FIELDS = ["ef", "koef_transform"];
const sent = (values: Record<string, unknown>) => (field: string) => values[field];

describe("matching values to a dictionary entry", () => {
  it("finds the entry whose every bound field equals the values", () => {
    expect(matchingEntry(HANDLING, FIELDS, sent({ ef: 2.5, koef_transform: 0.72 }))?.id).toBe(3);
    expect(choiceForValues(HANDLING, FIELDS, sent({ ef: 2.5, koef_transform: 0.67 }))).toBe(2);
  });

  it("compares every bound field, not one of them (stat sources: ef and k together)", () => {
    const fuels: CoefficientEntry[] = [{ id: 1, values: { ef: 2.76, k: 1.154 } }];
    expect(choiceForValues(fuels, ["ef", "k"], sent({ ef: 2.76, k: 1.2 }))).toBe(CUSTOM);
  });

  it("takes values that match no entry as the user's own «Фактическое значение»", () => {
    expect(choiceForValues(HANDLING, FIELDS, sent({ ef: 3.1, koef_transform: 0.67 }))).toBe(CUSTOM);
    expect(choiceForValues(HANDLING, FIELDS, sent({ ef: 2.5 }))).toBe(CUSTOM);
  });

  it("has no choice when nothing was given, and a missing value never matches a missing entry value", () => {
    expect(choiceForValues(HANDLING, FIELDS, sent({}))).toBeUndefined();
    expect(choiceForValues([{ id: 7, values: {} }], ["ef"], sent({ ef: null }))).toBeUndefined();
    expect(matchingEntry([{ id: 7, values: {} }], ["ef"], sent({}))).toBeUndefined();
  });

  it("preselects the first entry", () => {
    expect(preselectedEntry(HANDLING)?.id).toBe(1);
    expect(preselectedEntry([])).toBeUndefined();
  });
});

describe("the choice of a stored calculation", () => {
  const value = sent({ ef: 2.5, koef_transform: 0.67 });

  it("is «Фактическое значение» when any bound field was the user's own", () => {
    expect(storedChoice(HANDLING, FIELDS, { ef: { source: "custom" }, koef_transform: { source: "dictionary", item_id: 2 } }, value)).toBe(
      CUSTOM,
    );
  });

  it("is the recorded entry while it exists, even where values match another", () => {
    const uses = { ef: { source: "dictionary", item_id: 3 }, koef_transform: { source: "dictionary", item_id: 3 } };
    expect(storedChoice(HANDLING, FIELDS, uses, value)).toBe(3);
  });

  it("falls back to the values when the recorded entry is gone or the fields name different entries", () => {
    const gone = { ef: { source: "dictionary", item_id: 9 }, koef_transform: { source: "dictionary", item_id: 9 } };
    expect(storedChoice(HANDLING, FIELDS, gone, value)).toBe(2);
    const mixed = { ef: { source: "dictionary", item_id: 1 }, koef_transform: { source: "dictionary", item_id: 3 } };
    expect(storedChoice(HANDLING, FIELDS, mixed, value)).toBe(2);
    expect(storedChoice(HANDLING, FIELDS, {}, sent({ ef: 4, koef_transform: 0.67 }))).toBe(CUSTOM);
  });
});

describe("bound fields and «Фактическое значение»", () => {
  it("leaves out the fields the registry fixes", () => {
    const def = REGISTRY.underground_emission_ch4;
    expect(boundFields(def, def.dictionaries[0]).map((f) => f.name)).toEqual(["ef"]);
    const recycle = REGISTRY.recycle_technology;
    expect(boundFields(recycle, recycle.dictionaries[0]).map((f) => f.name)).toEqual([
      "q_boiler",
      "q_gas_engine",
      "q_vam_energy",
      "q_pipeline",
      "q_power_plant",
    ]);
  });

  it("keeps the value the methodology fixes in custom mode, else the user's", () => {
    const [binding] = REGISTRY.open_mining_ch4.dictionaries;
    expect(customValue(binding, "koef_transform", 0.7)).toBe(0.67);
    expect(customValue(binding, "ef", 1.5)).toBe(1.5);
    expect(customValue(binding, "ef", undefined)).toBeUndefined();
  });
});

describe("the plausible band of a user's own value", () => {
  const field = (name: string) =>
    [...REGISTRY.underground_emission_ch4.inputs, ...REGISTRY.underground.inputs].find((f) => f.name === name) as NumberField;

  it("includes its bounds: IPCC 10–25 m³/t widened to 5–50", () => {
    expect(outsidePlausibleBand(field("ef"), 5)).toBeUndefined();
    expect(outsidePlausibleBand(field("ef"), 50)).toBeUndefined();
    expect(outsidePlausibleBand(field("ef"), 4.99)).toEqual({ min: 5, max: 50 });
    expect(outsidePlausibleBand(field("ef"), 50.01)).toEqual({ min: 5, max: 50 });
  });

  it("bounds densities to 0.5–2.2 kg/m³ and has none for a field without one", () => {
    expect(outsidePlausibleBand(field("p_co2"), 2.3)).toEqual({ min: 0.5, max: 2.2 });
    expect(outsidePlausibleBand(field("volume"), 1e12)).toBeUndefined();
  });
});
