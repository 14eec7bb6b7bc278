import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import { vectors } from "@core/methodology-vectors";
import { changeCoefficient } from "@server/domain/reference/dictionaries";
import type { Project } from "@server/contract/schemas/project";
import type { CalculationView } from "@server/contract";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  // A table of its own: a coefficient of the whole platform changes.
  ({ h, user, project } = await openProjectFixture(undefined, {}, { freshTable: true }));
});
afterAll(() => h.close());

const newProject = (token: string) => h.newProject(token);

function post(type: string, body: Record<string, unknown>, token = user.token, projectId = project.id) {
  return h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name: `Расчет ${type}`, project: projectId, ...body } });
}

async function created(type: string, body: Record<string, unknown>): Promise<CalculationView> {
  const res = await post(type, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
}

async function count(type: string, projectId = project.id, deleted = false, token = user.token) {
  const res = await h.request(`/api/v1/${type}/?project=${projectId}&is_active=true&is_deleted=${deleted}&limit=10&offset=0`, {
    token,
  });
  return ((await res.json()) as { count: number }).count;
}

const close = (actual: unknown, expected: number) =>
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));

const RESULTS: Record<string, string[]> = {
  underground_emission_ch4: ["res_ch4", "res_ch4_to_co2"],
  handling_underground_ch4: ["res_ch4", "res_ch4_to_co2"],
  open_mining_ch4: ["res_ch4", "res_ch4_to_co2"],
  open_mining_co2: ["res_co2"],
  underground: ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"],
  disposal_co2_torch: ["res_co2"],
  torch_ch4: ["res_ch4", "res_ch4_to_co2"],
  disposal_co2_stat_sources: ["res_co2"],
};

describe("methodology vectors through the API (GWP 25)", () => {
  for (const [type, results] of Object.entries(RESULTS)) {
    const cases = (vectors as unknown as Record<string, Array<Record<string, number>>>)[type];
    it.each(cases.map((c, i) => [i, c] as const))(`${type} vector %i is stored with the methodology's results`, async (_i, vector) => {
      const inputs = Object.fromEntries(Object.entries(vector).filter(([k]) => !results.includes(k)));
      let res = await post(type, inputs);
      if (res.status === 400) {
        // Values that are no dictionary row go in as «Фактическое значение» where the type allows it (D10).
        const dictionaries = type === "underground" ? { get_underground_content: null } : { get_open_mining_ch4: null };
        res = await post(type, { ...inputs, dictionary_items: dictionaries });
      }
      expect(res.status, await res.clone().text()).toBe(201);
      const calc = (await res.json()) as CalculationView;
      for (const name of results) close(calc[name], vector[name]);
      const again = await h.request(`/api/v1/${type}/${calc.id}/single_calc/1/`, { token: user.token });
      expect(await again.json()).toEqual(calc);
    });
  }

  it("recycle_technology stores the technology text and code of the decision table", async () => {
    for (const v of vectors.recycle_technology) {
      const calc = await created("recycle_technology", { metan: v.metan, a_metan: v.a_metan });
      expect(calc.code).toBe(v.code);
      expect(typeof calc.technology).toBe("string");
    }
    const plant = await created("recycle_technology", { metan: 60, a_metan: 40 });
    expect(plant.technology).toMatch(/^Мини-ТЭС на шахтном метане/);
    expect(plant.coefficients.q_power_plant).toMatchObject({ value: 25, dictionary: "get_recycle_technology", item_id: 1 });
  });
});

describe("auditable results", () => {
  it("records every coefficient with its dictionary entry and version, the GWP set and the methodology version", async () => {
    const calc = await created("underground", { volume: 10000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 });
    expect(calc).toMatchObject({ methodology_version: "2026.7", created_by: user.email, version: 1 });
    expect(calc.coefficients.p_ch4).toMatchObject({ source: "dictionary", dictionary: "get_underground", item_id: 1, item_version: 1 });
    expect(calc.coefficients.ef_ch4).toMatchObject({ source: "dictionary", dictionary: "get_underground_content", item_id: 1 });
    expect(calc.coefficients.gwp_ch4).toMatchObject({ value: 25, dictionary: "get_gwp", item_id: 1 });
    expect(calc.coefficients.volume).toMatchObject({ value: 10000, source: "input", unit: "тыс. м³" });
  });

  it("uses the GWP set asked for (AR5: 28)", async () => {
    const calc = await created("underground_emission_ch4", { volume: 1_000_000, ef: 18, gwp_set: 2 });
    close(calc.res_ch4_to_co2, 337680);
  });

  it("takes an entry named by id, and the custom open-mining mode with koef_transform 0.67", async () => {
    const byId = await created("open_mining_ch4", { volume: 1_000_000, dictionary_items: { get_open_mining_ch4: 4 } });
    close(byId.res_ch4, 67);
    const custom = await created("open_mining_ch4", {
      volume: 1_000_000,
      ef: 1.7,
      koef_transform: 5,
      dictionary_items: { get_open_mining_ch4: null },
    });
    expect(custom.coefficients.ef).toMatchObject({ source: "custom", value: 1.7 });
    expect(custom.coefficients.koef_transform).toMatchObject({ source: "fixed", value: 0.67 });
    close(custom.res_ch4, 1_000_000 * 1.7 * 0.67e-3);
  });

  it("keeps a stored result when the dictionary changes; new calculations use the new value", async () => {
    const old = await created("handling_underground_ch4", { volume: 1_000_000, ef: 2.5, koef_transform: 0.67 });
    await changeCoefficient(
      h.deps,
      "get_handling_underground_ch4",
      1,
      {
        field: "ef",
        value: 3,
        effective_from: "2027-01-01",
        reason: "Новые данные института",
        version: 1,
      },
      "admin@example.com",
    );
    const stored = (await (
      await h.request(`/api/v1/handling_underground_ch4/${old.id}/single_calc/1/`, { token: user.token })
    ).json()) as CalculationView;
    close(stored.res_ch4, 1675);
    expect(stored.coefficients.ef).toMatchObject({ value: 2.5, item_version: 1 });

    const fresh = await created("handling_underground_ch4", { volume: 1_000_000, dictionary_items: { get_handling_underground_ch4: 1 } });
    close(fresh.res_ch4, 2010);
    expect(fresh.coefficients.ef).toMatchObject({ value: 3, item_version: 2 });

    // An edit of the volume keeps the entry version the calculation used.
    const res = await h.request(`/api/v1/handling_underground_ch4/${old.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { volume: 2_000_000, ef: 2.5, koef_transform: 0.67, version: 1 },
    });
    const edited = (await res.json()) as CalculationView;
    close(edited.res_ch4, 3350);
    expect(edited.coefficients.ef).toMatchObject({ value: 2.5, item_version: 1 });
    expect(edited.version).toBe(2);

    // A stale entry id with the old value is a conflict, not a silent change.
    const stale = await post("handling_underground_ch4", { volume: 1, ef: 2.5, dictionary_items: { get_handling_underground_ch4: 1 } });
    expect(stale.status).toBe(409);
  });
});

describe("«Фактическое значение» of every dictionary-fed coefficient (D10)", () => {
  it("stores a measured 14.3 m³/t for underground_emission_ch4 with its justification, source custom", async () => {
    const calc = await created("underground_emission_ch4", {
      volume: 1_000_000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры газовыделения 2024 г., протокол № 17" },
      // D23: an own value carries its own uncertainty.
      uncertainty: { ef: { lower_pct: 10, upper_pct: 12, distribution: "normal" } },
    });
    expect(calc.coefficients.ef).toMatchObject({
      value: 14.3,
      source: "custom",
      justification: "Замеры газовыделения 2024 г., протокол № 17",
      uncertainty: { lower_pct: 10, upper_pct: 12, origin: "user" },
    });
    expect(calc.flags).toEqual([]);
    close(calc.res_ch4, (1_000_000 * 14.3 * 0.67) / 1000);
    const read = (await (await h.request(`/api/v1/underground_emission_ch4/${calc.id}`, { token: user.token })).json()) as CalculationView;
    expect(read.coefficients.ef).toMatchObject({ source: "custom", justification: "Замеры газовыделения 2024 г., протокол № 17" });
  });

  it("accepts 3.1 m³/t for handling (no entry matches) without a justification, flagged", async () => {
    const calc = await created("handling_underground_ch4", { volume: 1000, ef: 3.1, koef_transform: 0.67 });
    expect(calc.coefficients.ef).toMatchObject({ value: 3.1, source: "custom" });
    expect(calc.flags).toContain("custom_without_justification:ef");
    const list = (await (
      await h.request(`/api/v1/handling_underground_ch4/?project=${project.id}&limit=50&offset=0`, { token: user.token })
    ).json()) as {
      results: CalculationView[];
    };
    expect(list.results.find((c) => c.id === calc.id)?.flags).toContain("custom_without_justification:ef");
  });

  it("warns about a value outside the plausible band instead of refusing it", async () => {
    const calc = await created("underground_emission_ch4", { volume: 1000, ef: 60, justifications: { ef: "Выбросоопасный пласт" } });
    expect(calc.coefficients.ef.source).toBe("custom");
    expect(calc.flags).toEqual(["custom_out_of_range:ef", "custom_without_uncertainty:ef"]);
  });

  it("keeps the justification on an edit that does not mention it and changes it when sent", async () => {
    const calc = await created("underground_emission_ch4", { volume: 1000, ef: 14.3, justifications: { ef: "Замеры" } });
    const renamed = await h.request(`/api/v1/underground_emission_ch4/${calc.id}`, {
      method: "PATCH",
      token: user.token,
      json: { volume: 2000, version: calc.version },
    });
    expect(renamed.status).toBe(200);
    const kept = (await renamed.json()) as CalculationView;
    expect(kept.coefficients.ef).toMatchObject({ source: "custom", justification: "Замеры" });
    const changed = (await (
      await h.request(`/api/v1/underground_emission_ch4/${calc.id}`, {
        method: "PATCH",
        token: user.token,
        json: { justifications: { ef: "Новый протокол" }, version: kept.version },
      })
    ).json()) as CalculationView;
    expect(changed.coefficients.ef).toMatchObject({ justification: "Новый протокол" });
  });
});

describe("bad input gets a 4xx naming the field, and nothing is stored", () => {
  it.each([
    [{ volume: -1, ef: 18 }, "volume"],
    [{ volume: "много", ef: 18 }, "volume"],
    [{ ef: 18 }, "volume"],
    [{ volume: Number.MAX_VALUE * 10, ef: 18 }, "volume"],
    [{ volume: 100, ef: 18, name: "  " }, "name"],
    [{ volume: 100, ef: 18, koef_transform: 0.7 }, "koef_transform"],
    [{ volume: 100, ef: 18, gwp_set: 99 }, "gwp_set"],
    [{ volume: 100, dictionary_items: { get_underground_emission_ch4: 42 } }, "dictionary_items"],
    [{ volume: 100, dictionary_items: { get_underground_emission_ch4: null } }, "ef"],
    [{ volume: 100, ef: 14.3, justifications: { ef: 5 } }, "justifications"],
    [{ volume: 100, ef: 14.3, justifications: { ef: "я".repeat(2001) } }, "justifications"],
    [{ volume: 100, ef: 18, justifications: { ef: "замеры" } }, "justifications.ef"],
  ])("underground_emission_ch4 %j → 400 naming %s", async (body, field) => {
    const p = await newProject(user.token);
    const res = await post("underground_emission_ch4", body as Record<string, unknown>, user.token, p.id);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain(fieldName(field));
    expect(await count("underground_emission_ch4", p.id)).toBe(0);
  });

  it("refuses a concentration over 100 % and a negative flow", async () => {
    const p = await newProject(user.token);
    const over = await post(
      "underground",
      { volume: 1, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 0, ef_ch4: 101, dictionary_items: { get_underground_content: null } },
      user.token,
      p.id,
    );
    expect(over.status).toBe(400);
    expect(((await over.json()) as { detail: string }).detail).toContain("ef_ch4");
    const negative = await post("recycle_technology", { metan: 40, a_metan: -2 }, user.token, p.id);
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { detail: string }).detail).toContain("a_metan");
    expect(await count("underground", p.id)).toBe(0);
    expect(await count("recycle_technology", p.id)).toBe(0);
  });

  it("answers an unknown type with 404 and a missing or foreign project with 400 / 404", async () => {
    expect((await post("no_such_type", { volume: 1 })).status).toBe(404);
    expect((await h.request(`/api/v1/no_such_type/?project=${project.id}`, { token: user.token })).status).toBe(404);
    const missing = await h.request("/api/v1/torch_ch4/", { method: "POST", token: user.token, json: { name: "x", volume: 1 } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toContain(fieldName("project"));
    const other = await h.signedInUser();
    const foreignProject = await newProject(other.token);
    expect((await post("torch_ch4", { volume: 1, koef_transform: 0.67 }, user.token, foreignProject.id)).status).toBe(404);
    expect(await count("torch_ch4", foreignProject.id, false, other.token)).toBe(0);
  });

  it("answers malformed JSON and wrong common types with 400", async () => {
    const broken = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: user.token,
      headers: { "Content-Type": "application/json" },
      body: '{"name": "x", ',
    });
    expect(broken.status).toBe(400);
    const wrong = await post("torch_ch4", { volume: 1, dictionary_items: { get_torch_ch4: "первая" } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { detail: string }).detail).toContain("dictionary_items");
  });
});

describe("lifecycle", () => {
  it("updates with a version, answers a stale version with 409, archives and restores", async () => {
    const p = await newProject(user.token);
    const calc = (await (await post("torch_ch4", { volume: 1000, koef_transform: 0.67 }, user.token, p.id)).json()) as CalculationView;
    const url = `/api/v1/torch_ch4/${calc.id}/`;
    const renamed = await h.request(url, { method: "PATCH", token: user.token, json: { name: "Факел №2", version: 1 } });
    expect(await renamed.json()).toMatchObject({ name: "Факел №2", version: 2, res_ch4: calc.res_ch4 });
    const stale = await h.request(url, { method: "PATCH", token: user.token, json: { volume: 5, version: 1 } });
    expect(stale.status).toBe(409);
    const archived = await h.request(url, { method: "PATCH", token: user.token, json: { is_deleted: true, is_active: false, version: 2 } });
    expect(await archived.json()).toMatchObject({ is_deleted: true, is_active: false });
    expect(await count("torch_ch4", p.id)).toBe(0);
    expect(await count("torch_ch4", p.id, true)).toBe(1);
    await h.request(url, { method: "PATCH", token: user.token, json: { is_deleted: false } });
    expect(await count("torch_ch4", p.id)).toBe(1);
  });

  it("never edits a recycle_technology calculation but archives it", async () => {
    const calc = await created("recycle_technology", { metan: 45, a_metan: 8 });
    const url = `/api/v1/recycle_technology/${calc.id}/`;
    expect((await h.request(url, { method: "PATCH", token: user.token, json: { metan: 50 } })).status).toBe(400);
    expect((await h.request(url, { method: "PATCH", token: user.token, json: { name: "Другое" } })).status).toBe(400);
    const archived = await h.request(url, { method: "PATCH", token: user.token, json: { is_deleted: true } });
    expect(await archived.json()).toMatchObject({ is_deleted: true, code: "GAS_ENGINE_CHP" });
  });

  it("lists newest first with count and pages", async () => {
    const p = await newProject(user.token);
    for (let i = 1; i <= 12; i++) {
      await post("open_mining_co2", { name: `Карьер ${i}`, volume: i, ef: 3.149 }, user.token, p.id);
    }
    const res = await h.request(`/api/v1/open_mining_co2/?project=${p.id}&is_active=true&is_deleted=false&limit=10&offset=10`, {
      token: user.token,
    });
    const page = (await res.json()) as { results: CalculationView[]; count: number };
    expect(page.count).toBe(12);
    expect(page.results.map((c) => c.name)).toEqual(["Карьер 2", "Карьер 1"]);
  });

  it("counts calculations and their CO2-equivalent in the statistics", async () => {
    const fresh = await h.signedInUser();
    const p = await newProject(fresh.token);
    await post("underground_emission_ch4", { volume: 1_000_000, ef: 18 }, fresh.token, p.id);
    await post("open_mining_co2", { volume: 100, ef: 3.149 }, fresh.token, p.id);
    // The stream handler keeps the snapshot; in AWS it lags the write by about a second.
    await h.settled();
    const stats = await (await h.request("/api/v1/users/statistics/", { token: fresh.token })).json();
    expect(stats).toMatchObject({ calculations: { underground_emission_ch4: 1, open_mining_co2: 1 } });
    // D26: per reporting year, at the year's GWP, as the inventory sums it.
    const [year] = (stats as { years: Array<{ total_t_co2e: number }> }).years;
    close(year.total_t_co2e, 301500 + 314.9);
  });
});

describe("another company", () => {
  it("gets 404 on every calculation call with company A's ids, and sees nothing of A", async () => {
    const calc = await created("torch_ch4", { volume: 1000, koef_transform: 0.67, name: "Секретный факел" });
    const other = await h.signedInUser();
    const calls: Array<[string, string, unknown?]> = [
      ["GET", `/api/v1/torch_ch4/${calc.id}/single_calc/1/`],
      ["GET", `/api/v1/torch_ch4/${calc.id}/`],
      ["PATCH", `/api/v1/torch_ch4/${calc.id}/`, { name: "взлом" }],
      ["PATCH", `/api/v1/torch_ch4/${calc.id}/`, { is_deleted: true }],
      ["GET", `/api/v1/torch_ch4/?project=${project.id}`],
      ["POST", `/api/v1/torch_ch4/`, { name: "x", project: project.id, volume: 1, koef_transform: 0.67 }],
    ];
    for (const [method, path, json] of calls) {
      const res = await h.request(path, { method, token: other.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain("Секретный");
    }
    const still = await h.request(`/api/v1/torch_ch4/${calc.id}/single_calc/1/`, { token: user.token });
    expect(await still.json()).toEqual(calc);
  });
});
