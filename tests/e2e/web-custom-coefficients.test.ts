// «Фактическое значение» of a coefficient with no custom mode before (methodology D10): the dialog
// offers it for underground_emission_ch4, 14,3 is typed key by key with a justification, and the
// results dialog shows the source and the justification, and the evidence file attached beside
// the value (name, size, download); without one the table marks the row;
// a value outside the plausible band is warned of under the field as typed, and still saved
// (web/src/features/calculations/CustomCoefficient.test.tsx).
// Each test makes a project of its own through the API and reaches its calculations inside the app
// when the app is open with no dialog, else (and on a retry) in one load: any one runs alone.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, openWebApp, pickOption, showSignedIn, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const JUSTIFICATION = "Замеры газовыделения 2024 г., протокол № 17";
const EVIDENCE = "Протокол замеров № 17.pdf";
const PDF = Buffer.from("%PDF-1.4\n% протокол замеров\n1 0 obj << >> endobj\n%%EOF\n");

describe("«Фактическое значение» of every coefficient in the browser (D10)", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server);
    ({ page } = app);
  });

  /** A project `name` of the test's own, its underground CH4 calculations on view; returns its id. */
  async function openProject(name: string, retry: boolean): Promise<string> {
    const [projectId] = await createProjectsAs(server.url, server.demo, [name]);
    const path = `/projects/${projectId}/calculations?type=underground_emission_ch4`;
    if (!retry && (await page.getByRole("dialog").count()) === 0) await showSignedIn(page, server.url, server.demo, path);
    else await signIn(page, server.url, server.demo, path);
    await page.getByRole("heading", { name: `Расчеты — ${name}` }).waitFor();
    return projectId;
  }

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  async function create(name: string, justification: string | undefined) {
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = page.getByRole("dialog", { name: "Новый расчет" });
    await form.getByLabel("Название расчета").fill(name);
    await form.getByLabel("Объём добычи угля подземным способом", { exact: true }).fill("1000000");
    await pickOption(page, form.locator("#calc-dictionary-get_underground_emission_ch4"), "Фактическое значение");
    const ef = form.locator("#calc-field-ef");
    await ef.fill("");
    await ef.pressSequentially("14,3");
    if (justification) await form.getByLabel("Обоснование: Коэффициент выбросов CH4 при подземной добыче").pressSequentially(justification);
    if (justification) {
      // D10: the evidence file beside the value, attached once the calculation is saved.
      const item = form.locator(".ant-form-item", { has: page.locator("#calc-field-ef") });
      await item.locator('input[type="file"]').setInputFiles({ name: EVIDENCE, mimeType: "application/pdf", buffer: PDF });
      await form.getByTestId("evidence-chosen-ef").filter({ hasText: EVIDENCE }).waitFor();
      // D23: the value's own uncertainty, beside it.
      await item.getByText("Своя неопределенность значения", { exact: false }).click();
      await item.locator("#uncertainty-ef-lower").fill("10");
      await item.locator("#uncertainty-ef-upper").fill("12");
    }
    await form.getByTestId("preview-res_ch4").filter({ hasText: "9\u00a0581,00" }).waitFor();
    if (justification) await screenshot(form, { path: `${SHOTS}/web-custom-coefficient-dialog.png` });
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
  }

  it("stores 14,3 m³/t with its justification and shows both in the results dialog", async ({ task }) => {
    const projectId = await openProject("Шахта Фактическая", !!task.result?.retryCount);
    await create("Шахта: замеренный коэффициент", JUSTIFICATION);
    const { json } = await callApi<{
      results: Array<{
        coefficients: Record<string, { value: number; source: string; justification?: string; uncertainty?: unknown }>;
        flags: string[];
      }>;
    }>(page, "GET", `/api/v1/underground_emission_ch4/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`);
    expect(json.results[0].coefficients.ef).toMatchObject({
      value: 14.3,
      source: "custom",
      justification: JUSTIFICATION,
      evidence: { name: EVIDENCE, size: PDF.byteLength, format: "pdf" },
      uncertainty: { lower_pct: 10, upper_pct: 12, origin: "user" },
    });
    expect(json.results[0].flags).toEqual([]);

    await page.locator(".ant-table-row", { hasText: "Шахта: замеренный" }).click();
    const results = page.getByRole("dialog", { name: "Шахта: замеренный коэффициент" });
    await results.getByTestId("results-dialog").waitFor();
    await results.getByText("Фактическое значение", { exact: true }).waitFor();
    await results.getByText(JUSTIFICATION, { exact: true }).waitFor();
    const evidence = results.getByTestId("evidence-ef");
    await evidence.filter({ hasText: EVIDENCE }).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), evidence.getByRole("button", { name: EVIDENCE }).click()]);
    expect(download.suggestedFilename()).toBe(EVIDENCE);
    expect(await results.getByTestId("calculation-flags").count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-custom-coefficient-results.png` });
    await results.getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
  });

  it("marks a custom value without a justification in the table and the results dialog", async ({ task }) => {
    await openProject("Шахта без обоснования", !!task.result?.retryCount);
    await create("Шахта: без обоснования", undefined);
    const row = page.locator(".ant-table-row", { hasText: "Шахта: без обоснования" });
    await row.getByTestId("calculation-flag").waitFor();
    await row.click();
    const results = page.getByRole("dialog", { name: "Шахта: без обоснования" });
    await results.getByTestId("calculation-flags").getByText("фактическое значение без обоснования", { exact: false }).waitFor();
    await results.getByText("Обоснование не указано", { exact: true }).waitFor();
    // D23: no uncertainty of its own either: the dictionary's band applies, and it says so.
    await results.getByTestId("calculation-flags").getByText("неопределенность не указана", { exact: false }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-custom-coefficient-flagged.png` });
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
  });
});
