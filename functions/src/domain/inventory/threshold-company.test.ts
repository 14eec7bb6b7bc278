// D21: the 296-FZ threshold is the legal entity's. A company whose mine emits
// above 50 000 t CO2-eq and whose processing plant emits little: the plant's inventory and report
// show the company's verdict (regulated) and its basis (296-FZ art. 14 parts 2–3, Decree 1580 from
// reporting year 2024), never that the site need not report. On the in-memory repositories.
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, fileOf, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { getInventory } from "./year";

let d: MemoryDomain;
let actor: Actor;
let plant: { id: string };

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО «Разрез и фабрика»");
  const pit = await d.facility(actor, { name: "Разрез «Большой»", kind: "open_pit" });
  plant = await d.facility(actor, { name: "Фабрика «Малая»", kind: "processing_plant" });
  for (const [site, volume] of [
    [pit, 20_000],
    [plant, 10],
  ] as const) {
    const project = await d.project(actor, {
      name: `Проект ${volume}`,
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      facility: site.id,
    });
    await d.calc(actor, "open_mining_co2", { name: `Добыча ${volume}`, project: project.id, volume, ef: 3.149 });
  }
});

describe("the threshold at the legal entity (D21)", () => {
  it("gives a small site's inventory the company's verdict from the company's whole-year total", async () => {
    const company = await getInventory(d.deps, actor, 2024);
    expect(company.total_t_co2e).toBeGreaterThanOrEqual(50_000);
    const site = await getInventory(d.deps, actor, 2024, plant.id);
    expect(site.total_t_co2e).toBeLessThan(50_000);
    expect(site.threshold).toEqual({ limit_t_co2e: 50_000, regulated: true, company_t_co2e: company.total_t_co2e });
  });

  it("prints the company's verdict and its basis on the site's report, never that the site need not report", async () => {
    const report = await d.deps.spreadsheets.inventoryReport(actor, { year: 2024, format: "xlsx", facility: plant.id });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await fileOf(report)).buffer);
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
