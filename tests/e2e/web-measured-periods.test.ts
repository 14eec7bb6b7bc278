// an earlier round / D14 in a real browser: two measurement periods of underground typed key by key
// with decimal commas («12,5») give, in the live preview, what their summed volume gives; each
// period's contribution is in the preview, in the stored calculation and in its results dialog.
// Each test makes a project of its own through the API (on each try) and reaches its calculations
// inside the app when the app is open with no dialog, else (and on a retry) in one load.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { calculate } from "@core/emissions";
import { REGISTRY } from "@core/registry";
import { formatResult } from "@web/shared/decimals";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, openWebApp, showSignedIn, signIn, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const TYPE = "underground";
const NAME = "Дегазация по периодам";
const PERIODS = [
  { from: "01.01.2024", to: "31.01.2024", flow_m3_min: "12,5", hours: "744", w_ch4: "76", w_co2: "10,6" },
  { from: "01.02.2024", to: "28.02.2024", flow_m3_min: "10,25", hours: "650,5", w_ch4: "76", w_co2: "10,6" },
];
const VOLUME = (12.5 * 744 * 60) / 1000 + (10.25 * 650.5 * 60) / 1000;

describe("web app: underground by measurement periods", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  // What one volume (their sum) gives at 20 °C, the dialog's first density entry.
  const whole = calculate(TYPE, { volume: VOLUME, ef_ch4: 76, ef_co2: 10.6, p_co2: 1.8393, p_ch4: 0.668 }, { gwp_ch4: 25 });

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server);
    page = app.page;
  });

  /** A project `name` of the test's own with its calculations of TYPE on view; returns its id. */
  async function openProject(name: string, retry: boolean): Promise<string> {
    const [projectId] = await createProjectsAs(server.url, server.demo, [name]);
    const path = `/projects/${projectId}/calculations?type=${TYPE}`;
    if (!retry && (await page.getByRole("dialog").count()) === 0) await showSignedIn(page, server.url, server.demo, path);
    else await signIn(page, server.url, server.demo, path);
    await page.getByRole("heading", { name: `Расчеты — ${name}` }).waitFor();
    return projectId;
  }

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("previews two periods typed key by key as their summed volume, refuses hours beyond a period under its cell, stores them and shows each one's contribution in the results dialog", async ({
    task,
  }) => {
    const projectId = await openProject("Шахта с мониторингом", !!task.result?.retryCount);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByLabel("Название расчета").fill(NAME);
    await dialog().getByText("По периодам измерений", { exact: true }).click();
    await dialog().getByRole("button", { name: "Добавить период" }).click();
    // The volume and the contents are the periods' now: their fields are gone.
    expect(await dialog().getByLabel("Объём газовой смеси (вентиляция, дегазация), измеренный", { exact: true }).count()).toBe(0);
    for (const [index, period] of PERIODS.entries()) {
      for (const [field, text] of Object.entries(period)) {
        const input = dialog().locator(`#calc-period-${index}-${field}`);
        await input.pressSequentially(text);
        expect(await input.inputValue()).toBe(text);
      }
    }
    const preview = dialog().getByTestId("preview");
    for (const name of ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"] as const) {
      await preview
        .getByTestId(`preview-${name}`)
        .filter({ hasText: formatResult(whole[name], 2) })
        .waitFor();
    }
    const rows = preview.getByTestId("preview-periods").locator(".ant-table-row");
    expect(await rows.count()).toBe(2);
    expect(await rows.first().innerText()).toContain("01.01.2024");
    expect(await dialog().locator(".numeric-input-problem").count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-measured-periods-dialog.png` });

    // Hours beyond the period are refused under their cell.
    const hours = dialog().locator("#calc-period-1-hours");
    await hours.fill("");
    await hours.pressSequentially("700");
    await dialog().locator(".ant-form-item-explain-error", { hasText: "Время работы больше продолжительности периода (672 ч)" }).waitFor();
    await hours.fill("");
    await hours.pressSequentially("650,5");

    // Stored, with each period's contribution in the results dialog.
    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const list = await callApi<{ results: CalculationView[] }>(
      page,
      "GET",
      `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    const [stored] = list.json.results;
    expect(stored.periods).toHaveLength(2);
    expect(Math.abs((stored.volume as number) - VOLUME)).toBeLessThan(1e-9);
    expect(formatResult(stored.sum_co2 as number, 2)).toBe(formatResult(whole.sum_co2, 2));

    await page.locator(".ant-table-row", { hasText: NAME }).click();
    const results = page.getByRole("dialog", { name: NAME });
    await results.getByTestId("results-dialog").waitFor();
    const storedRows = results.getByTestId("stored-periods").locator(".ant-table-row");
    expect(await storedRows.count()).toBe(2);
    expect(await storedRows.nth(1).innerText()).toContain("28.02.2024");
    await screenshot(page, { path: `${SHOTS}/web-measured-periods-results.png`, fullPage: true });
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
  });

  it("takes the periods from a monitoring system's CSV chosen in the dialog", async ({ task }) => {
    const projectId = await openProject("Шахта с файлом мониторинга", !!task.result?.retryCount);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByTestId("preview").waitFor();
    await dialog().getByLabel("Название расчета").fill("Из файла мониторинга");
    // The results dialog closing behind this one can shift the layout under the first click;
    // choosing the selected segment again changes nothing, so click until the file field is there.
    const fileField = dialog().locator("input[type=file]");
    await expect
      .poll(async () => {
        if ((await fileField.count()) === 0) await dialog().getByText("По периодам измерений", { exact: true }).click();
        return fileField.count();
      })
      .toBe(1);
    const csv =
      "from;to;flow_m3_min;hours;w_ch4;w_co2\n01.01.2024;31.01.2024;12,5;744;76;10,6\n01.02.2024;28.02.2024;10,25;650,5;76;10,6\n";
    await fileField.setInputFiles({ name: "мониторинг.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog().getByTestId("chosen-file").filter({ hasText: "мониторинг.csv" }).waitFor();
    await dialog().getByTestId("preview").filter({ hasText: "по периодам из файла «мониторинг.csv»" }).waitFor();
    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const list = await callApi<{ results: CalculationView[] }>(
      page,
      "GET",
      `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    const fromFile = list.json.results.find((c) => c.name === "Из файла мониторинга")!;
    expect(fromFile.periods).toHaveLength(2);
    expect(formatResult(fromFile.sum_co2 as number, 2)).toBe(formatResult(whole.sum_co2, 2));
  });
});
