// The trend's comparable years: a company with four years (2022–2025, 2022 and 2023 approved, 2025 at
// another GWP, and an administrator's change of the open-pit CH4 factor from 2025 on). Each year's
// as-reported figures are its own inventory's; its comparable figures equal a recomputation by hand
// at the 2025 GWP and the 2025 factor, and each recomputed line names the factor that changed. On the
// in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { changeCoefficientAsAdmin } from "../admin/dictionaries";
import { createUser } from "../company/users";
import type { Actor } from "../context";
import { getDictionaryItem } from "../reference/dictionaries";
import { getTrend } from "./trend";
import { getInventory } from "./year";

let d: MemoryDomain;
let staff: Actor;
let reviewer: Actor;
let admin: Actor;
let pit: { id: string };

/** Coal mined in open pit per year, t; 2023 also burns diesel. */
const COAL: Record<number, number> = { 2022: 1_000_000, 2023: 1_200_000, 2024: 900_000, 2025: 1_100_000 };
const DIESEL_T = 1_000;
/** CH4, t: coal × EF m³/t × 0,67 kg/m³ / 1000 (IPCC 2006 Vol. 2 ch. 4, eq. 4.1.7). */
const ch4 = (coal: number, ef: number) => (coal * ef * 0.67) / 1000;

async function mine(year: number) {
  const project = await d.project(staff, {
    name: `Добыча ${year}`,
    start_date: `${year}-01-01`,
    end_date: `${year}-12-31`,
    facility: pit.id,
  });
  await d.calc(staff, "open_mining_ch4", {
    name: `Метан ${year}`,
    project: project.id,
    volume: COAL[year],
    dictionary_items: { get_open_mining_ch4: 1 },
  });
  if (year === 2023) await d.calc(staff, "open_mining_co2", { name: "Дизель 2023", project: project.id, volume: DIESEL_T, ef: 3.149 });
}

async function edit(dictionary: string, field: string, value: number) {
  const { version } = await getDictionaryItem(d.deps, dictionary, 1);
  await d.write(() =>
    changeCoefficientAsAdmin(d.deps, admin, dictionary, 1, {
      field,
      value,
      effective_from: "2025-01-01",
      reason: "Новое распоряжение",
      version,
    }),
  );
}

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Четыре года»");
  admin = await d.actor("Оператор платформы", "admin");
  const user = await createUser(d.deps, {
    companyId: staff.company,
    email: "reviewer@four-years.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = { id: user.id, company: staff.company, email: user.email, role: "reviewer" };
  pit = await d.facility(staff, { name: "Разрез «Четыре года»", kind: "open_pit" });
  for (const year of [2022, 2023, 2024]) await mine(year);
  await d.settled();
  await d.approveYear(staff, reviewer, 2022);
  await d.approveYear(staff, reviewer, 2023);
  // From 2025: CH4 at 28 instead of 25, and the open-pit factor 2,0 m³/t instead of 1,2.
  await edit("get_gwp", "gwp_ch4", 28);
  await edit("get_open_mining_ch4", "ef", 2.0);
  await mine(2025);
  await d.settled();
}, 60_000);

describe("the trend's years as reported and in comparable conditions", () => {
  it("gives each year's as-reported figures as that year's inventory gives them", async () => {
    const trend = await getTrend(d.deps, staff, 2022, 2025);
    expect(trend.years.map((y) => [y.year, y.draft, y.gwp.gwp_ch4])).toEqual([
      [2022, false, 25],
      [2023, false, 25],
      [2024, true, 25],
      [2025, true, 28],
    ]);
    for (const year of trend.years) {
      const inventory = await getInventory(d.deps, staff, year.year);
      expect(year.total_t_co2e).toBe(inventory.total_t_co2e);
      expect(year.lines.map((l) => [l.ipcc_code, l.gas, l.t_co2e])).toEqual(
        inventory.categories.map((l) => [l.ipcc_code, l.gas, l.t_co2e]),
      );
    }
    expect(trend.years[0].total_t_co2e).toBeCloseTo(ch4(COAL[2022], 1.2) * 25, 6);
    expect(trend.years[3].total_t_co2e).toBeCloseTo(ch4(COAL[2025], 2.0) * 28, 6);
  });

  it("brings every year to the 2025 GWP and factor, equal to a recomputation by hand, naming what changed", async () => {
    const trend = await getTrend(d.deps, staff, 2022, 2025);
    expect(trend.comparable).toEqual({ year: 2025, gwp: { name: expect.any(String), gwp_ch4: 28 } });
    const diesel = trend.years[1].lines.find((l) => l.gas === "CO2")!.t_co2e;
    for (const year of trend.years) {
      const expected = ch4(COAL[year.year], 2.0) * 28 + (year.year === 2023 ? diesel : 0);
      expect(year.comparable.total_t_co2e).toBeCloseTo(expected, 6);
      expect(year.comparable.gwp_changed).toBe(year.year !== 2025);
      expect(year.comparable.intensity?.total).toBeCloseTo(expected / COAL[year.year], 9);
      const methane = year.comparable.lines.find((l) => l.gas === "CH4")!;
      expect(methane.t).toBeCloseTo(ch4(COAL[year.year], 2.0), 9);
      if (year.year === 2025) {
        expect(methane.changes).toBeUndefined();
        expect(year.comparable.changes).toEqual([]);
      } else {
        expect(methane.changes).toEqual([
          expect.objectContaining({ calculation_name: `Метан ${year.year}`, coefficient: "ef", before: 1.2, after: 2 }),
        ]);
      }
    }
    // The diesel line took no changed factor: the same in both.
    expect(trend.years[1].comparable.lines.find((l) => l.gas === "CO2")).toEqual(trend.years[1].lines.find((l) => l.gas === "CO2"));
    expect(trend.years[3].comparable.change).toEqual({
      from_year: 2024,
      t_co2e: expect.closeTo((ch4(COAL[2025], 2.0) - ch4(COAL[2024], 2.0)) * 28, 6),
      pct: expect.closeTo(((COAL[2025] - COAL[2024]) / COAL[2024]) * 100, 6),
    });
  });

  it("takes the GWP set asked for: at the years' own set and factor the 2022 draft-free figures are as reported", async () => {
    const trend = await getTrend(d.deps, staff, 2022, 2024);
    // 2024's conditions are the years' own: comparable equals as reported.
    for (const year of trend.years) expect(year.comparable.total_t_co2e).toBeCloseTo(year.total_t_co2e, 9);
    const ar5 = await getTrend(d.deps, staff, 2022, 2022, undefined, 2);
    expect(ar5.comparable.gwp.gwp_ch4).toBe(28);
    expect(ar5.years[0].comparable.total_t_co2e).toBeCloseTo(ch4(COAL[2022], 1.2) * 28, 6);
  });
});
