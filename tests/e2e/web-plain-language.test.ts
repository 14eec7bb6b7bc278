// Plain language on screen: users read document names, tables and formulas,
// never the methodology's internal tags and ids («[T]», «[S4]», «D6», «Q14», «methodology 1.6»,
// «get_open_mining_co2»). Walks the reference dictionary (every category), a calculation's results,
// the settings page and the dialogs of the forecast and series types, then the operator's
// coefficient screen, which says in words which defaults still await checking. The forecast's and the
// series' dialogs, the forecast's results, the infographics and the inventory hold no English word,
// internal field name or file name.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REGISTRY, type CalculationType } from "@core/registry";
import { accessToken, startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, navigateInApp, openWebApp, pickOption, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const INTERNAL = /\[[A-Z]\d*\]|\bD\d+\b|\bQ\d+\b|methodology|get_[a-z_]+/;

describe("web app: plain language on screen", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let projectId: string;

  const at = (path: string) => `${server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });

  /** In the app, signed in, with no dialog open: the tests then go on as a user does, through the
   *  menu and the page's own links; otherwise (a retry's page) they load the page they name. */
  async function inApp(): Promise<boolean> {
    if (new URL(page.url()).origin !== server.url || (await page.getByRole("dialog").count()) > 0) return false;
    return (await menu().count()) > 0;
  }
  /** The menu's screen `label` at `path`, opened as a user does. */
  async function openScreen(label: string, path: string) {
    if (!(await inApp())) return void (await page.goto(at(path)));
    await menu().getByText(label, { exact: true }).click();
    await page.waitForURL((url) => url.pathname === path);
  }
  /** The project's calculations of `type`: from the project's row and the type picker, as a user
   *  does, which fetches the list afresh. */
  async function openCalculations(type: CalculationType) {
    const path = `/projects/${projectId}/calculations`;
    if (!(await inApp())) return void (await page.goto(at(`${path}?type=${type}`)));
    if (new URL(page.url()).pathname !== path) {
      await openScreen("Проекты", "/projects");
      await page.locator(".ant-table-row", { hasText: "Шахта Понятная" }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
    if (new URL(page.url()).searchParams.get("type") === type) return;
    await pickOption(page, page.getByLabel("Тип расчета"), REGISTRY[type].title);
    await page.waitForURL((url) => url.searchParams.get("type") === type);
  }

  /** Everything the user can read now, the open dialogs included. */
  async function expectPlain(where: string) {
    const text = await page.locator("body").innerText();
    const found = INTERNAL.exec(text);
    expect(found ? `${where}: «${text.slice(Math.max(0, found.index - 60), found.index + 60)}»` : "").toBe("");
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true });
    // The project and its forecast are made through the API before the page opens on them.
    [projectId] = await createProjectsAs(server.url, server.demo, ["Шахта Понятная"]);
    const rows = [
      { x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 },
      { x1: 1200, x2: 1190, x7: 35, x8: 55, x12: 0.6, x13: 9100, x15: 16 },
    ];
    const forecast = await fetch(at("/api/v1/regres_methane/"), {
      method: "POST",
      headers: { Authorization: `Bearer ${await accessToken(server.url, server.demo)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Прогноз лавы", project: projectId, method: "lightgbm", data: rows }),
    });
    expect(forecast.status).toBe(201);
    app = await openWebApp(server, { viewport: { width: 1440, height: 900 } });
    ({ page, pageErrors } = app);
    await signIn(page, server.url, server.demo, "/dictionary");
    // The app is up (its menu on view): the first test goes on inside it rather than loading it again.
    await menu().waitFor();
  });

  // Each test's own uncaught errors in the page, checked after it: none.
  afterEach(() => expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("shows every category's coefficients with their sources as documents and tables", async () => {
    await openScreen("Справочники", "/dictionary");
    const categories = page.getByTestId("categories");
    for (const pageNumber of [1, 2]) {
      await categories.locator(`.ant-pagination-item-${pageNumber}`).click();
      const rows = categories.locator(".ant-table-row");
      await rows.first().waitFor();
      for (let i = 0; i < (await rows.count()); i++) {
        await rows.nth(i).locator("td").first().click();
        const tables = page.getByTestId("coefficients");
        await tables.getByRole("list", { name: "Источники" }).first().waitFor();
        await expect.poll(() => tables.locator(".ant-spin-spinning").count()).toBe(0);
        await expectPlain(`/dictionary, category ${pageNumber}.${i + 1}`);
        // Item names and sources name the panel in Russian: «МГЭИК 2006», never «IPCC».
        expect(await page.locator("body").innerText()).not.toContain("IPCC");
      }
    }
    const order = page.getByRole("list", { name: "Источники" }).first();
    expect(await order.innerText()).toMatch(/Приказ Минприроды России № 371 от 27\.05\.2022, табл\. 1\.1|МГЭИК 2006/);
    await screenshot(page, { path: `${SHOTS}/web-plain-dictionary.png`, fullPage: true });
  });

  it("shows a calculation's coefficients with plain sources in its results", async () => {
    const created = await callApi(page, "POST", "/api/v1/open_mining_co2/", {
      name: "Самосвалы",
      project: projectId,
      volume: 100,
      dictionary_items: { get_open_mining_co2: 2 },
    });
    expect(created.status).toBe(201);
    await openCalculations("open_mining_co2");
    await page.locator(".ant-table-row", { hasText: "Самосвалы" }).click();
    const results = page.getByTestId("results-dialog");
    await results.getByText("Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1").first().waitFor();
    await expectPlain("results of open_mining_co2");
    await screenshot(page, { path: `${SHOTS}/web-plain-results.png`, fullPage: true });
    await page.getByRole("button", { name: "Закрыть" }).first().click();
  });

  it("says nothing internal on the settings page", async () => {
    await openScreen("Настройки", "/settings");
    await page.getByLabel("Количество знаков после запятой").waitFor();
    await expectPlain("/settings");
  });

  /** Words in Latin letters starting lower-case are what a user should never read: an English
   *  word, a field's internal name («transport_fuel», «year»), a file's name («methane-lightgbm.txt»),
   *  a version written «v1». The file formats the app offers and the forecast's feature symbols
   *  x1…x15 (each shown with its label) are the exceptions. */
  async function expectNoRawWords(where: string, ownTexts: readonly string[] = []) {
    // A user's e-mail (who made a calculation) is their own text, and so is a document's own title
    // (an international guide's English name beside its Russian one).
    let text = (await page.locator("body").innerText()).replace(/\S+@\S+/g, "");
    for (const own of ownTexts) text = text.split(own).join("");
    const words = [...new Set(text.match(/(?<![A-Za-z0-9_.-])[a-z][A-Za-z0-9_.-]+/g) ?? [])];
    const raw = words.filter((w) => !/^(xlsx|xls|csv|txt|pdf|x\d{1,2})$/.test(w.replace(/[.,]$/, "")));
    expect(raw, where).toEqual([]);
  }

  it("says nothing internal and has no English word, field name or file name in the dialogs of the forecast and the series types", async () => {
    for (const type of ["sensitivity", "filling_blanks", "regres_methane"] as const) {
      await openCalculations(type);
      await page.getByRole("button", { name: "Добавить расчет" }).click();
      const dialog = page.getByRole("dialog", { name: "Новый расчет" });
      await dialog.getByLabel("Название расчета").waitFor();
      await dialog.getByRole("button", { name: "Создать" }).waitFor();
      if (type === "sensitivity") await dialog.getByText("Условное значение, принятое в методике расчета").waitFor();
      if (type === "regres_methane")
        await dialog
          .getByTestId("forecast-preview-model")
          .getByText(/версия 1/)
          .waitFor({ timeout: 30_000 });
      await expectPlain(`the ${type} dialog`);
      await expectNoRawWords(`the ${type} dialog`);
      if (type === "sensitivity") await screenshot(page, { path: `${SHOTS}/web-plain-sensitivity-dialog.png` });
      await dialog.getByRole("button", { name: "Отмена" }).click();
      await dialog.waitFor({ state: "hidden" });
    }
  }, 120_000);

  it("has no English word, field name or file name in the forecast's results, the inventory and the charts", async () => {
    await openCalculations("regres_methane");
    await page.locator(".ant-table-row", { hasText: "Прогноз лавы" }).first().click();
    const results = page.getByTestId("forecast-results");
    await results.getByTestId("forecast-model").getByText("LightGBM", { exact: false }).waitFor();
    await expectNoRawWords("the forecast's results");
    await screenshot(page, { path: `${SHOTS}/web-plain-forecast-results.png`, fullPage: true });
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Закрыть" }).first().click();
    await dialog.waitFor({ state: "hidden" });
    // The project's infographics from its row in the list, as a user opens them.
    await openScreen("Проекты", "/projects");
    await page.locator(".ant-table-row", { hasText: "Шахта Понятная" }).getByRole("button", { name: "Инфографика" }).click();
    await page.waitForURL(at(`/projects/${projectId}/graphs`));
    // The forecast's line and the open pit's CO2: the charts of what the project holds.
    await expect.poll(() => page.locator(".js-plotly-plot").count(), { timeout: 20_000 }).toBe(2);
    await expectNoRawWords("the infographics");
    await openScreen("Инвентаризация", "/inventory");
    await page.getByTestId("review-status").waitFor();
    await expectNoRawWords("the inventory");
  }, 120_000);

  it("has no English word, field name, file name or internal tag on the profile and the normative documents", async () => {
    await openScreen("Профиль", "/profile");
    await page.getByText("Ответственный за отчет").first().waitFor();
    await page.getByTestId("totals-by-year").or(page.getByText("Расчетов пока нет")).first().waitFor();
    await expectNoRawWords("/profile");
    await expectPlain("/profile");
    await openScreen("Нормативные документы", "/documents");
    await page.getByRole("heading", { name: "Нормативные документы" }).waitFor();
    await page.locator(".ant-table-row").first().waitFor();
    const { json } = await callApi<{ results: Array<{ title: string; number: string; source_label: string }> }>(
      page,
      "GET",
      "/api/v1/documents/",
    );
    expect(json.results.length).toBeGreaterThan(0);
    // A legal date reads «от 02.07.2021», never «от 2021-07-02».
    const text = await page.locator("body").innerText();
    expect(text).toContain("№ 296-ФЗ от 02.07.2021");
    expect(text).not.toMatch(/от \d{4}-\d{2}-\d{2}/);
    // The panel is named in Russian, once: «МГЭИК», not «IPCC» beside it.
    expect(text).toContain("МГЭИК");
    expect(text).not.toContain("IPCC");
    // Titles, numbers and source names are the documents' own (a UN guide's English title).
    await expectNoRawWords(
      "/documents",
      json.results.flatMap((d) => [d.title, d.number, d.source_label]),
    );
    await expectPlain("/documents");
    await screenshot(page, { path: `${SHOTS}/web-plain-documents.png`, fullPage: true });
  });

  it("tells the operator in words which defaults await checking, with labels instead of field names", async () => {
    const operator = server.admin!;
    if (await inApp()) {
      // Out with «Выход» and in again as the operator on the form, as a second person at this browser.
      await menu().getByText("Выход").click();
      await page.waitForURL(at("/login"));
      await page.getByLabel("Логин").fill(operator.email);
      await page.getByLabel("Пароль").fill(operator.password);
      await page.getByRole("button", { name: "Вход" }).click();
      await page.waitForURL((url) => url.pathname !== "/login");
      await navigateInApp(page, "/admin?tab=dictionaries");
    } else await signIn(page, server.url, operator, "/admin?tab=dictionaries");
    await pickOption(
      page,
      page.getByRole("combobox", { name: "Справочник" }),
      "Коэффициент выбросов CO2 и плотность топлива (транспорт, открытые работы)",
    );
    const table = page.locator(".ant-table-row", { hasText: "Дизельное топливо зимнее" });
    await table.getByText("Плотность топлива").waitFor();
    await table.getByText("ожидает сверки с официальным текстом").first().waitFor();
    await expectPlain("/admin, dictionaries");
    await screenshot(page, { path: `${SHOTS}/web-plain-admin-dictionary.png`, fullPage: true });
    await table.getByRole("button", { name: /Изменить коэффициент/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Коэффициент выбросов CO2, т CO2/т").waitFor();
    await expectPlain("the coefficient change dialog");
  });
});
