// an earlier round / docs/methodology.md, D11: flaring by composition (Order 371 formulas 2.2 and 2.4)
// through the API: the worked example stored to 1e-9 with the dictionary entries it used, a missing
// component counted as 0, contents above 100 % refused in Russian naming the fields, the new
// coefficient-of-unburnt-gas dictionary and the density dictionary feeding CF and ρ.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import { SECTION_7_VECTORS } from "@core/methodology-vectors";
import type { CalculationView } from "@server/contract";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture());
});
afterAll(() => h.close());

const RESULTS = ["ef_co2", "ef_ch4", "res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"];
const example = SECTION_7_VECTORS.torch_composition[0];
const inputs = Object.fromEntries(Object.entries(example).filter(([k]) => !RESULTS.includes(k)));

const post = (body: Record<string, unknown>) =>
  h.request("/api/v1/torch_composition/", {
    method: "POST",
    token: user.token,
    json: { name: "Факел по составу", project: project.id, ...body },
  });

describe("torch_composition through the API", () => {
  it("stores the worked example of 7.1 to 1e-9, with CF and the densities from their dictionaries", async () => {
    const res = await post({ ...inputs, dictionary_items: { get_torch_cf: 1, get_coeff_co2_density: 1 } });
    expect(res.status, await res.clone().text()).toBe(201);
    const calc = (await res.json()) as CalculationView;
    for (const name of RESULTS) expect(Math.abs((calc[name] as number) - (example[name] as number)), name).toBeLessThanOrEqual(1e-9);
    expect(calc.coefficients.cf).toMatchObject({ value: 0.0006, source: "dictionary", dictionary: "get_torch_cf", item_id: 1 });
    expect(calc.coefficients.cf.reference).toContain("табл. 2.2");
    expect(calc.coefficients.p_co2).toMatchObject({ value: 1.8393, source: "dictionary", dictionary: "get_coeff_co2_density", item_id: 1 });

    const stored = (await (
      await h.request(`/api/v1/torch_composition/${calc.id}/single_calc/1/`, { token: user.token })
    ).json()) as CalculationView;
    expect(stored.sum_co2).toBe(calc.sum_co2);
    expect(stored.w_c4h10 ?? stored.coefficients.w_c4h10?.value ?? 0).toBe(0);
  });

  it("matches the values to dictionary entries when no entry is named, and counts missing components as 0", async () => {
    const res = await post({ volume: 1000, w_ch4: 76, cf: 0.035, p_co2: 1.8393, p_ch4: 0.668 });
    expect(res.status, await res.clone().text()).toBe(201);
    const calc = (await res.json()) as CalculationView;
    expect(calc.coefficients.cf).toMatchObject({ dictionary: "get_torch_cf", item_id: 2 });
    // Table 2.1's default for coal-mine gas is 0.0178 t CH4 per thousand m³: a sooty flame at 76 %.
    expect(Math.abs((calc.ef_ch4 as number) - 0.0177688)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs((calc.res_co2 as number) - (1000 * 76 * (1 - 0.035) * 1.8393) / 100)).toBeLessThanOrEqual(1e-9);
  });

  it("refuses contents that add up to more than 100 % vol with a Russian 400 naming the fields", async () => {
    const res = await post({ ...inputs, w_ch4: 90, w_co2: 15 });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("w_ch4");
    // The fields by their labels, never the internal names summed.
    expect(text).toContain("«Содержание CH4 в смеси» + «Содержание CO2 в смеси»");
    expect(text).not.toContain("w_co2 +");
    expect(text).toContain("не больше 100");
  });

  it("serves the coefficient-of-unburnt-gas dictionary: four kinds of flare from Order 371 Table 2.2", async () => {
    const res = await h.request("/api/v1/dictionary/get_torch_cf/", { token: user.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as unknown;
    const entries = (Array.isArray(body) ? body : (body as { results: unknown[] }).results) as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.cf)).toEqual([0.0006, 0.035, 0.02, 0.005]);
  });
});
