// Net mine methane (methodology D17) through the API: the basis of the mining types, the balance
// per facility in the year's inventory, the mining line netted of what the mine's flare destroyed,
// and the error when a facility destroys more than its gross figure released.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import type { CalculationOf, CalculationView } from "@server/contract";
import type { CalculationType } from "@core/registry";

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Баланс метана"));
});
afterAll(() => h.close());

type Balance = {
  facility: string | null;
  facility_name: string;
  released_t: number;
  destroyed_t: number;
  emitted_t: number;
  flared_t: number;
  netted_t: number;
  slip_t: number;
};
type Inventory = {
  categories: Array<{ ipcc_code: string; gas: string; t: number; t_co2e: number }>;
  facilities: Array<{ id: string | null; t_co2e: number }>;
  total_t_co2e: number;
  checks: Array<{ level: string; code: string; message: string; calculations: string[] }>;
  balance: Balance[];
  years: Array<{ year: number; total_t_co2e: number }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const facility = async (name: string) =>
  json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind: "underground_mine" } }), 201);

const project = async (name: string, year: number, facilityId: string) =>
  json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: facilityId },
    }),
    201,
  );

const calc = async <T extends CalculationType>(type: T, projectId: string, body: Record<string, unknown>) =>
  json<CalculationOf<T>>(
    await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name: type, project: projectId, ...body } }),
    201,
  );

const inventory = async (year: number, facilityId: string) =>
  json<Inventory>(await h.request(`/api/v1/inventory/?year=${year}&facility=${facilityId}`, { token }), 200);

const line = (inv: Inventory, ipcc: string, gas = "CH4") => inv.categories.find((r) => r.ipcc_code === ipcc && r.gas === gas)!;

describe("the basis of underground mine methane", () => {
  it("defaults to gross by production and net when measured, is kept on edits, and is validated", async () => {
    const mine = await facility("Шахта «Основа»");
    const p = await project("Основа 2024", 2024, mine.id);
    const tier1 = await calc("underground_emission_ch4", p.id, { volume: 1_000_000, ef: 18, koef_transform: 0.67 });
    expect(tier1.basis).toBe("gross");
    const measured = await calc("underground", p.id, { volume: 10_000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 });
    expect(measured.basis).toBe("net");
    const asGross = await json<CalculationView>(
      await h.request(`/api/v1/underground/${measured.id}/`, { method: "PATCH", token, json: { basis: "gross", version: 1 } }),
      200,
    );
    expect(asGross).toMatchObject({ basis: "gross", version: 2, res_ch4: measured.res_ch4 });
    const renamed = await json<CalculationView>(
      await h.request(`/api/v1/underground/${measured.id}/`, { method: "PATCH", token, json: { name: "Замер", version: 2 } }),
      200,
    );
    expect(renamed.basis).toBe("gross");

    const bad = await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token,
      json: { name: "x", project: p.id, volume: 1, ef: 18, basis: "gross-ish" },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^basis: /);
    const notMining = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token,
      json: { name: "x", project: p.id, volume: 1, koef_transform: 0.67, basis: "net" },
    });
    expect(notMining.status).toBe(400);
    expect(((await notMining.json()) as { detail: string }).detail).toMatch(/^basis: /);
  });
});

describe("the methane balance of a mine (D17)", () => {
  it("worked example: 3 100 thousand t at 14,3 m³/t less the CH4 the mine's flare destroyed", async () => {
    const mine = await facility("Шахта «Пример»");
    const p = await project("Пример 2024", 2024, mine.id);
    const mining = await calc("underground_emission_ch4", p.id, {
      entered: { volume: { value: 3100, unit: "тыс. т" } },
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
    });
    expect(mining.res_ch4).toBeCloseTo(29_701.1, 6);
    const flare = await calc("torch_composition", p.id, {
      volume: 20_000,
      w_ch4: 60,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    });

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
    expect(inv.checks.map((c) => c.code)).not.toContain("destroyed_exceeds_released");
    expect(inv.checks.map((c) => c.code)).not.toContain("recovery_not_netted");
  });

  it("is an error when the mine destroys more than its gross figure released, and nets nothing from a measured net figure", async () => {
    const mine = await facility("Шахта «Перебор»");
    const p = await project("Перебор 2024", 2024, mine.id);
    const mining = await calc("underground_emission_ch4", p.id, { volume: 100_000, ef: 18 });
    const flare = await calc("torch_composition", p.id, {
      volume: 20_000,
      w_ch4: 60,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    });
    const inv = await inventory(2024, mine.id);
    const error = inv.checks.find((c) => c.code === "destroyed_exceeds_released")!;
    expect(error.level).toBe("error");
    expect(error.message).toMatch(/^Шахта «Перебор»: /);
    expect(error.calculations.sort()).toEqual([mining.id, flare.id].sort());
    // Never below zero.
    expect(line(inv, "1.B.1.a.i.1").t).toBeCloseTo(0, 9);

    // Measured net release instead: the flared gas never reached the atmosphere and is not subtracted.
    await json(
      await h.request(`/api/v1/underground_emission_ch4/${mining.id}/`, {
        method: "PATCH",
        token,
        json: { basis: "net", version: mining.version },
      }),
      200,
    );
    const net = await inventory(2024, mine.id);
    expect(net.checks.map((c) => c.code)).not.toContain("destroyed_exceeds_released");
    expect(line(net, "1.B.1.a.i.1").t).toBeCloseTo(mining.res_ch4!, 9);
    // The flare's unburnt slip reached the atmosphere too: the balance equals the facility's CH4 lines.
    expect(net.balance[0].emitted_t).toBeCloseTo(mining.res_ch4! + net.balance[0].slip_t, 9);
    expect(net.balance[0].emitted_t).toBeCloseTo(line(net, "1.B.1.a.i.1").t + line(net, "1.B.1.a.i.4").t, 9);
    expect(net.balance[0].netted_t).toBe(0);
  });
});
