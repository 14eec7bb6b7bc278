// The inventory's kept sums (domain/inventory/sums.ts, docs/performance.md «Inventory from
// aggregates») on the real local engine with the table's stream handled in process, what only the
// storage shows: a drift the reconciliation repairs (made by a write past the repositories), a
// write counted but lost that keeps reads live until the reconciliation settles the counter, and a
// write refused for a stale version that gives its number back. That the kept sums equal the live
// computation after every kind of change, read at once and after the stream:
// functions/src/domain/inventory/sums.test.ts (on the in-memory repositories).
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as keys from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import { getInventoryWithCalculations } from "@server/domain/inventory/year";
import type { Actor } from "@server/domain/context";
import { createHarness, type Harness } from "../support/harness";
import type { InventorySummary } from "../support/inventory";

let h: Harness;
let token: string;
let company: string;
let actor: Actor;

type Calc = { id: string; type: string; version: number; res_ch4?: number };
type YearTotals = { year: number; total_t_co2e: number; by_category: Record<string, number>; not_counted: string };
type Inventory = InventorySummary;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const project_ = async (name: string, year: number, facilityId: string | null) =>
  json<{ id: string; version: number }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: facilityId },
    }),
    201,
  );

const calc = async (type: string, projectId: string, name: string, body: Record<string, unknown>) =>
  json<Calc>(await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name, project: projectId, ...body } }), 201);

const patch = async (c: Calc, body: Record<string, unknown>) =>
  json<Calc>(await h.request(`/api/v1/${c.type}/${c.id}/`, { method: "PATCH", token, json: { ...body, version: c.version } }));

const keptTotals = async () => json<YearTotals[]>(await h.request("/api/v1/inventory/years/", { token }));
const liveInventory = async (year: number) => json<Inventory>(await h.request(`/api/v1/inventory/?year=${year}`, { token }));

/** The year's inventory folded from the calculations themselves, never from the kept sums (the
 *  report's and the D20 snapshot's), in the answer's terms: each line's count, not its ids. */
async function foldedInventory(year: number): Promise<Omit<Inventory, "check_calculations">> {
  const { calculations: rows, ...folded } = await getInventoryWithCalculations(h.deps, actor, year);
  // The report names what the total leaves out, which it read anyway; the answer says how many.
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
  };
}

/** The answer of GET v1/inventory/ equals the inventory folded from the calculations: figures,
 *  lines and checks (their levels, messages and the calculations they name), and every calculation
 *  a check names is in check_calculations. */
async function sameAsFolded(step: string, year: number, answer?: Inventory): Promise<Inventory> {
  const served = answer ?? (await liveInventory(year));
  // The review of a year never reviewed is made up at each read (its updated_at is the time).
  const { check_calculations, review: _review, ...figures } = served;
  const { review: _folded, ...folded } = await foldedInventory(year);
  expect(figures, `${step}: ${year} from the kept sums and folded`).toEqual(folded);
  const named = served.checks.flatMap((c) => c.calculations);
  expect(check_calculations.map((c) => c.id).sort(), `${step}: the calculations the checks name`).toEqual([...new Set(named)].sort());
  return served;
}

const FLARE = {
  volume: 20_000,
  w_ch4: 60,
  cf: 0.0006,
  p_co2: 1.8393,
  p_ch4: 0.668,
  dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
};

beforeAll(async () => {
  h = await createHarness();
  const user = await h.signedInUser("ООО Суммы");
  ({ token, companyId: company } = user);
  actor = { id: user.userId, company, email: user.email, role: "staff" };
});
afterAll(() => h.close());

describe("the inventory's kept sums (read-your-writes, exactly once)", () => {
  it("are repaired by the reconciliation, and a write counted but lost keeps reads live until it settles the counter", async () => {
    // A mine that counted half of the year, by an own factor without its justification.
    const west = await json<{ id: string }>(
      await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "Шахта «Западная»", kind: "underground_mine" } }),
      201,
    );
    const half = await project_("Западная 2024", 2024, west.id);
    await calc("underground_emission_ch4", half.id, "Первое полугодие", {
      volume: 30_000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      period: { from: "2024-01-01", to: "2024-06-30" },
    });
    const { id: project } = await project_("Факел 2024", 2024, null);
    await calc("torch_composition", project, "Факел", FLARE);
    await calc("torch_composition", project, "Факел еще раз", FLARE);
    await h.settled();
    const totals = await keptTotals();
    const kept = { 2023: await sameAsFolded("kept", 2023), 2024: await sameAsFolded("kept", 2024) };
    expect(kept[2024].checks.map((c) => c.code)).toEqual(
      expect.arrayContaining(["primary_duplicate", "source_period_gap", "custom_without_justification"]),
    );
    const flaring = "t:2|1.B.1.a.i.4|CH4";
    // Drift, as a record lost for good would leave it (the kept sums' items make no stream record).
    await h.doc!.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: keys.inventorySums(company, project),
        UpdateExpression: "ADD #t :n",
        ExpressionAttributeNames: { "#t": `s:${flaring}` },
        ExpressionAttributeValues: { ":n": 5_000_000_000 },
      }),
    );
    expect(await keptTotals()).not.toEqual(totals);
    const repaired = await reconcileCompanyStatistics(h.deps, company);
    expect(repaired.inventory).toEqual([{ project, difference: { [flaring]: -5_000_000_000 } }]);
    expect(await keptTotals()).toEqual(totals);

    // A writer that took its number and died before writing: the sums are never used while the
    // counter is ahead, and the reconciliation brings it level once nothing is on its way.
    await h.doc!.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: keys.inventoryWrites(company),
        UpdateExpression: "ADD writes :one",
        ExpressionAttributeValues: { ":one": 1 },
      }),
    );
    await h.settled();
    expect(await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT)).toBeUndefined();
    expect(await keptTotals()).toEqual(totals);
    // Folded from the calculations while the counter is ahead: the same answer, checks and all.
    for (const year of [2023, 2024] as const) {
      const { review: _review, ...folded } = await sameAsFolded("counter ahead", year);
      const { review: _kept, ...keptAnswer } = kept[year];
      expect(folded, `${year} folded while the counter is ahead`).toEqual(keptAnswer);
    }
    expect((await reconcileCompanyStatistics(h.deps, company)).writes_settled).toBe(true);
    expect(await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT)).toBeDefined();
    expect(await keptTotals()).toEqual(totals);
  });

  it("a write refused for a stale version gives its number back", async () => {
    const p = await project_("Конфликт 2024", 2024, null);
    const c = await calc("underground_emission_ch4", p.id, "Добыча", { volume: 1000, ef: 18 });
    await patch(c, { volume: 2000 });
    const stale = await h.request(`/api/v1/${c.type}/${c.id}/`, { method: "PATCH", token, json: { volume: 3000, version: c.version } });
    expect(stale.status).toBe(409);
    await h.settled();
    expect(await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT)).toBeDefined();
  });
});
