// D27: a netted line's uncertainty (IPCC 2006 Vol. 1 Eq. 3.2 with the subtracted term) and its Monte
// Carlo run, against the worked examples of docs/methodology.md, Uncertainty (V1, V2).
import { describe, expect, it } from "vitest";
import { nettedApproach1 } from "./calculation-uncertainty";
import { categoriesFromCsv } from "./inventory-cli";
import { uncertaintyCore } from "./uncertainty-node";
import { linesModelOf, linesReport, netCategory } from "./year-uncertainty";

const core = uncertaintyCore();
const close = (actual: number, expected: number, tolerance = 1e-9) =>
  expect(Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);

// V1's mine (603 000 t CO2-eq, activity 2 %, factor 40 %) of which 70 000 t were flared (±5 %).
const MINE = { id: "3|1.B.1.a.i.1|CH4", base: 500_000, current: 533_000, ad_u: 2, ef_u: 40, destroyed: 70_000, destroyed_u: 5 };
const PIT = { id: "3|1.B.1.a.ii.1|CH4", base: 60_000, current: 62_000, ad_u: 2, ef_u: 59.96665740225244 };

describe("a netted line (D27)", () => {
  it("is Eq. 3.2 with the subtracted term: √((U_g·E_g)² + (U_d·E_d)²) / |E_g − E_d|", () => {
    const net = netCategory(MINE);
    const expected = Math.hypot(40.049968789001575 * 603_000, 5 * 70_000) / 533_000;
    close(Math.hypot(net.ad_u, net.ef_u), expected);
    close(Math.hypot(net.ad_u, net.ef_u), nettedApproach1(603_000, 40.049968789001575, 70_000, 5).u_pct);
    // The factor's share is the gross figure's; the destroyed gas adds to the activity data.
    close(net.ef_u, (40 * 603_000) / 533_000);
    expect(net.current).toBe(533_000);
    expect(netCategory(PIT)).toEqual(PIT);
  });

  it("enters the Approach 1 table and its total by the netted uncertainty (V2's sum with the flare taken off)", () => {
    const report = linesReport(core, [MINE, PIT]);
    const mineU = Math.hypot(40.049968789001575 * 603_000, 5 * 70_000) / 533_000;
    close(report.rows[0].G, mineU);
    close(report.level_pct, Math.hypot(mineU * 533_000, 60 * 62_000) / 595_000);
    close(report.trend_pct, ((595_000 - 560_000) / 560_000) * 100);
    expect(report.kca_level.map((c) => c.id)).toEqual([MINE.id, PIT.id]);
  });

  it("samples the gross figure and the destroyed gas apart and subtracts: the mean is the net, the width Approach 1's", () => {
    const { sources } = linesModelOf([MINE]);
    expect(sources.map((s) => s.base)).toEqual([603_000, -70_000]);
    const { monte_carlo } = linesReport(core, [{ ...MINE, ad_u: 2, ef_u: 10 }], { trials: 200_000, seed: 7 });
    expect(Math.abs(monte_carlo!.mean - 533_000) / 533_000).toBeLessThan(0.002);
    const approach1 = Math.hypot(Math.hypot(2, 10) * 603_000, 5 * 70_000) / 533_000;
    expect(Math.abs(monte_carlo!.half_width_pct - approach1)).toBeLessThan(0.3);
    expect(linesReport(core, [MINE], { trials: 10_000, seed: 7 }).monte_carlo).toEqual(
      linesReport(core, [MINE], { trials: 10_000, seed: 7 }).monte_carlo,
    );
  });

  it("the command reads the destroyed gas from two more columns", () => {
    const lines = categoriesFromCsv(
      "id,category,base,current,ad_u,ef_u,destroyed,destroyed_u\nM,3,500000,533000,2,40,70000,5\nP,3,60000,62000,2,60,0,0\n",
    );
    expect(lines[0]).toEqual({ ...MINE, id: "M" });
    expect(lines[1].destroyed).toBe(0);
    expect(() => categoriesFromCsv("id,category,base,current,ad_u,ef_u,destroyed\nM,3,1,1,1,1,1")).toThrow(/header/);
  });
});
