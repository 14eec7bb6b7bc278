// The GWP sets (get_gwp, methodology D1) and the utilisation-technology flow thresholds
// (get_recycle_technology, D5) are versioned dictionary entries like every other coefficient: an
// admin changes one through v1/admin/dictionary/, the change is a new version (logged), a new
// calculation uses it, and a calculation made before keeps the version and the result it stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import { openProjectFixture, readCalculation, type SignedInUser } from "../support/project-fixture";
import { lastAuditEntry, signedInAdmin, type SignedIn } from "../support/admin";
import type { Project } from "@server/contract/schemas/project";
import type { CalculationView } from "@server/contract";

let h: Harness;
let admin: SignedIn;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  // A table of its own: an admin changes GWP sets and thresholds of the whole platform.
  ({ h, user, project } = await openProjectFixture("Шахта «Северная»", {}, { freshTable: true }));
  admin = await signedInAdmin(h);
});
afterAll(() => h.close());

async function create(type: string, body: Record<string, unknown>): Promise<CalculationView> {
  const res = await h.request(`/api/v1/${type}/`, { method: "POST", token: user.token, json: { project: project.id, ...body } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
}

const single = (type: string, id: string) => readCalculation<CalculationView>(h, user.token, type, id);

async function change(dictionary: string, id: number, field: string, value: number, version: number) {
  // D41: a change applies to reporting years from its date on: from the project's year.
  const from = `${project.reporting_year}-01-01`;
  const res = await h.request(`/api/v1/admin/dictionary/${dictionary}/${id}/`, {
    method: "PATCH",
    token: admin.token,
    json: { field, value, effective_from: from, reason: "Проверка изменения администратором", version },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const lastAudit = () => lastAuditEntry(h, admin.token);

const UNDERGROUND = { volume: 1000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

describe("GWP sets (get_gwp)", () => {
  it("are listed with the dictionaries an admin edits, each set an entry with its version", async () => {
    const names = (await (await h.request("/api/v1/dictionary/", { token: admin.token })).json()) as { results: Array<{ name: string }> };
    expect(names.results.map((d) => d.name)).toEqual(expect.arrayContaining(["get_gwp", "get_recycle_technology"]));
    const gwp = (await (await h.request("/api/v1/dictionary/get_gwp/", { token: user.token })).json()) as {
      results: Array<{ id: number; version: number; gwp_ch4: number }>;
    };
    expect(gwp.results.map((e) => [e.id, e.version, e.gwp_ch4])).toEqual([
      [1, 1, 25],
      [2, 1, 28],
      [3, 1, 29.8],
    ]);
  });

  it("take a changed CH4 GWP in new calculations; older ones keep 25 and their result", async () => {
    const before = await create("underground", { name: "До изменения", ...UNDERGROUND });
    expect(before.coefficients.gwp_ch4).toMatchObject({ value: 25, dictionary: "get_gwp", item_id: 1, item_version: 1 });
    expect(before.res_ch4_to_co2).toBeCloseTo((before.res_ch4 as number) * 25, 9);

    expect(await change("get_gwp", 1, "gwp_ch4", 27, 1)).toMatchObject({ id: 1, gwp_ch4: 27, version: 2 });
    expect(await lastAudit()).toMatchObject({
      action: "dictionary.change",
      target_id: "get_gwp/1",
      before: expect.objectContaining({ gwp_ch4: 25, version: 1 }),
      after: expect.objectContaining({ gwp_ch4: 27, version: 2 }),
    });

    const after = await create("underground", { name: "После изменения", ...UNDERGROUND });
    expect(after.coefficients.gwp_ch4).toMatchObject({ value: 27, item_id: 1, item_version: 2 });
    expect(after.res_ch4_to_co2).toBeCloseTo((after.res_ch4 as number) * 27, 9);
    // Another set chosen explicitly is untouched by the change of set 1.
    const ar5 = await create("underground", { name: "AR5", ...UNDERGROUND, gwp_set: 2 });
    expect(ar5.coefficients.gwp_ch4).toMatchObject({ value: 28, item_id: 2, item_version: 1 });

    const kept = await single("underground", before.id);
    expect(kept.coefficients.gwp_ch4).toMatchObject({ value: 25, item_version: 1 });
    expect(kept.res_ch4_to_co2).toBe(before.res_ch4_to_co2);
    // An edit that leaves the inputs as they were keeps the version it used (methodology D9).
    const renamed = await h.request(`/api/v1/underground/${before.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { name: "До изменения (переименован)", version: kept.version },
    });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as CalculationView).res_ch4_to_co2).toBe(before.res_ch4_to_co2);
  });
});

describe("utilisation-technology thresholds (get_recycle_technology)", () => {
  it("take a changed flow threshold in new calculations; older ones keep theirs", async () => {
    // 45 % CH4 at 3 m³/min: a gas engine from 2 m³/min (the default threshold).
    const before = await create("recycle_technology", { name: "До изменения", metan: 45, a_metan: 3 });
    expect(before.technology).toMatch(/газопоршнев/i);
    expect(before.coefficients.q_gas_engine).toMatchObject({ value: 2, dictionary: "get_recycle_technology", item_id: 1, item_version: 1 });

    expect(await change("get_recycle_technology", 1, "q_gas_engine", 4, 1)).toMatchObject({ q_gas_engine: 4, version: 2 });
    expect(await lastAudit()).toMatchObject({ action: "dictionary.change", target_id: "get_recycle_technology/1" });

    // Now 3 m³/min is below the gas engine's threshold: a boiler.
    const after = await create("recycle_technology", { name: "После изменения", metan: 45, a_metan: 3 });
    expect(after.technology).not.toMatch(/газопоршнев/i);
    expect(after.technology).toMatch(/котельн/i);
    expect(after.coefficients.q_gas_engine).toMatchObject({ value: 4, item_version: 2 });
    // The other thresholds of the entry moved to its new version too, with their values.
    expect(after.coefficients.q_boiler).toMatchObject({ value: 0.5, item_version: 2 });

    const kept = await single("recycle_technology", before.id);
    expect(kept.technology).toBe(before.technology);
    expect(kept.coefficients.q_gas_engine).toMatchObject({ value: 2, item_version: 1 });

    const history = (await (await h.request("/api/v1/dictionary/get_recycle_technology/1/history/", { token: user.token })).json()) as {
      results: Array<{ version: number; q_gas_engine: number; changed_by: string }>;
    };
    expect(history.results.map((v) => [v.version, v.q_gas_engine])).toEqual([
      [1, 2],
      [2, 4],
    ]);
    expect(history.results[1].changed_by).toBe(admin.email);
  });
});
