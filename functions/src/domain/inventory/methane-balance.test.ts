// Net mine methane (methodology D17) on the in-memory repositories: the basis of the mining types,
// the balance per facility in the year's inventory, the mining line netted of what the mine's flare
// destroyed, and the error when a facility destroys more than its gross figure released.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { Invalid } from "../errors";
import { getInventory } from "./year";

let d: MemoryDomain;
let actor: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Баланс метана");
});

type Inventory = Awaited<ReturnType<typeof getInventory>>;

const facility = (name: string) => d.facility(actor, { name, kind: "underground_mine" });
const project = (name: string, year: number, facilityId: string) =>
  d.project(actor, { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: facilityId });
const inventory = (year: number, facilityId: string) => getInventory(d.deps, actor, year, facilityId);
const line = (inv: Inventory, ipcc: string, gas = "CH4") => inv.categories.find((r) => r.ipcc_code === ipcc && r.gas === gas)!;

describe("the basis of underground mine methane", () => {
  it("defaults to gross by production and net when measured, is kept on edits, and is validated", async () => {
    const mine = await facility("Шахта «Основа»");
    const p = await project("Основа 2024", 2024, mine.id);
    const tier1 = await d.calc(actor, "underground_emission_ch4", {
      name: "x",
      project: p.id,
      volume: 1_000_000,
      ef: 18,
      koef_transform: 0.67,
    });
    expect(tier1.basis).toBe("gross");
    const measured = await d.calc(actor, "underground", {
      name: "x",
      project: p.id,
      volume: 10_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1,
      ef_ch4: 60,
    });
    expect(measured.basis).toBe("net");
    const asGross = await d.patch(actor, measured, { basis: "gross", version: 1 });
    expect(asGross).toMatchObject({ basis: "gross", version: 2, res_ch4: measured.res_ch4 });
    const renamed = await d.patch(actor, measured, { name: "Замер", version: 2 });
    expect(renamed.basis).toBe("gross");

    const bad = d.calc(actor, "underground_emission_ch4", { name: "x", project: p.id, volume: 1, ef: 18, basis: "gross-ish" });
    await expect(bad).rejects.toBeInstanceOf(Invalid);
    await expect(bad).rejects.toThrow(/^Основа учета \(валовый\/чистый\): /);
    const notMining = d.calc(actor, "torch_ch4", { name: "x", project: p.id, volume: 1, koef_transform: 0.67, basis: "net" });
    await expect(notMining).rejects.toBeInstanceOf(Invalid);
    await expect(notMining).rejects.toThrow(/^Основа учета \(валовый\/чистый\): /);
  });
});

describe("the methane balance of a mine (D17)", () => {
  const FLARE = {
    volume: 20_000,
    w_ch4: 60,
    cf: 0.0006,
    p_co2: 1.8393,
    p_ch4: 0.668,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
  };

  it("worked example: 3 100 thousand t at 14,3 m³/t less the CH4 the mine's flare destroyed", async () => {
    const mine = await facility("Шахта «Пример»");
    const p = await project("Пример 2024", 2024, mine.id);
    const mining = await d.calc(actor, "underground_emission_ch4", {
      name: "underground_emission_ch4",
      project: p.id,
      entered: { volume: { value: 3100, unit: "тыс. т" } },
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
    });
    expect(mining.res_ch4).toBeCloseTo(29_701.1, 6);
    const flare = await d.calc(actor, "torch_composition", { name: "torch_composition", project: p.id, ...FLARE });

    // Destroyed, from the flare's inputs (7.1): V × W_CH4 × ρ_CH4 × 10⁻² sent, the share CF unburnt.
    const sent = (20_000 * 60 * 0.668) / 100; // 8 016 t CH4
    const destroyed = sent * (1 - 0.0006); // 8 011.1904 t CH4
    expect(flare.res_ch4).toBeCloseTo(sent * 0.0006, 9);
    const slip = sent - destroyed; // 4.8096 t CH4, reported on the flaring line
    const inv = await inventory(2024, mine.id);
    // The unburnt slip is the flaring line's (1.B.1.a.i.4), so the mining line loses destroyed and
    // the slip: 29 701,1 − 8 011,1904 − 4,8096 = 21 685,1 t, and the slip is counted once.
    expect(line(inv, "1.B.1.a.i.1").t).toBeCloseTo(29_701.1 - destroyed - slip, 6);
    expect(line(inv, "1.B.1.a.i.1").t).toBeCloseTo(21_685.1, 6);
    expect(line(inv, "1.B.1.a.i.1").t_co2e).toBeCloseTo(21_685.1 * 25, 6);
    expect(line(inv, "1.B.1.a.i.4").t).toBeCloseTo(flare.res_ch4!, 9);
    expect(flare.res_ch4).toBeCloseTo(slip, 9);
    expect(inv.balance).toEqual([expect.objectContaining({ facility: mine.id, facility_name: "Шахта «Пример»" })]);
    const [balance] = inv.balance;
    expect(balance.released_t).toBeCloseTo(29_701.1, 6);
    expect(balance.flared_t).toBeCloseTo(sent, 6);
    expect(balance.destroyed_t).toBeCloseTo(destroyed, 6);
    expect(balance.emitted_t).toBeCloseTo(29_701.1 - destroyed, 6);
    // The facility's CH4 lines add up to what reached the atmosphere.
    expect(line(inv, "1.B.1.a.i.1").t + line(inv, "1.B.1.a.i.4").t).toBeCloseTo(balance.emitted_t, 6);
    const expectedTotal = (29_701.1 - destroyed) * 25 + flare.res_co2!;
    expect(inv.total_t_co2e).toBeCloseTo(expectedTotal, 6);
    expect(inv.facilities[0].t_co2e).toBeCloseTo(expectedTotal, 6);
    expect(inv.years.find((y) => y.year === 2024)!.total_t_co2e).toBeCloseTo(expectedTotal, 6);
    expect(inv.checks.map((c) => c.code)).not.toContain("destroyed_exceeds_drained");
    expect(inv.checks.map((c) => c.code)).not.toContain("recovery_not_netted");
  });

  it("is an error when the mine destroys more than its gross figure released, and nets nothing from a measured net figure", async () => {
    const mine = await facility("Шахта «Перебор»");
    const p = await project("Перебор 2024", 2024, mine.id);
    const mining = await d.calc(actor, "underground_emission_ch4", {
      name: "underground_emission_ch4",
      project: p.id,
      volume: 100_000,
      ef: 18,
    });
    const flare = await d.calc(actor, "torch_composition", { name: "torch_composition", project: p.id, ...FLARE });
    const inv = await inventory(2024, mine.id);
    const error = inv.checks.find((c) => c.code === "destroyed_exceeds_drained")!;
    expect(error.level).toBe("error");
    expect(error.message).toMatch(/^Шахта «Перебор»: /);
    // D36: both figures, t CH4: 20 000 × 60 % × 0,668 sent, 100 000 t × 18 m³/t × 0,67 released.
    expect(error.message).toContain("направлено 8\u00a0016 т CH4, а валовый выброс шахты в целом 1\u00a0206 т");
    expect(error.calculations.sort()).toEqual([mining.id, flare.id].sort());
    // Never below zero.
    expect(line(inv, "1.B.1.a.i.1").t).toBeCloseTo(0, 9);

    // Measured net release instead: the flared gas never reached the atmosphere and is not subtracted.
    await d.patch(actor, mining, { basis: "net", version: mining.version });
    const net = await inventory(2024, mine.id);
    expect(net.checks.map((c) => c.code)).not.toContain("destroyed_exceeds_drained");
    expect(line(net, "1.B.1.a.i.1").t).toBeCloseTo(mining.res_ch4!, 9);
    // The flare's unburnt slip reached the atmosphere too: the balance equals the facility's CH4 lines.
    const [balance] = net.balance;
    expect(balance.emitted_t).toBeCloseTo(mining.res_ch4! + balance.slip_t!, 9);
    expect(balance.emitted_t).toBeCloseTo(line(net, "1.B.1.a.i.1").t + line(net, "1.B.1.a.i.4").t, 9);
    expect(balance.netted_t).toBe(0);
  });
});
