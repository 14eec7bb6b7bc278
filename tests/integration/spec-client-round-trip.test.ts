// The specification's client edits by sending back what it fetched (docs/api.md): GET …/single_calc/1/,
// one input changed, PATCH v1/{type}/{id}/ with the whole object; PATCH v1/projects/{id}/ with the
// whole project, to update it or to archive it by its flags. The answer's read-only fields are left as
// they are, a change of what cannot change is refused, another company's objects are not found, and
// a field the answer does not have is still a 400 naming it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALCULATION_TYPES, REGISTRY, type CalculationDefinition, type CalculationType } from "@core/registry";
import type { CalculationView, Project } from "@server/contract";
import { createHarness, type Harness } from "../support/harness";
import { createTenantObjects, type TenantObjects } from "../support/tenant-objects";

let h: Harness;
let token: string;
let other: string;
let mine: TenantObjects;

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
  ({ token: other } = await h.signedInUser());
  mine = await createTenantObjects(h, token, "обмен");
});
afterAll(() => h.close());

type Sent = Record<string, unknown>;

async function fetched(type: string, id: string): Promise<Sent> {
  const res = await h.request(`/api/v1/${type}/${id}/single_calc/1/`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Sent;
}

const patch = (path: string, body: Sent, as = token) => h.request(`/api/${path}/`, { method: "PATCH", token: as, json: body });

async function answered(res: Response, status = 200): Promise<Sent> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as Sent;
}

/** One input changed as a user would, and what the recomputed answer then shows. */
const CHANGES: Partial<Record<CalculationType, { change: (c: Sent) => Sent; recomputed: (before: Sent, after: Sent) => void }>> = {
  regres_methane: {
    change: (c) => ({ ...c, method: "lightgbm" }),
    recomputed: (_, after) => expect((after.model as { method: string }).method).toBe("lightgbm"),
  },
  filling_blanks: {
    // Its inputs name the file's columns; a new name is computed again (its elements follow the name).
    change: (c) => ({ ...c, name: `${c.name} (исправлен)` }),
    recomputed: (before, after) => expect(after.elements).toEqual(before.elements),
  },
  sensitivity: {
    change: (c) => ({ ...c, delta: 0.2 }),
    recomputed: (before, after) => {
      expect(after.delta).toBe(0.2);
      expect(after.elements).not.toEqual(before.elements);
    },
  },
};

/** A formula type: the activity doubled doubles the emission. */
function doubledVolume(type: CalculationType) {
  const co2e = (REGISTRY[type] as CalculationDefinition).co2e!;
  return {
    change: (c: Sent) => ({ ...c, volume: (c.volume as number) * 2 }),
    recomputed: (before: Sent, after: Sent) => expect(after[co2e] as number).toBeCloseTo((before[co2e] as number) * 2, 6),
  };
}

describe("a calculation sent back whole", () => {
  const editable = CALCULATION_TYPES.filter((t) => REGISTRY[t].editable);

  it.each(editable)("%s: one input changed, the whole object PATCHed, the result recomputed", async (type) => {
    const { change, recomputed } = CHANGES[type] ?? doubledVolume(type);
    const before = await fetched(type, mine.calculations[type].id);
    const after = await answered(await patch(`v1/${type}/${before.id}`, change(before)));
    expect(after.version).toBe((before.version as number) + 1);
    recomputed(before, after);
    // The read-only fields it sent are the server's again, not what was sent.
    expect(after.id).toBe(before.id);
    expect(after.created_at).toBe(before.created_at);
  });

  it("recycle_technology (not editable) takes itself back unchanged, and refuses a changed input", async () => {
    const before = await fetched("recycle_technology", mine.calculations.recycle_technology.id);
    await answered(await patch(`v1/recycle_technology/${before.id}`, before));
    const again = await fetched("recycle_technology", mine.calculations.recycle_technology.id);
    expect((await answered(await patch(`v1/recycle_technology/${before.id}`, { ...again, metan: 50 }), 400)).detail).toBe(
      "Расчет этого типа нельзя изменить: создайте новый",
    );
  });

  it("measured periods sent back with their computed columns: one period's content changed, the totals recomputed", async () => {
    const periods = [
      { from: "2024-01-01", to: "2024-01-31", flow_m3_min: 12.5, hours: 744, w_ch4: 76, w_co2: 10.6 },
      { from: "2024-02-01", to: "2024-02-28", flow_m3_min: 10.25, hours: 650.5, w_ch4: 76, w_co2: 10.6 },
    ];
    const made = await answered(
      await h.request("/api/v1/underground/", {
        method: "POST",
        token,
        json: { name: "Дегазация", project: mine.project.id, periods, dictionary_items: { get_underground: 1 } },
      }),
      201,
    );
    const before = await fetched("underground", made.id as string);
    const sent = before.periods as Sent[];
    const after = await answered(await patch(`v1/underground/${before.id}`, { ...before, periods: [sent[0], { ...sent[1], w_ch4: 38 }] }));
    expect(after.res_ch4 as number).toBeLessThan(before.res_ch4 as number);
    // Sent back unchanged, the periods stay as they are.
    const kept = await answered(await patch(`v1/underground/${before.id}`, after));
    expect(kept.periods).toEqual(after.periods);
    expect(kept.sum_co2).toBe(after.sum_co2);
  });

  it("a value typed in another unit (D13), sent back beside a new canonical value, gives way to it", async () => {
    const made = await answered(
      await h.request("/api/v1/open_mining_ch4/", {
        method: "POST",
        token,
        json: {
          name: "Разрез",
          project: mine.project.id,
          entered: { volume: { value: 1000, unit: "тыс. т" } },
          ef: 1.2,
          dictionary_items: { get_open_mining_ch4: null },
        },
      }),
      201,
    );
    const before = await fetched("open_mining_ch4", made.id as string);
    expect(before.entered).toEqual({ volume: { value: 1000, unit: "тыс. т" } });
    const after = await answered(await patch(`v1/open_mining_ch4/${before.id}`, { ...before, volume: 2_000_000 }));
    expect(after.volume).toBe(2_000_000);
    expect(after.entered).toBeUndefined();
  });

  it.each(CALCULATION_TYPES)("%s: archived by its flags, found in the archive list, restored the same way", async (type) => {
    const before = await fetched(type, mine.calculations[type].id);
    await answered(await patch(`v1/${type}/${before.id}`, { ...before, is_active: false, is_deleted: true }));
    const archive = await h.request(`/api/v1/${type}/?project=${mine.project.id}&is_active=true&is_deleted=true&limit=10&offset=0`, {
      token,
    });
    const { results } = (await archive.json()) as { results: CalculationView[] };
    expect(results.map((c) => c.id)).toContain(before.id);
    const archived = await fetched(type, before.id as string);
    const restored = await answered(await patch(`v1/${type}/${before.id}`, { ...archived, is_active: true, is_deleted: false }));
    expect(restored.is_deleted).toBe(false);
  });

  it("is not found by another company, whole or in part", async () => {
    const mineCalc = await fetched("open_mining_co2", mine.calculations.open_mining_co2.id);
    expect((await patch(`v1/open_mining_co2/${mineCalc.id}`, mineCalc, other)).status).toBe(404);
    expect((await patch(`v1/open_mining_co2/${mineCalc.id}`, { volume: 1 }, other)).status).toBe(404);
    expect((await patch(`v1/open_mining_co2/${mineCalc.id}`, { ...mineCalc, no_such: 1 }, other)).status).toBe(404);
  });

  it("refuses a change of what cannot change: another company's project not found, its type, another project, its id", async () => {
    const theirs = await h.newProject(other);
    const calc = await fetched("open_mining_co2", mine.calculations.open_mining_co2.id);
    const url = `v1/open_mining_co2/${calc.id}`;
    expect((await answered(await patch(url, { ...calc, project: theirs.id, no_such: 1 }), 404)).detail).toBe("Проект не найден");
    const second = await h.newProject(token, "Второй");
    expect((await answered(await patch(url, { ...calc, project: second.id }), 400)).detail).toMatch(/^Проект: /);
    expect((await answered(await patch(url, { ...calc, type: "open_mining_ch4" }), 400)).detail).toMatch(/^Тип: /);
    expect((await answered(await patch(url, { ...calc, id: second.id }), 400)).detail).toMatch(/^Идентификатор: /);
    expect((await fetched("open_mining_co2", calc.id as string)).version).toBe(calc.version);
  });

  it("still names a field the answer does not have", async () => {
    const calc = await fetched("open_mining_co2", mine.calculations.open_mining_co2.id);
    expect((await answered(await patch(`v1/open_mining_co2/${calc.id}`, { ...calc, res_ch4: 1, colour: "red" }), 400)).detail).toBe(
      "res_ch4, colour: такого поля нет у расчета этого типа",
    );
  });
});

describe("a project sent back whole", () => {
  async function project(id: string, as = token): Promise<Project> {
    const res = await h.request(`/api/v1/projects/${id}`, { token: as });
    expect(res.status).toBe(200);
    return (await res.json()) as Project;
  }

  it("is updated, archived by its flags (then in the archive list) and restored", async () => {
    const made = await h.newProject(token, "Разрез");
    const before = await project(made.id);
    const renamed = (await answered(await patch(`v1/projects/${made.id}`, { ...before, name: "Разрез Восточный" }))) as Project;
    expect(renamed).toMatchObject({ name: "Разрез Восточный", version: before.version + 1, created_at: before.created_at });
    await answered(await patch(`v1/projects/${made.id}`, { ...renamed, is_active: false, is_deleted: true }));
    const archive = await h.request("/api/v1/projects/?is_active=true&is_deleted=true&limit=50&offset=0", { token });
    expect(((await archive.json()) as { results: Project[] }).results.map((p) => p.id)).toContain(made.id);
    const archived = await project(made.id);
    expect((await answered(await patch(`v1/projects/${made.id}`, { ...archived, is_active: true, is_deleted: false }))).is_deleted).toBe(
      false,
    );
  });

  it("is not found by another company, nor moved to one; names a field a project does not have", async () => {
    const before = await project(mine.project.id);
    expect((await patch(`v1/projects/${before.id}`, before, other)).status).toBe(404);
    const theirs = await h.newProject(other);
    expect((await patch(`v1/projects/${before.id}`, { ...before, company: theirs.company })).status).toBe(404);
    expect((await answered(await patch(`v1/projects/${before.id}`, { ...before, id: theirs.id }), 400)).detail).toMatch(/^Идентификатор: /);
    expect((await answered(await patch(`v1/projects/${before.id}`, { ...before, colour: "red" }), 400)).detail).toBe(
      "colour: такого поля нет у проекта",
    );
    expect((await project(before.id)).version).toBe(before.version);
  });
});
