// D12: GWP by reporting year. A project's reporting year picks the GWP set in force; an admin dates
// a second set for 2025 through the admin coefficient API; a year change offers a recompute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { signedInAdmin, dateAr5For } from "../support/admin";
import { newId } from "@server/domain/ids";
import type { Project, CalculationOf } from "@server/contract";

let h: Harness;
let token: string;
let companyId: string;
let userId: string;
beforeAll(async () => {
  // A table of its own: the admin's dating of AR5 for 2025 holds for every company of the table.
  h = await createFreshHarness();
  ({ token, companyId, userId } = await h.signedInUser());
  const admin = await signedInAdmin(h);
  // AR5 (set 2) dated for the 2025 reporting year only.
  await dateAr5For(h, admin.token, 2025);
});
afterAll(() => h.close());

async function project(year?: number, end = "2025-12-31", start = `${end.slice(0, 4)}-01-01`) {
  const res = await h.request("/api/v1/projects/create_project/", {
    method: "POST",
    token,
    json: { name: "Шахта", start_date: start, end_date: end, ...(year ? { reporting_year: year } : {}) },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; reporting_year: number; version: number };
}

async function torch(projectId: string, extra: Record<string, unknown> = {}) {
  const res = await h.request("/api/v1/torch_ch4/", {
    method: "POST",
    token,
    json: { name: "Факел", project: projectId, volume: 1000, koef_transform: 0.67, ...extra },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationOf<"torch_ch4">;
}

describe("GWP by reporting year", () => {
  it("defaults the reporting year to the end date's year and validates it", async () => {
    expect((await project(undefined, "2024-12-31")).reporting_year).toBe(2024);
    expect((await project(2023, "2024-06-30", "2023-07-01")).reporting_year).toBe(2023);
    const bad = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31", reporting_year: 1800 },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/reporting_year/);
  });

  it("refuses a reporting year its dates do not cover, on create and on edit, yet lets a stored one be renamed", async () => {
    const refused = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Шахта", start_date: "2025-01-01", end_date: "2025-12-31", reporting_year: 2026 },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      "reporting_year: отчетный год 2026 вне дат проекта (2025 год); выберите год, который охватывают даты",
    );
    const p = await project(2025, "2025-12-31");
    const moved = await h.request(`/api/v1/projects/${p.id}/`, { method: "PATCH", token, json: { reporting_year: 2026 } });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { detail: string }).detail).toMatch(/^reporting_year: отчетный год 2026 вне дат проекта/);
    const redated = await h.request(`/api/v1/projects/${p.id}/`, {
      method: "PATCH",
      token,
      json: { start_date: "2026-01-01", end_date: "2026-06-30" },
    });
    expect(redated.status).toBe(400);
    expect(((await redated.json()) as { detail: string }).detail).toMatch(
      /^reporting_year: отчетный год 2025 вне дат проекта \(2026 год\)/,
    );
    const both = await h.request(`/api/v1/projects/${p.id}/`, {
      method: "PATCH",
      token,
      json: { start_date: "2026-01-01", end_date: "2026-06-30", reporting_year: 2026 },
    });
    expect(both.status).toBe(200);
    // One stored before the rule keeps working for what does not touch its dates.
    const now = new Date().toISOString();
    const stored = {
      id: "p-out-of-dates",
      company: companyId,
      user: userId,
      name: "Старый",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
    };
    await h.deps.repos.projects.create({
      ...stored,
      reporting_year: 2026,
      status: 1,
      is_active: true,
      is_deleted: false,
      version: 1,
      created_at: now,
      updated_at: now,
    } as never);
    const renamed = await h.request(`/api/v1/projects/${stored.id}/`, { method: "PATCH", token, json: { name: "Старый (2025)" } });
    expect(await renamed.text()).toMatch(/"name":"Старый \(2025\)"/);
  });

  it("a project stored before the reporting year existed reads with its end date's year, in one and in the list", async () => {
    const now = new Date().toISOString();
    const { reporting_year: _none, ...stored } = {
      id: newId(),
      name: "Шахта до отчетного года",
      start_date: "2022-01-01",
      end_date: "2022-12-31",
      reporting_year: 0,
      created_at: now,
      updated_at: now,
      status: 1,
      company: companyId,
      user: userId,
      is_active: true,
      is_deleted: false,
      version: 1,
    } satisfies Project;
    // Written as an older release stored it: no reporting_year attribute at all.
    await h.deps.repos.projects.create(stored as Project);
    const one = (await (await h.request(`/api/v1/projects/${stored.id}/`, { token })).json()) as Project;
    expect(one.reporting_year).toBe(2022);
    const list = (await (await h.request("/api/v1/projects/?limit=100", { token })).json()) as { results: Project[] };
    expect(list.results.find((p) => p.id === stored.id)?.reporting_year).toBe(2022);
  });

  it("a 2025 project's calculation uses the set dated for 2025, a 2024 project's the one for 2024", async () => {
    const c2025 = await torch((await project(2025)).id);
    const c2024 = await torch((await project(2024, "2024-12-31")).id);
    expect(c2025).toMatchObject({ gwp_ch4: 28, gwp_not_in_force: false });
    expect(c2025.coefficients.gwp_ch4.item_id).toBe(2);
    expect(c2024).toMatchObject({ gwp_ch4: 25, gwp_not_in_force: false });
  });

  it("keeps an explicit set other than the one in force, flagged", async () => {
    const c = await torch((await project(2025)).id, { gwp_set: 1 });
    expect(c).toMatchObject({ gwp_ch4: 25, gwp_not_in_force: true });
  });

  it("previews and applies the recompute after a year change, before and after", async () => {
    const p = await project(2024, "2025-03-31", "2024-04-01");
    const c = await torch(p.id);
    expect(c.gwp_ch4).toBe(25);
    const preview = await h.request(`/api/v1/projects/${p.id}/gwp_recompute/?reporting_year=2025`, { token });
    const body = (await preview.json()) as {
      gwp_set: { id: number };
      results: Array<{
        id: string;
        before: { gwp_ch4: number; results: Record<string, number> };
        after: { gwp_ch4: number; results: Record<string, number> };
      }>;
    };
    expect(body.gwp_set.id).toBe(2);
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ id: c.id, before: { gwp_ch4: 25 }, after: { gwp_ch4: 28 } });
    expect(body.results[0].after.results.res_ch4_to_co2).toBeCloseTo((c.res_ch4_to_co2 / 25) * 28, 9);
    const patched = await h.request(`/api/v1/projects/${p.id}/`, { method: "PATCH", token, json: { reporting_year: 2025 } });
    expect(patched.status).toBe(200);
    // Not yet recomputed: the stored calculation still reads as computed for 2024.
    const applied = await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { method: "POST", token, json: {} });
    expect(applied.status).toBe(200);
    expect(((await applied.json()) as { count: number }).count).toBe(1);
    const after = (await (await h.request(`/api/v1/torch_ch4/${c.id}/`, { token })).json()) as CalculationOf<"torch_ch4">;
    expect(after).toMatchObject({ gwp_ch4: 28, gwp_not_in_force: false, version: 2 });
    expect(after.res_ch4_to_co2).toBeCloseTo(body.results[0].after.results.res_ch4_to_co2, 9);
    const again = (await (await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { token })).json()) as { count: number };
    expect(again.count).toBe(0);
  });

  it("keeps another company's project out of reach and refuses a bad year in Russian", async () => {
    const p = await project(2025);
    const other = await h.signedInUser();
    expect((await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { token: other.token })).status).toBe(404);
    expect((await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { method: "POST", token: other.token, json: {} })).status).toBe(404);
    const bad = await h.request(`/api/v1/projects/${p.id}/gwp_recompute/?reporting_year=abc`, { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^reporting_year: ожидается год/);
  });
});
