// User text is never markup: calculations named like an HTML link are drawn on
// the infographics screen in a real browser against the real local server, and the page must hold
// no link to the named site — not in the tick labels, the legend or the hover label, which plotly
// reads as limited HTML — while the literal characters «<a href=» are what one sees.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const LINK = '<a href="https://evil.example">Подробнее</a>';
const SHOWN = `Расчет: ${LINK}`;
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };
const HISTORY = [
  { x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 },
  { x1: 1200, x2: 1190, x7: 35, x8: 55, x12: 0.6, x13: 9100, x15: 16 },
  { x1: 900, x2: 905, x7: 28, x8: 40, x12: 0.9, x13: 8800, x15: 12 },
];

describe("web app: calculation names in the charts are text", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let projectId: string;

  const at = (path: string) => `${file.server.url}${path}`;

  const { call } = file;

  /** Links anywhere in the page (HTML or SVG, href or xlink:href) that point at the named site. */
  const evilLinks = () => page.evaluate(() => document.querySelectorAll('a[href*="evil.example"], a[*|href*="evil.example"]').length);

  beforeAll(async () => {
    projectId = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Шахта «Разметка»",
        start_date: "2024-01-01",
        end_date: "2024-12-31",
      })
    ).id;
    await call("POST", "v1/underground/", { name: LINK, project: projectId, volume: 1000, ...UNDERGROUND });
    await call("POST", "v1/open_mining_co2/", { name: LINK, project: projectId, volume: 120, ef: 3.149 });
    await call("POST", "v1/regres_methane/", { name: LINK, project: projectId, method: "xgboost", data: HISTORY });
    app = await openWebApp(file.server, { user: file.server.demo, timeout: 15_000 });
    page = app.page;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows «<a href=…>» literally in the tick labels, the legend and the hover label, and makes no link", async () => {
    await page.goto(at(`/projects/${projectId}/graphs`));
    await expect.poll(() => page.locator(".js-plotly-plot").count(), { timeout: 20_000 }).toBe(3);
    await page.locator(".js-plotly-plot .legendtext", { hasText: "Граница 1 процента" }).waitFor();

    // The two bar charts label their calculation with the name as typed; the forecast's line has it in the legend.
    const ticks = await page.locator(".js-plotly-plot .xtick text").allTextContents();
    expect(ticks.filter((t) => t === SHOWN)).toHaveLength(2);
    const legends = await page.locator(".js-plotly-plot .legendtext").allTextContents();
    expect(legends).toContain(SHOWN);
    await expect.poll(() => page.getByText("<a href=", { exact: false }).first().isVisible()).toBe(true);
    expect(await evilLinks()).toBe(0);

    // Hovering the forecast's first point shows the start of its name in plotly's hover label, as text too.
    const point = page
      .getByRole("figure", { name: "Временной ряд" })
      .locator(".scatterlayer .trace")
      .first()
      .locator(".points path.point")
      .first();
    const box = (await point.boundingBox())!;
    // The point's own path sits under plotly's drag layer: the mouse goes to where it is drawn.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = page.locator(".hoverlayer .hovertext").first();
    await hover.waitFor();
    // (plotly cuts a trace name in the hover label to 15 characters: «Расчет: <...».)
    expect(await hover.textContent()).toContain("Расчет: <");
    expect(await evilLinks()).toBe(0);

    // Nothing of the name became an element: the serialised page holds it only escaped.
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toContain('<a href="https://evil.example"');
    expect(html).toContain("&lt;a href=");

    await screenshot(page, { path: `${SHOTS}/web-graphs-markup.png`, fullPage: true });
    expect(app.pageErrors).toEqual([]);
  });
});
