// Infographics and export in a real browser against the real local server (SPEC 2, 4, 7, 8):
// calculations seeded through the API, the three plotly charts drawn under the server's CSP with
// plotly fetched only by this screen, a chart saved as PNG, «Unable to display chart.» when the
// chart code cannot load, and /export producing an xlsx that exceljs opens.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { chromiumAvailable } from "../support/browser";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, type WebApp } from "../support/web-page";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Карьер «Восточный»";
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

describe.skipIf(!chromiumAvailable())("web app: infographics and export", () => {
  let server: TestServer;
  let app: WebApp;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let projectId: string;
  let pageErrors: string[];
  let consoleErrors: string[];
  const requests: string[] = [];

  const at = (path: string) => `${server.url}${path}`;
  const charts = () => page.locator(".js-plotly-plot");

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(at(`/api/${path}`), {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    server = await startTestServer();
    token = await accessToken(server.url, server.demo);
    const project = await call<{ id: string }>("POST", "v1/projects/create_project/", {
      name: PROJECT,
      start_date: "2024-01-01",
      end_date: "2024-12-31",
    });
    projectId = project.id;
    const add = (type: string, name: string, values: Record<string, number>) =>
      call("POST", `v1/${type}/`, { name, project: projectId, ...values });
    await add("underground", "Вентиляционный ствол", { volume: 1000, ...UNDERGROUND });
    await add("underground", "Дегазация", { volume: 600, ...UNDERGROUND });
    await add("open_mining_co2", "Самосвалы", { volume: 120, ef: 3.149 });
    await add("open_mining_co2", "Легковой транспорт", { volume: 40, ef: 3.026 });

    app = await openWebApp(server, {
      user: server.demo,
      timeout: 15_000,
      acceptDownloads: true,
      watch: (page) => page.on("request", (request) => requests.push(new URL(request.url()).pathname)),
    });
    ({ context, page, pageErrors, consoleErrors } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("does not fetch plotly outside the infographics screen", async () => {
    await page.goto(at("/projects"));
    await page.locator(".ant-table-row", { hasText: PROJECT }).waitFor();
    expect(requests.filter((path) => /\/assets\/plotly-/.test(path))).toEqual([]);
  });

  it("opens the infographics from the projects table and draws three charts", async () => {
    await page.locator(".ant-table-row", { hasText: PROJECT }).getByRole("button", { name: "Инфографика" }).click();
    await page.waitForURL(at(`/projects/${projectId}/graphs`));
    await page.getByRole("heading", { name: `Инфографика - ${PROJECT}` }).waitFor();
    await expect.poll(() => charts().count(), { timeout: 20_000 }).toBe(3);
    await page.locator(".js-plotly-plot .legendtext", { hasText: "Граница 1 процента" }).waitFor();

    const legends = await page.locator(".js-plotly-plot .legendtext").allTextContents();
    expect(legends).toEqual(
      expect.arrayContaining([
        "Выбросы CO2 (Подземная добыча)",
        "Выбросы CH4 (Подземная добыча)",
        "Выбросы CO2 (Дизель)",
        "Выбросы CO2 (Топливо)",
        "Граница 1 процента",
      ]),
    );
    const ticks = await page.locator(".js-plotly-plot .xtick text").allTextContents();
    expect(ticks).toEqual(expect.arrayContaining(["Расчет: Вентиляционный ствол", "Расчет: Дегазация", "Расчет: Самосвалы", "Расчет: Легковой транспорт"]));
    await page.getByText("Временной ряд").first().waitFor();
    await page.locator(".js-plotly-plot .g-xtitle", { hasText: "Дни" }).waitFor();
    await page.locator(".js-plotly-plot .g-ytitle", { hasText: "Проценты (%)" }).waitFor();

    // The figures as plotly holds them: bars per calculation, the axis of SPEC 9, 300 px high.
    const figures = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement & { data: Array<{ name: string; y: number[] }>; layout: { yaxis: { range: number[]; dtick: number } } }>(".js-plotly-plot")].map(
        (div) => ({ traces: div.data.map((t) => ({ name: t.name, y: [...t.y] })), yaxis: div.layout.yaxis, height: div.getBoundingClientRect().height, width: div.getBoundingClientRect().width }),
      ),
    );
    expect(figures[0].traces.map((t) => t.y.length)).toEqual([2, 2]);
    expect(figures[1].traces).toEqual([
      { name: "Выбросы CO2 (Дизель)", y: [expect.closeTo(120 * 3.149, 6)] },
      { name: "Выбросы CO2 (Топливо)", y: [expect.closeTo(40 * 3.026, 6)] },
    ]);
    expect(figures[2].traces.at(-1)).toEqual({ name: "Граница 1 процента", y: [1, 1] });
    expect(figures[2].yaxis).toMatchObject({ range: [0, 2], dtick: 0.2 });
    for (const figure of figures) {
      expect(figure.height).toBe(300);
      expect(figure.width).toBeGreaterThan(450);
      expect(figure.width).toBeLessThan(700);
    }
    await page.screenshot({ path: `${SHOTS}/web-graphs.png`, fullPage: true });
  });

  it("runs plotly under the CSP without violations or page errors", () => {
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests.filter((path) => /\/assets\/plotly-/.test(path))).toHaveLength(1);
  });

  it("saves a chart as PNG", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("figure", { name: "Временной ряд" }).getByRole("button", { name: "Сохранить как PNG" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Временной ряд - ${PROJECT}.png`);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("stacks the charts full width on a narrow screen", async () => {
    await page.setViewportSize({ width: 700, height: 900 });
    await expect
      .poll(async () => new Set(await charts().evaluateAll((divs) => divs.map((d) => Math.round(d.getBoundingClientRect().left)))).size, {
        timeout: 10_000,
      })
      .toBe(1);
    const boxes = await charts().evaluateAll((divs) => divs.map((d) => d.getBoundingClientRect().toJSON() as DOMRect));
    expect(new Set(boxes.map((b) => Math.round(b.left))).size).toBe(1);
    expect(boxes[1].top).toBeGreaterThan(boxes[0].top);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("forgets the chart data on leaving and loads it again on return", async () => {
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Проекты", { exact: true }).click();
    await page.waitForURL(at("/projects"));
    // The URL changes before React commits the new page (navigations are transitions).
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    expect(await charts().count()).toBe(0);
    // Hold the next answer back: meanwhile the screen must show the spinner, not the old charts.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/graphs/", async (route) => {
      await held;
      await route.continue();
    });
    const answered = page.waitForResponse((response) => response.url().endsWith("/graphs/"));
    await page.goBack();
    await page.getByText("Loading ...").first().waitFor();
    expect(await charts().count()).toBe(0);
    release();
    await answered;
    await expect.poll(() => charts().count(), { timeout: 20_000 }).toBe(3);
    await page.unroute("**/graphs/");
  });

  it("shows «Unable to display chart.» when the chart code cannot load", async () => {
    const fresh = await context.newPage();
    fresh.setDefaultTimeout(15_000);
    await fresh.route("**/assets/plotly-*.js", (route) => route.abort());
    await fresh.goto(at(`/projects/${projectId}/graphs`));
    await fresh.getByRole("heading", { name: `Инфографика - ${PROJECT}` }).waitFor();
    await expect.poll(() => fresh.getByText("Unable to display chart.").count(), { timeout: 20_000 }).toBe(3);
    await fresh.close();
  }, 60_000);

  it("exports the project to xlsx from /export", async () => {
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Экспорт", { exact: true }).click();
    await page.waitForURL(at("/export"));
    await page.getByRole("heading", { name: "Экспорт" }).waitFor();
    expect(await page.getByRole("table", { name: "Проекты" }).count()).toBe(0);

    await page.locator(".ant-table-row", { hasText: "Книга Excel 97–2003" }).click();
    await page.getByRole("table", { name: "Проекты" }).waitFor();
    await page.locator(".ant-table-row", { hasText: PROJECT }).click();
    await page.getByRole("button", { name: "Подробный экспорт" }).waitFor();

    await page.locator(".ant-table-row", { hasText: "Текстовый файл" }).click();
    await page.getByRole("button", { name: "Экспорт данных" }).waitFor();
    expect(await page.getByRole("button", { name: "Подробный экспорт" }).count()).toBe(0);

    await page.locator(".ant-table-row", { hasText: /^xlsx/ }).click();
    await page.getByRole("button", { name: "Подробный экспорт" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/web-export.png`, fullPage: true });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Экспорт данных" }).click()]);
    expect(download.suggestedFilename()).toBe(`${PROJECT}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual([
      "Проект",
      "Выбросы CO2 от сжигания топлива",
      "Выбросы CO2 и CH4 из систем дег",
      "Итоги",
    ]);
    expect(workbook.getWorksheet("Проект")!.getCell("B3").value).toBe(PROJECT);
    await page.getByText(`Файл «${PROJECT}.xlsx» сохранен`).first().waitFor();
  });

  it("shows the user why an export failed", async () => {
    await page.route("**/export_to_xlsx/**", (route) =>
      route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ detail: "Unsupported file type" }) }),
    );
    await page.getByRole("button", { name: "Подробный экспорт" }).click();
    await page.getByRole("alert").filter({ hasText: "Не удалось выгрузить проект: Unsupported file type" }).first().waitFor();
    expect(consoleErrors.some((text) => text.includes("Failed to export project"))).toBe(true);
    await page.unroute("**/export_to_xlsx/**");
  });
});
