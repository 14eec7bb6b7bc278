// D12: GWP by reporting year, on the in-memory repositories. A project's reporting year picks the GWP
// set in force; an admin dates a second set for 2025 through the admin coefficient change; a year
// change offers a recompute. Another company's project and the refusal's Russian answer:
// tests/integration/gwp-years.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Project } from "../../contract";
import { changeCoefficientAsAdmin } from "../admin/dictionaries";
import { calculationView } from "../calculations/calculations";
import { getCalculation } from "../calculation-lookup";
import type { Actor } from "../context";
import { Invalid } from "../errors";
import { applyGwpRecompute, previewGwpRecompute } from "../calculations/gwp-recompute";
import { newId } from "../ids";
import { getProject, listProjects } from "../calculations/projects";
import { fieldName } from "../../contract/field-names";

let d: MemoryDomain;
let actor: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor();
  const admin = await d.actor("Оператор платформы", "admin");
  // AR5 (set 2) dated for the 2025 reporting year only.
  for (const [field, version] of [
    ["year_from", 1],
    ["year_to", 2],
  ] as const) {
    await d.write(() =>
      changeCoefficientAsAdmin(d.deps, admin, "get_gwp", 2, {
        field,
        value: 2025,
        // D41: an edit applies to reporting years from its effective_from on.
        effective_from: "2025-01-01",
        reason: "Набор для 2025 года",
        version,
      }),
    );
  }
});

const project = (year?: number, end = "2025-12-31", start = `${end.slice(0, 4)}-01-01`) =>
  d.project(actor, { name: "Шахта", start_date: start, end_date: end, ...(year ? { reporting_year: year } : {}) });

const torch = (projectId: string, extra: Record<string, unknown> = {}) =>
  d.calc(actor, "torch_ch4", { name: "Факел", project: projectId, volume: 1000, koef_transform: 0.67, ...extra });

describe("GWP by reporting year", () => {
  it("defaults the reporting year to the end date's year and validates it", async () => {
    expect((await project(undefined, "2024-12-31")).reporting_year).toBe(2024);
    expect((await project(2023, "2024-06-30", "2023-07-01")).reporting_year).toBe(2023);
    const bad = d.project(actor, { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31", reporting_year: 1800 });
    await expect(bad).rejects.toBeInstanceOf(Invalid);
    await expect(bad).rejects.toThrow(fieldName("reporting_year"));
  });

  it("refuses a reporting year its dates do not cover, on create and on edit, yet lets a stored one be renamed", async () => {
    const refused = d.project(actor, { name: "Шахта", start_date: "2025-01-01", end_date: "2025-12-31", reporting_year: 2026 });
    await expect(refused).rejects.toBeInstanceOf(Invalid);
    await expect(refused).rejects.toThrow(
      `${fieldName("reporting_year")}: отчетный год 2026 вне дат проекта (2025 год); выберите год, который охватывают даты`,
    );
    const p = await project(2025, "2025-12-31");
    await expect(d.patchProject(actor, p.id, { reporting_year: 2026 })).rejects.toThrow(
      new RegExp(`^${fieldName("reporting_year")}: отчетный год 2026 вне дат проекта`),
    );
    await expect(d.patchProject(actor, p.id, { start_date: "2026-01-01", end_date: "2026-06-30" })).rejects.toThrow(
      new RegExp(`^${fieldName("reporting_year")}: отчетный год 2025 вне дат проекта \\(2026 год\\)`),
    );
    const both = await d.patchProject(actor, p.id, { start_date: "2026-01-01", end_date: "2026-06-30", reporting_year: 2026 });
    expect(both.reporting_year).toBe(2026);
    // One stored before the rule keeps working for what does not touch its dates.
    const now = d.deps.clock.now().toISOString();
    const stored = {
      id: "p-out-of-dates",
      company: actor.company,
      user: actor.id,
      name: "Старый",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
    };
    await d.deps.repos.projects.create({
      ...stored,
      reporting_year: 2026,
      status: 1,
      is_active: true,
      is_deleted: false,
      version: 1,
      created_at: now,
      updated_at: now,
    } as never);
    const renamed = await d.patchProject(actor, stored.id, { name: "Старый (2025)" });
    expect(renamed.name).toBe("Старый (2025)");
  });

  it("a project stored before the reporting year existed reads with its end date's year, in one and in the list", async () => {
    const now = d.deps.clock.now().toISOString();
    const { reporting_year: _none, ...stored } = {
      id: newId(),
      name: "Шахта до отчетного года",
      start_date: "2022-01-01",
      end_date: "2022-12-31",
      reporting_year: 0,
      created_at: now,
      updated_at: now,
      status: 1,
      company: actor.company,
      user: actor.id,
      is_active: true,
      is_deleted: false,
      version: 1,
    } satisfies Project;
    // Written as an older release stored it: no reporting_year attribute at all.
    await d.deps.repos.projects.create(stored as Project);
    expect((await getProject(d.deps, actor, stored.id)).reporting_year).toBe(2022);
    const list = await listProjects(d.deps, actor, "active", { limit: 100, offset: 0 });
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
    const body = await previewGwpRecompute(d.deps, actor, p.id, "2025");
    expect(body.gwp_set.id).toBe(2);
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ id: c.id, before: { gwp_ch4: 25 }, after: { gwp_ch4: 28 } });
    expect(body.results[0].after.results.res_ch4_to_co2).toBeCloseTo((c.res_ch4_to_co2 / 25) * 28, 9);
    await d.patchProject(actor, p.id, { reporting_year: 2025 });
    // Not yet recomputed: the stored calculation still reads as computed for 2024.
    const applied = await d.write(() => applyGwpRecompute(d.deps, actor, p.id));
    expect(applied.count).toBe(1);
    const after = calculationView(await getCalculation(d.deps, actor, "torch_ch4", c.id)) as typeof c;
    expect(after).toMatchObject({ gwp_ch4: 28, gwp_not_in_force: false, version: 2 });
    expect(after.res_ch4_to_co2).toBeCloseTo(body.results[0].after.results.res_ch4_to_co2, 9);
    expect((await previewGwpRecompute(d.deps, actor, p.id)).count).toBe(0);
  });
});
