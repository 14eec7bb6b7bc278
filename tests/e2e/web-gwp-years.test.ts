// D12 in a real browser: an admin dates AR5 (CH4 = 28) for 2025; a 2024 project's CH4 calculation
// made in the dialog without choosing a set takes 2979-р (25); changing the project's reporting
// year to 2025 in the project dialog previews 25 → 28 and «Пересчитать» stores the recompute.
// Each test makes the project it starts from through the API (a project of its own, named apart
// from the file's others and its own failed try's), so any one runs alone, in any order, and a
// retry starts from that state again.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, signIn, type WebApp } from "../support/web-page";
import type { CalculationOf } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: GWP by reporting year", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: ReturnType<typeof apiCaller>;
  /** How many projects the file has made, for names apart from each other's. */
  let projects = 0;

  /** A project of the test's own over 2024 and 2025 (either can be its reporting year, D30),
   *  reporting 2024; its name is `name` with a number of its own, returned with its id. */
  async function project2024(name: string): Promise<{ id: string; name: string }> {
    const unique = `${name} (${++projects})`;
    const { id } = await demo<{ id: string }>("POST", "v1/projects/create_project/", {
      name: unique,
      start_date: "2024-07-01",
      end_date: "2025-06-30",
      reporting_year: 2024,
    });
    return { id, name: unique };
  }

  /** The project's active flare CH4 calculations, as the API lists them. */
  async function torchCalculations(projectId: string): Promise<CalculationOf<"torch_ch4">[]> {
    const path = `v1/torch_ch4/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`;
    return (await demo<{ results: CalculationOf<"torch_ch4">[] }>("GET", path)).results;
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true, own: true });
    const adminToken = await accessToken(server.url, server.admin!);
    const admin = apiCaller(
      () => server.url,
      () => adminToken,
    );
    for (const [field, version] of [
      ["year_from", 1],
      ["year_to", 2],
    ] as const) {
      await admin("PATCH", "v1/admin/dictionary/get_gwp/2/", {
        field,
        value: 2025,
        // D41: an edit applies to reporting years from its effective_from on.
        effective_from: "2025-01-01",
        reason: "Проверка: набор для 2025 года",
        version,
      });
    }
    const demoToken = await accessToken(server.url, server.demo);
    demo = apiCaller(
      () => server.url,
      () => demoToken,
    );
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
  });

  // Every test's page errors, its own: none.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("creates a CH4 calculation without choosing a set: the set in force for 2024 (25)", async () => {
    const project = await project2024("Шахта 2024");
    await signIn(page, server.url, server.demo, `/projects/${project.id}/calculations?type=torch_ch4`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = page.getByRole("dialog", { name: "Новый расчет" });
    await form.getByLabel("Название расчета").fill("Факел");
    await form.getByLabel("Объём метана, направленного на факельную установку", { exact: true }).fill("1000");
    await form.getByText(/по отчетному году проекта \(набор .*: 25\)/).waitFor();
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
    const results = await torchCalculations(project.id);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ gwp_ch4: 25, gwp_not_in_force: false });
  });

  it("changes the year to 2025 in the project dialog, previews 25 → 28 and recomputes", async () => {
    // The project reporting 2024 with its flare calculation of 1 000 m³ as the dialog makes it: the
    // dictionary's density, no set chosen (25).
    const project = await project2024("Шахта 2024");
    const torch = { name: "Факел", project: project.id, volume: 1000, koef_transform: 0.67, dictionary_items: { get_torch_ch4: 1 } };
    await demo("POST", "v1/torch_ch4/", torch);
    const [before] = await torchCalculations(project.id);
    expect(before).toMatchObject({ gwp_ch4: 25 });
    await signIn(page, server.url, server.demo, "/projects");
    const projectRow = page.locator(".ant-table-row", { hasText: project.name });
    await projectRow.getByRole("button", { name: "Редактировать" }).click();
    const dialog = page.getByRole("dialog");
    const year = dialog.getByLabel("Отчетный год");
    expect(await year.inputValue()).toBe("2024");
    await year.fill("20x5");
    await dialog.getByText("Введите год четырьмя цифрами, например 2025").waitFor();
    await year.fill("2025");
    await dialog.getByRole("button", { name: "Сохранить" }).click();

    const preview = dialog.getByTestId("gwp-recompute");
    await preview.waitFor();
    const row = preview.locator(".ant-table-row", { hasText: "Факел" });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toMatch(/: 25 → .*: 28/);
    expect(text).toContain("335,00 → 375,20");
    await screenshot(page, { path: `${SHOTS}/web-gwp-recompute.png` });

    await preview.getByRole("button", { name: "Пересчитать" }).click();
    await page.getByText("Пересчитано расчетов: 1").waitFor();
    await dialog.waitFor({ state: "hidden" });
    const after = await demo<CalculationOf<"torch_ch4">>("GET", `v1/torch_ch4/${before.id}/`);
    expect(after).toMatchObject({ gwp_ch4: 28, gwp_not_in_force: false });
    expect(after.res_ch4_to_co2).toBeCloseTo((before.res_ch4_to_co2 / 25) * 28, 9);
    await projectRow.getByRole("cell", { name: "2025", exact: true }).waitFor();
  });
});
