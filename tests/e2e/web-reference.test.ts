// The reference screens in a real browser against the real local server (docs/user-guide.md):
// /dictionary (8 categories, 4 a page, coefficient tables with units and sources) and the menu that
// leads to it and to /widgets (the converter's form is tested in jsdom, ConverterForm.test.tsx).
// Each test starts from the screen it names, reached inside the app when the app is open, else (and
// on a retry) in one load: the dictionary on its first page (the page and the chosen category sit in
// the address); any one runs alone or in any order.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { navigateInApp, openWebApp, showSignedIn, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: reference dictionaries", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let consoleErrors: string[];

  const at = (path: string) => `${server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });
  const categories = () => page.getByTestId("categories").locator(".ant-table-row");
  const coefficients = () => page.getByTestId("coefficients");

  /** `path` signed in: inside the app when it is open, else (and on a retry) in one load. */
  async function show(path: string, retry: boolean) {
    if (retry) await signIn(page, server.url, server.demo, path);
    else await showSignedIn(page, server.url, server.demo, path);
  }

  /** /dictionary on its first page (any category chosen), as the menu opens it. */
  async function showDictionary(retry: boolean) {
    const url = new URL(page.url());
    const onFirstPage = url.pathname === "/dictionary" && (url.searchParams.get("page") ?? "1") === "1";
    if (retry || !onFirstPage) await show("/dictionary", retry);
    await page.getByRole("heading", { name: "Справочники" }).waitFor();
    await categories().filter({ hasText: "из систем дегазации" }).waitFor();
  }

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server, { user: server.demo });
    ({ page, pageErrors, consoleErrors } = app);
  });

  // Every test's page errors and console errors, its own: none.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
    expect(consoleErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("switches «Справочники» and «Виджеты» on in the menu", async ({ task }) => {
    // From the landing page, as the app opens.
    if (task.result?.retryCount || new URL(page.url()).pathname !== "/") await show("/", !!task.result?.retryCount);
    await menu().getByText("Справочники", { exact: true }).click();
    await page.waitForURL(at("/dictionary"));
    await page.getByRole("heading", { name: "Справочники" }).waitFor();
  });

  it("lists 4 categories on page 1 with formula, document, type and status", async ({ task }) => {
    await showDictionary(!!task.result?.retryCount);
    await categories().first().waitFor();
    expect(await categories().count()).toBe(4);
    const first = categories().first();
    const cells = await first.locator("td").allInnerTexts();
    expect(cells[0]).toBe("Выбросы CO2 и CH4 из систем дегазации и вентиляции");
    expect(cells[1]).toContain("ECH4 = V × WCH4 × ρCH4 × 10⁻²");
    expect(cells[2]).toContain("Приказ Минприроды № 371");
    expect(cells[3]).toBe("Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)");
    expect(cells[4]).toBe("Активен");
    const link = first.getByRole("link", { name: "Приказ Минприроды № 371" });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await link.getAttribute("href")).toMatch(/^https:\/\/www\.consultant\.ru\//);
    const statuses = await page.getByTestId("categories").locator("td", { hasText: "Активен" }).count();
    expect(statuses).toBe(4);
  });

  it("shows the other 4 categories on page 2 and goes back with «previous»", async ({ task }) => {
    await showDictionary(!!task.result?.retryCount);
    await page.getByTestId("categories").locator(".ant-pagination-item-2").click();
    await categories().filter({ hasText: "Несгоревший CH4" }).waitFor();
    expect(await categories().count()).toBe(4);
    const names = await categories().evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent));
    expect(names).toEqual([
      "Выбросы CH4 при подземной добыче",
      "Несгоревший CH4 при сжигании на факельной установке",
      "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
      "Выбросы CO2 при сжигании метана на факельной установке",
    ]);
    const ipcc = categories().first().getByRole("link", { name: "МГЭИК 2006, т. 2, гл. 4" });
    expect(await ipcc.getAttribute("href")).toBe("https://www.ipcc-nggip.iges.or.jp/public/2006gl/");
    await page.getByTestId("categories").locator(".ant-pagination-prev").click();
    await categories().filter({ hasText: "из систем дегазации" }).waitFor();
  });

  it("opens the densities and contents of category 0 with units, sources, version and date", async ({ task }) => {
    await showDictionary(!!task.result?.retryCount);
    await categories().filter({ hasText: "из систем дегазации" }).locator("td").first().click();
    await coefficients().getByText("Плотность CO2 и CH4 по условиям измерения").waitFor();
    await coefficients().getByText("Содержание CO2 и CH4 по видам смесей").waitFor();
    const density = coefficients().locator("section", { hasText: "Плотность CO2 и CH4 по условиям измерения" });
    // The item's name, version and date span its two rows (CO2, then CH4).
    const co2 = await density.locator("tr", { hasText: "20 °C" }).locator("td").allInnerTexts();
    expect(co2[0]).toBe("20 °C, 101,325 кПа (стандартные условия, ГОСТ 2939-63)");
    expect(co2.slice(1, 4)).toEqual(["Плотность CO2, ρCO2", "1,8393", "кг/м³"]);
    // The source column refers to the table's numbered source list.
    expect(co2[4]).toBe("[1]");
    const sources = await density.getByRole("list", { name: "Источники" }).locator("li").allInnerTexts();
    // The corrected CO2 density at 15 °C cites the gas standard: a second source.
    expect(sources).toHaveLength(2);
    expect(sources[0]).toBe("Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2");
    expect(sources[1]).toContain("ГОСТ 31369-2008");
    const co2At15 = await density.locator("tr", { hasText: "15 °C" }).first().locator("td").allInnerTexts();
    expect(co2At15).toContain("1,8718");
    expect(co2At15).toContain("[2]");
    // Densities carry no uncertainty (taken as exact): «—»; then version and the date of Order 371.
    expect(co2.slice(5)).toEqual(["—", "1", "27.05.2022"]);
    const ch4 = await density
      .locator("tr", { has: page.locator("td", { hasText: /^0,668$/ }) })
      .locator("td")
      .allInnerTexts();
    expect(ch4.slice(0, 3)).toEqual(["Плотность CH4, ρCH4", "0,668", "кг/м³"]);
    expect(ch4[3]).toBe("[1]");
    await density.getByText("[1]").first().hover();
    await page.getByRole("tooltip").filter({ hasText: "Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2" }).waitFor();
    const content = coefficients().locator("section", { hasText: "Содержание CO2 и CH4 по видам смесей" });
    await content.locator("td", { hasText: "Газ дегазации угольных пластов" }).waitFor();
    const mixture = await content.locator("tr", { hasText: "Газ дегазации угольных пластов" }).locator("td").allInnerTexts();
    expect(mixture.slice(1, 4)).toEqual(["Содержание CH4 в смеси, WCH4", "76", "% об."]);
    await screenshot(page, { path: `${SHOTS}/web-dictionary.png`, fullPage: true });
  });

  it("opens the fuel coefficients of the open-mining CO2 category", async ({ task }) => {
    await showDictionary(!!task.result?.retryCount);
    await categories().filter({ hasText: "сжигания топлива техникой" }).locator("td").first().click();
    const table = coefficients().locator("section", { hasText: "плотность топлива" });
    const winter = table.locator("tr", { hasText: "Плотность топлива" }).filter({ hasText: "0,84" });
    await winter.waitFor();
    expect(await winter.locator("td").allInnerTexts()).toEqual(expect.arrayContaining(["0,84", "кг/л"]));
    await table.getByText("Дизельное топливо зимнее").waitFor();
    await table.getByRole("list", { name: "Источники" }).getByText("Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-dictionary-fuel.png`, fullPage: true });
  });
});
