import { describe, expect, it } from "vitest";
import {
  BALANCE_SUM_FIELDS,
  assumesPureMethane,
  balanceOf,
  balanceStreams,
  basisAsked,
  basisOf,
  co2CarriedBy,
  emptyBalanceSums,
  methaneBalances,
  methaneDestroyedBy,
  sentGasFlows,
  type BalanceCalculation,
} from "./methane-balance";

const mine = (res_ch4: number, basis?: string, facility: string | null = "f1"): BalanceCalculation => ({
  id: `m${res_ch4}`,
  type: "underground_emission_ch4",
  facility,
  inputs: { volume: 1, ef: 1, koef_transform: 0.67, ...(basis ? { basis } : {}) },
  results: { res_ch4 },
});
// The worked example of D17: 20 000 thousand m³ of 60 % CH4 at 20 °C, smokeless flare.
const flare: BalanceCalculation = {
  id: "t1",
  type: "torch_composition",
  facility: "f1",
  inputs: { volume: 20_000, w_ch4: 60, w_co2: 5, cf: 0.0006, p_co2: 1.8393, p_ch4: 0.668 },
  results: { res_ch4: 4.8096 },
};

describe("the basis of a mining calculation (D17)", () => {
  it("reads the stored basis, else the type's default; other types have none", () => {
    expect(basisOf("underground_emission_ch4", {})).toBe("gross");
    expect(basisOf("handling_underground_ch4", {})).toBe("gross");
    expect(basisOf("underground", {})).toBe("net");
    expect(basisOf("underground", { basis: "gross" })).toBe("gross");
    expect(basisOf("underground_emission_ch4", { basis: "other" })).toBe("gross");
    expect(basisOf("torch_composition", {})).toBeUndefined();
  });
});

describe("methane sent to flares and use", () => {
  it("by composition: V × W_CH4 × ρ_CH4 × 10⁻², less the share CF unburnt", () => {
    // 20 000 × 60 × 0.668 / 100 = 8 016 t sent; × (1 − 0.0006) = 8 011.1904 t destroyed.
    const got = methaneDestroyedBy(flare)!;
    expect(got.route).toBe("flared");
    expect(got.sent_t).toBeCloseTo(8016, 9);
    expect(got.destroyed_t).toBeCloseTo(8011.1904, 9);
  });

  it("IPCC flares: pure CH4 × ρ, 98 % burnt", () => {
    const got = methaneDestroyedBy({
      id: "a",
      type: "torch_ch4",
      facility: null,
      inputs: { volume: 1000, koef_transform: 0.67 },
      results: {},
    })!;
    expect(got.sent_t).toBeCloseTo(670, 9);
    expect(got.destroyed_t).toBeCloseTo(656.6, 9);
  });

  it("boilers burning mine gas count, other fuels do not", () => {
    const burnt = (item_id: number): BalanceCalculation => ({
      id: "b",
      type: "disposal_co2_stat_sources",
      facility: null,
      inputs: { volume: 1000, k: 1, ef: 1.8393, of: 0.995 },
      results: {},
      coefficients: { ef: { dictionary: "get_disposal_co2_stat_sources", item_id } },
    });
    const got = methaneDestroyedBy(burnt(8))!;
    expect(got.route).toBe("used");
    expect(got.sent_t).toBeCloseTo(668, 9);
    expect(got.destroyed_t).toBeCloseTo(664.66, 9);
    expect(methaneDestroyedBy(burnt(1))).toBeUndefined();
  });

  it("boilers burning mine gas of a stated composition (D24): V × W_CH4 × ρ_CH4 × 10⁻² × OF", () => {
    const got = methaneDestroyedBy({
      id: "c",
      type: "disposal_co2_stat_sources",
      facility: null,
      inputs: { volume: 500, k: 1, ef: 0, of: 1, w_ch4: 40, p_ch4: 0.717 },
      results: {},
    })!;
    expect(got.sent_t).toBeCloseTo(143.4, 9);
    expect(got.destroyed_t).toBeCloseTo(143.4, 9);
  });
});

describe("a boiler on drained gas of known composition (D28)", () => {
  const boiler: BalanceCalculation = {
    id: "k",
    type: "disposal_co2_stat_sources",
    facility: "f1",
    inputs: { volume: 1000, k: 1, ef: 1.8393, of: 1, w_ch4: 60, w_co2: 5 },
    results: { res_co2: 1195.545 },
    coefficients: { ef: { dictionary: "get_disposal_co2_stat_sources", item_id: 8 } },
  };

  it("burns W_CH4 of the gas, ρ_CH4 by the entry's conditions, and carries its W_CO2", () => {
    const got = methaneDestroyedBy(boiler)!;
    expect(got.sent_t).toBeCloseTo(400.8, 9);
    expect(co2CarriedBy(boiler)).toBeCloseTo(91.965, 9);
    // At 0 °C (the entry's ρ CO2 1,9768): ρ_CH4 0,717.
    expect(methaneDestroyedBy({ ...boiler, inputs: { ...boiler.inputs, ef: 1.9768 } })!.sent_t).toBeCloseTo(430.2, 9);
  });

  it("nets the burnt CH4 and the carried CO2 from the gross measured mining line", () => {
    const mining: BalanceCalculation = {
      id: "m",
      type: "underground",
      facility: "f1",
      inputs: { basis: "gross" },
      results: { res_ch4: 5000, res_co2: 900 },
    };
    const [balance] = methaneBalances([mining, boiler]);
    expect(balance.used_t).toBeCloseTo(400.8, 9);
    expect(balance.netted_t).toBeCloseTo(400.8, 9);
    expect(balance.co2_carried_t).toBeCloseTo(91.965, 9);
    expect(balance.co2_netted_t).toBeCloseTo(91.965, 9);
  });
});

describe("the balance per facility", () => {
  it("nets the gross mining figure: emitted = Σ gross − destroyed + Σ net", () => {
    const [balance] = methaneBalances([mine(29_701.1), flare]);
    expect(balance.facility).toBe("f1");
    expect(balance.released_t).toBeCloseTo(29_701.1, 9);
    expect(balance.flared_t).toBeCloseTo(8016, 9);
    expect(balance.destroyed_t).toBeCloseTo(8011.1904, 9);
    // The slip (8 016 × 0,0006 = 4,8096 t) is on the flaring line: the mining line loses it too.
    expect(balance.slip_t).toBeCloseTo(4.8096, 9);
    expect(balance.netted_t).toBeCloseTo(8016, 9);
    expect(balance.emitted_t).toBeCloseTo(21_689.9096, 9);
    expect(29_701.1 - balance.netted_t + balance.slip_t).toBeCloseTo(balance.emitted_t, 9);
    expect(balance.vented_t).toBeCloseTo(21_685.1, 9);
    expect(balance.exceeds).toBe(false);
  });

  it("subtracts nothing from a net (measured) figure and still closes", () => {
    const measured: BalanceCalculation = { id: "u", type: "underground", facility: "f1", inputs: {}, results: { res_ch4: 5000 } };
    const [balance] = methaneBalances([measured, flare]);
    expect(balance.net_t).toBe(5000);
    expect(balance.netted_t).toBe(0);
    // The flare's unburnt slip reached the atmosphere too: the balance and the lines agree.
    expect(balance.emitted_t).toBeCloseTo(5000 + 4.8096, 9);
    expect(balance.vented_t).toBe(5000);
    expect(balance.released_t).toBeCloseTo(13_016, 9);
    expect(balance.exceeds).toBe(false);
  });

  it("adds post-mining methane and nets nothing from it: drainage never captured it", () => {
    const postMining = (res_ch4: number): BalanceCalculation => ({ ...mine(res_ch4), id: "h1", type: "handling_underground_ch4" });
    const measured: BalanceCalculation = { ...mine(5000), id: "u1", type: "underground", inputs: { volume: 1 } };
    // A measured net release and Tier 1 post-mining: the flare's gas is in neither figure.
    const [withNet] = methaneBalances([measured, postMining(4020), flare]);
    expect(withNet.gross_t).toBe(4020);
    expect(withNet.mining_gross_t).toBe(0);
    expect(withNet.netted_t).toBe(0);
    expect(withNet.emitted_t).toBeCloseTo(9020 + 4.8096, 9);
    expect(withNet.released_t).toBeCloseTo(9020 + 8016, 9);
    // Post-mining gas is never «вентиляция, дегазация».
    expect(withNet.post_mining_t).toBe(4020);
    expect(withNet.vented_t).toBe(5000);
    expect(withNet.exceeds).toBe(false);
    // A gross mining figure as well: the gas comes off it alone, and the error weighs it alone.
    const [withGross] = methaneBalances([mine(29_701.1), postMining(4020), flare]);
    expect(withGross.gross_t).toBeCloseTo(33_721.1, 9);
    expect(withGross.netted_t).toBeCloseTo(8016, 9);
    expect(withGross.emitted_t).toBeCloseTo(21_689.9096 + 4020, 9);
    const [short] = methaneBalances([mine(1000), postMining(20_000), flare]);
    expect(short.exceeds).toBe(true);
    expect(short.netted_t).toBe(1000);
  });

  it("flags more destroyed than the gross figure released, never nets below zero", () => {
    const [balance] = methaneBalances([mine(1000), flare]);
    expect(balance.exceeds).toBe(true);
    expect(balance.netted_t).toBe(1000);
    // The mining line is down to zero; the flaring line still reports the slip.
    expect(balance.emitted_t).toBeCloseTo(4.8096, 9);
  });

  it("keeps facilities apart and counts the IPCC flare pair's gas once", () => {
    const pair = ["torch_ch4", "disposal_co2_torch"].map(
      (type): BalanceCalculation => ({
        id: type,
        type,
        facility: "f2",
        inputs: { volume: 1000, koef_transform: 0.67, ef: 2.75 },
        results: {},
      }),
    );
    const balances = methaneBalances([mine(29_701.1), flare, mine(2000, undefined, "f2"), ...pair]);
    expect(balances.map((b) => b.facility)).toEqual(["f1", "f2"]);
    expect(balances[1].flared_t).toBeCloseTo(670, 9);
    expect(balances[1].emitted_t).toBeCloseTo(2000 - 656.6, 9);
    // torch_ch4 reports the 2 % its flare leaves unburnt: the mining line loses all 670 t sent.
    expect(balances[1].slip_t).toBeCloseTo(13.4, 9);
    expect(balances[1].netted_t).toBeCloseTo(670, 9);
  });
});

describe("types that take the gas as pure methane (D24)", () => {
  it("are the IPCC flares and the boiler's mine-gas entry, not flaring by composition nor other fuels", () => {
    const boiler = (item_id: number) => ({
      type: "disposal_co2_stat_sources",
      inputs: {},
      coefficients: { ef: { dictionary: "get_disposal_co2_stat_sources", item_id } },
    });
    expect(assumesPureMethane({ type: "torch_ch4", inputs: {} })).toBe(true);
    expect(assumesPureMethane({ type: "disposal_co2_torch", inputs: {} })).toBe(true);
    expect(assumesPureMethane(boiler(8))).toBe(true);
    expect(assumesPureMethane(boiler(1))).toBe(false);
    expect(assumesPureMethane(flare)).toBe(false);
  });
});

describe("the balance by stream (D25)", () => {
  const t = (millionM3: number) => millionM3 * 1000 * 0.668;
  const part = (fields: Partial<ReturnType<typeof emptyBalanceSums>>) => ({ ...emptyBalanceSums(), ...fields });
  it("gives the worked example: 475.4 to the air by ventilation, 303.5 drained, 97.4 of it vented", () => {
    const points = [
      { point: "boiler", kind: "boiler_engine", sums: part({ used: t(106.1), destroyed: t(106.1) }) },
      { point: "drainage", kind: "drainage_station", sums: part({ gross: t(303.5) }) },
      { point: "flare", kind: "flare", sums: part({ flared: t(100), destroyed: t(100) * 0.9994, slip: t(100) * 0.0006 }) },
      { point: "shaft", kind: "ventilation_shaft", sums: part({ gross: t(475.4) }) },
      { point: "whole", kind: "whole_mine", sums: part({}) },
    ];
    const sums = emptyBalanceSums();
    for (const p of points) for (const field of BALANCE_SUM_FIELDS) sums[field] += p.sums[field];
    const mining = points.filter((p) => p.sums.gross > 0);
    const destruction = [
      { drainage_points: [], sums: points[0].sums },
      { drainage_points: [], sums: points[2].sums },
    ];
    const balance = balanceOf("mine", sums, { mining, destruction });
    const streams = balanceStreams(balance, points);
    expect(streams.ventilation_t).toBeCloseTo(t(475.4), 9);
    expect(streams.drained_t).toBeCloseTo(t(303.5), 9);
    expect(streams.drained_vented_t).toBeCloseTo(t(97.4), 9);
    expect(streams.streams.map((s) => [s.point, s.route])).toEqual([
      ["shaft", "atmosphere"],
      ["drainage", "drained"],
      ["flare", "flared"],
      ["boiler", "used"],
    ]);
    expect(balance.emitted_t - balance.slip_t).toBeCloseTo(t(572.8), 9);
    // D35: the shaft sends all of its gas to the air, the drainage station what it did not send to burn.
    const air = new Map(streams.streams.map((s) => [s.point, s.to_air_t]));
    expect(air.get("shaft")).toBeCloseTo(t(475.4), 9);
    expect(air.get("drainage")).toBeCloseTo(t(97.4), 9);
  });

  it("takes the destroyed gas off the drainage that fed it, never off a ventilation shaft, and flags more burnt than drained (D35, D36)", () => {
    // The verifier's mine: 13 880,07 t drained, a flare sent 16 633,2 t.
    const mining = [
      { point: "shaft1", kind: "ventilation_shaft", sums: part({ gross: 20_701 }) },
      { point: "shaft2", kind: "ventilation_shaft", sums: part({ gross: 5_472.13 }) },
      { point: "drainage", kind: "drainage_station", sums: part({ gross: 13_880.07 }) },
    ];
    const burnt = part({ flared: 16_633.2, destroyed: 16_633.2 * 0.9994, slip: 16_633.2 * 0.0006 });
    const sums = emptyBalanceSums();
    for (const p of [...mining.map((m) => m.sums), burnt]) for (const field of BALANCE_SUM_FIELDS) sums[field] += p[field];
    const balance = balanceOf("mine", sums, { mining, destruction: [{ drainage_points: [], sums: burnt }] });
    expect(balance.exceeds).toBe(true);
    const byPoint = new Map(balance.by_point.map((p) => [p.point, p]));
    expect(byPoint.get("shaft1")!.netted_t).toBe(0);
    expect(byPoint.get("shaft2")!.netted_t).toBe(0);
    expect(byPoint.get("drainage")).toMatchObject({ netted_t: 13_880.07, exceeds: true });
    expect(byPoint.get("drainage")!.sent_t).toBeCloseTo(16_633.2, 9);
    // The shafts' whole release reaches the air, the balance says so too.
    expect(balance.vented_t).toBeCloseTo(20_701 + 5_472.13, 9);
    // Named drainage points: a flare fed by one of two stations takes its gas off that one alone.
    const two = [...mining, { point: "drainage2", kind: "drainage_station", sums: part({ gross: 1_000 }) }];
    const small = part({ flared: 500, destroyed: 500, slip: 0 });
    const named = balanceOf("mine", sums, { mining: two, destruction: [{ drainage_points: ["drainage2"], sums: small }] });
    expect(named.by_point.find((p) => p.point === "drainage2")!.netted_t).toBe(500);
    expect(named.by_point.find((p) => p.point === "drainage")!.netted_t).toBe(0);
    // Not named, two stations: shared by each one's drained methane.
    const shared = balanceOf("mine", sums, { mining: two, destruction: [{ drainage_points: [], sums: small }] });
    expect(shared.by_point.find((p) => p.point === "drainage2")!.netted_t).toBeCloseTo((500 * 1_000) / 14_880.07, 9);
    expect(shared.exceeds).toBe(false);
  });
});

describe("basisAsked (D17)", () => {
  it("asks the basis of mining methane, never of post-mining (always all of it) or of other types", () => {
    expect(basisAsked("underground")).toBe(true);
    expect(basisAsked("underground_emission_ch4")).toBe(true);
    expect(basisAsked("handling_underground_ch4")).toBe(false);
    expect(basisOf("handling_underground_ch4", {})).toBe("gross");
    expect(basisAsked("torch_ch4")).toBe(false);
    expect(basisAsked("no_such_type")).toBe(false);
  });
});

describe("sentGasFlows (D17)", () => {
  it("sends the balance's slip from the flares to the air and what else was left unburnt among the vented gas", () => {
    // 1 000 t gross; flares by composition sent 100 t and left 2 t (the slip their line reports), a
    // boiler sent 50 t and burnt 49,75 t.
    const sums = { ...emptyBalanceSums(), gross: 1000, flared: 100, used: 50, destroyed: 98 + 49.75, slip: 2 };
    const balance = balanceOf("f1", sums);
    const flows = sentGasFlows(balance);
    expect(flows.flared.slip_t).toBe(balance.slip_t);
    expect(flows.flared.destroyed_t + flows.used.destroyed_t).toBeCloseTo(balance.destroyed_t, 9);
    expect(flows.flared.vented_t + flows.used.vented_t).toBeCloseTo(0.25, 9);
    expect(flows.flared.destroyed_t + flows.flared.slip_t + flows.flared.vented_t).toBeCloseTo(100, 9);
    expect(flows.used.destroyed_t + flows.used.vented_t).toBeCloseTo(50, 9);
    // What reached the air is the vented gas and the slip: the balance's emitted.
    expect(balance.vented_t + flows.flared.slip_t + balance.post_mining_t).toBeCloseTo(balance.emitted_t, 9);
  });

  it("reads the slip of a version approved before it was kept apart from what reached the air", () => {
    const flows = sentGasFlows({ flared_t: 100, used_t: 0, destroyed_t: 98, vented_t: 900, emitted_t: 902 });
    expect(flows.flared).toEqual({ destroyed_t: 98, slip_t: 2, vented_t: 0 });
  });
});
