// Methodology section 13.6's vectors (tests/fixtures/methodology/climate-project-vectors.json, a copy
// of the methodology's block): every case's inputs through the core, its totals, each device's summary
// and hours, and the deviations compared at the vectors' rel_tol, the carbon units exactly.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClimateInputs, carbonUnits, evaluateClimatePeriod } from "./climate-project";
import { FieldError } from "./field-error";

interface VectorCase {
  readonly case: string;
  readonly title: string;
  readonly inputs: ClimateInputs;
  readonly expected: {
    readonly totals: Record<string, number>;
    readonly devices: readonly { id: string; summary: Record<string, number>; blocks?: readonly Record<string, unknown>[] }[];
    readonly deviations: readonly Record<string, unknown>[];
  };
}
const VECTORS = JSON.parse(
  readFileSync(new URL("../../tests/fixtures/methodology/climate-project-vectors.json", import.meta.url), "utf8"),
) as { rel_tol: number; methodology_version: string; cases: VectorCase[] };

/** Equal within the vectors' relative tolerance (an absolute one near zero), recursing into objects and arrays. */
function expectClose(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === "number") {
    expect(typeof actual, path).toBe("number");
    const a = actual as number;
    const tolerance = VECTORS.rel_tol * Math.max(1, Math.abs(expected));
    expect(Math.abs(a - expected) <= tolerance, `${path}: ${a} against ${expected}`).toBe(true);
    return;
  }
  if (expected === null || typeof expected !== "object") {
    expect(actual, path).toEqual(expected);
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path}: length`).toBe(expected.length);
    expected.forEach((item, i) => expectClose((actual as unknown[])[i], item, `${path}[${i}]`));
    return;
  }
  expect(actual, path).toBeTypeOf("object");
  expect(Object.keys(actual as object).sort(), `${path}: keys`).toEqual(Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
}

describe("methodology 13.6: a climate project's period from its devices' minutes", () => {
  it("is the rules' version the vectors are written for", () => {
    expect(evaluateClimatePeriod(VECTORS.cases[0].inputs).rules_version).toBe(VECTORS.methodology_version);
  });

  describe.each(VECTORS.cases.map((c) => [c.case, c.title, c] as const))("case (%s) %s", (_case, _title, vector) => {
    const result = evaluateClimatePeriod(vector.inputs);

    it("gives the period's totals and carbon units", () => {
      expectClose(result.totals, vector.expected.totals, "totals");
      expect(result.totals.carbon_units).toBe(vector.expected.totals.carbon_units);
    });

    it("gives each device's summary and the figures of an hour of each block", () => {
      expect(result.devices.map((d) => d.id)).toEqual(vector.expected.devices.map((d) => d.id));
      vector.expected.devices.forEach((expected, d) => {
        expectClose(result.devices[d].summary, expected.summary, `${expected.id}.summary`);
        if (expected.blocks) expectClose(result.devices[d].blocks, expected.blocks, `${expected.id}.blocks`);
      });
    });

    it("lists the deviations by device and block, the defaults last", () => {
      expectClose(result.deviations, vector.expected.deviations, "deviations");
    });
  });
});

describe("D78: carbon units", () => {
  it("are whole tonnes after rounding to 6 decimals, the fraction forfeited", () => {
    expect(carbonUnits(15.5883752069)).toBe(15);
    expect(carbonUnits(252.9999999999)).toBe(253);
    expect(carbonUnits(0)).toBe(0);
  });

  it("carry a deficit into the next period and never go negative", () => {
    const [a] = VECTORS.cases;
    const short = evaluateClimatePeriod({ ...a.inputs, period: { ...a.inputs.period, deficit_prev_t_co2e: 20 } });
    expect(short.totals.er_t_co2e).toBe(0);
    expect(short.totals.carbon_units).toBe(0);
    expect(short.totals.deficit_carried_t_co2e).toBeCloseTo(20 - 15.5883752069, 9);
    const covered = evaluateClimatePeriod({ ...a.inputs, period: { ...a.inputs.period, deficit_prev_t_co2e: 5 } });
    expect(covered.totals.er_t_co2e).toBeCloseTo(10.5883752069, 9);
    expect(covered.totals.carbon_units).toBe(10);
    expect(covered.totals.deficit_carried_t_co2e).toBe(0);
  });
});

describe("D71: substitution never raises the methane, and a gap it cannot fill makes the hour count nothing", () => {
  const engine = (segments: object[], extra: object = {}) =>
    evaluateClimatePeriod({
      period: {},
      devices: [
        {
          id: "ГПУ",
          kind: "engine",
          flow_basis: "standard_20C",
          hours: [{ label: "2026-06-01T00", repeat: 1, segments: segments as never, e_gen_mwh: 2, ...extra }],
        },
      ],
    });

  it("fills 15 missing minutes with the lower neighbour of the flow", () => {
    const r = engine([
      { from: 0, to: 20, q: 20, c: 50, run: 1 },
      { from: 20, to: 35, q: null, c: 50, run: 1 },
      { from: 35, to: 60, q: 10, c: 50, run: 1 },
    ]);
    expect(r.devices[0].blocks[0].substituted_min).toEqual({ q: 15 });
    expect(r.devices[0].blocks[0].v_ch4_m3).toBeCloseTo((20 * 20 + 40 * 10) * 0.5, 9);
  });

  it("leaves 16 missing minutes unfilled: the hour is «нет данных», its electricity not credited", () => {
    const r = engine([
      { from: 0, to: 20, q: 20, c: 50, run: 1 },
      { from: 20, to: 36, q: null, c: 50, run: 1 },
      { from: 36, to: 60, q: 10, c: 50, run: 1 },
    ]);
    expect(r.devices[0].blocks[0]).toMatchObject({ valid: false, eta_basis: "no_data", missing_min: { q: 16 }, e_cred_mwh: 0 });
    expect(r.deviations.map((d) => d.kind)).toEqual(["no_data", "el_not_credited"]);
    expect(r.totals.e_cred_mwh).toBe(0);
  });

  it("credits no electricity from an hour whose gas was recorded as zero", () => {
    const r = engine([{ from: 0, to: 60, q: 0, c: 50, run: 0 }]);
    expect(r.devices[0].blocks[0]).toMatchObject({ valid: true, m_ch4_t: 0, e_cred_mwh: 0 });
    expect(r.deviations).toContainEqual(
      expect.objectContaining({ kind: "el_not_credited", detail: { e_gen_mwh: 2, reason: "no_methane" } }),
    );
  });

  it("gives an engine that stopped while fed no efficiency", () => {
    const r = engine([
      { from: 0, to: 30, q: 18, c: 52, run: 1 },
      { from: 30, to: 31, q: 18, c: 52, run: 0 },
      { from: 31, to: 60, q: 18, c: 52, run: 1 },
    ]);
    expect(r.devices[0].blocks[0]).toMatchObject({ eta: 0, eta_basis: "not_proven_run", er_ch4_t_co2e: 0 });
  });
});

describe("what the core refuses", () => {
  const flare = (overrides: object) => ({
    period: {},
    devices: [
      {
        id: "Ф-1",
        kind: "flare_open",
        flow_basis: "standard_20C",
        hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 60, q: 10, c: 40, flame: 1 }] }],
        ...overrides,
      },
    ],
  });
  it.each([
    [
      "a hole in the hour's minutes",
      flare({ hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 50, q: 10, c: 40, flame: 1 }] }] }),
      "devices.0.hours.0.segments",
    ],
    ["an enclosed flare without its efficiency option", flare({ kind: "flare_enclosed" }), "devices.0.eta_option"],
    [
      "a methane content over 100 %",
      flare({ hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 60, q: 10, c: 140, flame: 1 }] }] }),
      "devices.0.hours.0.segments.0.c",
    ],
    [
      "more hours than a leap year",
      flare({ hours: [{ label: "x", repeat: 8_785, segments: [{ from: 0, to: 60, q: 10, c: 40, flame: 1 }] }] }),
      "devices.0.hours",
    ],
  ])("%s, naming the field", (_what, inputs, field) => {
    expect(() => evaluateClimatePeriod(inputs as never)).toThrow(FieldError);
    try {
      evaluateClimatePeriod(inputs as never);
    } catch (error) {
      expect((error as FieldError).field).toBe(field);
    }
  });

  it("a gas with more than 1 % of other hydrocarbons (D74)", () => {
    expect(() => evaluateClimatePeriod({ ...(flare({}) as ClimateInputs), period: { nmhc_pct_vol: 1.5 } })).toThrow(
      "НМУВ > 1 % — методология не поддерживается",
    );
  });
});
