// The device kinds of a climate project as modules: every kind has its worked
// example among methodology 13.6's vectors (climate-project.test.ts and climate-verify-vectors.test.ts
// compute every case in the core and in verify.py), and a kind lacking a part of its rule is refused
// when the list is assembled, naming the part, instead of computing with another kind's efficiency.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClimateInputs, evaluateClimatePeriod } from "../climate-project";
import type { DeviceKindSpec } from "./definition";
import { DEVICE_KIND_SPECS, kindChannels, kindsById } from "./index";

const VECTORS = JSON.parse(
  readFileSync(new URL("../../../tests/fixtures/methodology/climate-project-vectors.json", import.meta.url), "utf8"),
) as { cases: { case: string; inputs: ClimateInputs; expected: { totals: { carbon_units: number } } }[] };

/** A kind made like the open flare under another code, so only what a test removes is missing. */
const toy = (change: (spec: Record<string, unknown>) => void): DeviceKindSpec => {
  const spec = structuredClone({ ...DEVICE_KIND_SPECS[0], id: "toy", options: [] }) as unknown as Record<string, unknown>;
  spec.efficiency = {
    ...(spec.efficiency as object),
    parameter: { ...(spec.efficiency as { parameter: object }).parameter, name: "eta_toy" },
  };
  change(spec);
  return spec as unknown as DeviceKindSpec;
};

describe("a device kind is one module", () => {
  it.each(DEVICE_KIND_SPECS.map((k) => [k.id, k.example] as const))(
    "%s has its worked example, 13.5 (%s), computed by the core",
    (id, example) => {
      const vector = VECTORS.cases.find((c) => c.case === example);
      expect(vector?.inputs.devices.map((d) => d.kind)).toContain(id);
      expect(evaluateClimatePeriod(vector!.inputs).totals.carbon_units).toBe(vector!.expected.totals.carbon_units);
    },
  );

  it("assembles a toy kind that has every part", () => {
    expect(Object.keys(kindsById([...DEVICE_KIND_SPECS, toy(() => {})]))).toEqual([...DEVICE_KIND_SPECS.map((k) => k.id), "toy"]);
  });

  it("refuses a toy kind without an efficiency rule, naming the rule", () => {
    expect(() => kindsById([...DEVICE_KIND_SPECS, toy((s) => delete s.efficiency)])).toThrow(
      "вид устройства «toy»: нет правила КПД (efficiency)",
    );
  });

  it("refuses a toy kind whose proof of destruction no rule computes, naming it", () => {
    const bad = toy((s) => Object.assign(s.efficiency as object, { proof: "sound" }));
    expect(() => kindsById([...DEVICE_KIND_SPECS, bad])).toThrow("нет правила подтверждения уничтожения (efficiency.proof): sound");
  });

  it("refuses a toy kind without a default efficiency or its own basis, and one borrowing another kind's parameter", () => {
    const noDefault = toy((s) => Object.assign(s.efficiency as object, { parameter: undefined }));
    expect(() => kindsById([noDefault])).toThrow("(efficiency.parameter)");
    const borrowed = toy((s) => Object.assign(s.efficiency as object, { basis: "measured" }));
    expect(() => kindsById([borrowed])).toThrow("(efficiency.basis, efficiency.basis_text)");
    const boilers = toy((s) => Object.assign(s.efficiency as object, { parameter: DEVICE_KIND_SPECS[3].efficiency.parameter }));
    expect(() => kindsById([...DEVICE_KIND_SPECS, boilers])).toThrow("параметр КПД другого вида");
  });

  it("gives a kind's channels as the server checks and the form asks them", () => {
    const [, enclosed] = DEVICE_KIND_SPECS;
    expect(kindChannels(enclosed, "actual", "measured")).toEqual([
      { channel: "q", required: true },
      { channel: "c", required: true },
      { channel: "p", required: true },
      { channel: "t", required: true },
      { channel: "t_eg", required: true },
      { channel: "flame", required: false },
      { channel: "eta_meas", required: true },
    ]);
    expect(kindChannels(enclosed, "standard_20C", "default").find((c) => c.channel === "eta_meas")?.required).toBe(false);
  });
});
