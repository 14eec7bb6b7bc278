// Stored calculations through the uncertainty core: the methodology's vectors V1 and V2 as
// calculations and a project (relative tolerance 1e-9), Monte Carlo against Approach 1 on a linear
// case, and one draw for a dictionary coefficient that several calculations share.
import { describe, expect, it } from "vitest";
import { calculate } from "./emissions";
import {
  calculationApproach1,
  calculationModel,
  destroyedGasUncertainty,
  gasApproach1,
  modelAtYearGwp,
  monteCarloModel,
  monteCarloOf,
  nettedApproach1,
  projectApproach1,
  type CalculationModel,
  type UsedValue,
} from "./calculation-uncertainty";
import { uncertaintyCore } from "./uncertainty-node";

const core = uncertaintyCore();
const close = (actual: number, expected: number, tolerance = 1e-9) =>
  expect(Math.abs(actual - expected) / Math.abs(expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);

const normal = (u: number, origin: "dictionary" | "activity" | "user" = "user") => ({
  lower_pct: u,
  upper_pct: u,
  distribution: "normal" as const,
  origin,
});

/** V1: 2 000 000 t (U 2 %), EF 18 m³/t (U 40 %), ρ 0.67, GWP 25 → 603 000 t CO2-eq. */
function v1(id = "v1", ef: UsedValue = { value: 18, source: "custom", uncertainty: normal(40) }) {
  const results = calculate("underground_emission_ch4", { volume: 2_000_000, ef: 18, koef_transform: 0.67 }, { gwp_ch4: 25 }) as Record<
    string,
    unknown
  >;
  return {
    id,
    type: "underground_emission_ch4",
    name: "Шахта",
    results,
    coefficients: {
      volume: { value: 2_000_000, source: "input", uncertainty: normal(2, "activity") },
      ef,
      koef_transform: { value: 0.67, source: "fixed" },
      gwp_ch4: { value: 25, source: "dictionary", dictionary: "get_gwp", item_id: 1, item_version: 1 },
    } as Record<string, UsedValue>,
  };
}

describe("a calculation's 95 % interval (Approach 1)", () => {
  it("V1: production × emission factor, Equation 3.1", () => {
    const model = calculationModel(v1())!;
    close(model.co2e, 603_000);
    const result = calculationApproach1(core, model);
    close(result.u_pct, 40.049968789001575);
    close(result.upper - model.co2e, 241_501.31179767952);
    close(model.co2e - result.lower, 241_501.31179767952);
  });

  it("takes the larger side of an asymmetric input, and none for exact values", () => {
    const model = calculationModel(
      v1("a", {
        value: 18,
        source: "dictionary",
        dictionary: "get_underground_emission_ch4",
        item_id: 1,
        item_version: 1,
        uncertainty: { lower_pct: 44, upper_pct: 39, distribution: "normal", origin: "dictionary" },
      }),
    )!;
    expect(model.inputs.map((i) => i.name)).toEqual(["volume", "ef"]);
    close(calculationApproach1(core, model).u_pct, Math.sqrt(2 ** 2 + 44 ** 2));
  });

  it("counts the volume of degasification and ventilation gas once: U_V ⊕ Eq. 3.2 of its CO2 and CH4 parts", () => {
    const results = calculate(
      "underground",
      { volume: 1000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 },
      { gwp_ch4: 25 },
    ) as Record<string, number>;
    const model = calculationModel({
      id: "u",
      type: "underground",
      name: "Вентиляция",
      results,
      coefficients: {
        volume: { value: 1000, uncertainty: normal(20, "activity") },
        ef_co2: { value: 10.6, uncertainty: normal(10) },
        ef_ch4: { value: 76, uncertainty: normal(5) },
      },
    })!;
    const parts = Math.sqrt((results.res_co2 * 10) ** 2 + (results.res_ch4_to_co2 * 5) ** 2) / results.sum_co2;
    close(calculationApproach1(core, model).u_pct, Math.sqrt(20 ** 2 + parts ** 2));
  });
});

describe("a project's total and key categories", () => {
  // V2: 603 000 (U 40.05 %) + 62 000 (U 60 %) + 70 000 (U √(5² + 3²) %) → 735 000, U 33.249…
  const models = [
    calculationModel(v1())!,
    calculationModel({
      id: "h",
      type: "handling_underground_ch4",
      name: "После добычи",
      results: { res_ch4: 2480, res_ch4_to_co2: 62_000 },
      coefficients: { ef: { value: 2.5, uncertainty: normal(60) } },
    })!,
    calculationModel({
      id: "f",
      type: "open_mining_co2",
      name: "Техника",
      results: { res_co2: 70_000 },
      coefficients: { volume: { value: 22_229.28, uncertainty: normal(5) }, ef: { value: 3.149, uncertainty: normal(3) } },
    })!,
  ];

  it("V2: the total by Equation 3.2", () => {
    const project = projectApproach1(core, models)!;
    expect(project.total).toBe(735_000);
    close(project.approach1.u_pct, 33.249480425112836);
  });

  it("ranks the categories: Approach 1 by level to 95 %, Approach 2 by level × uncertainty to 90 %", () => {
    const project = projectApproach1(core, models)!;
    expect(project.key_level.map((c) => [c.id, c.key])).toEqual([
      ["underground_emission_ch4", true],
      ["open_mining_co2", true],
      // 91.6 % before it: still below 95 %.
      ["handling_underground_ch4", true],
    ]);
    close(project.key_level[0].share, 603_000 / 735_000);
    expect(project.key_level_approach2.map((c) => c.id)).toEqual([
      "underground_emission_ch4",
      "handling_underground_ch4",
      "open_mining_co2",
    ]);
    // L·U: 24 150, 3 720, 408 (thousands): 85.4 % before the second, 98.6 % before the third.
    expect(project.key_level_approach2.map((c) => c.key)).toEqual([true, true, false]);
    expect(project.categories.find((c) => c.id === "handling_underground_ch4")?.title).toMatch(/после добычи/);
  });

  it("Monte Carlo agrees with Approach 1 on normal inputs (V4, ±0.3 percentage points)", () => {
    const mc = monteCarloOf(core, models, { trials: 1_000_000, seed: 2026 })!;
    close(mc.mean, 735_000, 2e-3);
    expect(Math.abs(mc.half_width_pct - 33.249480425112836)).toBeLessThan(0.3);
  });

  it("draws a dictionary coefficient shared by calculations once, and typed values per calculation", () => {
    const shared = {
      value: 18,
      source: "dictionary",
      dictionary: "get_underground_emission_ch4",
      item_id: 1,
      item_version: 2,
      uncertainty: normal(40, "dictionary"),
    };
    const { factors, sources } = monteCarloModel([calculationModel(v1("a", shared))!, calculationModel(v1("b", shared))!]);
    // Two volumes, one emission factor.
    expect(factors).toHaveLength(3);
    expect(sources.map((s) => s.factors)).toEqual([
      [0, 1],
      [2, 1],
    ]);
    // Correlated: the pair's uncertainty is near the single calculation's, not √2 smaller.
    const pair = monteCarloOf(core, [calculationModel(v1("a", shared))!, calculationModel(v1("b", shared))!], {
      trials: 200_000,
      seed: 3,
    })!;
    expect(pair.half_width_pct).toBeGreaterThan(38);
  });

  it("has nothing to say about a project without emissions", () => {
    expect(projectApproach1(core, [])).toBeUndefined();
    expect(monteCarloOf(core, [])).toBeUndefined();
  });
});

describe("a netted total (D27)", () => {
  it("is Eq. 3.2 with the subtracted term: √((U_g·E_g)² + (U_d·E_d)²) / |E_g − E_d|", () => {
    // 600 000 t ± 40 % less 250 000 t destroyed ± 5 %: the net 350 000 t is far less certain.
    const netted = nettedApproach1(600_000, 40, 250_000, 5);
    expect(netted.u_pct).toBeCloseTo(Math.sqrt((40 * 600_000) ** 2 + (5 * 250_000) ** 2) / 350_000, 12);
    expect(netted.u_pct).toBeCloseTo(68.664371535, 8);
    expect(netted.lower).toBeCloseTo(350_000 * (1 - netted.u_pct / 100), 6);
    expect(nettedApproach1(100, 10, 0, 5).u_pct).toBeCloseTo(10, 12);
  });
});

describe("the destroyed gas's uncertainty (D27, methodology 10.1)", () => {
  const volume = (u: number) => ({ name: "volume", label: "", value: 1, unit: "", uncertainty: normal(u, "activity"), share: `v${u}` });
  const gas = { w_ch4: 41.5, w_co2: 2.8, p_ch4: 0.668, p_co2: 1.8393 };
  // The constructed mine's flare (20 000 thousand m³ metered ±20 %) and boiler (9 000, metered fuel ±5 %).
  const flare = {
    calculation: { type: "torch_composition", inputs: { volume: 20_000, cf: 0, ...gas } },
    model: {
      id: "f",
      type: "torch_composition",
      name: "Факел",
      co2e: 1,
      inputs: [volume(20)],
      common: ["volume"],
      terms: [
        { value: 0.5, inputs: ["p_co2"] },
        { value: 0.5, inputs: ["w_ch4", "cf", "p_ch4", "gwp_ch4"] },
      ],
    },
  };
  const boiler = {
    calculation: { type: "disposal_co2_stat_sources", inputs: { volume: 9_000, ...gas } },
    model: {
      id: "b",
      type: "disposal_co2_stat_sources",
      name: "Котельная",
      co2e: 1,
      inputs: [volume(5)],
      common: [],
      terms: [{ value: 1, inputs: ["volume"] }],
    },
  };

  it("is each device's own metered gas, the devices by Eq. 3.2 weighted by the CH4 each sent", () => {
    const flareT = (20_000 * 41.5 * 0.668) / 100;
    const boilerT = (9_000 * 41.5 * 0.668) / 100;
    expect(destroyedGasUncertainty(core, [flare]).CH4).toBeCloseTo(20, 12);
    expect(destroyedGasUncertainty(core, [boiler]).CH4).toBeCloseTo(5, 12);
    const both = destroyedGasUncertainty(core, [flare, boiler]);
    close(both.CH4, Math.hypot(20 * flareT, 5 * boilerT) / (flareT + boilerT));
    close(both.CH4, 13.880113491);
    // The CO2 the gas carried comes from the same meters, weighted by that CO2.
    close(both.CO2, Math.hypot(20 * 20_000, 5 * 9_000) / 29_000);
  });

  it("takes the cited ±5 % for a device that records none, and for no device", () => {
    expect(destroyedGasUncertainty(core, [{ ...flare, model: undefined }]).CH4).toBe(5);
    expect(destroyedGasUncertainty(core, [])).toEqual({ CO2: 5, CH4: 5 });
  });
});

describe("a calculation's gas in the year's uncertainty (D26, D27)", () => {
  const core = uncertaintyCore();
  const model = (type: string, terms: CalculationModel["terms"], common: string[] = []): CalculationModel => ({
    id: "c",
    type,
    name: "c",
    co2e: terms.reduce((s, t) => s + t.value, 0),
    inputs: [
      {
        name: "volume",
        label: "",
        value: 1,
        unit: "",
        uncertainty: { lower_pct: 2, upper_pct: 2, distribution: "normal", origin: "activity" },
        share: "v",
      },
      { name: "ef", label: "", value: 1, unit: "", uncertainty: { lower_pct: 44, upper_pct: 39, distribution: "normal" }, share: "e" },
    ],
    common,
    terms,
  });

  it("splits a gas's uncertainty into activity data (Eq. 3.1 over the activity inputs) and factors (the others)", () => {
    const u = gasApproach1(core, model("underground_emission_ch4", [{ value: 603_000, inputs: ["volume", "ef"] }]), "CH4");
    expect(u).toMatchObject({ ad_u: 2, ef_u: 44 });
    expect(Math.hypot(u.ad_u, u.ef_u)).toBeCloseTo(core.product([2, 44]), 12);
  });

  it("puts a calculation stored at another GWP set at the year's: the terms take the gases' gross CO2-eq", () => {
    const stored = model("open_mining_ch4", [{ value: 4_020 * 28, inputs: ["volume", "ef"] }]);
    const atYear = modelAtYearGwp(stored, [{ gas: "CH4", gross_t_co2e: 4_020 * 25 }]);
    expect(atYear.co2e).toBe(100_500);
    expect(atYear.terms[0].value).toBe(100_500);
    const both = modelAtYearGwp(
      model(
        "underground",
        [
          { value: 10, inputs: [] },
          { value: 280, inputs: ["ef"] },
        ],
        ["volume"],
      ),
      [
        { gas: "CO2", gross_t_co2e: 10 },
        { gas: "CH4", gross_t_co2e: 250 },
      ],
    );
    expect(both.terms.map((t) => t.value)).toEqual([10, 250]);
    expect(both.co2e).toBe(260);
  });
});

describe("one uncertainty per shared source (D91, a test vector)", () => {
  const ipcc = {
    value: 18,
    source: "dictionary",
    dictionary: "get_underground_emission_ch4",
    item_id: 1,
    item_name: "Подземная добыча, Tier 1",
    item_version: 2,
    uncertainty: normal(44, "dictionary"),
  };
  const estimate = (id: string, coal: number) => ({
    ...v1(id, ipcc as UsedValue),
    results: calculate("underground_emission_ch4", { volume: coal, ef: 18, koef_transform: 0.67 }, { gwp_ch4: 25 }) as Record<
      string,
      unknown
    >,
    coefficients: {
      ...v1(id, ipcc as UsedValue).coefficients,
      volume: { value: coal, source: "input", uncertainty: normal(2, "activity") },
    },
  });
  const monthly = Array.from({ length: 12 }, (_, i) => calculationModel(estimate(`m${i + 1}`, 125_000))!);
  const yearly = [calculationModel(estimate("y", 1_500_000))!];

  it("12 monthly estimates at one factor: √(44² · 18 090² + 12 · 30,15²) / 18 090 = 44,00 %", () => {
    const u = projectApproach1(core, monthly)!.approach1.u_pct;
    close(u, Math.hypot(44 * 18_090, Math.sqrt(12) * 2 * 1_507.5) / 18_090);
    expect(u.toFixed(2)).toBe("44.00");
    // Eq. 3.2 over twelve independent terms gave 44,0/√12 = 12,71 %.
    expect(u).toBeGreaterThan(40);
  });

  it("one yearly estimate of the same coal: 44,05 %, within 0,1 point of the monthly", () => {
    const u = projectApproach1(core, yearly)!.approach1.u_pct;
    close(u, Math.hypot(44, 2));
    expect(u.toFixed(2)).toBe("44.05");
    expect(Math.abs(u - projectApproach1(core, monthly)!.approach1.u_pct)).toBeLessThan(0.1);
  });

  it("names each part's source: the entry's draw for the factor, the calculation's own for its coal", () => {
    const a = gasApproach1(core, monthly[0], "CH4");
    const b = gasApproach1(core, monthly[1], "CH4");
    expect(a.ef_group).toBe(b.ef_group);
    expect(a.ad_group).not.toBe(b.ad_group);
    expect(a.ef_inputs.map((input) => input.entry)).toEqual(["Подземная добыча, Tier 1"]);
  });

  it("a factor each calculation typed itself stays independent (Eq. 3.2 as before)", () => {
    const own = Array.from(
      { length: 12 },
      (_, i) =>
        calculationModel({
          ...estimate(`t${i}`, 125_000),
          coefficients: { ...estimate(`t${i}`, 125_000).coefficients, ef: { value: 18, source: "custom", uncertainty: normal(44) } },
        })!,
    );
    close(projectApproach1(core, own)!.approach1.u_pct, Math.hypot(44, 2) / Math.sqrt(12));
  });

  it("D107: a factor typed with one justification (or one evidence file) is one source, drawn once by Monte Carlo", () => {
    const typed = (id: string, extra: Record<string, unknown>) =>
      calculationModel({
        ...estimate(id, 125_000),
        coefficients: {
          ...estimate(id, 125_000).coefficients,
          ef: { value: 18, unit: "м³/т", source: "custom", uncertainty: normal(44, "user"), ...extra } as UsedValue,
        },
      })!;
    const justified = Array.from({ length: 12 }, (_, i) => typed(`j${i}`, { justification: "Протокол испытаний № 5" }));
    close(projectApproach1(core, justified)!.approach1.u_pct, Math.hypot(44 * 18_090, Math.sqrt(12) * 2 * 1_507.5) / 18_090);
    const ef = justified.map((model) => model.inputs.find((input) => input.name === "ef")!);
    expect(new Set(ef.map((input) => input.share)).size).toBe(1);
    expect(ef[0].share).toMatch(/^typed\/underground_emission_ch4\/ef\/18\/м³\/т\/44\/44\/normal\/[0-9a-f]{8}$/);
    expect(ef[0].typed).toEqual({ justification: "Протокол испытаний № 5" });
    // 12 coal volumes, one factor.
    expect(monteCarloModel(justified).factors).toHaveLength(13);
    const filed = Array.from({ length: 2 }, (_, i) =>
      typed(`f${i}`, { evidence: { name: "протокол.pdf", size: 1200, format: "pdf", uploaded_at: "2025-01-10" } }),
    );
    expect(filed[0].inputs.find((input) => input.name === "ef")!.share).toBe(filed[1].inputs.find((input) => input.name === "ef")!.share);
    // Another stated uncertainty, another justification: another source.
    const other = typed("o", { justification: "Протокол испытаний № 5", uncertainty: normal(30, "user") });
    const another = typed("a", { justification: "Протокол № 6" });
    const keys = new Set([ef[0].share, ...[other, another].map((m) => m.inputs.find((input) => input.name === "ef")!.share)]);
    expect(keys.size).toBe(3);
  });

  it("the months of one point's meters are one source, whatever the calculation (the Monte Carlo draws them once)", () => {
    const month = (id: string, point: string) =>
      calculationModel({
        id,
        type: "handling_underground_ch4",
        name: id,
        results: { res_ch4: 100, res_ch4_to_co2: 2_500 },
        coefficients: { ef: { value: 2.5, source: "custom", uncertainty: normal(20) } },
        point,
      })!;
    const same = Array.from({ length: 12 }, (_, i) => month(`s${i}`, "shaft-1"));
    close(projectApproach1(core, same)!.approach1.u_pct, 20);
    const { factors } = monteCarloModel(same);
    expect(factors).toHaveLength(1);
    const apart = [month("a", "shaft-1"), month("b", "shaft-2")];
    close(projectApproach1(core, apart)!.approach1.u_pct, 20 / Math.SQRT2);
  });

  it("Monte Carlo, which draws a shared entry once, now agrees with Approach 1 (±0,5 point)", () => {
    const normalIpcc = { ...ipcc, uncertainty: normal(44, "dictionary") };
    const models = Array.from(
      { length: 12 },
      (_, i) =>
        calculationModel({ ...estimate(`n${i}`, 125_000), coefficients: { ...estimate(`n${i}`, 125_000).coefficients, ef: normalIpcc } })!,
    );
    const mc = monteCarloOf(core, models, { trials: 400_000, seed: 91 })!;
    expect(Math.abs(mc.half_width_pct - projectApproach1(core, models)!.approach1.u_pct)).toBeLessThan(0.5);
  });
});
