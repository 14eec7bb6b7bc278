// «Динамика» in a real browser against the real local server, at 1440 and 390 px: a company with three
// years of an open pit, a base year and a −30 % target: the stacked bars and the intensity line, the
// table in Russian numbers as the API gives them (comparable, and as reported after the switch), the
// target's share achieved, a year's link opening that year's inventory, and no page scrolling sideways.
// Screenshots (SCREENSHOTS=1) go to SCREENSHOT_DIR (default /tmp). Needs web/dist (`npm run build:web`)
// and Chromium.
import { beforeAll, describe, expect, it } from "vitest";
import { openWebApp, browserFile, plain, russian } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const COAL: Record<number, number> = { 2022: 1_000_000, 2023: 1_200_000, 2024: 900_000 };

type Trend = { years: Array<{ year: number; total_t_co2e: number; comparable: { total_t_co2e: number } }> };

describe("web app: «Динамика», the company's years side by side", () => {
  const file = browserFile();
  let facility: string;
  const { call } = file;

  beforeAll(async () => {
    facility = (await call<{ id: string }>("POST", "v1/facilities/", { name: "Разрез «Динамика»", kind: "open_pit" })).id;
    for (const year of [2022, 2023, 2024]) {
      const project = await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: `Разрез «Динамика» ${year}`,
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
        facility,
      });
      await call("POST", "v1/open_mining_ch4/", {
        name: `Добыча ${year}`,
        project: project.id,
        volume: COAL[year],
        dictionary_items: { get_open_mining_ch4: 1 },
      });
    }
    const settings = await call<{ version: number }>("PUT", "v1/inventory/trend/base_year/", {
      year: 2022,
      reason: "Первый год с полными данными",
      version: (await call<{ version: number }>("GET", "v1/inventory/trend/settings/")).version,
    });
    await call("POST", "v1/inventory/trend/targets/", {
      name: "Метановое обязательство",
      gas: "co2e",
      scope: "company",
      kind: "absolute",
      base_year: 2022,
      target_year: 2030,
      percent: 30,
      version: settings.version,
    });
    // A small abatement plan: an enclosed flare on 2 m³/min at 30 % CH4 (methodology section 11).
    await call("POST", "v1/abatement/assessments/", {
      name: "Факел на дегазации",
      streams: [{ code: "d1", kind: "drainage", q_mix_m3_min: 2, c_ch4_pct: 30 }],
      options: { d1: ["FLARE_ENCLOSED"] },
      params: {
        ef_grid_t_per_mwh: 0.5,
        price_el_rub_per_mwh: 6000,
        price_heat_rub_per_mwh: 1500,
        price_carbon_unit_rub: 1000,
        discount_rate: 0.12,
        lifetime_yr: 10,
      },
    });
  }, 120_000);

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`shows the chart, the table and the target at ${viewport.width} px, with no sideways scroll`, async () => {
      const app = await openWebApp(file.server, { user: file.server.demo, viewport, timeout: 30_000 });
      try {
        const { page } = app;
        const trend = await call<Trend>("GET", `v1/inventory/trend/?from=2022&to=2024&facility=${facility}`);
        await page.goto(`${file.server.url}/trend?from=2022&to=2024&facility=${facility}`);
        await page.getByRole("heading", { name: "Динамика", level: 2 }).waitFor();
        const table = page.getByTestId("trend-table");
        const row2024 = table.locator("tr", { has: page.getByTestId("trend-year-2024") });
        await row2024.waitFor();
        const y2024 = trend.years.find((y) => y.year === 2024)!;
        expect(plain(await row2024.innerText())).toContain(russian(y2024.comparable.total_t_co2e, 2));
        expect(plain(await row2024.innerText())).toContain("черновик");
        await page.locator('[data-testid="trend-chart"] .js-plotly-plot').first().waitFor({ timeout: 60_000 });
        await page.getByTestId("targets").getByText("Метановое обязательство").waitFor();
        await page
          .getByTestId("base-year")
          .getByText(/^2022 год:/)
          .waitFor();
        // What the abatement plan would close of the target: its ER against what the latest year still has to reduce.
        const settingsNow = await call<{ targets: Array<{ progress: { latest_value?: number; target_value?: number } }> }>(
          "GET",
          "v1/inventory/trend/settings/",
        );
        const plans = await call<{ results: Array<{ er_t_co2e: number }> }>("GET", "v1/abatement/assessments/");
        const { latest_value = 0, target_value = 0 } = settingsNow.targets[0].progress;
        const share = (plans.results[0].er_t_co2e / (latest_value - target_value)) * 100;
        const closure = page.getByTestId("plan-closure");
        await closure.getByText("Метановое обязательство").waitFor();
        expect(plain(await closure.innerText())).toContain(`${russian(Math.min(share, 100), 1)} %`);
        // No page wider than the screen.
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        // on a desktop the table shows every column, «Удельные выбросы» too, without
        // scrolling inside its card.
        if (viewport.width >= 1440) {
          const inside = await table
            .locator(".ant-table-content, .ant-table-body")
            .first()
            .evaluate((el) => el.scrollWidth - el.clientWidth);
          expect(inside).toBeLessThanOrEqual(1);
          const targets = page.getByTestId("targets").locator(".ant-table-content, .ant-table-body").first();
          expect(await targets.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
        }
        await screenshot(page, { path: `${SHOTS}/trend-${viewport.width}.png`, fullPage: true });
        // As reported: the year's own figures.
        await page.getByText("Как отчитано", { exact: true }).click();
        await expect.poll(async () => plain(await row2024.innerText())).toContain(russian(y2024.total_t_co2e, 2));
        // A year opens its inventory: from the table, and from the chart's bar.
        // The company's view draws the company's target path on the chart.
        await page.goto(`${file.server.url}/trend?from=2022&to=2024`);
        await page.locator('[data-testid="trend-chart"][data-ready="true"]').waitFor({ timeout: 60_000 });
        await page.getByTestId("trend-chart").getByText("Цель: Метановое обязательство").first().waitFor();
        await page.goto(`${file.server.url}/trend?from=2022&to=2024&facility=${facility}`);
        await table.locator("tr", { has: page.getByTestId("trend-year-2023") }).waitFor();
        await page.getByText("Как отчитано", { exact: true }).click();
        await page.getByTestId("trend-year-2023").click();
        await page.waitForURL(/\/inventory\?year=2023/);
        await page.getByRole("heading", { name: "Инвентаризация", level: 2 }).waitFor();
        await page.goBack();
        await page.locator('[data-testid="trend-chart"][data-ready="true"]').waitFor({ timeout: 60_000 });
        await page.locator('[data-testid="trend-chart"] .bars .point path').first().click({ force: true });
        await page.waitForURL(/\/inventory\?year=2022/);
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    });
  }
});
