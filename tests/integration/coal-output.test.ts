// a facility's coal output, typed once for the year (PUT v1/inventory/{year}/coal_output/),
// is what its production calculations take: a change carries it to the chosen ones through their own
// edit, the figure freezes with the year and another company never reaches it, on dynalite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let staff: string;
let reviewer: string;
let other: string;
let mine: { id: string };
let stranger: { id: string };
const ids: Record<string, string> = {};

type Review = { version: number; status: string; coal_output?: Array<{ facility: string; t: number }> };
type Output = {
  t: number | null;
  calculations: Array<{ id: string; type: string; name: string; volume_t: number; inventory_role: string }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const put = (body: Record<string, unknown>, token = staff) =>
  h.request("/api/v1/inventory/2025/coal_output/", { method: "PUT", token, json: body });
const output = async (token = staff, facility = mine.id) =>
  json<Output>(await h.request(`/api/v1/inventory/2025/coal_output/?facility=${facility}`, { token }), 200);
const review = async () => (await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2025", { token: staff }), 200)).review;
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) =>
  json<Review>(
    await h.request("/api/v1/inventory/2025/review/", {
      method: "POST",
      token,
      json: { action, version: (await review()).version, ...extra },
    }),
    200,
  );
const calculation = async (type: string, id: string) =>
  json<{ volume: number; res_ch4: number; entered?: Record<string, { value: number; unit: string }> }>(
    await h.request(`/api/v1/${type}/${id}/`, { token: staff }),
    200,
  );

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Шахта Северная»");
  staff = a.token;
  other = (await h.signedInUser("ООО Чужая")).token;
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@mine.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@mine.example", "reviewer-password")).json()) as { access: string }).access;
  const facility = async (name: string, kind: string, token = staff) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201);
  mine = await facility("Шахта «Северная»", "underground_mine");
  stranger = await facility("Чужая шахта", "underground_mine", other);
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Северная 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
    }),
    201,
  );
  const create = async (type: string, body: Record<string, unknown>) =>
    (
      await json<{ id: string }>(
        await h.request(`/api/v1/${type}/`, { method: "POST", token: staff, json: { project: project.id, ...body } }),
        201,
      )
    ).id;
  ids.handling = await create("handling_underground_ch4", {
    name: "Обработка угля",
    volume: 3_100_000,
    entered: { volume: { value: 3100, unit: "тыс. т" } },
    dictionary_items: { get_handling_underground_ch4: 1 },
  });
  ids.tier1 = await create("underground_emission_ch4", {
    name: "Уровень 1: сверка",
    volume: 3_100_000,
    inventory_role: "alternative",
    dictionary_items: { get_underground_emission_ch4: 1 },
  });
  ids.other = await create("underground_emission_ch4", {
    name: "Другая добыча",
    volume: 500,
    inventory_role: "alternative",
    dictionary_items: { get_underground_emission_ch4: 1 },
  });
});
afterAll(() => h.close());

describe("a facility's coal output in the year", () => {
  it("lists the facility-year's production calculations and is refused when wrong, another company's or stale", async () => {
    const first = await output();
    expect(first.t).toBeNull();
    expect(first.calculations.map((c) => [c.name, c.type, c.volume_t, c.inventory_role])).toEqual([
      ["Другая добыча", "underground_emission_ch4", 500, "alternative"],
      ["Обработка угля", "handling_underground_ch4", 3_100_000, "primary"],
      ["Уровень 1: сверка", "underground_emission_ch4", 3_100_000, "alternative"],
    ]);
    const { version } = await review();
    expect((await json<{ detail: string }>(await put({ facility: mine.id, t: -1, version }), 400)).detail).toMatch(
      new RegExp(`^${fieldName("t")}: `),
    );
    expect((await json<{ detail: string }>(await put({ facility: stranger.id, t: 1, version }), 404)).detail).toBe("Площадка не найдена");
    expect((await h.request(`/api/v1/inventory/2025/coal_output/?facility=${mine.id}`, { token: other })).status).toBe(404);
    expect((await put({ facility: mine.id, t: 1, version: version + 5 })).status).toBe(409);
    const foreign = await json<{ detail: string }>(await put({ facility: mine.id, t: 1, version, follow: ["nope"] }), 400);
    expect(foreign.detail).toMatch(new RegExp(`^${fieldName("follow")}: `));
    expect((await review()).coal_output ?? []).toEqual([]);
  });

  it("is typed once and carried to the calculations chosen, each recomputed as its own edit would", async () => {
    const before = await calculation("handling_underground_ch4", ids.handling);
    const saved = await json<{ review: Review; updated: string[] }>(
      await put({ facility: mine.id, t: 3_100_000, version: (await review()).version }),
      200,
    );
    expect(saved.review.coal_output).toEqual([{ facility: mine.id, t: 3_100_000 }]);
    expect(saved.updated).toEqual([]);
    expect((await output()).t).toBe(3_100_000);
    // Another company reads none of it.
    expect(
      (await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2025", { token: other }), 200)).review.coal_output ?? [],
    ).toEqual([]);

    // The year's output changes: the two calculations that had the old figure follow, the third keeps its own.
    const changed = await json<{ review: Review; updated: string[] }>(
      await put({ facility: mine.id, t: 3_200_000, version: (await review()).version, follow: [ids.handling, ids.tier1] }),
      200,
    );
    expect(changed.updated.sort()).toEqual([ids.handling, ids.tier1].sort());
    const handling = await calculation("handling_underground_ch4", ids.handling);
    expect(handling.volume).toBe(3_200_000);
    // Typed in thousand t, it stays in thousand t.
    expect(handling.entered?.volume).toEqual({ value: 3200, unit: "тыс. т" });
    expect(handling.res_ch4).toBeCloseTo((before.res_ch4 * 3_200_000) / 3_100_000, 6);
    expect((await calculation("underground_emission_ch4", ids.tier1)).volume).toBe(3_200_000);
    expect((await calculation("underground_emission_ch4", ids.other)).volume).toBe(500);
    expect((await output()).calculations.find((c) => c.id === ids.tier1)?.volume_t).toBe(3_200_000);
  });

  it("freezes with the year: an approved year refuses the figure and its calculations keep theirs", async () => {
    await act(staff, "send_to_review");
    await act(reviewer, "approve");
    const frozen = await json<{ detail: string }>(
      await put({ facility: mine.id, t: 1, version: (await review()).version, follow: [ids.handling] }),
      409,
    );
    expect(frozen.detail).toMatch(/Инвентаризация 2025 года утверждена.*добычу угля изменить нельзя/);
    expect((await calculation("handling_underground_ch4", ids.handling)).volume).toBe(3_200_000);
    expect((await output()).t).toBe(3_200_000);
  });
});
