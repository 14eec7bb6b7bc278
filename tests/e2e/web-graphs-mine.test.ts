// A mine's infographics in a real browser against the real local server: a mine
// with two ventilation shafts and a drainage station measured month by month, a flare burning the
// drained gas and coal handling (post-mining) shows the monthly CH4 per point by source kind, its
// drained, destroyed and vented methane and its balance with the figures on the Sankey, post-mining
// included, and no chart of an open pit or an empty one; plotly's mode bar covers no plot, legend
// or Sankey node. The data are made through the API before the page opens.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта «Северная» 2025";
const GAS = { p_co2: 1.8393, p_ch4: 0.668 };
const MONTHLY = "Выделение CH4 по месяцам и источникам";

/** Twelve monthly periods of 2025 at `flow` m³/min, working every hour, `w_ch4` % CH4. */
const months = (flow: number, w_ch4: number) =>
  Array.from({ length: 12 }, (_, i) => {
    const last = new Date(Date.UTC(2025, i + 1, 0)).getUTCDate();
    const month = String(i + 1).padStart(2, "0");
    return {
      from: `2025-${month}-01`,
      to: `2025-${month}-${last}`,
      flow_m3_min: flow * (1 + (i % 4) / 10),
      hours: last * 24,
      w_ch4,
      w_co2: 0.1,
    };
  });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("web app: a mine's infographics", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let projectId: string;

  const { call } = file;

  beforeAll(async () => {
    const mine = await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Северная»", kind: "underground_mine" });
    const point = async (name: string, kind: string) =>
      (await call<{ id: string }>("POST", `v1/facilities/${mine.id}/points/`, { name, kind })).id;
    const shaft1 = await point("Вентиляционный ствол № 1", "ventilation_shaft");
    const shaft2 = await point("Вентиляционный ствол № 2", "ventilation_shaft");
    const drainage = await point("ВДУ-1", "drainage_station");
    const flare = await point("Факел", "flare");
    projectId = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: PROJECT,
        start_date: "2025-01-01",
        end_date: "2025-12-31",
        facility: mine.id,
      })
    ).id;
    const add = (type: string, name: string, values: Record<string, unknown>) =>
      call("POST", `v1/${type}/`, { name, project: projectId, ...values });
    await add("underground", "Ствол № 1", { basis: "gross", periods: months(9000, 0.5), point: shaft1, ...GAS });
    await add("underground", "Ствол № 2", { basis: "gross", periods: months(7000, 0.4), point: shaft2, ...GAS });
    await add("underground", "ВДУ-1", { basis: "gross", periods: months(60, 40), point: drainage, ...GAS });
    await add("torch_composition", "Факел", {
      volume: 15_000,
      w_ch4: 40,
      w_co2: 0.1,
      cf: 0,
      ...GAS,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      point: flare,
    });
    await add("handling_underground_ch4", "Обработка угля", { volume: 2_100_000, ef: 1, koef_transform: 0.67 });
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  /** Every chart of the page drawn, and their titles. */
  async function drawnCharts(): Promise<string[]> {
    const figures = page.locator('[role="figure"]');
    await expect.poll(() => page.locator('[role="figure"][data-ready="true"]').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[role="figure"]:not([data-ready="true"])').count(), { timeout: 60_000 }).toBe(0);
    return figures.evaluateAll((all) => all.map((figure) => figure.getAttribute("aria-label") ?? ""));
  }

  /** Per chart, its mode bar's box and the boxes it must not cover: the plot, the legend, a Sankey's
   *  nodes and their labels (plotly lays the mode bar out whether or not the pointer is over it). */
  const boxes = () =>
    page.locator('[role="figure"]').evaluateAll((figures) =>
      figures.map((figure) => {
        const box = (element: Element) => {
          const { x, y, width, height } = element.getBoundingClientRect();
          return { x, y, width, height };
        };
        const modebar = figure.querySelector(".modebar");
        const others = [...figure.querySelectorAll(".nsewdrag, .legend, .sankey .node-rect, .sankey .node-label")]
          .map(box)
          .filter((b) => b.width > 0 && b.height > 0);
        return { title: figure.getAttribute("aria-label") ?? "", modebar: modebar ? box(modebar) : undefined, others };
      }),
    );

  it("draws the monthly CH4 per point, the drained and destroyed methane and the balance, and no empty or open-pit chart", async () => {
    await signIn(page, file.server.url, file.server.demo, `/projects/${projectId}/graphs`);
    await page.getByRole("heading", { name: `Инфографика — ${PROJECT}` }).waitFor();
    const titles = await drawnCharts();
    expect(titles).toEqual([
      MONTHLY,
      "Выбросы при подземной добыче",
      "Каптировано, уничтожено и выброшено CH4",
      "Баланс метана — Шахта «Северная», 2025, т CH4",
    ]);
    expect(await page.getByText("Нет расчетов").count()).toBe(0);
    expect(await page.getByText("Временной ряд").count()).toBe(0);

    const monthly = page.getByRole("figure", { name: MONTHLY });
    // Twelve months, a bar for each point in each: three points.
    expect(await monthly.locator(".xtick text").allTextContents()).toEqual(
      ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"].map((m) => `${m}2025`),
    );
    expect(await monthly.locator(".barlayer .trace").count()).toBe(3);
    const legend = (await monthly.locator(".legend").textContent()) ?? "";
    expect(legend).toContain("Вентиляционный ствол № 1 (вентиляция)");
    expect(legend).toContain("Вентиляционный ствол № 2 (вентиляция)");
    expect(legend).toContain("ВДУ-1 (дегазация)");

    const sankey = page.getByRole("figure", { name: /^Баланс метана/ });
    const nodes = await sankey.locator(".sankey .node-label").allTextContents();
    // Its name and, on the line under it, its figure.
    expect(nodes).toContain("После добычи (обработка угля)1\u00a0407,00 т");
    expect(nodes.every((label) => /\D[\d\u00a0]+,\d\d т$/.test(label))).toBe(true);

    await screenshot(page, { path: `${SHOTS}/web-graphs-mine.png`, fullPage: true });
    for (const { title, modebar, others } of await boxes()) {
      expect(modebar, title).toBeTruthy();
      for (const box of others) expect(overlaps(modebar!, box), `${title}: the mode bar covers ${JSON.stringify(box)}`).toBe(false);
    }
  }, 90_000);
});
