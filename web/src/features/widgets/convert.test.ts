import { afterEach, describe, expect, it, vi } from "vitest";
import { emissionsCore } from "@core/emissions";
import type { DictionaryEntry } from "../../api/dictionary";
import { fuelTonnes, fugitiveTonnes } from "./convert";

const core = emissionsCore();

function entry(id: number, name: string, values: Record<string, unknown>): DictionaryEntry {
  return { id, name, ...values, units: {}, sources: {}, version: 1, effective_from: "2026-01-01" };
}

const at20 = entry(1, "20 °C", { p_co2: 1.8393, p_ch4: 0.668 });
const at0 = entry(3, "0 °C", { p_co2: 1.9768, p_ch4: 0.717 });
const winterDiesel = entry(2, "Дизельное топливо зимнее", { ef: 3.149, p: 0.84 });
const ai92 = entry(5, "Бензин АИ-92", { ef: 3.026, p: 0.735 });

describe("fugitive converter (section 5's converter vectors)", () => {
  it("converts m³ of CH4 and CO2 to tonnes by the density of the chosen conditions", () => {
    expect(fugitiveTonnes(core, "CH4", at20, "1000")).toBeCloseTo(0.668, 12);
    expect(fugitiveTonnes(core, "CO2", at20, "1000")).toBeCloseTo(1.8393, 12);
    expect(fugitiveTonnes(core, "CH4", at0, "1000")).toBeCloseTo(0.717, 12);
    expect(fugitiveTonnes(core, "CH4", at20, "0")).toBe(0);
  });

  it("computes nothing until gas, conditions and quantity are all set", () => {
    expect(fugitiveTonnes(core, undefined, at20, "1000")).toBeUndefined();
    expect(fugitiveTonnes(core, "CH4", undefined, "1000")).toBeUndefined();
    expect(fugitiveTonnes(core, "CH4", at20, "")).toBeUndefined();
    expect(fugitiveTonnes(core, "CH4", at20, ".")).toBeUndefined();
  });

  describe("failures", () => {
    afterEach(() => vi.restoreAllMocks());

    it("logs «Invalid fugitive option» for an unknown gas and clears the result", () => {
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      expect(fugitiveTonnes(core, "N2O", at20, "1000")).toBeUndefined();
      expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: "Invalid fugitive option" }));
    });

    it("logs the core's field error for a bad density and clears the result", () => {
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      expect(fugitiveTonnes(core, "CH4", entry(9, "broken", { p_co2: 1.8 }), "1000")).toBeUndefined();
      expect(log).toHaveBeenCalledWith(expect.objectContaining({ name: "FieldError", field: "density" }));
    });
  });
});

describe("fuel converter (section 5's converter vectors)", () => {
  it("converts litres to tonnes by the brand's density", () => {
    expect(fuelTonnes(core, winterDiesel, "1000")).toBeCloseTo(0.84, 12);
    expect(fuelTonnes(core, ai92, "1000")).toBeCloseTo(0.735, 12);
    expect(fuelTonnes(core, winterDiesel, "12.5")).toBeCloseTo(0.0105, 12);
    expect(fuelTonnes(core, winterDiesel, "12,5")).toBeCloseTo(0.0105, 12);
    expect(fugitiveTonnes(core, "CH4", at20, "845,5")).toBeCloseTo(0.564794, 12);
  });

  it("needs a brand and a quantity", () => {
    expect(fuelTonnes(core, undefined, "1000")).toBeUndefined();
    expect(fuelTonnes(core, winterDiesel, "")).toBeUndefined();
  });

  it("logs a failure and clears the result", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(fuelTonnes(core, entry(9, "no density", { ef: 3.149 }), "1000")).toBeUndefined();
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});
