// POST v1/climate-projects/evaluate/ holds each figure to its bounds — a minute's or an
// hour's to what a meter of its kind can send at all (the readings' push refuses the same), a period's
// and a parameter's to 10¹² — and answers 400 naming the field past it, as abatement does: a flow of
// 1e308 once answered 200 with null totals, and e_gen_mwh 1e308 200 with 1e308 in the answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

const evaluate = (json: unknown) => h.request("/api/v1/climate-projects/evaluate/", { method: "POST", token, json });
const device = (segment: Record<string, number>, hour: Record<string, number> = {}, kind = "flare_open") => ({
  id: "Ф-1",
  kind,
  flow_basis: "standard_20C",
  hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 60, q: 10, c: 40, flame: 1, run: 1, ...segment }], ...hour }],
});
const refusal = async (json: unknown) => {
  const res = await evaluate(json);
  expect(res.status, await res.clone().text()).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
};

describe("the evaluation's figures within their bounds", () => {
  it("refuses a flow of 1e308, naming it, and the other readings past what a meter sends", async () => {
    expect(await refusal({ period: {}, devices: [device({ q: 1e308 })] })).toBe(
      `${fieldName("devices.0.hours.0.segments.0.q")}: не больше 1\u00A0000\u00A0000`,
    );
    expect(await refusal({ period: {}, devices: [device({ c: -1e308 })] })).toBe(
      `${fieldName("devices.0.hours.0.segments.0.c")}: не меньше −100`,
    );
    expect(await refusal({ period: {}, devices: [device({ flame: 1e6 })] })).toBe(
      `${fieldName("devices.0.hours.0.segments.0.flame")}: не больше 10`,
    );
  });

  it("refuses an hour's electricity of 1e308 and a period's figure or a parameter past 10¹²", async () => {
    expect(await refusal({ period: {}, devices: [device({}, { e_gen_mwh: 1e308 }, "engine")] })).toBe(
      `${fieldName("devices.0.hours.0.e_gen_mwh")}: не больше 1\u00A0000\u00A0000`,
    );
    expect(await refusal({ period: { leakage_t_co2e: 1e308 }, devices: [device({})] })).toMatch(
      new RegExp(`^${fieldName("period.leakage_t_co2e")}: не больше `),
    );
    expect(await refusal({ params: { gwp_ch4: 1e300 }, period: {}, devices: [device({})] })).toMatch(
      new RegExp(`^${fieldName("params.gwp_ch4")}: не больше `),
    );
  });

  it("still evaluates a flare's hour within its bounds", async () => {
    const res = await evaluate({ period: {}, devices: [device({ q: 1e5 })] });
    expect(res.status, await res.clone().text()).toBe(200);
    const totals = ((await res.json()) as { totals: Record<string, number | null> }).totals;
    for (const [name, value] of Object.entries(totals)) expect(Number.isFinite(value), name).toBe(true);
  });
});
