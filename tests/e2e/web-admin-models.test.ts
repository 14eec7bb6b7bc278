// /admin «Модели прогноза» in a real browser against the real local server: the shipped models are
// version 1 of each method and active; a LightGBM file uploaded as XGBoost is refused with the
// server's reason; uploaded as LightGBM with «сделать активной» it becomes version 2, active; the
// operator switches back to version 1.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { modelFixture } from "../support/models";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const LIGHTGBM_MODEL = modelFixture("methane-lightgbm.txt");

describe("web app: administration, forecast models", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];

  const at = (path: string) => `${server.url}${path}`;
  const section = (label: "XGBoost" | "LightGBM") => page.getByRole("region", { name: `Модели ${label}` });
  const versionRow = (table: Locator, version: number) =>
    table.locator(".ant-table-row").filter({ has: page.locator("td:first-child", { hasText: new RegExp(`^${version}$`) }) });
  const uploadCard = () => page.locator(".ant-card", { hasText: "Загрузить новую версию" });

  async function chooseMethod(label: string) {
    await uploadCard().getByRole("combobox", { name: "Метод" }).click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: label }).first().click();
  }

  async function expectActive(table: Locator, active: number, inactive: number[]) {
    await versionRow(table, active).getByText("Активна", { exact: true }).waitFor();
    for (const v of inactive) {
      await versionRow(table, v)
        .getByRole("button", { name: /Сделать активной/ })
        .waitFor();
      expect(await versionRow(table, v).getByText("Активна", { exact: true }).count()).toBe(0);
    }
  }

  /** The list as the API shows it, for what the screen does not say (which version is active after a reload). */
  async function activeVersions(): Promise<Record<string, number[]>> {
    const access = await accessToken(server.url, server.admin!);
    const res = await fetch(at("/api/v1/forecast_models/"), { headers: { Authorization: `Bearer ${access}` } });
    const body = (await res.json()) as { results: { method: string; versions: { version: number; is_active: boolean }[] }[] };
    return Object.fromEntries(body.results.map((r) => [r.method, r.versions.filter((v) => v.is_active).map((v) => v.version)]));
  }

  beforeAll(async () => {
    if (!existsSync(LIGHTGBM_MODEL)) throw new Error(`model file missing: ${LIGHTGBM_MODEL}`);
    server = await startTestServer({ admin: true, own: true });
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("lists the shipped models as version 1 of each method, active", async () => {
    await signIn(page, server.url, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Модели прогноза" }).click();
    await page.waitForURL(/[?&]tab=models/);
    await page.getByText("Сохраненные расчеты хранят версию модели", { exact: false }).waitFor();

    for (const [label, library] of [
      ["XGBoost", "XGBoost 1.7.4"],
      ["LightGBM", "LightGBM v4"],
    ] as const) {
      const row = versionRow(section(label), 1);
      await row.getByText("Активна", { exact: true }).waitFor();
      await row.getByText(library, { exact: true }).waitFor();
      await row.getByText("поставляется с системой").waitFor();
      // Why the model runs on the faster engine, in words.
      await row.getByText("Вычисление: QuickScorer с контрольными точками префиксов", { exact: false }).waitFor();
      expect(await section(label).locator(".ant-table-row").count()).toBe(1);
    }
    await versionRow(section("LightGBM"), 1).getByText("methane-lightgbm.txt").waitFor();
    await versionRow(section("XGBoost"), 1).getByText("methane-xgboost.json").waitFor();
  });

  it("shows the server's refusal of a LightGBM file uploaded as XGBoost", async () => {
    await chooseMethod("XGBoost");
    await uploadCard().locator('input[type="file"]').setInputFiles(LIGHTGBM_MODEL);
    await uploadCard().getByText("methane-lightgbm.txt").waitFor();
    await uploadCard().getByRole("button", { name: "Загрузить" }).click();
    await uploadCard().getByText("это модель lightgbm, а выбран метод xgboost").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-models-refused.png`, fullPage: true });
    expect(await section("XGBoost").locator(".ant-table-row").count()).toBe(1);
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [1] });
  });

  it("uploads it as LightGBM with «сделать активной»: version 2 is active", async () => {
    await chooseMethod("LightGBM");
    // Changing the method clears the old refusal; the chosen file stays.
    await uploadCard().getByText("а выбран метод").waitFor({ state: "detached" });
    await uploadCard().getByText("methane-lightgbm.txt").waitFor();
    await uploadCard().getByLabel("Описание").fill("Переобучена на данных 2025 года");
    await uploadCard().getByText("сделать активной").click();
    await uploadCard().getByRole("button", { name: "Загрузить" }).click();

    const lightgbm = section("LightGBM");
    await versionRow(lightgbm, 2).getByText("Переобучена на данных 2025 года").waitFor();
    await expectActive(lightgbm, 2, [1]);
    await versionRow(lightgbm, 2).getByText(server.admin!.email).waitFor();
    await versionRow(lightgbm, 2).getByText("LightGBM v4", { exact: true }).waitFor();
    // The other method is untouched; the form is ready for the next file.
    await expectActive(section("XGBoost"), 1, []);
    await uploadCard().getByText("methane-lightgbm.txt").waitFor({ state: "detached" });
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [2] });
    await screenshot(page, { path: `${SHOTS}/web-admin-models.png`, fullPage: true });
  });

  it("switches back to version 1 after a confirmation", async () => {
    const lightgbm = section("LightGBM");
    await versionRow(lightgbm, 1)
      .getByRole("button", { name: /Сделать активной/ })
      .click();
    const confirm = page.locator(".ant-popover:visible");
    await confirm.getByText("сохраненные расчеты не изменятся").waitFor();
    await confirm.getByRole("button", { name: "Сделать активной" }).click();
    await expectActive(lightgbm, 1, [2]);
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [1] });

    // And it stays so after a reload.
    await page.reload();
    await expectActive(section("LightGBM"), 1, [2]);
    await screenshot(page, { path: `${SHOTS}/web-admin-models-switched.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("lists the upload and the switch in «Журнал», newest first", async () => {
    await page.getByRole("tab", { name: "Журнал" }).click();
    const rows = page.locator(".ant-table-row", { hasText: "Модель прогноза" });
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/Модель прогноза выбрана[\s\S]*Модель прогноза LightGBM, версия 1/);
    expect(texts[1]).toMatch(/Модель прогноза загружена[\s\S]*Модель прогноза LightGBM, версия 2 \(methane-lightgbm\.txt\)/);
    expect(texts[1]).toContain(server.admin!.email);
  });
});
