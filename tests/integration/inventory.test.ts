// The year's inventory (methodology D12, D15; docs/methodology.md, Inventory and the report): facilities, the project's facility and year,
// primary and alternative calculations, totals by category and gas at the year's GWP, the checks,
// the 296-FZ threshold, and isolation between companies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { signedInAdmin, signIn, dateAr5For } from "../support/admin";
import { createUser } from "@server/domain/company/users";
import { calculationForm, validInputs } from "../support/tenant-objects";
import { inventoryCalculations, type InventoryCalculation, type InventorySummary } from "../support/inventory";
import type { CalculationOf, CalculationView } from "@server/contract";
import type { CalculationType } from "@core/registry";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
let other: string;

beforeAll(async () => {
  // A table of its own: the admin's dating of AR5 for 2025 holds for every company of the table.
  h = await createFreshHarness();
  ({ token } = await h.signedInUser("ООО Инвентаризация"));
  ({ token: other } = await h.signedInUser("ООО Чужая"));
  const admin = await signedInAdmin(h);
  // AR5 (set 2, CH4 = 28) dated for the 2025 reporting year only; 2024 keeps 2979-р (25).
  await dateAr5For(h, admin.token, 2025);
});
afterAll(() => h.close());

type Facility = { id: string; name: string; kind: string; version: number };
type Inventory = InventorySummary;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const facility = async (name: string, kind: string, as = token) =>
  json<Facility>(await h.request("/api/v1/facilities/", { method: "POST", token: as, json: { name, kind } }), 201);

const project = async (name: string, year: number, facilityId: string | null) =>
  json<{ id: string; facility: string | null }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: facilityId },
    }),
    201,
  );

const calc = async <T extends CalculationType>(type: T, projectId: string, body: Record<string, unknown>) =>
  json<CalculationOf<T>>(
    await h.request(`/api/v1/${type}/`, {
      method: "POST",
      token,
      json: { name: `${type} ${projectId.slice(-4)}`, project: projectId, ...body },
    }),
    201,
  );

const inventory = async (year: number, facilityId?: string, as = token) =>
  json<Inventory>(await h.request(`/api/v1/inventory/?year=${year}${facilityId ? `&facility=${facilityId}` : ""}`, { token: as }), 200);

const TIER1 = { volume: 1_000_000, ef: 18, koef_transform: 0.67 };
const MEASURED = { volume: 10_000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };
const OPEN_PIT = { volume: 2_000_000, ef: 1.2, koef_transform: 0.67 };

describe("facilities", () => {
  it("are created, listed and edited by the company's users, validated, and invisible to others", async () => {
    const created = await facility("Шахта «Северная»", "underground_mine");
    expect(created).toMatchObject({ name: "Шахта «Северная»", kind: "underground_mine", version: 1 });
    const bad = await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "", kind: "mine" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/Название|Вид/);
    const patched = await json<Facility>(
      await h.request(`/api/v1/facilities/${created.id}/`, { method: "PATCH", token, json: { name: "Шахта Северная", version: 1 } }),
      200,
    );
    expect(patched).toMatchObject({ name: "Шахта Северная", version: 2 });
    const stale = await h.request(`/api/v1/facilities/${created.id}/`, { method: "PATCH", token, json: { name: "X", version: 1 } });
    expect(stale.status).toBe(409);
    expect((await h.request(`/api/v1/facilities/${created.id}/`, { token: other })).status).toBe(404);
    expect(await json<Facility[]>(await h.request("/api/v1/facilities/", { token: other }), 200)).toEqual([]);
    // A project cannot name another company's facility.
    const foreign = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: other,
      json: { name: "Чужой", start_date: "2025-01-01", end_date: "2025-12-31", facility: created.id },
    });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { detail: string }).detail).toMatch(/^Площадка: /);
  });
});

describe("the year's inventory", () => {
  it("counts each primary calculation of the year once, at the year's GWP, by facility, category and gas", async () => {
    const mine = await facility("Шахта «Южная»", "underground_mine");
    const pit = await facility("Разрез «Восточный»", "open_pit");
    const p2024 = await project("Южная 2024", 2024, mine.id);
    const p2025 = await project("Южная 2025", 2025, mine.id);
    const pit2025 = await project("Восточный 2025", 2025, pit.id);

    const tier1In2024 = await calc("underground_emission_ch4", p2024.id, TIER1);
    const tier1 = await calc("underground_emission_ch4", p2025.id, TIER1);
    const measured = await calc("underground", p2025.id, MEASURED);
    const openPit = await calc("open_mining_ch4", pit2025.id, { ...OPEN_PIT, dictionary_items: { get_open_mining_ch4: 1 } });
    const scenario = await calc("torch_ch4", p2025.id, { volume: 500, koef_transform: 0.67, inventory_role: "alternative" });
    expect(scenario.inventory_role).toBe("alternative");
    expect(tier1.inventory_role).toBe("primary");

    // Two primary estimates of the same source over the same period: an error (D19).
    let inv = await inventory(2025);
    const duplicate = inv.checks.find((c) => c.code === "primary_duplicate")!;
    expect(duplicate.calculations.sort()).toEqual([tier1.id, measured.id].sort());
    expect(duplicate.level).toBe("error");

    // The Tier 1 estimate made an alternative: the measured release counts alone.
    await json(
      await h.request(`/api/v1/underground_emission_ch4/${tier1.id}/`, {
        method: "PATCH",
        token,
        json: { inventory_role: "alternative", version: tier1.version },
      }),
      200,
    );
    inv = await inventory(2025);
    expect(inv.checks.some((c) => c.code === "primary_duplicate")).toBe(false);
    expect(inv.gwp).toMatchObject({ set: 2, gwp_ch4: 28 });
    const ch4 = measured.res_ch4! + openPit.res_ch4!;
    const expected = ch4 * 28 + measured.res_co2!;
    expect(inv.total_t_co2e).toBeCloseTo(expected, 6);
    const underground = inv.categories.find((r) => r.ipcc_code === "1.B.1.a.i.1" && r.gas === "CH4")!;
    expect(underground).toMatchObject({ category: 3, count: 1 });
    const ids = async (filter: Parameters<typeof inventoryCalculations>[3]) =>
      (await inventoryCalculations(h, token, 2025, filter)).map((c) => c.id).sort();
    expect(await ids({ line: "3|1.B.1.a.i.1|CH4", counted: true })).toEqual([measured.id]);
    expect(underground.t).toBeCloseTo(measured.res_ch4!, 9);
    expect(underground.t_co2e).toBeCloseTo(measured.res_ch4! * 28, 6);
    expect(inv.categories.find((r) => r.ipcc_code === "1.B.1.a.i.1" && r.gas === "CO2")!.t).toBeCloseTo(measured.res_co2!, 9);
    expect(inv.categories.find((r) => r.ipcc_code === "1.B.1.a.ii.1")).toMatchObject({ count: 1 });
    expect(await ids({ line: `${inv.categories.find((r) => r.ipcc_code === "1.B.1.a.ii.1")!.category}|1.B.1.a.ii.1|CH4` })).toEqual([
      openPit.id,
    ]);
    // D18: the year's total says what it left out, here and in the totals per year; the list of
    // what it left out is the calculations route's counted=false.
    expect(await ids({ counted: false })).toEqual([tier1.id, scenario.id].sort());
    expect(inv.checks.find((c) => c.code === "alternatives_excluded")).toEqual({
      level: "info",
      code: "alternatives_excluded",
      message: "Не учтены: 2 альтернативных расчета",
      calculations: [],
    });
    expect(inv.years.find((y) => y.year === 2025)!.not_counted).toBe("не учтены: 2 альтернативных расчета");
    expect(inv.facilities.map((f) => f.name)).toEqual(["Разрез «Восточный»", "Шахта «Южная»"]);
    expect(inv.facilities.reduce((s, f) => s + f.t_co2e, 0)).toBeCloseTo(inv.total_t_co2e, 6);
    // 50 000 t from 2024 (296-FZ art. 14, Decree 1580 from 2024, D31), for the company's whole year (D21).
    expect(inv.threshold).toEqual({ limit_t_co2e: 50_000, regulated: inv.total_t_co2e >= 50_000, company_t_co2e: inv.total_t_co2e });

    // The 2024 inventory: 2024's calculation only, at 2979-р's 25.
    const inv2024 = await inventory(2024);
    expect(inv2024.gwp.gwp_ch4).toBe(25);
    expect(inv2024.total_t_co2e).toBeCloseTo(tier1In2024.res_ch4! * 25, 6);
    expect((await inventoryCalculations(h, token, 2024)).map((c) => c.id)).toEqual([tier1In2024.id]);
    // One facility only.
    const pitOnly = await inventory(2025, pit.id);
    expect(pitOnly.total_t_co2e).toBeCloseTo(openPit.res_ch4! * 28, 6);
    expect(pitOnly.years.map((y) => y.year)).toEqual([2025]);
    // Year by year, never added across years.
    expect(inv.years.find((y) => y.year === 2024)!.total_t_co2e).toBeCloseTo(inv2024.total_t_co2e, 6);
    const byYear = await json<Inventory["years"]>(await h.request("/api/v1/inventory/years/", { token }), 200);
    expect(byYear.find((y) => y.year === 2025)!.total_t_co2e).toBeCloseTo(inv.total_t_co2e, 6);
  });

  it("warns of a calculation stored with another GWP, of a category missing since last year, and of custom values without a justification", async () => {
    const mine = await facility("Шахта «Западная»", "underground_mine");
    const p2025 = await project("Западная 2025", 2025, mine.id);
    const p2026 = await project("Западная 2026", 2026, mine.id);
    const oldGwp = await calc("torch_ch4", p2025.id, { volume: 800, koef_transform: 0.67, gwp_set: 1, inventory_role: "primary" });
    await calc("handling_underground_ch4", p2025.id, {
      volume: 1_000_000,
      ef: 3.1,
      koef_transform: 0.67,
      dictionary_items: { get_handling_underground_ch4: null },
    });
    const inv = await inventory(2025, mine.id);
    // D12: counted, not named; the calculation stored at 2979-р's 25 is the only one of another GWP.
    const gwp = inv.checks.find((c) => c.code === "gwp_not_in_force")!;
    expect(gwp).toMatchObject({ level: "info", calculations: [] });
    expect(gwp.message).toMatch(/^Рассчитаны с другим ПГП CH4 \(25\): 1 расчет\. В инвентаризации 2025 года CH4 пересчитан с ПГП 28 /);
    expect(inv.total_t_co2e).toBeCloseTo(
      inv.categories.reduce((s, r) => s + r.t_co2e, 0),
      6,
    );
    expect(inv.categories.find((r) => r.category === 2)!.t_co2e).toBeCloseTo(oldGwp.res_ch4! * 28, 6);
    expect(inv.checks.some((c) => c.code === "custom_without_justification")).toBe(true);

    await calc("torch_ch4", p2026.id, { volume: 800, koef_transform: 0.67, inventory_role: "primary" });
    const next = await inventory(2026, mine.id);
    const missing = next.checks.filter((c) => c.code === "missing_since_last_year");
    expect(missing).toHaveLength(1);
    expect(missing[0].message).toMatch(/категории 3/);
    expect(next.threshold.limit_t_co2e).toBe(50_000);
  });

  it("leaves out the types that never count and refuses a role for them", async () => {
    const p = await project("Прочее 2023", 2023, null);
    const { form, file } = validInputs("sensitivity");
    const refused = await h.request("/api/v1/sensitivity/", {
      method: "POST",
      token,
      body: calculationForm({ ...form, name: "Чувствительность", project: p.id, inventory_role: "primary" }, file),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^inventory_role: /);
    const sensitivity = await h.request("/api/v1/sensitivity/", {
      method: "POST",
      token,
      body: calculationForm({ ...form, name: "Чувствительность", project: p.id }, file),
    });
    expect(sensitivity.status).toBe(201);
    await calc("recycle_technology", p.id, { metan: 45, a_metan: 8 });
    const inv = await inventory(2023);
    expect(inv.categories).toEqual([]);
    expect(await inventoryCalculations(h, token, 2023)).toEqual([]);
    expect(inv.total_t_co2e).toBe(0);
    expect(inv.threshold).toEqual({ limit_t_co2e: 150_000, regulated: false, company_t_co2e: 0 });
  });

  it("is the caller's company's only, and validates the year and facility", async () => {
    const theirs = await inventory(2025, undefined, other);
    expect(theirs.categories).toEqual([]);
    expect(await inventoryCalculations(h, other, 2025)).toEqual([]);
    expect(theirs.total_t_co2e).toBe(0);
    const mine = (await json<Facility[]>(await h.request("/api/v1/facilities/", { token }), 200))[0];
    expect((await h.request(`/api/v1/inventory/?year=2025&facility=${mine.id}`, { token: other })).status).toBe(404);
    for (const year of ["", "20x5", "1800"]) {
      const res = await h.request(`/api/v1/inventory/?year=${year}`, { token });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Год: /);
    }
  });
});

describe("the year's calculations, line by line (v1/inventory/calculations)", () => {
  type Page = { results: InventoryCalculation[]; count: number };
  let ours: string;
  let theirs: string;
  let mine: Facility;
  let torches: CalculationView[];
  let alternative: CalculationView;
  let measured: CalculationView;
  let foreign: CalculationView;

  const page = async (query: string, as = ours) =>
    json<Page>(await h.request(`/api/v1/inventory/calculations?${query}`, { token: as }), 200);
  const post = async (as: string, type: string, body: Record<string, unknown>) =>
    json<CalculationView>(await h.request(`/api/v1/${type}/`, { method: "POST", token: as, json: body }), 201);

  beforeAll(async () => {
    ({ token: ours } = await h.signedInUser("ООО Постранично"));
    ({ token: theirs } = await h.signedInUser("ООО Соседи"));
    mine = await facility("Шахта «Страничная»", "underground_mine", ours);
    const p = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: ours,
        json: { name: "Страничная 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
      }),
      201,
    );
    // Five flares of one line over the year's quarters and halves, each an emission point of its own
    // (D25: five sources, none counted twice): sorted by period, then name.
    const periods = [
      ["2025-07-01", "2025-12-31"],
      ["2025-01-01", "2025-03-31"],
      ["2025-04-01", "2025-06-30"],
    ];
    torches = [];
    for (const [i, name] of ["Факел В", "Факел А", "Факел Б", "Факел Г", "Факел Д"].entries()) {
      const [from, to] = periods[i % periods.length];
      const point = await json<{ id: string }>(
        await h.request(`/api/v1/facilities/${mine.id}/points/`, { method: "POST", token: ours, json: { name, kind: "flare" } }),
        201,
      );
      torches.push(
        await post(ours, "torch_ch4", {
          name,
          project: p.id,
          point: point.id,
          volume: 100 + i,
          koef_transform: 0.67,
          period: { from, to },
          inventory_role: "primary",
        }),
      );
    }
    alternative = await post(ours, "torch_ch4", {
      name: "Факел резервный",
      project: p.id,
      volume: 500,
      koef_transform: 0.67,
      inventory_role: "alternative",
    });
    measured = await post(ours, "underground", { name: "Замер", project: p.id, ...MEASURED });
    // Another company's calculations of the same year and lines.
    const q = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: theirs,
        json: { name: "Соседи 2025", start_date: "2025-01-01", end_date: "2025-12-31" },
      }),
      201,
    );
    foreign = await post(theirs, "torch_ch4", { name: "Факел А", project: q.id, volume: 300, koef_transform: 0.67 });
    await post(theirs, "underground", { name: "Замер", project: q.id, ...MEASURED });
  });

  it("pages the year's calculations by period then name, the count the same on every page", async () => {
    const all = await page("year=2025&limit=100");
    expect(all.count).toBe(7);
    expect(all.results).toHaveLength(7);
    const byPeriodAndName = [...all.results].sort(
      (a, b) => a.period.from.localeCompare(b.period.from) || a.name.localeCompare(b.name, "ru"),
    );
    expect(all.results.map((c) => c.id)).toEqual(byPeriodAndName.map((c) => c.id));
    expect(all.results.map((c) => c.name)).toEqual(["Замер", "Факел А", "Факел Д", "Факел резервный", "Факел Б", "Факел В", "Факел Г"]);
    // Each page: at most `limit`, from `offset`, the same count; past the end, empty.
    const pages = [];
    for (let offset = 0; offset < 9; offset += 3) pages.push(await page(`year=2025&limit=3&offset=${offset}`));
    expect(pages.map((p) => p.results.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.count)).toEqual([7, 7, 7]);
    expect(pages.flatMap((p) => p.results)).toEqual(all.results);
    expect(await page("year=2025&offset=7")).toEqual({ results: [], count: 7 });
    // 20 a page unless asked; at most 100.
    expect((await page("year=2025")).results).toHaveLength(7);
    expect((await h.request("/api/v1/inventory/calculations?year=2025&limit=101", { token: ours })).status).toBe(400);
    // The helper reads them all, page by page: what one page of 100 gave.
    expect(await inventoryCalculations(h, ours, 2025)).toEqual(all.results);
    // A row says what the inventory shows of the calculation.
    expect(all.results.find((c) => c.id === measured.id)).toMatchObject({
      name: "Замер",
      type: "underground",
      counted: true,
      facility: mine.id,
      period: { from: "2025-01-01", to: "2025-12-31" },
      gases: expect.arrayContaining([expect.objectContaining({ gas: "CH4" }), expect.objectContaining({ gas: "CO2" })]),
    });
  });

  it("gives a line's counted calculations, as many as the line's count, and the left out ones with counted=false", async () => {
    const inv = await inventory(2025, undefined, ours);
    expect(inv.categories.length).toBeGreaterThan(1);
    for (const line of inv.categories) {
      const key = `${line.category}|${line.ipcc_code}|${line.gas}`;
      const rows = await inventoryCalculations(h, ours, 2025, { line: key, counted: true });
      expect(rows, key).toHaveLength(line.count);
      for (const row of rows) {
        expect(row, key).toMatchObject({ category: line.category, ipcc_code: line.ipcc_code, counted: true });
        expect(
          row.gases.map((g) => g.gas),
          key,
        ).toContain(line.gas);
      }
      // The line's tonnes are its counted calculations' (D12, at the year's GWP), but for the mine's
      // release, from which the CH4 its flares destroyed is netted (D17).
      if (line.ipcc_code === "1.B.1.a.i.1") continue;
      expect(
        rows.reduce((s, r) => s + r.gases.find((g) => g.gas === line.gas)!.t, 0),
        key,
      ).toBeCloseTo(line.t, 6);
    }
    const flares = inv.categories.find((l) => l.count === torches.length)!;
    const line = `${flares.category}|${flares.ipcc_code}|${flares.gas}`;
    expect((await inventoryCalculations(h, ours, 2025, { line, counted: true })).map((c) => c.id).sort()).toEqual(
      torches.map((c) => c.id).sort(),
    );
    // The alternative is of the line, but not counted.
    expect((await inventoryCalculations(h, ours, 2025, { line })).map((c) => c.id)).toContain(alternative.id);
    const left = await page("year=2025&counted=false");
    expect(left.count).toBe(1);
    expect(left.results[0]).toMatchObject({ id: alternative.id, counted: false, inventory_role: "alternative" });
    expect((await page(`year=2025&facility=${mine.id}&counted=true`)).count).toBe(6);
    // The underground measurement is not on the flares' line.
    expect((await inventoryCalculations(h, ours, 2025, { line })).map((c) => c.id)).not.toContain(measured.id);
  });

  it("refuses a line that is not «category|code|gas» with a Russian detail, and another company's facility", async () => {
    for (const line of ["3", "3|1.B.1.a.i.1", "3|1.B.1.a.i.1|N2O", "x|1.B.1.a.i.1|CH4", "3|1 B|CH4"]) {
      const res = await h.request(`/api/v1/inventory/calculations?year=2025&line=${encodeURIComponent(line)}`, { token: ours });
      expect(res.status, line).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, line).toMatch(
        new RegExp(`^${fieldName("line")}: ожидается строка инвентаризации`),
      );
    }
    const bad = await h.request("/api/v1/inventory/calculations?year=2025&counted=yes", { token: ours });
    expect(bad.status).toBe(400);
    expect((await h.request(`/api/v1/inventory/calculations?year=2025&facility=${mine.id}`, { token: theirs })).status).toBe(404);
    expect((await h.request("/api/v1/inventory/calculations?year=20x5", { token: ours })).status).toBe(400);
    expect((await h.request("/api/v1/inventory/calculations?year=2025")).status).toBe(401);
  });

  it("never lists another company's calculations", async () => {
    const ourIds = (await inventoryCalculations(h, ours, 2025)).map((c) => c.id);
    const theirIds = (await inventoryCalculations(h, theirs, 2025)).map((c) => c.id);
    expect(ourIds).not.toContain(foreign.id);
    expect(theirIds).toContain(foreign.id);
    expect(theirIds).toHaveLength(2);
    expect(theirIds.filter((id) => ourIds.includes(id))).toEqual([]);
    for (const line of (await inventory(2025, undefined, ours)).categories) {
      const key = `${line.category}|${line.ipcc_code}|${line.gas}`;
      const theirsOfLine = await inventoryCalculations(h, theirs, 2025, { line: key });
      expect(
        theirsOfLine.map((c) => c.id).filter((id) => ourIds.includes(id)),
        key,
      ).toEqual([]);
    }
  });
});

describe("review and sign-off", () => {
  type Review = {
    status: string;
    version: number;
    snapshot?: { version: number; sha256: string };
    history: Array<{ action: string; by: string; reason?: string }>;
    rework_deadline?: string;
    comments: Array<{ text: string; target: string | null }>;
  };
  let reviewer: string;
  let admin: string;
  let staff: string;
  let companyId: string;

  const member = async (role: "reviewer" | "admin") => {
    const email = `${role}-${Date.now()}@example.com`;
    await createUser(h.deps, { companyId, email, password: `${role}-password`, role });
    const res = await signIn(h, email, `${role}-password`);
    return ((await res.json()) as { access: string }).access;
  };

  beforeAll(async () => {
    const user = await h.signedInUser("ООО Проверка");
    staff = user.token;
    companyId = user.companyId;
    reviewer = await member("reviewer");
    admin = await member("admin");
  });

  const act = (as: string, body: Record<string, unknown>, year = 2024) =>
    h.request(`/api/v1/inventory/${year}/review/`, { method: "POST", token: as, json: body });

  it("moves draft → in review → approved, freezes the year's calculations, and reopens with a reason", async () => {
    const p = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: staff,
        json: { name: "Год 2024", start_date: "2024-01-01", end_date: "2024-12-31" },
      }),
      201,
    );
    const torch = await json<CalculationView>(
      await h.request("/api/v1/torch_ch4/", {
        method: "POST",
        token: staff,
        json: { name: "Факел", project: p.id, volume: 700, koef_transform: 0.67 },
      }),
      201,
    );

    // Staff cannot approve; nothing skips review.
    expect((await act(staff, { action: "approve", version: 0 })).status).toBe(403);
    const skip = await act(reviewer, { action: "approve", version: 0 });
    expect(skip.status).toBe(409);
    expect(((await skip.json()) as { detail: string }).detail).toMatch(/Черновик/);

    // No error check (D19: one would block sending, domain/inventory/send.test.ts): sending goes through.
    expect((await inventory(2024, undefined, staff)).checks.filter((c) => c.level === "error")).toEqual([]);
    let review = await json<Review>(await act(staff, { action: "send_to_review", version: 0 }), 200);
    expect(review.status).toBe("in_review");
    // A stale version is refused.
    expect((await act(reviewer, { action: "approve", version: 0 })).status).toBe(409);
    review = await json<Review>(await act(reviewer, { action: "approve", version: review.version }), 200);
    expect(review).toMatchObject({ status: "approved", snapshot: { version: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });

    const edit = await h.request(`/api/v1/torch_ch4/${torch.id}/`, {
      method: "PATCH",
      token: staff,
      json: { volume: 800, version: torch.version },
    });
    expect(edit.status).toBe(409);
    expect(((await edit.json()) as { detail: string }).detail).toMatch(/Инвентаризация 2024 года утверждена/);

    // D20: nor can a calculation be added to the approved year.
    const late = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Поздний факел", project: p.id, volume: 10, koef_transform: 0.67 },
    });
    expect(late.status).toBe(409);
    const inv = await json<Inventory & { review: Review }>(await h.request("/api/v1/inventory/?year=2024", { token: staff }), 200);
    expect(inv.review.status).toBe("approved");
    expect(inv.checks.map((c) => c.code)).not.toContain("changed_after_approval");

    expect((await act(reviewer, { action: "reopen", version: review.version })).status).toBe(400);
    review = await json<Review>(await act(reviewer, { action: "reopen", reason: "Уточнить объем", version: review.version }), 200);
    // The approved version stays listed; the next approval will say what changed against it.
    expect(review).toMatchObject({ status: "draft", snapshot: { version: 1 } });
    expect(review.history.map((e) => e.action)).toEqual(["send_to_review", "approve", "reopen"]);
    expect(review.history[2]).toMatchObject({ reason: "Уточнить объем" });
    expect(
      (await h.request(`/api/v1/torch_ch4/${torch.id}/`, { method: "PATCH", token: staff, json: { volume: 800, version: torch.version } }))
        .status,
    ).toBe(200);
  });

  it("refuses illegal transitions, and sets the rework deadline 20 working days after the notice", async () => {
    let review = await json<Review>(await act(staff, { action: "send_to_review", version: 0 }, 2023), 200);
    review = await json<Review>(await act(reviewer, { action: "approve", version: review.version }, 2023), 200);
    expect((await act(reviewer, { action: "accept", version: review.version }, 2023)).status).toBe(409);
    // «Отчет направлен» takes its date: of the year or later, not in the future.
    const far = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (const date of [far, "2022-12-31", "15.03.2024"]) {
      const res = await act(reviewer, { action: "submit", date, version: review.version }, 2023);
      expect(res.status, date).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Дата: /);
    }
    review = await json<Review>(await act(reviewer, { action: "submit", date: "2024-03-15", version: review.version }, 2023), 200);
    // The history reads like a register: the date, the person's role (and name when the user has one).
    expect(review.history.at(-1)).toMatchObject({ action: "submit", date: "2024-03-15", by_role: "reviewer" });
    // The notice of refusal takes a reason and a real date of 2023 or later, not in the future.
    const refuse = (body: Record<string, unknown>) => act(reviewer, { action: "refuse", version: review.version, ...body }, 2023);
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await refuse(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName(field)}: `));
    };
    await refused({ notice_date: "2024-04-20" }, "reason");
    await refused({ reason: "   ", notice_date: "2024-04-20" }, "reason");
    await refused({ reason: "Замечания Росприроднадзора" }, "notice_date");
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const notice_date of ["2026-02-31", "0000-01-01", "9999-12-31", "2022-12-31", tomorrow, "20.04.2024", "2024-4-20"]) {
      await refused({ reason: "Замечания Росприроднадзора", notice_date }, "notice_date");
    }
    review = await json<Review>(await refuse({ reason: "Замечания Росприроднадзора", notice_date: "2024-04-20" }), 200);
    // Over the May holidays of 2024 (production calendar).
    expect(review).toMatchObject({ status: "refused", rework_deadline: "2024-05-23" });
    expect(review.history.at(-1)).toMatchObject({ action: "refuse", reason: "Замечания Росприроднадзора" });
    expect((await act(staff, { action: "rework_done", version: review.version }, 2023)).status).toBe(403);
    review = await json<Review>(await act(reviewer, { action: "rework_done", version: review.version }, 2023), 200);
    review = await json<Review>(await act(admin, { action: "submit", version: review.version }, 2023), 200);
    review = await json<Review>(await act(admin, { action: "accept", version: review.version }, 2023), 200);
    expect(review.status).toBe("accepted");
    expect((await act(staff, { action: "send_to_review", version: review.version }, 2023)).status).toBe(409);
    const bad = await act(staff, { action: "publish", version: review.version }, 2023);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("action")}: `));
  });

  it("lets staff only send to review: they can neither sign off nor unfreeze a year alone", async () => {
    let review = await json<Review>(await act(staff, { action: "send_to_review", version: 0 }, 2021), 200);
    for (const action of ["approve", "return_to_draft"]) {
      const res = await act(staff, { action, reason: "Сам", version: review.version }, 2021);
      expect(res.status, action).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/проверяющий или администратор/);
    }
    review = await json<Review>(await act(reviewer, { action: "approve", version: review.version }, 2021), 200);
    expect(review.status).toBe("approved");
    // The attack of the security review: «Отчет направлен», then «возвращен» without a reason.
    for (const body of [
      { action: "submit" },
      { action: "reopen", reason: "Сам" },
      { action: "accept" },
      { action: "refuse", reason: "Сам", notice_date: "2022-04-01" },
    ]) {
      expect((await act(staff, { ...body, version: review.version }, 2021)).status, body.action).toBe(403);
    }
    review = await json<Review>(await act(reviewer, { action: "submit", version: review.version }, 2021), 200);
    expect((await act(staff, { action: "refuse", notice_date: "2022-04-01", version: review.version }, 2021)).status).toBe(403);
    expect((await act(staff, { action: "accept", version: review.version }, 2021)).status).toBe(403);
    expect((await act(reviewer, { action: "refuse", notice_date: "2022-04-01", version: review.version }, 2021)).status).toBe(400);
    const inv = await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2021", { token: staff }), 200);
    expect(inv.review).toMatchObject({ status: "submitted", version: review.version });
  });

  it("never lets the person who sent a version approve, return or reopen it; an admin may be the second person", async () => {
    let review = await json<Review>(await act(reviewer, { action: "send_to_review", version: 0 }, 2020), 200);
    for (const action of ["approve", "return_to_draft"]) {
      const res = await act(reviewer, { action, reason: "Сам себе", version: review.version }, 2020);
      expect(res.status, action).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/вы сами отправили эту версию на проверку/);
    }
    review = await json<Review>(await act(admin, { action: "approve", version: review.version }, 2020), 200);
    expect(review).toMatchObject({ status: "approved" });
    expect((await act(reviewer, { action: "reopen", reason: "Сам себе", version: review.version }, 2020)).status).toBe(403);
    expect((await act(admin, { action: "reopen", version: review.version }, 2020)).status).toBe(400);
    review = await json<Review>(await act(admin, { action: "reopen", reason: "Уточнить", version: review.version }, 2020), 200);
    // The admin who sends is held to the same rule; the reviewer now is the second person.
    review = await json<Review>(await act(admin, { action: "send_to_review", version: review.version }, 2020), 200);
    expect((await act(admin, { action: "approve", version: review.version }, 2020)).status).toBe(403);
    review = await json<Review>(await act(reviewer, { action: "approve", version: review.version }, 2020), 200);
    expect(review.history.map((e) => e.action)).toEqual(["send_to_review", "approve", "reopen", "send_to_review", "approve"]);
  });

  type Comment = { id: string; target: string | null; text: string; by: string };
  const comment = (as: string, year: number, body: Record<string, unknown>) =>
    h.request(`/api/v1/inventory/${year}/comments/`, { method: "POST", token: as, json: body });
  const comments = (as: string, year: number, query = "") =>
    h
      .request(`/api/v1/inventory/${year}/comments/${query}`, { token: as })
      .then((res) => json<{ results: Comment[]; count: number }>(res, 200));
  const remove = (as: string, year: number, id: string) =>
    h.request(`/api/v1/inventory/${year}/comments/${id}/`, { method: "DELETE", token: as });

  it("keeps comments on the year or one of its lines as items of their own, paged, and each company's apart", async () => {
    const made = await json<Comment>(await comment(staff, 2022, { target: "3|1.B.1.a.i.1|CH4", text: "Сверить с отчетом 2021 года" }), 201);
    expect(made).toMatchObject({ target: "3|1.B.1.a.i.1|CH4", text: "Сверить с отчетом 2021 года", year: 2022 });
    await json(await comment(reviewer, 2022, { text: "Принято" }), 201);
    const listed = await comments(staff, 2022);
    expect(listed.count).toBe(2);
    expect(listed.results.map((c) => c.text)).toEqual(["Принято", "Сверить с отчетом 2021 года"]);
    expect((await comments(staff, 2022, "?limit=1&offset=1")).results.map((c) => c.text)).toEqual(["Сверить с отчетом 2021 года"]);
    // A comment never moves the review's version.
    const inv = await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2022", { token: staff }), 200);
    expect(inv.review.version).toBe(0);
    // Beyond 2 000 characters, or empty: 400.
    for (const text of ["я".repeat(2001), "   "]) {
      const res = await comment(staff, 2022, { text });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("text")}: `));
    }
    expect(await comments(other, 2022)).toEqual({ results: [], count: 0 });
    // Another company's comment: 404 as a missing one, and still there.
    expect((await remove(other, 2022, made.id)).status).toBe(404);
    expect((await remove(staff, 2022, "01a2088d-07c9-77c8-9384-deab4851f754")).status).toBe(404);
    // An id longer than any id is refused as bad input, naming the bound (docs/security.md).
    expect((await remove(staff, 2022, "x".repeat(3000))).status).toBe(400);
    expect((await comments(staff, 2022)).count).toBe(2);
  });

  it("lets a comment be deleted by its author and by a reviewer or admin, nobody else", async () => {
    const theirs = await json<Comment>(await comment(reviewer, 2019, { text: "Замечание проверяющего" }), 201);
    const mine = await json<Comment>(await comment(staff, 2019, { text: "Мой ответ" }), 201);
    const another = await json<Comment>(await comment(staff, 2019, { text: "Еще ответ" }), 201);
    const refused = await remove(staff, 2019, theirs.id);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/автор, проверяющий или администратор/);
    expect((await remove(staff, 2019, mine.id)).status).toBe(200);
    expect((await remove(staff, 2019, mine.id)).status).toBe(404);
    expect((await remove(admin, 2019, another.id)).status).toBe(200);
    expect((await remove(reviewer, 2019, theirs.id)).status).toBe(200);
    expect(await comments(staff, 2019)).toEqual({ results: [], count: 0 });
  });

  it("shows and deletes comments stored inside the year's review before they were items", async () => {
    const now = new Date().toISOString();
    const old = [
      { id: "01a2088d-07c9-77c8-9384-000000000001", target: null, text: "Старый 1", by: "reviewer@example.com", at: now },
      { id: "01a2088d-07c9-77c8-9384-000000000002", target: null, text: "Старый 2", by: "staff@example.com", at: now },
    ];
    await h.deps.repos.inventoryReviews.put(
      { company: companyId, year: 2018, status: "draft", history: [], comments: old, updated_at: now, version: 1 },
      0,
    );
    await json(await comment(staff, 2018, { text: "Новый" }), 201);
    expect((await comments(staff, 2018)).results.map((c) => c.text)).toEqual(["Новый", "Старый 2", "Старый 1"]);
    expect((await comments(staff, 2018, "?limit=2&offset=1")).results.map((c) => c.text)).toEqual(["Старый 2", "Старый 1"]);
    expect((await remove(staff, 2018, old[0].id)).status).toBe(403);
    expect((await remove(reviewer, 2018, old[0].id)).status).toBe(200);
    expect((await comments(staff, 2018)).results.map((c) => c.text)).toEqual(["Новый", "Старый 2"]);
  });

  it("cannot be jammed by comments: 120 of 2 000 characters, then the year is still approved", async () => {
    const text = "Ж".repeat(2000);
    for (let i = 0; i < 120; i += 12) {
      await Promise.all(Array.from({ length: 12 }, () => comment(staff, 2017, { text }).then((res) => expect(res.status).toBe(201))));
    }
    expect((await comments(reviewer, 2017, "?limit=100")).results).toHaveLength(100);
    expect((await comments(reviewer, 2017)).count).toBe(120);
    let review = await json<Review>(await act(staff, { action: "send_to_review", version: 0 }, 2017), 200);
    review = await json<Review>(
      await act(reviewer, { action: "return_to_draft", reason: "Дополнить", version: review.version }, 2017),
      200,
    );
    review = await json<Review>(await act(staff, { action: "send_to_review", version: review.version }, 2017), 200);
    review = await json<Review>(await act(reviewer, { action: "approve", version: review.version }, 2017), 200);
    expect(review.status).toBe("approved");
  }, 60_000);
});
