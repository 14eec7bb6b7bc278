// D91: the year's uncertainty of a line groups its calculations by their shared source of error: the
// months one point's meters measured are one source, as one factor used by several estimates is.
import { describe, expect, it } from "vitest";
import { calculate } from "@core/emissions";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport } from "@core/year-uncertainty";
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

/** One month's (or the year's) IPCC Tier 1 estimate of `coal` t at the dictionary's 18 m³/t (±44 %), its coal ±2 %. */
function estimateOf(id: string, coal: number): Pick<StoredCalculation, "id" | "type" | "name" | "results" | "coefficients"> {
  return {
    id,
    type: "underground_emission_ch4",
    name: id,
    results: calculate("underground_emission_ch4", { volume: coal, ef: 18, koef_transform: 0.67 }, { gwp_ch4: 25 }) as Record<
      string,
      unknown
    >,
    coefficients: {
      volume: { value: coal, unit: "т", source: "input", uncertainty: u(2, "activity") },
      ef: {
        value: 18,
        unit: "м³/т",
        source: "dictionary",
        dictionary: "get_underground_emission_ch4",
        item_id: 1,
        item_name: "Подземная добыча, Tier 1",
        item_version: 2,
        uncertainty: u(44, "dictionary"),
      },
      koef_transform: { value: 0.67, unit: "кг/м³", source: "fixed" },
      gwp_ch4: { value: 25, unit: "", source: "dictionary", dictionary: "get_gwp", item_id: 1, item_version: 1 },
    } as StoredCalculation["coefficients"],
  };
}
const gasOf = (c: ReturnType<typeof estimateOf>): CountedGas => ({
  facility: "f1",
  gas: "CH4",
  gross_t_co2e: c.results.res_ch4_to_co2 as number,
  subtracted_t_co2e: 0,
  model: modelOf(c),
});

describe("the year's uncertainty and its key categories of a line of 12 monthly estimates at one factor (D91's worked example)", () => {
  const monthly = Array.from({ length: 12 }, (_, i) => estimateOf(`m${i + 1}`, 125_000));
  const yearly = [estimateOf("y", 1_500_000)];
  // By hand: x_i = 125 000 × 18 × 0,67 / 1000 = 1 507,5 t CH4, 18 090 t in all; the factor's 44 % of
  // one entry adds linearly (7 959,6 t), each month's coal ±2 % stays its own (30,15 t each).
  const x = (125_000 * 18 * 0.67) / 1000;
  const worked = Math.sqrt((0.44 * 12 * x) ** 2 + 12 * (0.02 * x) ** 2) / (12 * x);

  it("is √(7 959,6² + 12 × 30,15²) / 18 090 = 44,00 % (Eq. 3.2 over twelve independent terms gave 12,71 %)", () => {
    const line = lineUncertaintyOf(core, monthly.map(gasOf), () => 0);
    close(line.gross, 12 * x * 25);
    close(Math.hypot(line.ad_u, line.ef_u), 100 * worked);
    expect(Math.hypot(line.ad_u, line.ef_u).toFixed(2)).toBe("44.00");
    // One yearly estimate of the same coal: 44,05 %, within 0,1 point.
    const one = lineUncertaintyOf(core, yearly.map(gasOf), () => 0);
    expect(Math.hypot(one.ad_u, one.ef_u).toFixed(2)).toBe("44.05");
    expect(Math.abs(Math.hypot(line.ad_u, line.ef_u) - Math.hypot(one.ad_u, one.ef_u))).toBeLessThan(0.1);
    expect(line.shared).toMatchObject([
      { kind: "factor", count: 12, label: "«Подземная добыча, Tier 1» (коэффициент выбросов CH4 при подземной добыче)" },
    ]);
  });

  it("weighs the line by its grouped 44,00 % in the key categories by level × uncertainty (Approach 2)", () => {
    // Beside it a line of 10 000 t CO2-eq at ±5 %: L·U of the estimates' line 452 250 × 44,00 against 10 000 × 5.
    const line = lineUncertaintyOf(core, monthly.map(gasOf), () => 0);
    const other = { id: "other", base: 10_000, current: 10_000, ad_u: 5, ef_u: 0 };
    const report = linesReport(core, [{ id: "mining", base: line.gross, current: line.gross, ad_u: line.ad_u, ef_u: line.ef_u }, other]);
    const lu = 12 * x * 25 * 100 * worked;
    const mining = report.kca_level_approach2.find((row) => row.id === "mining")!;
    // 0,997494…; as twelve independent terms (12,71 %) it was 0,991380….
    close(mining.LU, lu / (lu + 10_000 * 5));
  });
});
