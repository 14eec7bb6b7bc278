// Methodology D107: a value typed into a calculation as «Фактическое значение» with its justification is
// kept as the company's own factor (POST v1/company/factors/), listed by calculation type and input, and
// another company never sees it. A calculation that takes the entry records the identical typed value,
// so it is one shared source with the calculation it was kept from: the year's uncertainty names one
// group of both, whatever month each books.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

const year = new Date().getUTCFullYear() - 1;
const WHY = "Газоносность пласта по пластовым испытаниям 2024 г., протокол № 5";
const OTHER_WHY = "Газоносность по данным геологоразведки 2019 г.";
const BODY = {
  type: "underground_emission_ch4",
  field: "ef",
  value: 19.85,
  uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" },
  justification: WHY,
};

interface OwnFactor {
  id: string;
  type: string;
  type_label: string;
  field: string;
  field_label: string;
  value: number;
  unit: string;
  uncertainty: { lower_pct: number; upper_pct: number; distribution: string };
  justification: string;
  created_at: string;
  created_by: string;
}

let h: Harness;
let a: { token: string; email: string };
let b: { token: string };
let mine: string;
let project: string;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = a.token) => h.request(`/api/v1/${path}`, { method: "POST", token, json: body });
const list = (token: string, query = "") =>
  h.request(`/api/v1/company/factors/${query}`, { token }).then((res) => json<{ results: OwnFactor[]; count: number }>(res));

/** An estimate of one month at the mine's own gas content: typed, or taken from a kept entry as the form does. */
const estimate = (month: number, ef: { value: number; uncertainty: object; justification: string }) =>
  post("underground_emission_ch4/", {
    name: `Оценка, ${String(month).padStart(2, "0")}.${year}`,
    project,
    volume: 100_000,
    ef: ef.value,
    dictionary_items: { get_underground_emission_ch4: null },
    justifications: { ef: ef.justification },
    uncertainty: { ef: ef.uncertainty },
    period: { from: `${year}-${String(month).padStart(2, "0")}-01`, to: `${year}-${String(month).padStart(2, "0")}-28` },
  });

beforeAll(async () => {
  h = await createHarness();
  a = await h.signedInUser("ООО «Своя газоносность»");
  b = await h.signedInUser("ООО «Соседняя шахта»");
  mine = (await json<{ id: string }>(await post("facilities/", { name: "Южная", kind: "underground_mine" }), 201)).id;
  project = (
    await json<{ id: string }>(
      await post("projects/create_project/", { name: "Южная", start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: mine }),
      201,
    )
  ).id;
}, 120_000);
afterAll(() => h.close());

describe("a company's own factor (D107)", () => {
  let kept: OwnFactor;

  it("keeps a typed value with its unit, uncertainty, justification, who and when", async () => {
    const typed = await json<{ coefficients: Record<string, { value: number; unit: string; source: string }> }>(
      await estimate(1, BODY),
      201,
    );
    expect(typed.coefficients.ef).toMatchObject({ value: 19.85, source: "custom" });
    kept = await json<OwnFactor>(await post("company/factors/", { ...BODY, unit: typed.coefficients.ef.unit }), 201);
    expect(kept).toMatchObject({
      type: "underground_emission_ch4",
      field: "ef",
      field_label: expect.stringMatching(/коэффициент/i),
      value: 19.85,
      unit: typed.coefficients.ef.unit,
      uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" },
      justification: WHY,
      created_by: a.email,
    });
    expect(Date.now() - Date.parse(kept.created_at)).toBeLessThan(60_000);
  });

  it("lists the company's entries, of one type and input when asked", async () => {
    const all = await list(a.token);
    expect(all).toEqual({ results: [kept], count: 1 });
    expect((await list(a.token, "?type=underground_emission_ch4&field=ef")).count).toBe(1);
    expect((await list(a.token, "?type=underground_emission_ch4&field=volume")).count).toBe(0);
    expect((await list(a.token, "?type=open_mining_ch4")).count).toBe(0);
  });

  it("is the company's own: another company lists none of it, and its entries are not the first's", async () => {
    expect(await list(b.token)).toEqual({ results: [], count: 0 });
    const theirs = await json<OwnFactor>(await post("company/factors/", { ...BODY, justification: OTHER_WHY }, b.token), 201);
    expect((await list(b.token)).results.map((f) => f.id)).toEqual([theirs.id]);
    expect((await list(a.token)).results.map((f) => f.id)).toEqual([kept.id]);
    // The same entry in another company is that company's own, not a conflict with the first's.
    await json(await post("company/factors/", BODY, b.token), 201);
  });

  it("refuses the same entry kept again (409): it is that entry", async () => {
    const res = await post("company/factors/", BODY);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ detail: expect.stringContaining("уже сохранен") });
    expect((await list(a.token)).count).toBe(1);
  });

  it.each([
    ["an unknown calculation type", { type: "no_such_type" }, "Тип"],
    ["an input no dictionary fills", { field: "volume" }, "Поле"],
    ["no justification", { justification: "   " }, "Обоснование"],
    ["another unit", { unit: "м³/мин" }, "Единица"],
    ["no stated uncertainty", { uncertainty: { lower_pct: 0, upper_pct: 0, distribution: "normal" } }, "Неопределенность"],
    ["a negative value", { value: -1 }, "Значение"],
    ["a value as text", { value: "19,85" }, "Значение"],
    ["an unknown distribution", { uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "cauchy" } }, "Распределение"],
  ])("answers 400 {detail} naming the field for %s", async (_what, change, named) => {
    const res = await post("company/factors/", { ...BODY, justification: `${WHY} (${_what})`, ...change });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { detail: string };
    expect(body.detail).toEqual(expect.stringContaining(named));
    expect((await list(a.token)).count).toBe(1);
  });

  it("answers 400 {detail} for a filter that is no id", async () => {
    const res = await h.request(`/api/v1/company/factors/?type=${"x".repeat(300)}`, { token: a.token });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: expect.any(String) });
  });

  it("a calculation that takes the entry is one source with the one it was kept from (D107)", async () => {
    // February takes the kept entry, as the form fills it; March types another justification.
    await json(await estimate(2, kept), 201);
    await json(await estimate(3, { ...BODY, justification: OTHER_WHY }), 201);
    const answer = await json<{
      lines: Array<{ id: string; ef_u: number; shared_sources: Array<{ kind: string; label: string; count: number; u_pct: number }> }>;
    }>(await h.request(`/api/v1/inventory/uncertainty/?year=${year}&facility=${mine}`, { token: a.token }));
    const mining = answer.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    const group = mining.shared_sources.find((g) => g.label.includes(WHY))!;
    expect(group).toMatchObject({ kind: "factor", count: 2 });
    expect(group.u_pct).toBeCloseTo(10, 9);
    // The other justification is its calculation's own: no group of one is named.
    expect(mining.shared_sources.some((g) => g.label.includes(OTHER_WHY))).toBe(false);
    // By the test's arithmetic: x = 100 000 × 19,85 × 0,67 / 1000 t a month; the kept pair's ±10 % adds
    // linearly, March's stays apart: F = √((0,1·2x)² + (0,1·x)²) / 3x.
    const x = (100_000 * 19.85 * 0.67) / 1000;
    expect(mining.ef_u).toBeCloseTo((100 * Math.hypot(0.1 * 2 * x, 0.1 * x)) / (3 * x), 6);
  });
});
