// D26: one function gives every figure of a facility-year; its per-calculation figures add up to
// the facility's, and the facility's to what the inventory's sums give (domain/inventory/sums.ts).
import { describe, expect, it } from "vitest";
import { facilityYearFigures, methaneSubtracted, nettedGasesOf, type FacilityYearCalculation } from "@core/inventory";
import { yearFigures, sumsOfCalculations } from "./sums";

const GWP = 25;
// Two gross mining figures, one measured net figure, post-mining and the D17 worked flare.
const calculations: FacilityYearCalculation[] = [
  { id: "m1", type: "underground_emission_ch4", inputs: { volume: 1, basis: "gross" }, results: { res_ch4: 20_000 } },
  { id: "m2", type: "underground", inputs: { volume: 1, basis: "gross" }, results: { res_ch4: 9_701.1, res_co2: 300 } },
  { id: "h1", type: "handling_underground_ch4", inputs: { volume: 1 }, results: { res_ch4: 4020 } },
  {
    id: "t1",
    type: "torch_composition",
    inputs: { volume: 20_000, w_ch4: 60, w_co2: 5, cf: 0.0006, p_co2: 1.8393, p_ch4: 0.668 },
    results: { res_ch4: 4.8096, res_co2: 22_000 },
  },
  { id: "d1", type: "open_mining_co2", inputs: { volume: 10 }, results: { res_co2: 31.49 } },
];

describe("the figures of a facility-year (D26)", () => {
  const figures = facilityYearFigures(calculations, GWP);

  it("takes the netted methane off the gross mining figures in proportion, never off post-mining or other lines", () => {
    const byId = new Map(figures.calculations.map((c) => [c.id, c]));
    const ch4 = (id: string) => byId.get(id)!.gases.find((g) => g.gas === "CH4")!;
    expect(figures.balance!.netted_t).toBeCloseTo(8016, 9);
    expect(ch4("m1").subtracted_t).toBeCloseTo((8016 * 20_000) / 29_701.1, 9);
    expect(ch4("m2").subtracted_t).toBeCloseTo((8016 * 9_701.1) / 29_701.1, 9);
    expect(ch4("m1").subtracted_t + ch4("m2").subtracted_t).toBeCloseTo(8016, 9);
    expect(ch4("h1").subtracted_t).toBe(0);
    expect(ch4("t1").subtracted_t).toBe(0);
    expect(ch4("m1").t).toBeCloseTo(ch4("m1").gross_t - ch4("m1").subtracted_t, 12);
    // Every calculation's net CO2-eq adds up to the facility's, and the facility's gross less the
    // subtracted is its net.
    expect(figures.calculations.reduce((sum, c) => sum + c.t_co2e, 0)).toBeCloseTo(figures.t_co2e, 6);
    expect(figures.gross_t_co2e - figures.subtracted_t_co2e).toBeCloseTo(figures.t_co2e, 6);
    // The CH4 that reached the atmosphere is the balance's emitted methane.
    expect(figures.gases.find((g) => g.gas === "CH4")!.t).toBeCloseTo(figures.balance!.emitted_t, 6);
  });

  it("counts the CO2 the burnt drained gas carried once: on the flare's line, taken off the gross measured figure (D28)", () => {
    // 20 000 thousand m³ at 5 % CO2, 20 °C: 1 839,3 t carried, more than the 300 t the mining figure holds.
    expect(figures.balance!.co2_carried_t).toBeCloseTo(1839.3, 9);
    expect(figures.balance!.co2_netted_t).toBe(300);
    const co2 = figures.calculations.find((c) => c.id === "m2")!.gases.find((g) => g.gas === "CO2")!;
    expect(co2).toMatchObject({ gross_t: 300, subtracted_t: 300, t: 0 });
    // A smaller flare: only what it carried comes off.
    const small = facilityYearFigures(
      calculations.map((c) => (c.id === "t1" ? { ...c, inputs: { ...c.inputs, volume: 2000 } } : c)),
      GWP,
    );
    expect(small.calculations.find((c) => c.id === "m2")!.gases.find((g) => g.gas === "CO2")!.subtracted_t).toBeCloseTo(183.93, 9);
  });

  it("agrees with the inventory's figures from the sums", () => {
    const stored = calculations.map((c) => ({
      ...c,
      name: c.id,
      project: "p1",
      is_deleted: false,
      inventory_role: "primary",
      created_at: "2025-01-01T00:00:00.000Z",
    }));
    const project = { id: "p1", reporting_year: 2025, end_date: "2025-12-31", facility: "f1", is_deleted: false };
    const year = yearFigures(sumsOfCalculations(stored), [project], 2025, GWP);
    expect(figures.t_co2e).toBeCloseTo(year.total_t_co2e, 6);
    expect(figures.t_co2e).toBeCloseTo(year.facilities.get("f1")!, 6);
  });

  it("nets nothing without a balance, from a net figure, or where nothing was destroyed", () => {
    const net = { type: "underground", inputs: { basis: "net" }, results: { res_ch4: 5000 } };
    expect(methaneSubtracted(net, { mining_gross_t: 5000, netted_t: 100 })).toBe(0);
    expect(methaneSubtracted(calculations[0], undefined)).toBe(0);
    expect(methaneSubtracted(calculations[0], { mining_gross_t: 20_000, netted_t: 0 })).toBe(0);
    expect(nettedGasesOf(calculations[0], undefined, GWP)).toEqual([
      { gas: "CH4", gross_t: 20_000, subtracted_t: 0, t: 20_000, gross_t_co2e: 500_000, subtracted_t_co2e: 0, t_co2e: 500_000 },
    ]);
  });
});
