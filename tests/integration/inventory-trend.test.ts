// The company's years side by side (GET v1/inventory/trend/): each year's figures are that year's own
// inventory answer (an approved year its approved version's), with the coal mined from the mining
// lines, the intensity per tonne and the change against the year before, on dynalite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { xlsToCsv } from "../support/libreoffice";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let staff: string;
let reviewer: string;
let other: string;
let mine: { id: string };
let pit: { id: string };
let stranger: { id: string };

type Inventory = {
  total_t_co2e: number;
  categories: Array<{ category: number; ipcc_code: string; gas: string; t: number; t_co2e: number; count: number }>;
  facilities: Array<{ id: string | null; name: string; t_co2e: number }>;
  review: { version: number; status: string };
  approved?: { version: number };
};
type TrendYear = {
  year: number;
  draft: boolean;
  approved_version: number | null;
  total_t_co2e: number;
  lines: Array<{ category: number; ipcc_code: string; gas: string; t: number; t_co2e: number }>;
  categories: Array<{ category: number; t_co2e: number }>;
  facilities: Array<{ id: string | null; name: string; t_co2e: number; underground_t?: number; open_pit_t?: number; intensity?: number }>;
  coal: { underground_t?: number; open_pit_t?: number; total_t?: number };
  intensity?: { total?: number; underground?: number; open_pit?: number };
  change?: { from_year: number; t_co2e: number; pct?: number };
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const get = <T>(path: string, token = staff, status = 200) => h.request(path, { token }).then((res) => json<T>(res, status));
const trend = (query: string, token = staff) => get<{ years: TrendYear[] }>(`/api/v1/inventory/trend/?${query}`, token);
const inventory = (year: number, facility?: string) =>
  get<Inventory>(`/api/v1/inventory/?year=${year}${facility ? `&facility=${facility}` : ""}`);

async function mined(year: number, facility: string, type: string, volume: number, dictionary: string) {
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: `Добыча ${year} ${type}`, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility },
    }),
    201,
  );
  await json(
    await h.request(`/api/v1/${type}/`, {
      method: "POST",
      token: staff,
      json: { name: "Добыча", project: project.id, volume, dictionary_items: { [dictionary]: 1 } },
    }),
    201,
  );
}

const act = async (token: string, year: number, action: string) =>
  json(
    await h.request(`/api/v1/inventory/${year}/review/`, {
      method: "POST",
      token,
      json: { action, version: (await inventory(year)).review.version },
    }),
    200,
  );

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Угольные годы»");
  staff = a.token;
  const b = await h.signedInUser("ООО Чужая");
  other = b.token;
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@years.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@years.example", "reviewer-password")).json()) as { access: string }).access;
  const facility = async (name: string, kind: string, token = staff) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201);
  mine = await facility("Шахта «Северная»", "underground_mine");
  pit = await facility("Разрез «Южный»", "open_pit");
  stranger = await facility("Чужая шахта", "underground_mine", other);
  await mined(2023, mine.id, "underground_emission_ch4", 1_000_000, "get_underground_emission_ch4");
  await mined(2024, mine.id, "underground_emission_ch4", 1_200_000, "get_underground_emission_ch4");
  await mined(2025, mine.id, "underground_emission_ch4", 2_400_000, "get_underground_emission_ch4");
  await mined(2025, pit.id, "open_mining_ch4", 3_000_000, "get_open_mining_ch4");
  // 2024 stands approved: its figures are its approved version's.
  await act(staff, 2024, "send_to_review");
  await act(reviewer, 2024, "approve");
});
afterAll(() => h.close());

const linesOf = (answer: Inventory) => answer.categories.map(({ count: _count, ...line }) => line);

describe("the company's years side by side", () => {
  it("gives each year the figures of that year's own inventory, drafts marked", async () => {
    const { years } = await trend("from=2020&to=2026");
    expect(years.map((y) => [y.year, y.draft, y.approved_version])).toEqual([
      [2023, true, null],
      [2024, false, 1],
      [2025, true, null],
    ]);
    for (const year of years) {
      const own = await inventory(year.year);
      expect(year.total_t_co2e).toBe(own.total_t_co2e);
      expect(year.lines).toEqual(linesOf(own));
      expect(year.facilities.map(({ id, name, t_co2e }) => ({ id, name, t_co2e }))).toEqual(own.facilities);
      const byCategory = year.categories.reduce((sum, c) => sum + c.t_co2e, 0);
      expect(byCategory).toBeCloseTo(own.total_t_co2e, 6);
    }
    expect(years[1].approved_version).toBe((await inventory(2024)).approved?.version);
  });

  it("divides by the coal the mining lines mined, underground and open pit apart", async () => {
    const { years } = await trend("from=2023&to=2025");
    expect(years[0].coal).toEqual({ underground_t: 1_000_000, total_t: 1_000_000 });
    expect(years[0].intensity?.total).toBeCloseTo(years[0].total_t_co2e / 1_000_000, 12);
    const y2025 = years[2];
    expect(y2025.coal).toEqual({ underground_t: 2_400_000, open_pit_t: 3_000_000, total_t: 5_400_000 });
    const [ownMine, ownPit] = [mine.id, pit.id].map((id) => y2025.facilities.find((f) => f.id === id)!);
    expect(ownMine.underground_t).toBe(2_400_000);
    expect(ownPit.open_pit_t).toBe(3_000_000);
    expect(ownPit.intensity).toBeCloseTo(ownPit.t_co2e / 3_000_000, 12);
    expect(y2025.intensity?.underground).toBeCloseTo(ownMine.t_co2e / 2_400_000, 12);
    expect(y2025.intensity?.open_pit).toBeCloseTo(ownPit.t_co2e / 3_000_000, 12);
    expect(y2025.intensity?.total).toBeCloseTo(y2025.total_t_co2e / 5_400_000, 12);
  });

  it("says the change against the year before", async () => {
    const { years } = await trend("from=2023&to=2025");
    expect(years[0].change).toBeUndefined();
    expect(years[1].change?.from_year).toBe(2023);
    expect(years[1].change?.t_co2e).toBeCloseTo(years[1].total_t_co2e - years[0].total_t_co2e, 6);
    // The same coefficient on 1.2 times the coal: +20 %.
    expect(years[1].change?.pct).toBeCloseTo(20, 6);
  });

  it("keeps to one facility when asked, that facility's inventory", async () => {
    const { years } = await trend(`from=2025&to=2025&facility=${pit.id}`);
    const own = await inventory(2025, pit.id);
    expect(years).toHaveLength(1);
    expect(years[0].total_t_co2e).toBe(own.total_t_co2e);
    expect(years[0].coal).toEqual({ open_pit_t: 3_000_000, total_t: 3_000_000 });
  });

  it("refuses a range past its bound, a reversed or malformed one, and another company's facility", async () => {
    const detail = async (query: string, status = 400) =>
      (await json<{ detail: string }>(await h.request(`/api/v1/inventory/trend/?${query}`, { token: staff }), status)).detail;
    expect(await detail("from=1990&to=2025")).toBe("Конец периода: не более 30 лет в одном запросе");
    expect(await detail("from=2025&to=2023")).toBe("Начало периода: начальный год позже конечного");
    expect(await detail("from=20x4&to=2025")).toMatch(/^Начало периода: укажите начальный год от \d{4} до \d{4}$/);
    expect(await detail("from=2023")).toMatch(/^Конец периода: /);
    expect(await detail(`from=2023&to=2025&facility=${stranger.id}`, 404)).toBe("Площадка не найдена");
    expect(await detail(`from=2000&to=2001&facility=${stranger.id}`, 404)).toBe("Площадка не найдена");
  });

  it("shows another company none of these years", async () => {
    expect((await trend("from=2020&to=2026", other)).years).toEqual([]);
  });

  it("exports the table as xlsx that LibreOffice reads with the Russian formats", async () => {
    const res = await h.request("/api/v1/inventory/trend/export/?from=2023&to=2025&view=comparable", { token: staff });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const { years } = await trend("from=2023&to=2025");
    const sheet = xlsToCsv(new Uint8Array(await res.arrayBuffer())).get("Динамика")!;
    const rows = sheet.trim().split("\n");
    expect(rows[0]).toMatch(/^"?Динамика выбросов 2023–2025, в сопоставимых условиях/);
    expect(rows[1]).toContain("Выбросы, т CO2-экв.");
    // The total as LibreOffice shows it: grouped, two decimals. The format is the locale-free
    // «#,##0.00», which a Russian spreadsheet shows as «783 900,00» (this converter's locale is en-US).
    const comparable = (years.find((y) => y.year === 2025) as unknown as { comparable: { total_t_co2e: number } }).comparable;
    const shown = comparable.total_t_co2e.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const row2025 = rows.find((r) => r.startsWith("2025"))!;
    expect(row2025).toContain(`"${shown}"`);
    expect(row2025).toContain("черновик");
    const refused = await h.request("/api/v1/inventory/trend/export/?from=2023&to=2025&view=x", { token: staff });
    expect(await json<{ detail: string }>(refused, 400)).toEqual({
      detail: `${fieldName("view")}: ожидается reported или comparable`,
      errors: [{ field: "view", code: "invalid", message: "ожидается reported или comparable", params: {} }],
    });
  });
});
