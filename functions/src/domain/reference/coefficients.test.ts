// The generalised «Фактическое значение» (methodology D10): every dictionary-fed coefficient may be
// the mine's own value, with a justification; flags for a missing justification and an implausible value.
import { describe, expect, it } from "vitest";
import { REGISTRY } from "@core/registry";
import { coefficientFlags, resolveCoefficients } from "./coefficients";
import type { Deps } from "../context";
import type { DictionaryItemVersion } from "../../ports";

const item = (dictionary: string, id: number, values: Record<string, number>): DictionaryItemVersion => ({
  dictionary,
  id,
  name: `Запись ${id}`,
  values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v, unit: "", tag: "S1", ref: "ipcc2006" }])),
  version: 1,
  effective_from: "2024-01-01",
  changed_at: "2024-01-01T00:00:00Z",
  changed_by: "seed",
  reason: "seed",
});

const ITEMS: Record<string, DictionaryItemVersion[]> = {
  get_underground_emission_ch4: [item("get_underground_emission_ch4", 1, { ef: 10 }), item("get_underground_emission_ch4", 2, { ef: 18 })],
  get_handling_underground_ch4: [item("get_handling_underground_ch4", 1, { ef: 2.5, koef_transform: 0.67 })],
  get_disposal_co2_stat_sources: [item("get_disposal_co2_stat_sources", 1, { ef: 2.76, k: 1.154 })],
  get_gwp: [item("get_gwp", 1, { gwp_ch4: 25 })],
};
const dictionaries = { list: async (name: string) => ITEMS[name] ?? [], forOneRequest: () => dictionaries };
const deps = { repos: { dictionaries } } as unknown as Deps;

describe("resolveCoefficients: the mine's own value for every dictionary-fed coefficient", () => {
  it("takes 14.3 m³/t for underground_emission_ch4 (null choice) with its justification", async () => {
    const { values, uses } = await resolveCoefficients(deps, REGISTRY.underground_emission_ch4, {
      values: { volume: 1000, ef: 14.3 },
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "  Замеры 2024 г., протокол № 12 " },
      uncertainty: { ef: { lower_pct: 10, upper_pct: 15, distribution: "normal" } },
    });
    expect(values.ef).toBe(14.3);
    expect(uses.ef).toMatchObject({ value: 14.3, source: "custom", justification: "Замеры 2024 г., протокол № 12" });
    expect(uses.koef_transform.source).toBe("fixed");
    expect(coefficientFlags(REGISTRY.underground_emission_ch4, uses)).toEqual([]);
  });

  it("treats values matching no entry as custom (3.1 m³/t for handling) and flags the missing justification", async () => {
    const { uses } = await resolveCoefficients(deps, REGISTRY.handling_underground_ch4, {
      values: { volume: 1, ef: 3.1, koef_transform: 0.67 },
    });
    expect(uses.ef).toMatchObject({ value: 3.1, source: "custom" });
    expect(uses.ef.justification).toBeUndefined();
    expect(coefficientFlags(REGISTRY.handling_underground_ch4, uses)).toEqual([
      "custom_without_justification:ef",
      "custom_without_uncertainty:ef",
      "custom_without_justification:koef_transform",
      "custom_without_uncertainty:koef_transform",
    ]);
  });

  it("still matches an entry when the values are the entry's", async () => {
    const { uses } = await resolveCoefficients(deps, REGISTRY.underground_emission_ch4, { values: { volume: 1, ef: 18 } });
    expect(uses.ef).toMatchObject({ source: "dictionary", item_id: 2 });
  });

  it("warns (flags) a value outside the plausible band but keeps it", async () => {
    const { uses } = await resolveCoefficients(deps, REGISTRY.underground_emission_ch4, {
      values: { volume: 1, ef: 60 },
      justifications: { ef: "Выбросоопасный пласт" },
    });
    expect(uses.ef.value).toBe(60);
    expect(coefficientFlags(REGISTRY.underground_emission_ch4, uses)).toEqual(["custom_out_of_range:ef", "custom_without_uncertainty:ef"]);
  });

  it("gives an own value without its own uncertainty the widest band of its dictionary field (D23)", async () => {
    const banded = (id: number, ef: number, lower: number, upper: number) => {
      const entry = item("get_open_mining_ch4", id, { ef, koef_transform: 0.67 });
      entry.values.ef.uncertainty = { lower_pct: lower, upper_pct: upper, distribution: "lognormal", source: "ipcc-unc-surface" };
      return entry;
    };
    ITEMS.get_open_mining_ch4 = [banded(1, 1.2, 75, 67), banded(4, 0.1, 100, 100)];
    const { uses } = await resolveCoefficients(deps, REGISTRY.open_mining_ch4, {
      values: { volume: 1000, ef: 0.9, koef_transform: 0.67 },
      dictionary_items: { get_open_mining_ch4: null },
      justifications: { ef: "Замеры" },
    });
    expect(uses.ef.uncertainty).toMatchObject({ lower_pct: 100, upper_pct: 100, distribution: "lognormal", origin: "dictionary" });
    expect(coefficientFlags(REGISTRY.open_mining_ch4, uses)).toContain("custom_without_uncertainty:ef");
  });

  it("refuses a justification of a field that is not custom, or too long", async () => {
    await expect(
      resolveCoefficients(deps, REGISTRY.underground_emission_ch4, { values: { volume: 1, ef: 18 }, justifications: { ef: "x" } }),
    ).rejects.toThrow(/justifications\.ef/);
    await expect(
      resolveCoefficients(deps, REGISTRY.underground_emission_ch4, {
        values: { volume: 1, ef: 14.3 },
        justifications: { ef: "я".repeat(2001) },
      }),
    ).rejects.toThrow(/2000/);
  });

  it("keeps the recorded justification on an edit that does not mention it, and drops it on null", async () => {
    const first = await resolveCoefficients(deps, REGISTRY.underground_emission_ch4, {
      values: { volume: 1, ef: 14.3 },
      justifications: { ef: "Замеры" },
    });
    const kept = await resolveCoefficients(deps, REGISTRY.underground_emission_ch4, { values: { volume: 2, ef: 14.3 } }, first.uses);
    expect(kept.uses.ef.justification).toBe("Замеры");
    const dropped = await resolveCoefficients(
      deps,
      REGISTRY.underground_emission_ch4,
      { values: { volume: 2, ef: 14.3 }, justifications: { ef: null } },
      first.uses,
    );
    expect(dropped.uses.ef.justification).toBeUndefined();
  });

  it("lets a pair (ef and k of stationary sources) be custom together", async () => {
    const { uses } = await resolveCoefficients(deps, REGISTRY.disposal_co2_stat_sources, {
      values: { volume: 1, ef: 2.7, k: 1.1, of: 1 },
      dictionary_items: { get_disposal_co2_stat_sources: null },
    });
    expect([uses.ef.source, uses.k.source]).toEqual(["custom", "custom"]);
  });
});
