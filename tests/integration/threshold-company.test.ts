// D21 (issue 28 item 2): the 296-FZ threshold is the legal entity's. A company whose mine emits
// above 50 000 t CO2-eq and whose processing plant emits little: the plant's inventory and report
// show the company's verdict (regulated) and its basis (296-FZ art. 14 parts 2–3, Decree 1580 from reporting year 2024), never
// that the site need not report.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let plant: { id: string };

type Inventory = { total_t_co2e: number; threshold: { limit_t_co2e: number; regulated: boolean; company_t_co2e: number } };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Разрез и фабрика»"));
  const facility = async (name: string, kind: string) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201);
  const pit = await facility("Разрез «Большой»", "open_pit");
  plant = await facility("Фабрика «Малая»", "processing_plant");
  for (const [site, volume] of [
    [pit, 20_000],
    [plant, 10],
  ] as const) {
    const project = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: `Проект ${volume}`, start_date: "2024-01-01", end_date: "2024-12-31", facility: site.id },
      }),
      201,
    );
    await json(
      await h.request("/api/v1/open_mining_co2/", {
        method: "POST",
        token,
        json: { name: `Добыча ${volume}`, project: project.id, volume, ef: 3.149 },
      }),
      201,
    );
  }
});
afterAll(() => h.close());

describe("the threshold at the legal entity (D21)", () => {
  it("gives a small site's inventory the company's verdict from the company's whole-year total", async () => {
    const company = await json<Inventory>(await h.request("/api/v1/inventory/?year=2024", { token }), 200);
    expect(company.total_t_co2e).toBeGreaterThanOrEqual(50_000);
    const site = await json<Inventory>(await h.request(`/api/v1/inventory/?year=2024&facility=${plant.id}`, { token }), 200);
    expect(site.total_t_co2e).toBeLessThan(50_000);
    expect(site.threshold).toEqual({ limit_t_co2e: 50_000, regulated: true, company_t_co2e: company.total_t_co2e });
  });

  it("prints the company's verdict and its basis on the site's report, never that the site need not report", async () => {
    const res = await h.request(`/api/v1/inventory/2024/report/?format=xlsx&facility=${plant.id}`, { token });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.getWorksheet("Паспорт")!;
    let verdict = "";
    sheet.eachRow((row) => {
      // Numbers are grouped with a no-break space.
      if (row.getCell(1).value === "Порог 296-ФЗ") verdict = String(row.getCell(2).value).replace(/[\u00a0\u202f]/g, " ");
    });
    expect(verdict).toMatch(/^Выбросы организации за год — 63 \d{3} т CO2-экв\., не меньше порога 50 000 т CO2-экв\./);
    expect(verdict).toContain("296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.10.2025 № 1580");
    expect(verdict).toContain("организация — регулируемая, отчет о выбросах обязателен");
    expect(verdict).not.toMatch(/не обязателен|707/);
  });
});
