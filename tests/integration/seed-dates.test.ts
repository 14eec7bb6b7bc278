// seeded reference values are in force from the date of the document they come
// from (or the earliest reporting year the product supports), not from the day of seeding; an
// installation seeded before gets the date as a new version of each item, with the reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { SEED_DATE_REASON, SEED_NAME_REASON, seedDictionaries, seededEffectiveFrom } from "@server/domain/reference/dictionaries";
import { REPORTING_YEAR_MIN } from "@server/domain/reference/gwp-years";

let h: Harness;
beforeAll(async () => {
  // A table of its own: the tests check the seeding itself and change the seeded items.
  h = await createFreshHarness();
});
afterAll(() => h.close());

describe("seeded reference values dated by their documents", () => {
  it("dates a fresh installation's items by their documents, or by the earliest reporting year", async () => {
    const item = async (dictionary: string, id: number) => (await h.deps.repos.dictionaries.get(dictionary, id))!;
    // Order 371 of 27.05.2022, table 1.2.
    expect((await item("get_coeff_co2_density", 1)).effective_from).toBe("2022-05-27");
    // Decree 2979-р of 22.10.2021 (AR4).
    expect((await item("get_gwp", 1)).effective_from).toBe("2021-10-22");
    // IPCC 2006 states no date of force: every supported reporting year.
    expect((await item("get_open_mining_ch4", 1)).effective_from).toBe(`${REPORTING_YEAR_MIN}-01-01`);
    // An item is in force once all its documents are: the latest of their dates.
    expect(seededEffectiveFrom({ a: { ref: "ipcc-4.1" }, b: { ref: "371-3.1" }, c: { ref: "decree-315" } })).toBe("2022-05-27");
    expect((await item("get_coeff_co2_density", 1)).reason).toBe("Значения по умолчанию методики расчета");
  });

  it("gives an installation seeded with the day of seeding the documents' date as a new version, leaving an administrator's alone", async () => {
    const other = await createFreshHarness();
    try {
      const repos = other.deps.repos.dictionaries;
      // As seeding wrote it before: version 1 in force from 2026-01-01.
      const torch = (await repos.get("get_torch_cf", 1))!;
      await repos.putVersion({ ...torch, version: torch.version + 1, effective_from: "2026-01-01" });
      // An administrator's own version keeps the date the administrator gave.
      const mine = (await repos.get("get_underground_content", 1))!;
      await repos.putVersion({
        ...mine,
        version: mine.version + 1,
        effective_from: "2026-01-01",
        changed_by: "admin-1",
        reason: "Наш замер",
      });

      expect(await seedDictionaries(other.deps)).toBe(1);
      const history = (await repos.history("get_torch_cf", 1)).sort((a, b) => a.version - b.version);
      expect(history.at(-1)).toMatchObject({
        version: torch.version + 2,
        effective_from: "2022-05-27",
        changed_by: "system",
        reason: SEED_DATE_REASON,
        values: torch.values,
      });
      expect((await repos.get("get_underground_content", 1))!).toMatchObject({ effective_from: "2026-01-01", changed_by: "admin-1" });
      expect(await seedDictionaries(other.deps)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("gives an item seeded under its English-named source the Russian name, values and date kept, an administrator's name left alone", async () => {
    const other = await createFreshHarness();
    try {
      const repos = other.deps.repos.dictionaries;
      const mean = (await repos.get("get_underground_emission_ch4", 1))!;
      expect(mean.name).toBe("Подземная добыча, среднее значение МГЭИК");
      // As an installation seeded before the names were Russian.
      await repos.putVersion({ ...mean, version: mean.version + 1, name: "Подземная добыча, среднее значение IPCC" });
      const post = (await repos.get("get_handling_underground_ch4", 1))!;
      await repos.putVersion({
        ...post,
        version: post.version + 1,
        name: "После подземной добычи, IPCC (наше название)",
        changed_by: "admin-1",
        reason: "Наше название",
      });

      expect(await seedDictionaries(other.deps)).toBe(1);
      expect((await repos.get("get_underground_emission_ch4", 1))!).toMatchObject({
        version: mean.version + 2,
        name: "Подземная добыча, среднее значение МГЭИК",
        values: mean.values,
        effective_from: mean.effective_from,
        changed_by: "system",
        reason: SEED_NAME_REASON,
      });
      expect((await repos.get("get_handling_underground_ch4", 1))!.name).toBe("После подземной добычи, IPCC (наше название)");
      expect(await seedDictionaries(other.deps)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
