// The rules every emission type keeps (registry.ts, typeRuleBreaches): the static ones are checked where
// the type is registered; linearity in the volume needs the core, so it is held here, a named test per
// type on its own first worked example, ahead of the randomized property test (emissions.property.test.ts).
import { describe, expect, it } from "vitest";
import { calculate } from "../emissions";
import { TYPE_VECTORS, inputsOf } from "../methodology-vectors";
import { EMISSION_TYPES, REGISTRY, TYPE_MODULES, typeRuleBreaches } from "../registry";
import type { CalculationModule } from "./definition";

/** A result per unit of activity (t per thousand m³) does not scale with the volume. */
const perUnit = (unit: string) => unit.includes("/");

describe("a type's rules, checked where it is registered", () => {
  it("hold for every registered type", () => {
    expect(typeRuleBreaches(TYPE_MODULES)).toEqual([]);
  });

  it("name the rule and the type a new module breaks: its activity input not named volume", () => {
    const flare = TYPE_MODULES.torch_ch4 as CalculationModule;
    const renamed = {
      ...flare,
      definition: {
        ...flare.definition,
        inputs: flare.definition.inputs.map((f) => (f.name === "volume" ? { ...f, name: "gas" } : f)),
      },
    } as CalculationModule;
    expect(typeRuleBreaches({ new_flare: renamed })).toEqual([
      expect.stringMatching(/^calculation type «new_flare» breaks the rule «its activity input is named volume»: no number input «volume»/),
    ]);
  });

  it("name the rule of the canonical unit and of a second activity input", () => {
    const coal = TYPE_MODULES.open_mining_ch4 as CalculationModule;
    const broken = {
      ...coal,
      definition: {
        ...coal.definition,
        inputs: coal.definition.inputs.map((f) =>
          f.name === "volume" ? { ...f, unit: "кг" } : f.name === "ef" ? { ...f, activity: "fuel" } : f,
        ),
      },
    } as CalculationModule;
    expect(typeRuleBreaches({ coal_kg: broken })).toEqual([
      "calculation type «coal_kg» breaks the rule «one activity input»: «ef» states an activity besides «volume»",
      "calculation type «coal_kg» breaks the rule «units: the canonical unit is an entry unit of power 0»: «volume» is stored in «кг», not among its entry units at power 0",
    ]);
  });
});

describe.each(EMISSION_TYPES)("the rule «linear in volume»: %s", (type) => {
  it("doubles and tenfolds every result but a per-unit one with its volume", () => {
    const inputs = inputsOf(type, TYPE_VECTORS[type][0]);
    const base = calculate(type, inputs) as Record<string, number>;
    for (const k of [2, 10]) {
      const scaled = calculate(type, { ...inputs, volume: inputs.volume * k }) as Record<string, number>;
      for (const result of REGISTRY[type].results.filter((r) => r.type === "number")) {
        const expected = perUnit(result.unit) ? base[result.name] : base[result.name] * k;
        const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
        expect(
          Math.abs(scaled[result.name] - expected) <= tolerance,
          `calculation type «${type}» breaks the rule «linear in volume»: ${result.name} at volume ×${k} is ${scaled[result.name]}, not ${expected}`,
        ).toBe(true);
      }
    }
  });
});
