// D91: the year's uncertainty of a line groups its calculations by their shared source of error: the
// months one point's meters measured are one source, as one factor used by several estimates is.
import { describe, expect, it } from "vitest";
import { calculate } from "@core/emissions";
import { uncertaintyCore } from "@core/uncertainty-node";
import type { StoredCalculation } from "../../ports";
import { lineUncertaintyOf, modelOf, type CountedGas } from "./uncertainty";

const core = uncertaintyCore();
const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
const u = (pct: number, origin: "activity" | "user" | "dictionary") => ({
  lower_pct: pct,
  upper_pct: pct,
  distribution: "normal" as const,
  source: "МГЭИК 2006",
  origin,
});

/** A month of one shaft's АГК: 1 000 thousand m³ at 0,5 % CH4, the flow ±20 % (measured flow × concentration). */
function month(
  id: string,
  point: string | undefined,
  volume = 1000,
): Pick<StoredCalculation, "id" | "type" | "name" | "results" | "coefficients"> & { point?: string } {
  const inputs = { volume, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 0.1, ef_ch4: 0.5 };
  return {
    id,
    type: "underground",
    name: id,
    results: calculate("underground", inputs, { gwp_ch4: 25 }) as Record<string, unknown>,
    coefficients: {
      volume: { value: volume, unit: "тыс. м³", source: "input", uncertainty: u(20, "activity") },
      p_ch4: { value: 0.668, unit: "кг/м³", source: "dictionary", dictionary: "get_underground", item_id: 1, item_version: 1 },
      ef_ch4: { value: 0.5, unit: "%", source: "input" },
    } as StoredCalculation["coefficients"],
    ...(point ? { point } : {}),
  };
}
const ch4Of = (c: ReturnType<typeof month>): CountedGas => ({
  facility: "f1",
  gas: "CH4",
  gross_t_co2e: c.results.res_ch4_to_co2 as number,
  subtracted_t_co2e: 0,
  model: modelOf(c),
  point_name: c.point ? "Ствол № 1" : undefined,
});

describe("the year's uncertainty of a line of 12 monthly calculations of one meter (D91)", () => {
  const months = Array.from({ length: 12 }, (_, i) => month(`m${i + 1}`, "p-shaft"));

  it("is the meter's own 20 %, its months' absolute uncertainties added linearly (not 20/√12 = 5,77 %)", () => {
    const line = lineUncertaintyOf(core, months.map(ch4Of), () => 0);
    close(line.gross, 12 * (months[0].results.res_ch4_to_co2 as number));
    close(line.ad_u, 20);
    expect(line.ef_u).toBe(0);
  });

  it("names the shared source: the point's instruments, its 12 calculations and their t", () => {
    const { shared, gross } = lineUncertaintyOf(core, months.map(ch4Of), () => 0);
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({ kind: "instruments", count: 12 });
    expect(shared[0].label).toMatch(/^приборы точки «Ствол № 1» \(объём газовой смеси/);
    close(shared[0].t_co2e, gross);
    close(shared[0].u_pct, 20);
  });

  it("keeps two points' meters independent (Eq. 3.2), as a calculation stored without a point", () => {
    const two = [month("a", "p-1"), month("b", "p-2")];
    close(lineUncertaintyOf(core, two.map(ch4Of), () => 0).ad_u, 20 / Math.SQRT2);
    const loose = [month("c", undefined), month("d", undefined)];
    close(lineUncertaintyOf(core, loose.map(ch4Of), () => 0).ad_u, 20 / Math.SQRT2);
  });
});
