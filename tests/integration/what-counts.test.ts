// D18 through the API: a project with a primary and an alternative calculation of one source. Its
// uncertainty model, the txt and xlsx «Итоги», the infographics and the totals per year sum the
// primary one and say what they left out; the list shows both with their «Учет», filters by it and
// lists every type at once.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { formatNumber } from "@server/export/txt-writer";
import type { CalculationOf } from "@server/contract";
import type { CalculationType } from "@core/registry";

let h: Harness;
let token: string;
let projectId: string;
let primary: CalculationOf<"underground">;
let alternative: CalculationOf<"underground">;
let forecast: CalculationOf<"regres_methane">;

const MEASURED = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const create = async <T extends CalculationType>(type: T, body: Record<string, unknown>) =>
  json<CalculationOf<T>>(await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { project: projectId, ...body } }), 201);

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Что учтено"));
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Шахта «Учетная»", start_date: "2025-01-01", end_date: "2025-12-31" },
    }),
    201,
  );
  projectId = project.id;
  primary = await create("underground", { name: "Дегазация (основной)", volume: 10_000, ...MEASURED });
  alternative = await create("underground", { name: "Дегазация (проверка)", volume: 40_000, inventory_role: "alternative", ...MEASURED });
  forecast = await create("regres_methane", {
    name: "Прогноз лавы",
    method: "xgboost",
    data: [{ x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 }],
  });
  expect(alternative.sum_co2).toBeGreaterThan(primary.sum_co2);
});
afterAll(() => h.close());

describe("what a project's totals count (D18)", () => {
  it("the uncertainty model holds the primary calculation only and names the alternative", async () => {
    const model = await json<{
      calculations: Array<{ id: string; co2e: number }>;
      not_counted: string | null;
      left_out: Array<{ id: string; reason: string }>;
    }>(await h.request(`/api/v1/projects/${projectId}/uncertainty/`, { token }));
    expect(model.calculations.map((c) => c.id)).toEqual([primary.id]);
    expect(model.calculations[0].co2e).toBeCloseTo(primary.sum_co2, 9);
    expect(model.not_counted).toBe("Не учтен: 1 альтернативный расчет");
    expect(model.left_out).toEqual([expect.objectContaining({ id: alternative.id, reason: "alternative" })]);
  });

  it("the infographics plot the primary degasification calculation, not the alternative", async () => {
    const graphs = await json<{ underground: Array<{ id: string }>; not_counted: string | null; regres_methane: unknown[] }>(
      await h.request(`/api/v1/projects/${projectId}/graphs/`, { token }),
    );
    expect(graphs.underground.map((u) => u.id)).toEqual([primary.id]);
    expect(graphs.not_counted).toBe("Не учтен: 1 альтернативный расчет");
    expect(graphs.regres_methane).toHaveLength(1);
  });

  it("the txt «Итоги» sum the primary calculation and say what they left out; both are listed with their «Учет»", async () => {
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_txt/`, { token });
    expect(res.status).toBe(200);
    const text = await res.text();
    const totals = text.slice(text.indexOf("Итоги по типам расчетов"));
    expect(totals).toContain(`Выбросы, т CO2-экв.: ${formatNumber(primary.sum_co2, 2)}`);
    expect(totals).not.toContain(formatNumber(primary.sum_co2 + alternative.sum_co2, 2));
    expect(totals).toMatch(
      /Всего\n {4}Расчетов: 3\n {4}Выбросы, т CO2-экв\.: ([\d\s,]+)\nНе учтены: 1 альтернативный расчет, 1 аналитический расчет\n/,
    );
    expect(totals.match(/Всего\n {4}Расчетов: 3\n {4}Выбросы, т CO2-экв\.: ([\d\s,]+)\n/)![1]).toBe(formatNumber(primary.sum_co2, 2));
    expect(text).toMatch(/\d\. Дегазация \(проверка\)\n( {4}.*\n)*? {4}Учет: альтернативный\n/);
    expect(text).toMatch(/\d\. Дегазация \(основной\)\n( {4}.*\n)*? {4}Учет: основной\n/);
  });

  it("the xlsx «Итоги» cells, read back, hold the primary sum and the line of what was left out", async () => {
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_xlsx/`, { token });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const totals = wb.getWorksheet("Итоги")!;
    const rows = Array.from({ length: totals.rowCount }, (_, i) => (totals.getRow(i + 1).values as unknown[]).slice(1));
    const all = rows.find((r) => r[0] === "Всего")!;
    expect(all[1]).toBe(3);
    expect(all[2]).toBeCloseTo(primary.sum_co2, 9);
    const underground = rows.find((r) => typeof r[0] === "string" && r[0].includes("дегазации"))!;
    expect(underground.slice(1, 3)).toEqual([2, expect.closeTo(primary.sum_co2, 9)]);
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
    const years = await json<Array<{ year: number; total_t_co2e: number; not_counted: string }>>(
      await h.request("/api/v1/inventory/years/", { token }),
    );
    expect(years).toEqual([expect.objectContaining({ year: 2025, not_counted: "не учтен: 1 альтернативный расчет" })]);
  });
});

describe("the calculations list by «Учет» and across types", () => {
  type Page = { results: Array<{ id: string; type: string; inventory_role?: string }>; count: number };
  const list = async (type: string, query = "") =>
    json<Page>(await h.request(`/api/v1/${type}/?project=${projectId}&is_active=true&is_deleted=false${query}`, { token }));

  it("filters a type's list by role and keeps the plain list as it was", async () => {
    expect((await list("underground")).count).toBe(2);
    const primaries = await list("underground", "&role=primary");
    expect(primaries).toMatchObject({ count: 1, results: [{ id: primary.id, inventory_role: "primary" }] });
    const alternatives = await list("underground", "&role=alternative");
    expect(alternatives).toMatchObject({ count: 1, results: [{ id: alternative.id, inventory_role: "alternative" }] });
    const bad = await h.request(`/api/v1/underground/?project=${projectId}&role=main`, { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^role:/);
  });

  it("lists every type at once, newest first, paged, and by role", async () => {
    const all = await list("all");
    expect(all.count).toBe(3);
    expect(all.results.map((c) => c.id)).toEqual([forecast.id, alternative.id, primary.id]);
    const second = await list("all", "&limit=2&offset=2");
    expect(second).toMatchObject({ count: 3, results: [{ id: primary.id }] });
    expect((await list("all", "&role=alternative")).results.map((c) => c.id)).toEqual([alternative.id]);
    expect((await list("all", "&role=primary")).results.map((c) => c.id)).toEqual([primary.id]);
    const archive = await json<Page>(await h.request(`/api/v1/all/?project=${projectId}&is_deleted=true`, { token }));
    expect(archive.count).toBe(0);
    const other = await h.signedInUser();
    expect((await h.request(`/api/v1/all/?project=${projectId}`, { token: other.token })).status).toBe(404);
  });
});
