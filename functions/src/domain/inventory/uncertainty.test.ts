// D91: the year's uncertainty of a line groups its calculations by their shared source of error: the
// months one point's meters measured are one source, as one factor used by several estimates is.
import { describe, expect, it } from "vitest";
import { calculate } from "@core/emissions";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport } from "@core/year-uncertainty";
import type { StoredCalculation } from "../../ports";
import { facilityWords, lineUncertaintyOf, modelOf, type CountedGas } from "./uncertainty";

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

describe("a value typed as the mine's own with its justification is one source (D107)", () => {
  // 19,85 m³/t ±10 % typed into 12 monthly estimates of 100 000 t, each with the same justification.
  const typedOf = (id: string, coal: number, justification = "Газоносность по пластовым испытаниям 2024 г.") => {
    const base = estimateOf(id, coal);
    return {
      ...base,
      results: calculate("underground_emission_ch4", { volume: coal, ef: 19.85, koef_transform: 0.67 }, { gwp_ch4: 25 }) as Record<
        string,
        unknown
      >,
      coefficients: {
        ...base.coefficients,
        ef: { value: 19.85, unit: "м³/т", source: "custom", justification, uncertainty: u(10, "user") },
      } as StoredCalculation["coefficients"],
    };
  };
  const x = (100_000 * 19.85 * 0.67) / 1000;

  it("adds the factor's ±10 % linearly over the months and names the group in `shared_sources`", () => {
    const line = lineUncertaintyOf(
      core,
      Array.from({ length: 12 }, (_, i) => gasOf(typedOf(`m${i + 1}`, 100_000))),
      () => 0,
    );
    close(line.ef_u, 10);
    close(line.ad_u, 2 / Math.sqrt(12));
    expect(line.shared).toHaveLength(1);
    expect(line.shared[0]).toMatchObject({
      kind: "factor",
      count: 12,
      label:
        "введенное значение: коэффициент выбросов CH4 при подземной добыче 19,85 м³/т ±10 %, " +
        "обоснование «Газоносность по пластовым испытаниям 2024 г.»",
    });
    close(line.shared[0].t_co2e, 12 * x * 25);
    close(line.shared[0].u_pct, 10);
  });

  it("weighs the line by the grouped factor in the key categories (Approach 2), as a dictionary entry", () => {
    const line = lineUncertaintyOf(
      core,
      Array.from({ length: 12 }, (_, i) => gasOf(typedOf(`m${i + 1}`, 100_000))),
      () => 0,
    );
    const other = { id: "other", base: 10_000, current: 10_000, ad_u: 5, ef_u: 0 };
    const report = linesReport(core, [{ id: "mining", base: line.gross, current: line.gross, ad_u: line.ad_u, ef_u: line.ef_u }, other]);
    const lu = 12 * x * 25 * Math.hypot(10, 2 / Math.sqrt(12));
    close(report.kca_level_approach2.find((row) => row.id === "mining")!.LU, lu / (lu + 10_000 * 5));
  });

  it("keeps values typed with other justifications, or none, apart", () => {
    const two = [typedOf("a", 100_000, "Отчет А"), typedOf("b", 100_000, "Отчет Б")];
    close(lineUncertaintyOf(core, two.map(gasOf), () => 0).ef_u, 10 / Math.SQRT2);
    const bare = [typedOf("c", 100_000, ""), typedOf("d", 100_000, "")];
    const line = lineUncertaintyOf(core, bare.map(gasOf), () => 0);
    close(line.ef_u, 10 / Math.SQRT2);
    expect(line.shared).toEqual([]);
  });
});

describe("a point's instruments are named with their mine", () => {
  it("tells two mines' «Ствол № 1» apart", () => {
    const named = (facility: { name: string; kind: string }) =>
      lineUncertaintyOf(
        core,
        [month("a", "p-1"), month("b", "p-1")].map((c) => ({ ...ch4Of(c), facility_words: facilityWords(facility) })),
        () => 0,
      ).shared[0].label;
    expect(named({ name: "Северная", kind: "underground_mine" })).toMatch(/^приборы точки «Ствол № 1» шахты «Северная» \(/);
    expect(named({ name: "Шахта «Южная»", kind: "underground_mine" })).toMatch(/^приборы точки «Ствол № 1» Шахта «Южная» \(/);
  });
});
