// D18 on the in-memory repositories: a project with a primary and an alternative calculation of one
// source. Its uncertainty model, the txt and xlsx «Итоги», the infographics and the totals per year
// sum the primary one and say what they left out; the list shows both with their «Учет», filters by
// it and lists every type at once. The list's refusals and another company's project:
// tests/integration/what-counts.test.ts.
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, fileOf, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { CalculationOf } from "../../contract";
import { formatNumber } from "../../export/txt-writer";
import type { ProjectState } from "../../ports";
import { ALL_TYPES, calculationView, listCalculations } from "./calculations";
import type { Actor } from "../context";
import { projectGraphs } from "./graphs";
import { inventoryTotalsByYear } from "../inventory/year";
import { projectUncertaintyModel } from "./uncertainty";

let d: MemoryDomain;
let actor: Actor;
let projectId: string;
let primary: CalculationOf<"underground">;
let alternative: CalculationOf<"underground">;
let forecast: CalculationOf<"regres_methane">;

const MEASURED = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Что учтено");
  projectId = (await d.project(actor, { name: "Шахта «Учетная»", start_date: "2025-01-01", end_date: "2025-12-31" })).id;
  primary = await d.calc(actor, "underground", { project: projectId, name: "Дегазация (основной)", volume: 10_000, ...MEASURED });
  alternative = await d.calc(actor, "underground", {
    project: projectId,
    name: "Дегазация (проверка)",
    volume: 40_000,
    inventory_role: "alternative",
    ...MEASURED,
  });
  forecast = await d.calc(actor, "regres_methane", {
    project: projectId,
    name: "Прогноз лавы",
    method: "xgboost",
    data: [{ x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 }],
  });
  expect(alternative.sum_co2).toBeGreaterThan(primary.sum_co2);
  await d.settled();
});

describe("what a project's totals count (D18)", () => {
  it("the uncertainty model holds the primary calculation only and names the alternative", async () => {
    const model = await projectUncertaintyModel(d.deps, actor, projectId);
    expect(model.calculations.map((c) => c.id)).toEqual([primary.id]);
    expect(model.calculations[0].co2e).toBeCloseTo(primary.sum_co2, 9);
    expect(model.not_counted).toBe("Не учтен: 1 альтернативный расчет");
    expect(model.left_out).toEqual([expect.objectContaining({ id: alternative.id, reason: "alternative" })]);
  });

  it("the infographics plot the primary degasification calculation, not the alternative", async () => {
    const graphs = await projectGraphs(d.deps, actor, projectId);
    expect(graphs.underground.map((u) => u.id)).toEqual([primary.id]);
    expect(graphs.not_counted).toBe("Не учтен: 1 альтернативный расчет");
    expect(graphs.regres_methane).toHaveLength(1);
  });

  it("the txt «Итоги» sum the primary calculation and say what they left out; both are listed with their «Учет»", async () => {
    const text = new TextDecoder().decode(await fileOf(await d.deps.spreadsheets.exportProject(actor, projectId, "txt", {})));
    const totals = text.slice(text.indexOf("Итоги по типам расчетов"));
    expect(totals).toContain(`Выбросы, т CO2-экв.: ${formatNumber(primary.sum_co2, 2)}`);
    expect(totals).not.toContain(formatNumber(primary.sum_co2 + alternative.sum_co2, 2));
    expect(totals).toMatch(
      /Всего\n {4}Расчетов: 1\n {4}Выбросы, т CO2-экв\.: ([\d\s,]+)\nНе учтены: 1 альтернативный расчет, 1 аналитический расчет\n/,
    );
    expect(totals.match(/Всего\n {4}Расчетов: 1\n {4}Выбросы, т CO2-экв\.: ([\d\s,]+)\n/)![1]).toBe(formatNumber(primary.sum_co2, 2));
    expect(text).toMatch(/\d\. Дегазация \(проверка\)\n( {4}.*\n)*? {4}Учет: альтернативный\n/);
    expect(text).toMatch(/\d\. Дегазация \(основной\)\n( {4}.*\n)*? {4}Учет: основной\n/);
  });

  it("the xlsx «Итоги» cells, read back, hold the primary sum and the line of what was left out", async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await fileOf(await d.deps.spreadsheets.exportProject(actor, projectId, "xlsx", {}))).buffer);
    const totals = wb.getWorksheet("Итоги")!;
    const rows = Array.from({ length: totals.rowCount }, (_, i) => (totals.getRow(i + 1).values as unknown[]).slice(1));
    const all = rows.find((r) => r[0] === "Всего")!;
    // «Расчетов» counts what the sums count: the primary calculation, not the alternative nor the forecast.
    expect(all[1]).toBe(1);
    expect(all[2]).toBeCloseTo(primary.sum_co2, 9);
    const underground = rows.find((r) => typeof r[0] === "string" && r[0].includes("дегазации"))!;
    expect(underground.slice(1, 3)).toEqual([1, expect.closeTo(primary.sum_co2, 9)]);
    expect(rows.at(-2)).toEqual(["Не учтены: 1 альтернативный расчет, 1 аналитический расчет"]);
    // D26: the export names the GWP set it applies, the reporting year's.
    expect(rows.at(-1)).toEqual([expect.stringMatching(/^ПГП: .*ПГП CH4 = 25 \(отчетный год \d{4}\)$/)]);
    const sheet = wb.worksheets.find((ws) => String(ws.getCell("A1").value).includes("дегазации"))!;
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    const role = header.indexOf("Учет") + 1;
    expect(role).toBeGreaterThan(0);
    const roles = Object.fromEntries([3, 4].map((r) => [sheet.getRow(r).getCell(2).value, sheet.getRow(r).getCell(role).value]));
    expect(roles).toEqual({ "Дегазация (основной)": "основной", "Дегазация (проверка)": "альтернативный" });
  });

  it("the totals per reporting year (profile, inventory) say what they left out", async () => {
    const years = await inventoryTotalsByYear(d.deps, actor);
    expect(years).toEqual([expect.objectContaining({ year: 2025, not_counted: "не учтен: 1 альтернативный расчет" })]);
  });
});

describe("the calculations list by «Учет» and across types", () => {
  const list = async (type: string, role?: "primary" | "alternative", page = { limit: 20, offset: 0 }, state: ProjectState = "active") => {
    const found = await listCalculations(d.deps, actor, type, projectId, state, page, role);
    return { results: found.results.map(calculationView), count: found.count };
  };

  it("filters a type's list by role and keeps the plain list as it was", async () => {
    expect((await list("underground")).count).toBe(2);
    expect(await list("underground", "primary")).toMatchObject({ count: 1, results: [{ id: primary.id, inventory_role: "primary" }] });
    expect(await list("underground", "alternative")).toMatchObject({
      count: 1,
      results: [{ id: alternative.id, inventory_role: "alternative" }],
    });
  });

  it("lists every type at once, newest first, paged, and by role", async () => {
    const all = await list(ALL_TYPES);
    expect(all.count).toBe(3);
    expect(all.results.map((c) => c.id)).toEqual([forecast.id, alternative.id, primary.id]);
    expect(await list(ALL_TYPES, undefined, { limit: 2, offset: 2 })).toMatchObject({ count: 3, results: [{ id: primary.id }] });
    expect((await list(ALL_TYPES, "alternative")).results.map((c) => c.id)).toEqual([alternative.id]);
    expect((await list(ALL_TYPES, "primary")).results.map((c) => c.id)).toEqual([primary.id]);
    expect((await list(ALL_TYPES, undefined, { limit: 20, offset: 0 }, "archived")).count).toBe(0);
  });
});
