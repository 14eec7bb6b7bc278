// Infographics and export in a real browser against the real local server (docs/user-guide.md, docs/api.md):
// calculations seeded through the API (a forecast among them, whose line the «Временной ряд» chart
// draws and whose rows the detailed xlsx lists), the three plotly charts drawn under the server's CSP with
// plotly fetched only by this screen, a chart saved as PNG, «Unable to display chart.» when the
// chart code cannot load, and /export producing an xlsx that exceljs opens.
// The data are made through the API before the page opens; each test reaches the screen it starts from
// inside the app when the app is open, else (and on a retry) in one load: the projects list in a page
// that has not fetched plotly, the project's charts drawn, /export with the xlsx and the project
// chosen. Any one runs alone or in any order; each test's page errors are checked after it.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { appOpenAt, openWebApp, showSignedIn, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Карьер «Восточный»";
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };
const FORECAST = "Прогноз лавы 7";
/** The forecast's rows of history, as the dialog's manual table sends them. */
const HISTORY = [
  { x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 },
  { x1: 1200, x2: 1190, x7: 35, x8: 55, x12: 0.6, x13: 9100, x15: 16 },
  { x1: 900, x2: 905, x7: 28, x8: 40, x12: 0.9, x13: 8800, x15: 12 },
  { x1: 1300, x2: 1290, x7: 40, x8: 60, x12: 0.7, x13: 9200, x15: 18 },
  { x1: 800, x2: 790, x7: 25, x8: 45, x12: 0.4, x13: 8700, x15: 11 },
];

describe("web app: infographics and export", () => {
  const file = browserFile();
  let app: WebApp;
  let context: BrowserContext;
  let page: Page;
  let projectId: string;
  /** The forecast's results per row, as the API computed and stores them. */
  let forecastResults: number[];
  let pageErrors: string[];
  let consoleErrors: string[];
  /** The paths the page's document has fetched since it loaded. */
  const requests: string[] = [];

  const at = (path: string) => `${file.server.url}${path}`;
  const charts = () => page.locator(".js-plotly-plot");
  const graphsPath = () => `/projects/${projectId}/graphs`;
  const plotlyFetched = () => requests.some((path) => /\/assets\/plotly-/.test(path));

  /** `path` signed in: inside the app when it is open, else (and on a retry) in one load. */
  async function show(path: string, retry: boolean) {
    if (retry) await signIn(page, file.server.url, file.server.demo, path);
    else await showSignedIn(page, file.server.url, file.server.demo, path);
  }

  /** The projects list, in a page that has not fetched plotly unless `plotlyAllowed`. */
  async function showProjects(retry: boolean, plotlyAllowed: boolean) {
    if (retry || (!plotlyAllowed && plotlyFetched())) await signIn(page, file.server.url, file.server.demo, "/projects");
    else if (new URL(page.url()).pathname !== "/projects") await show("/projects", false);
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    await page.locator(".ant-table-row", { hasText: PROJECT }).waitFor();
  }

  /** The project's three charts drawn (underground, the open pit's CO2, the forecast): as the page shows them, else opened inside the app, or in one
   *  load on a retry or when the page shows the charts' screen without them. */
  async function showGraphs(retry: boolean) {
    const onGraphs = new URL(page.url()).pathname === graphsPath();
    if (retry || (onGraphs && (await charts().count()) !== 3)) await signIn(page, file.server.url, file.server.demo, graphsPath());
    else if (!onGraphs) await show(graphsPath(), false);
    await page.getByRole("heading", { name: `Инфографика — ${PROJECT}` }).waitFor();
    await expect.poll(() => charts().count(), { timeout: 20_000 }).toBe(3);
  }

  /** /export with the xlsx format and the project chosen, its buttons on view. */
  async function showExport(retry: boolean) {
    const url = new URL(page.url());
    const ready =
      url.pathname === "/export" &&
      url.searchParams.get("format") === "xlsx" &&
      (await page.getByRole("button", { name: "Подробный экспорт" }).count()) === 1;
    if (!retry && ready) return;
    await show("/export?format=xlsx", retry);
    await page.getByRole("heading", { name: "Экспорт" }).waitFor();
    await page.getByRole("table", { name: "Проекты" }).locator(".ant-table-row", { hasText: PROJECT }).click();
    await page.getByRole("button", { name: "Подробный экспорт" }).waitFor();
  }

  const { call } = file;

  beforeAll(async () => {
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
    const forecast = await call<{ id: string }>("POST", "v1/regres_methane/", {
      name: FORECAST,
      project: projectId,
      method: "xgboost",
      data: HISTORY,
    });
    const stored = await call<{ data: Array<{ result: number }> }>("GET", `v1/regres_methane/${forecast.id}/single_calc/1/`);
    forecastResults = stored.data.map((r) => r.result);

    app = await openWebApp(file.server, {
      user: file.server.demo,
      timeout: 15_000,
      watch: (page) =>
        page.on("request", (request) => {
          // A new document: what the one before fetched is not this one's.
          if (request.isNavigationRequest() && request.frame() === page.mainFrame()) requests.length = 0;
          requests.push(new URL(request.url()).pathname);
        }),
    });
    ({ context, page, pageErrors, consoleErrors } = app);
  });

  // Every test's page errors, its own: none; and no CSP violation in its console.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
    expect(consoleErrors.splice(0).filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("does not fetch plotly outside the infographics screen", async ({ task }) => {
    await showProjects(!!task.result?.retryCount, false);
    expect(requests.filter((path) => /\/assets\/plotly-/.test(path))).toEqual([]);
  });

  it("opens the infographics from the projects table and draws its three charts", async ({ task }) => {
    await showProjects(!!task.result?.retryCount, true);
    await page.locator(".ant-table-row", { hasText: PROJECT }).getByRole("button", { name: "Инфографика" }).click();
    await page.waitForURL(at(`/projects/${projectId}/graphs`));
    await page.getByRole("heading", { name: `Инфографика — ${PROJECT}` }).waitFor();
    await expect.poll(() => charts().count(), { timeout: 20_000 }).toBe(3);
    await page.locator(".js-plotly-plot .legendtext", { hasText: "Граница 1 процента" }).waitFor();

    const legends = await page.locator(".js-plotly-plot .legendtext").allTextContents();
    expect(legends).toEqual(
      expect.arrayContaining([
        "Выбросы CO2 (Подземная добыча)",
        "Выбросы CH4 (Подземная добыча)",
        "Выбросы CO2 (Дизель)",
        "Выбросы CO2 (Топливо)",
        `Расчет: ${FORECAST}`,
        "Граница 1 процента",
      ]),
    );
    // A label wrapped into lines (tspans) read with a space between them.
    const ticks = await page
      .locator(".js-plotly-plot .xtick text")
      .evaluateAll((texts) =>
        texts.map((t) =>
          t.querySelector("tspan.line") ? [...t.querySelectorAll("tspan.line")].map((l) => l.textContent).join(" ") : t.textContent,
        ),
      );
    expect(ticks).toEqual(
      expect.arrayContaining(["Расчет: Вентиляционный ствол", "Расчет: Дегазация", "Расчет: Самосвалы", "Расчет: Легковой транспорт"]),
    );
    await page.getByText("Временной ряд").first().waitFor();
    await page.locator(".js-plotly-plot .g-xtitle", { hasText: "Дни" }).waitFor();
    await page.locator(".js-plotly-plot .g-ytitle", { hasText: "Проценты (%)" }).waitFor();

    // The figures as plotly holds them: bars per calculation, the axis of docs/user-guide.md, 300 px high.
    const figures = await page.evaluate(() =>
      [
        ...document.querySelectorAll<
          HTMLElement & { data: Array<{ name: string; y: number[] }>; layout: { yaxis: { range: number[]; dtick: number } } }
        >(".js-plotly-plot"),
      ].map((div) => ({
        traces: div.data.map((t) => ({ name: t.name, y: [...t.y] })),
        yaxis: div.layout.yaxis,
        height: div.getBoundingClientRect().height,
        width: div.getBoundingClientRect().width,
      })),
    );
    expect(figures[0].traces.map((t) => t.y.length)).toEqual([2, 2]);
    expect(figures[1].traces).toEqual([
      { name: "Выбросы CO2 (Дизель)", y: [expect.closeTo(120 * 3.149, 6)] },
      { name: "Выбросы CO2 (Топливо)", y: [expect.closeTo(40 * 3.026, 6)] },
    ]);
    // The forecast's line, a point a day, then the 1 % line.
    expect(figures[2].traces).toEqual([
      { name: `Расчет: ${FORECAST}`, y: forecastResults },
      { name: "Граница 1 процента", y: [1, 1] },
    ]);
    expect(forecastResults).toHaveLength(HISTORY.length);
    // And drawn: the first trace's line is an SVG path through five points, with its markers.
    const forecastTrace = page.getByRole("figure", { name: "Временной ряд" }).locator(".scatterlayer .trace").first();
    const line = await forecastTrace.locator("path.js-line").getAttribute("d");
    expect(line?.match(/[ML]/g)).toHaveLength(HISTORY.length);
    expect(await forecastTrace.locator(".points path.point").count()).toBe(HISTORY.length);
    expect(figures[2].yaxis).toMatchObject({ range: [0, 2], dtick: 0.2 });
    for (const figure of figures) {
      expect(figure.height).toBe(300);
      expect(figure.width).toBeGreaterThan(450);
      expect(figure.width).toBeLessThan(700);
    }
    await screenshot(page, { path: `${SHOTS}/web-graphs.png`, fullPage: true });
    await screenshot(page.getByRole("figure", { name: "Временной ряд" }), { path: `${SHOTS}/web-graphs-forecast.png` });
  });

  it("runs plotly under the CSP without violations or page errors", async ({ task }) => {
    // The charts drawn in this page (a CSP violation while they were drawn fails the test that drew them).
    await showGraphs(!!task.result?.retryCount);
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests.filter((path) => /\/assets\/plotly-(?!locale)/.test(path))).toHaveLength(1);
  });

  it("saves a chart as PNG", async ({ task }) => {
    await showGraphs(!!task.result?.retryCount);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("figure", { name: "Временной ряд" }).getByRole("button", { name: "Сохранить как PNG" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Временной ряд - ${PROJECT}.png`);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("stacks the charts full width on a narrow screen", async ({ task }) => {
    await showGraphs(!!task.result?.retryCount);
    await page.setViewportSize({ width: 700, height: 900 });
    try {
      await expect
        .poll(async () => new Set(await charts().evaluateAll((divs) => divs.map((d) => Math.round(d.getBoundingClientRect().left)))).size, {
          timeout: 10_000,
        })
        .toBe(1);
      const boxes = await charts().evaluateAll((divs) => divs.map((d) => d.getBoundingClientRect().toJSON() as DOMRect));
      expect(new Set(boxes.map((b) => Math.round(b.left))).size).toBe(1);
      expect(boxes[1].top).toBeGreaterThan(boxes[0].top);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("forgets the chart data on leaving and loads it again on return", async ({ task }) => {
    await showGraphs(!!task.result?.retryCount);
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Проекты", { exact: true }).click();
    await page.waitForURL(at("/projects"));
    // The URL changes before React commits the new page (navigations are transitions).
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    expect(await charts().count()).toBe(0);
    // Hold the next answer back: meanwhile the screen must show the spinner, not the old charts.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The chart data's API path, as the typed client (hono/client) writes it: no trailing slash.
    const graphsApi = `**/api/v1/projects/${projectId}/graphs`;
    await page.route(graphsApi, async (route) => {
      await held;
      await route.continue();
    });
    try {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/projects/${projectId}/graphs`);
      await page.goBack();
      await page.getByText("Loading ...").first().waitFor();
      expect(await charts().count()).toBe(0);
      release();
      await answered;
      await expect.poll(() => charts().count(), { timeout: 20_000 }).toBe(3);
    } finally {
      release();
      await page.unroute(graphsApi);
    }
  });

  it("shows «Unable to display chart.» when the chart code cannot load", async () => {
    const fresh = await context.newPage();
    fresh.setDefaultTimeout(15_000);
    await fresh.route("**/assets/plotly-*.js", (route) => route.abort());
    await fresh.goto(at(`/projects/${projectId}/graphs`));
    await fresh.getByRole("heading", { name: `Инфографика — ${PROJECT}` }).waitFor();
    await expect.poll(() => fresh.getByText("Unable to display chart.").count(), { timeout: 20_000 }).toBe(3);
    await fresh.close();
  }, 60_000);

  it("exports the project to xlsx from /export", async ({ task }) => {
    // From a screen of the app other than /export, whose menu then leads there with no format chosen.
    const retry = !!task.result?.retryCount;
    if (retry || !appOpenAt(page, file.server.url) || new URL(page.url()).pathname === "/export") await show("/projects", retry);
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Экспорт", { exact: true }).click();
    await page.waitForURL(at("/export"));
    await page.getByRole("heading", { name: "Экспорт" }).waitFor();
    await expect.poll(() => page.getByRole("table", { name: "Проекты" }).count()).toBe(0);

    await page.locator(".ant-table-row", { hasText: "Книга Excel 97–2003" }).click();
    await page.getByRole("table", { name: "Проекты" }).waitFor();
    await page.locator(".ant-table-row", { hasText: PROJECT }).click();
    await page.getByRole("button", { name: "Подробный экспорт" }).waitFor();

    await page.locator(".ant-table-row", { hasText: "Текстовый файл" }).click();
    await page.getByRole("button", { name: "Экспорт данных" }).waitFor();
    // The button is there for every format; the detailed export goes once the page has rendered the choice.
    await expect.poll(() => page.getByRole("button", { name: "Подробный экспорт" }).count()).toBe(0);

    await page.locator(".ant-table-row", { hasText: /^xlsx/ }).click();
    await page.getByRole("button", { name: "Подробный экспорт" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-export.png`, fullPage: true });
    // The message below is this export's: one an export just before left is gone first.
    const saved = page.getByText(`Файл «${PROJECT}.xlsx» сохранен`);
    await saved.first().waitFor({ state: "detached" });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Экспорт данных" }).click()]);
    expect(download.suggestedFilename()).toBe(`${PROJECT}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual([
      "Проект",
      "Выбросы CO2 от сжигания топлива",
      "Выбросы CO2 и CH4 из систем дег",
      "Прогноз концентрации метана в и",
      "Итоги",
    ]);
    expect(workbook.getWorksheet("Проект")!.getCell("B3").value).toBe(PROJECT);
    await saved.first().waitFor();
  });

  it("lists the forecast's rows in the detailed xlsx export", async ({ task }) => {
    await showExport(!!task.result?.retryCount);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Подробный экспорт" }).click()]);
    // Saved apart from «Экспорт данных», never over it.
    expect(download.suggestedFilename()).toBe(`${PROJECT} (подробный).xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    const rows = workbook.getWorksheet("Строки. Прогноз концентрации ме")!;
    expect(rows.rowCount).toBe(2 + HISTORY.length);
    for (let i = 0; i < HISTORY.length; i++) {
      const values = (rows.getRow(3 + i).values as unknown[]).slice(1);
      expect([values[0], values[1], values[2], values.at(-1)]).toEqual([FORECAST, i + 1, HISTORY[i].x1, forecastResults[i]]);
    }
  });

  it("shows the user why an export failed", async ({ task }) => {
    await showExport(!!task.result?.retryCount);
    await page.route("**/export_to_xlsx/**", (route) =>
      route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ detail: "Unsupported file type" }) }),
    );
    try {
      await page.getByRole("button", { name: "Подробный экспорт" }).click();
      await page.getByRole("alert").filter({ hasText: "Не удалось выгрузить проект: Unsupported file type" }).first().waitFor();
      expect(consoleErrors.some((text) => text.includes("Failed to export project"))).toBe(true);
    } finally {
      await page.unroute("**/export_to_xlsx/**");
    }
  });
});
