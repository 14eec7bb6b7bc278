// D13: the entry units of the registry and their conversion to the canonical unit of D8.
import { describe, expect, it } from "vitest";
import { FieldError } from "./emissions";
import { checkEntered, enteredText, fromCanonical, toCanonical, unitFields } from "./entry-units";
import { REGISTRY } from "./registry";

const coal = unitFields(REGISTRY.underground_emission_ch4).get("volume")!;
const gas = unitFields(REGISTRY.torch_ch4).get("volume")!;

describe("entry units (D13)", () => {
  it("offers t, thousand t or million t for coal production, m³, thousand m³ or million m³ for gas, the canonical one included", () => {
    expect(coal.units.map((u) => u.unit)).toEqual(["т", "тыс. т", "млн т"]);
    expect(gas.units.map((u) => u.unit)).toEqual(["м³", "тыс. м³", "млн м³"]);
    for (const field of [coal, gas]) expect(field.units.find((u) => u.power === 0)?.unit).toBe(field.unit);
    expect([...unitFields(REGISTRY.underground).keys()]).toEqual(["volume"]);
    expect([...unitFields(REGISTRY.open_mining_co2).keys()]).toEqual([]);
  });

  it("converts exactly: 3 100 thousand t is 3 100 000 t, 1 500 m³ is 1,5 thousand m³", () => {
    expect(toCanonical(coal, { value: 3100, unit: "тыс. т" })).toBe(3_100_000);
    expect(toCanonical(gas, { value: 1500, unit: "м³" })).toBe(1.5);
    expect(toCanonical(gas, { value: 12.5, unit: "млн м³" })).toBe(12_500);
    expect(fromCanonical(gas, "м³", 1.5)).toBe(1500);
    expect(enteredText({ value: 3100.5, unit: "тыс. т" })).toBe("3\u00a0100,5 тыс. т");
  });

  it("refuses a unit the field does not take and a field without entry units, naming entered.<field>", () => {
    expect(() => toCanonical(coal, { value: 1, unit: "м³" })).toThrow(FieldError);
    expect(() => checkEntered(REGISTRY.underground_emission_ch4, { ef: { value: 1, unit: "т" } })).toThrow(
      /Это поле вводится только в основной единице/,
    );
    expect(checkEntered(REGISTRY.underground_emission_ch4, { volume: { value: 3100, unit: "тыс. т" } })).toEqual({
      volume: { value: 3100, unit: "тыс. т" },
    });
  });
});
