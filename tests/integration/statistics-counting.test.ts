// D18 on the profile: GET v1/users/statistics/ sums what the inventory would (the core's counting
// rule: primary calculations of projects that are not archived) and says what it left out, kept
// change by change by the table's stream handler, equal to a count over the table (summarise) and
// to what a reconciliation finds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { reconcileCompanyStatistics, summarise } from "@server/domain/inventory/statistics";
import type { CalculationOf } from "@server/contract";
import type { CalculationType } from "@core/registry";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Statistics = { years: Array<{ total_t_co2e: number }>; not_counted: string; calculations: Record<string, number> };
/** One reporting year here: its total (D26: the statistics never add years together). */
const total = (statistics: Statistics) => {
  expect(statistics.years.length).toBeLessThanOrEqual(1);
  return statistics.years[0]?.total_t_co2e ?? 0;
};

const MEASURED = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };

describe("the profile's statistics count as the inventory does (D18)", () => {
  it("sum the primary calculations only, leave out alternatives, analyses and archived projects, and say so", async () => {
    const user = await h.signedInUser("ООО Статистика учета");
    const create = async <T extends CalculationType>(type: T, project: string, body: Record<string, unknown>) => {
      const res = await h.request(`/api/v1/${type}/`, { method: "POST", token: user.token, json: { project, ...body } });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as CalculationOf<T>;
    };
    const statistics = async () => {
      await h.settled();
      const res = await h.request("/api/v1/users/statistics/", { token: user.token });
      expect(res.status).toBe(200);
      return (await res.json()) as Statistics;
    };
    const mine = await h.newProject(user.token, "Шахта «Учет»");
    const dropped = await h.newProject(user.token, "Шахта закрытая");
    // The check measurement is of another project (a project without a facility is a source of its
    // own, D19): made primary it is no duplicate of the first and counts beside it (D43).
    const checking = await h.newProject(user.token, "Шахта «Учет», проверка");
    const primary = await create("underground", mine.id, { name: "Дегазация", volume: 10_000, ...MEASURED });
    const alternative = await create("underground", checking.id, {
      name: "Дегазация (проверка)",
      volume: 40_000,
      inventory_role: "alternative",
      ...MEASURED,
    });
    await create("recycle_technology", mine.id, { name: "Выбор утилизации", metan: 60, a_metan: 40 });
    const inDropped = await create("underground", dropped.id, { name: "Дегазация закрытой", volume: 5_000, ...MEASURED });

    // Before the archive: both projects' primary calculations count.
    const before = await statistics();
    expect(total(before)).toBeCloseTo(primary.sum_co2 + inDropped.sum_co2, 6);
    expect(before.not_counted).toBe("не учтены: 1 альтернативный расчет, 1 аналитический расчет");
    expect(before.calculations).toEqual({ underground: 3, recycle_technology: 1 });

    const archived = await h.request(`/api/v1/projects/${dropped.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { is_deleted: true },
    });
    expect(archived.status, await archived.clone().text()).toBe(200);
    const after = await statistics();
    expect(total(after)).toBeCloseTo(primary.sum_co2, 6);
    expect(total(after)).not.toBeCloseTo(primary.sum_co2 + alternative.sum_co2, 0);
    expect(after.not_counted).toBe("не учтены: 1 альтернативный расчет, 1 аналитический расчет, 1 расчет в архиве");
    // The inventory's totals per year say the same.
    const years = (await (await h.request("/api/v1/inventory/years/", { token: user.token })).json()) as Array<{
      total_t_co2e: number;
      not_counted: string;
    }>;
    expect(years.map((y) => y.total_t_co2e)).toEqual(after.years.map((y) => y.total_t_co2e));

    // Made primary, the check calculation counts.
    const promoted = await h.request(`/api/v1/underground/${alternative.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { inventory_role: "primary", version: alternative.version },
    });
    expect(promoted.status, await promoted.clone().text()).toBe(200);
    const promotedStats = await statistics();
    expect(total(promotedStats)).toBeCloseTo(primary.sum_co2 + alternative.sum_co2, 6);
    expect(promotedStats.not_counted).toBe("не учтены: 1 аналитический расчет, 1 расчет в архиве");

    // What the handler kept is what a count over the table gives.
    const counted = summarise(
      await h.deps.repos.projects.listAllOfCompany(user.companyId),
      await h.deps.repos.calculations.listActiveByCompany(user.companyId),
    );
    expect(counted.total_co2e).toBeCloseTo(total(promotedStats), 6);
    expect(promotedStats).not.toHaveProperty("total_co2e");
    expect(counted.not_counted).toBe(promotedStats.not_counted);
    expect((await reconcileCompanyStatistics(h.deps, user.companyId, { repair: false })).drift).toEqual([]);
  });
});
