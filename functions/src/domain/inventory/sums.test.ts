// The inventory's kept sums (sums.ts, docs/performance.md «Inventory from aggregates») against the
// live computation, on the in-memory repositories with their table stream (adapters/memory): a
// company with several facilities, a project without one and an earlier year, mining by production
// and measured, a flare by composition, the IPCC flare pair, a boiler on mine gas, an alternative and
// a duplicate. After every create, edit, archive, role switch and project year change: the sums the
// stream keeps equal those folded from the calculations, and the totals per year read from them
// equal the live inventory's, also when read at once after the write, before the stream has caught
// up (read-your-writes). The reconciliation's repair of a drift and a write lost on the real
// stream: tests/integration/inventory-sums.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { CalculationType } from "@core/registry";
import type { Actor } from "../context";
import { countInventorySums, reconcileCompanyStatistics } from "./statistics";
import { INVENTORY_SUMS_LAYOUT } from "./sums";
import { getInventory, getInventoryWithCalculations, inventoryTotalsByYear, listInventoryCalculations } from "./year";

let d: MemoryDomain;
let actor: Actor;

type Calc = { id: string; type: string; version: number; res_ch4?: number };
type Inventory = Awaited<ReturnType<typeof getInventory>>;

const facility = (name: string) => d.facility(actor, { name, kind: "underground_mine" });
const project_ = (name: string, year: number, facilityId: string | null) =>
  d.project(actor, { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: facilityId });
const calc = (type: string, projectId: string, name: string, body: Record<string, unknown>): Promise<Calc> =>
  d.calc(actor, type as CalculationType, { name, project: projectId, ...body });
const patch = (c: Calc, body: Record<string, unknown>): Promise<Calc> => d.patch(actor, c, { ...body, version: c.version });
const keptTotals = () => inventoryTotalsByYear(d.deps, actor);
const liveInventory = (year: number) => getInventory(d.deps, actor, year);

/** Every counted calculation of a line of the year's inventory, page by page. */
async function lineCalculations(year: number, line: string) {
  const collected = [];
  for (;;) {
    const page = await listInventoryCalculations(d.deps, actor, { year, line, counted: true, limit: 100, offset: collected.length });
    collected.push(...page.results);
    if (page.results.length === 0 || collected.length >= page.count) return collected;
  }
}

/** The year's inventory folded from the calculations themselves, never from the kept sums (the
 *  report's and the D20 snapshot's), in the answer's terms: each line's count, not its ids. */
async function foldedInventory(year: number): Promise<Omit<Inventory, "check_calculations">> {
  const { calculations: rows, ...folded } = await getInventoryWithCalculations(d.deps, actor, year);
  const leftOut = rows.filter((row) => !row.counted);
  const checks = folded.checks.map((check) => {
    if (check.code !== "alternatives_excluded") return check;
    const names = leftOut.map((row) => `«${row.name}»`).join(", ");
    expect(check.message.endsWith(`: ${names}`), check.message).toBe(true);
    expect(check.calculations).toEqual(leftOut.map((row) => row.id));
    return { ...check, message: check.message.slice(0, -`: ${names}`.length), calculations: [] };
  });
  return {
    ...folded,
    checks,
    categories: folded.categories.map(({ calculations, ...line }) => ({ ...line, count: calculations.length })),
  } as Omit<Inventory, "check_calculations">;
}

/** The inventory answered equals the one folded from the calculations: figures, lines and checks,
 *  and every calculation a check names is in check_calculations. */
async function sameAsFolded(step: string, year: number): Promise<Inventory> {
  const served = await liveInventory(year);
  // The review of a year never reviewed is made up at each read (its updated_at is the time).
  const { check_calculations, review: _review, ...figures } = served;
  const { review: _folded, ...folded } = await foldedInventory(year);
  expect(JSON.parse(JSON.stringify(figures)), `${step}: ${year} from the kept sums and folded`).toEqual(JSON.parse(JSON.stringify(folded)));
  const named = served.checks.flatMap((c) => c.calculations);
  expect(check_calculations.map((c) => c.id).sort(), `${step}: the calculations the checks name`).toEqual([...new Set(named)].sort());
  return served;
}

/** The totals per year from the kept sums equal the live inventory's, read right after a write
 *  (the stream may still be behind: then the sums must not be used) and again once it caught up,
 *  when the kept sums equal the calculations' own and are the ones read. */
async function agrees(step: string): Promise<void> {
  const [atOnce, live] = [await keptTotals(), await liveInventory(2024)];
  expect(atOnce, `${step}: read at once`).toEqual(live.years);
  await d.settled();
  const kept = await d.deps.repos.statistics.inventorySums(actor.company, INVENTORY_SUMS_LAYOUT);
  expect(kept, `${step}: the stream has applied every write`).toBeDefined();
  expect(Object.fromEntries(kept!), `${step}: kept sums`).toEqual(
    Object.fromEntries(await countInventorySums(d.deps.repos, actor.company)),
  );
  expect(await keptTotals(), `${step}: after the stream`).toEqual(live.years);
  await sameAsFolded(`${step} (kept)`, 2024);
  // The live figures themselves: each line is the sum of its counted calculations (rounded to
  // 10⁻⁹ t) where nothing is netted from it, as many as its count.
  for (const line of live.categories) {
    const key = `${line.category}|${line.ipcc_code}|${line.gas}`;
    const rows = await lineCalculations(2024, key);
    expect(rows, `${step}: ${key}`).toHaveLength(line.count);
    if (line.ipcc_code === "1.B.1.a.i.1" || line.ipcc_code === "1.B.1.a.i.2") continue;
    const sum = rows.reduce((t, c) => t + c.gases.filter((g) => g.gas === line.gas).reduce((s, g) => s + g.t, 0), 0);
    expect(line.t, `${step}: ${key}`).toBeCloseTo(sum, 6);
  }
}

const FLARE = {
  volume: 20_000,
  w_ch4: 60,
  cf: 0.0006,
  p_co2: 1.8393,
  p_ch4: 0.668,
  dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
};
const MEASURED = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Суммы");
});

describe("the inventory's kept sums (read-your-writes, exactly once)", () => {
  it("equal the live computation after creates, edits, archives, role switches and project year changes", async () => {
    const north = await facility("Шахта «Северная»");
    const south = await facility("Шахта «Южная»");
    const p1 = await project_("Северная 2024", 2024, north.id);
    const p2 = await project_("Южная 2024", 2024, south.id);
    const p3 = await project_("Без площадки 2024", 2024, null);
    const p4 = await project_("Северная 2023", 2023, north.id);

    const mining = await calc("underground_emission_ch4", p1.id, "Добыча", { volume: 100_000, ef: 18 });
    await agrees("a mining calculation");
    const flare = await calc("torch_composition", p1.id, "Факел по составу", FLARE);
    await calc("torch_ch4", p1.id, "Факел МГЭИК", { volume: 1000, koef_transform: 0.67, inventory_role: "primary" });
    await calc("disposal_co2_torch", p1.id, "Факел МГЭИК CO2", { volume: 1000, ef: 2.75, koef_transform: 0.67, inventory_role: "primary" });
    await calc("disposal_co2_stat_sources", p1.id, "Котельная на метане", {
      volume: 1000,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 8 },
    });
    await agrees("flares and a boiler netted from the mine");
    const measured = await calc("underground", p2.id, "Дегазация", { volume: 10_000, ...MEASURED });
    const twice = await calc("underground", p2.id, "Дегазация еще раз", { volume: 4_000, ...MEASURED });
    const alternative = await calc("underground", p3.id, "Проверка", { volume: 40_000, inventory_role: "alternative", ...MEASURED });
    await calc("underground_emission_ch4", p4.id, "Добыча 2023", { volume: 50_000, ef: 18 });
    // A mine that counted half of the year, by an own factor without its justification.
    const west = await facility("Шахта «Западная»");
    const p5 = await project_("Западная 2024", 2024, west.id);
    const half = await calc("underground_emission_ch4", p5.id, "Первое полугодие", {
      volume: 30_000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      period: { from: "2024-01-01", to: "2024-06-30" },
    });
    await agrees("a duplicate, an alternative, a gap, an own factor and another year");
    // The three kinds of checks the kept sums give: the duplicate and the flag name their
    // calculations, the gap its dates.
    const checks = (await sameAsFolded("the three checks", 2024)).checks;
    expect(checks).toContainEqual(
      expect.objectContaining({ code: "primary_duplicate", level: "error", calculations: expect.arrayContaining([measured.id, twice.id]) }),
    );
    expect(checks).toContainEqual(expect.objectContaining({ code: "custom_without_justification", calculations: [half.id] }));
    expect(checks).toContainEqual({
      level: "warning",
      code: "source_period_gap",
      message: expect.stringMatching(
        /^Шахта «Западная», 1\.B\.1\.a\.i\.1 .*: расчеты не покрывают часть 2024 года — 01\.07\.2024–31\.12\.2024;/,
      ),
      calculations: [],
    });

    const edited = await patch(mining, { volume: 120_000 });
    await patch(flare, { volume: 25_000 });
    await agrees("edits");
    await patch(measured, { basis: "gross" });
    await agrees("a measured release made gross");
    const switched = await patch(alternative, { inventory_role: "primary" });
    await patch(twice, { inventory_role: "alternative" });
    await agrees("role switches");
    await patch(switched, { is_deleted: true });
    await patch(edited, { is_deleted: true });
    await agrees("archived calculations");
    await d.patchProject(actor, p4.id, { start_date: "2024-01-01", end_date: "2024-12-31", reporting_year: 2024, version: p4.version });
    await agrees("a project moved into the year");
    await d.patchProject(actor, p2.id, { start_date: "2023-01-01", end_date: "2023-12-31", reporting_year: 2023, version: p2.version });
    await d.patchProject(actor, p3.id, { is_deleted: true });
    await agrees("a project moved out of the year and one archived");

    const report = await reconcileCompanyStatistics(d.deps, actor.company);
    expect(report.inventory).toEqual([]);
    expect(report.writes_settled).toBe(false);
  });
});
