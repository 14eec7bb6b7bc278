// Infographics of a project whose calculations have long names (issue: the rotated «Расчет: …» labels
// took ~70 % of the chart): the labels stay level, wrapped and cut to three lines, the plot keeps at
// least half of each chart's height, the whole name shows on hover with the value in Russian format,
// the axes read «10 000» (never «10k»), and the open pit's methane has its own chart. The project is
// made through the API; each test opens its infographics unless the page shows them, so either runs alone.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };
const LONG = (n: number) => `Вентиляционный ствол № ${n} северного крыла шахты «Распадская-Коксовая», пласт 7-7а, лава 48-${n}`;
const BAR_CHARTS = ["Выбросы при подземной добыче", "Выбросы CO2 при открытой добыче", "Выбросы CH4 при открытой добыче"];

describe("web app: infographics with long calculation names", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let projectId: string;

  const { call } = file;

  beforeAll(async () => {
    projectId = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Шахта и разрез с длинными названиями выработок",
        start_date: "2024-01-01",
        end_date: "2024-12-31",
      })
    ).id;
    const add = (type: string, name: string, values: Record<string, unknown>) =>
      call("POST", `v1/${type}/`, { name, project: projectId, ...values });
    for (let n = 1; n <= 5; n++) await add("underground", LONG(n), { volume: 200_000 * n, ...UNDERGROUND });
    await add("open_mining_co2", `Самосвалы БелАЗ-75131 и экскаваторы ЭКГ-10 участка «Северный» разреза`, { volume: 1200, ef: 3.149 });
    await add("open_mining_co2", `Бульдозеры и вспомогательная техника участка «Южный» разреза`, { volume: 400, ef: 3.026 });
    for (let n = 1; n <= 3; n++) await add("open_mining_ch4", `Добыча открытым способом, ${LONG(n)}`, { volume: 1_000_000 * n, ef: 1.2 });
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    page = app.page;
  }, 90_000);

  /** The project's infographics signed in, in one load. */
  const openGraphs = () => signIn(page, file.server.url, file.server.demo, `/projects/${projectId}/graphs`);

  afterAll(async () => {
    await app?.close();
  });

  it("keeps every bar chart's plot at least half the chart, labels level and at most three lines, axes «10 000»", async () => {
    await openGraphs();
    await expect.poll(() => page.locator(".js-plotly-plot").count(), { timeout: 20_000 }).toBe(3);
    for (const title of BAR_CHARTS) {
      const figure = page.getByRole("figure", { name: title });
      await figure.locator(".xtick text").first().waitFor();
      const chart = await figure.locator(".js-plotly-plot .main-svg").first().boundingBox();
      const plot = await figure.locator(".js-plotly-plot .nsewdrag").first().boundingBox();
      expect(chart && plot, title).toBeTruthy();
      expect(plot!.height / chart!.height, title).toBeGreaterThanOrEqual(0.5);
      // Level labels (no rotation), each at most three lines, cut with «…» when longer.
      const ticks = figure.locator(".xtick text");
      for (let i = 0; i < (await ticks.count()); i++) {
        const tick = ticks.nth(i);
        expect(await tick.getAttribute("transform"), title).not.toMatch(/rotate\((?!0[,)])/);
        expect(await tick.locator("tspan.line").count(), title).toBeLessThanOrEqual(3);
      }
      // The value axis in Russian numbers: no «k», thousands grouped by a space.
      const values = await figure.locator(".ytick text").allTextContents();
      for (const value of values) expect(value, title).toMatch(/^[\d\u00a0 ]+(,\d+)?$/);
    }
    const underground = page.getByRole("figure", { name: BAR_CHARTS[0] });
    const values = await underground.locator(".ytick text").allTextContents();
    expect(values.some((v) => /^\d{1,3}[\u00a0 ]\d{3}$/.test(v))).toBe(true);
    expect((await underground.locator(".xtick text").first().textContent())?.endsWith("…")).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-graphs-long-names.png`, fullPage: true });
  });

  it("shows the whole name and the value in Russian format on hover", async () => {
    // The infographics where the page shows them already, else opened.
    if (new URL(page.url()).pathname !== `/projects/${projectId}/graphs`) await openGraphs();
    const figure = page.getByRole("figure", { name: BAR_CHARTS[2] });
    await figure.locator(".barlayer .point").first().waitFor();
    const box = await figure.locator(".barlayer .point").first().boundingBox();
    expect(box).toBeTruthy();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    const hover = page.locator(".hoverlayer .hovertext").first();
    await hover.waitFor();
    // Its lines (tspans) read with a space between them: the long name wraps inside the chart.
    const text = await hover.evaluate((g) => [...g.querySelectorAll("tspan.line")].map((l) => l.textContent).join(" "));
    const label = await hover.boundingBox();
    const chart = await figure.locator(".js-plotly-plot .main-svg").first().boundingBox();
    expect(label!.x).toBeGreaterThanOrEqual(chart!.x - 1);
    expect(label!.x + label!.width).toBeLessThanOrEqual(chart!.x + chart!.width + 1);
    // 1 000 000 t × 1,2 m³/t × 0,67 kg/m³ = 804 t CH4 (the open pit's own conversion factor).
    expect(text).toContain(`Расчет: Добыча открытым способом, ${LONG(1)}`);
    expect(text).toMatch(/Выбросы CH4 \(Открытая добыча\): 804,00 т CH4/);
    await screenshot(figure, { path: `${SHOTS}/web-graphs-long-names-hover.png` });
  });
});
