// D27 in a real browser against the real local server: the inventory screen's «Неопределенность»
// of a mine whose flare destroyed part of its drained methane: the table by IPCC line and gas with
// the destroyed gas taken off the mining line, the total ± % and the Monte Carlo interval as the API
// gives them, in Russian numbers, key categories, and the trend once a base year is picked. Needs
// web/dist (`npm run build:web`) and Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, pickOption, type WebApp, browserFile, plain, russian } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

type Answer = {
  lines: Array<{ id: string; t_co2e: number; u_pct: number; destroyed_t_co2e: number }>;
  total: { t_co2e: number; u_pct: number };
  monte_carlo: { p2_5: number; p97_5: number };
  key_level: Array<{ id: string; key: boolean }>;
};

describe("web app: the year's uncertainty by IPCC line and gas (D27)", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facilityId: string;

  const at = (path: string) => `${file.server.url}${path}`;
  const { call } = file;

  beforeAll(async () => {
    facilityId = (await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Погрешность»", kind: "underground_mine" })).id;
    const project = async (year: number) =>
      (
        await call<{ id: string }>("POST", "v1/projects/create_project/", {
          name: `Шахта «Погрешность» ${year}`,
          start_date: `${year}-01-01`,
          end_date: `${year}-12-31`,
          facility: facilityId,
        })
      ).id;
    const [now, before] = [await project(2025), await project(2024)];
    const mine = (projectId: string, volume: number) =>
      call("POST", "v1/underground_emission_ch4/", {
        name: "Добыча шахты",
        project: projectId,
        volume,
        ef: 14.3,
        dictionary_items: { get_underground_emission_ch4: null },
      });
    await mine(before, 2_800_000);
    // D91: this year's coal booked by half-years at one dictionary entry: one source of error.
    for (const [half, from, to, volume] of [
      ["первое полугодие", "2025-01-01", "2025-06-30", 1_500_000],
      ["второе полугодие", "2025-07-01", "2025-12-31", 1_600_000],
    ] as const) {
      await call("POST", "v1/underground_emission_ch4/", {
        name: `Добыча шахты, ${half}`,
        project: now,
        volume,
        period: { from, to },
        dictionary_items: { get_underground_emission_ch4: 1 },
      });
    }
    await call("POST", "v1/handling_underground_ch4/", {
      name: "После добычи",
      project: now,
      volume: 3_100_000,
      ef: 2.5,
      koef_transform: 0.67,
    });
    await call("POST", "v1/torch_composition/", {
      name: "Факел",
      project: now,
      volume: 20_000,
      w_ch4: 60,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    });
    app = await openWebApp(file.server, { user: file.server.demo, timeout: 20_000 });
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("shows each line with the destroyed gas, the total ± % and the Monte Carlo interval as the API computes them, and the trend to a base year", async () => {
    const answer = await call<Answer>("GET", `v1/inventory/uncertainty/?year=2025&facility=${facilityId}`);
    await page.goto(at(`/inventory?year=2025&facility=${facilityId}`));
    const card = page.getByTestId("year-uncertainty");
    const total = card.getByTestId("year-uncertainty-total");
    await total.waitFor();
    expect(plain(await total.innerText())).toContain(
      `Итого: ${russian(answer.total.t_co2e, 2)} т CO2-экв. ± ${russian(answer.total.u_pct, 1)} %`,
    );
    expect(plain(await card.getByTestId("year-uncertainty-monte-carlo").innerText())).toContain(
      `от ${russian(answer.monte_carlo.p2_5, 2)} до ${russian(answer.monte_carlo.p97_5, 2)}`,
    );
    // The mining line: what the flare destroyed comes off it as uncertain as the flare's metered flow
    // (±20 %, methodology 10.1), and its own uncertainty.
    const mining = answer.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    expect(mining.destroyed_t_co2e).toBeGreaterThan(0);
    const row = card.locator("tr", { hasText: "1.B.1.a.i.1" });
    const text = plain(await row.innerText());
    expect(text).toContain(russian(mining.t_co2e, 2));
    expect(text).toContain(`${russian(mining.destroyed_t_co2e, 2)} (±20,0 %)`);
    expect(text).toContain(`${russian(mining.u_pct, 1)} %`);
    expect(text).toContain(answer.key_level.find((c) => c.id === mining.id)!.key ? "ключевая" : "не ключевая");
    // The trend to 2024, picked from the base years the company has.
    await pickOption(page, card.getByRole("combobox", { name: "Базовый год для тренда" }), "2024");
    const trend = card.getByTestId("year-uncertainty-trend");
    await trend.waitFor();
    const withBase = await call<{ trend: { trend_pct: number; trend_uncertainty_pp: number } }>(
      "GET",
      `v1/inventory/uncertainty/?year=2025&facility=${facilityId}&base=2024`,
    );
    expect(plain(await trend.innerText())).toBe(
      `Тренд к 2024 году: ${withBase.trend.trend_pct >= 0 ? "+" : "−"}${russian(Math.abs(withBase.trend.trend_pct), 1)} % ± ${russian(withBase.trend.trend_uncertainty_pp, 1)} п. п.`,
    );
    await card.getByText("Ключевая по тренду (подход 1, 95 %)").first().waitFor();
    // at 1440 px the table with the trend's column shows every column, without
    // scrolling inside its card.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect
      .poll(() =>
        card
          .locator(".ant-table-content, .ant-table-body")
          .first()
          .evaluate((el) => {
            return el.scrollWidth - el.clientWidth;
          }),
      )
      .toBeLessThanOrEqual(1);
    await card.scrollIntoViewIfNeeded();
    await screenshot(card, { path: `${SHOTS}/year-uncertainty.png` });
    expect(app.pageErrors).toEqual([]);
  });

  it("names the source of error the two estimates share, as the API groups them (D91)", async () => {
    const answer = await call<{
      lines: Array<{
        id: string;
        ef_u: number;
        shared_sources: Array<{ kind: string; label: string; count: number; t_co2e: number; u_pct: number }>;
      }>;
    }>("GET", `v1/inventory/uncertainty/?year=2025&facility=${facilityId}`);
    const mining = answer.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    expect(mining.shared_sources).toHaveLength(1);
    const [group] = mining.shared_sources;
    expect(group).toMatchObject({ kind: "factor", count: 2 });
    // One factor for both: the group carries the entry's own 44 % (IPCC −44/+39 %, its larger side),
    // not 44/√2 as Eq. 3.2 over independent terms would.
    expect(group.u_pct).toBeCloseTo(44, 9);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(at(`/inventory?year=2025&facility=${facilityId}`));
      const shared = page.getByTestId("year-uncertainty-shared");
      await shared.waitFor();
      const text = plain(await shared.innerText());
      expect(text).toContain("Общие источники погрешности");
      expect(text).toContain(
        `1.B.1.a.i.1 CH4: ${group.label.charAt(0).toUpperCase()}${group.label.slice(1)} — расчетов: 2; ${russian(group.t_co2e, 2)} т CO2-экв. до вычета уничтоженного газа; ±${russian(group.u_pct, 1)} %`,
      );
      await shared.scrollIntoViewIfNeeded();
      await screenshot(page.getByTestId("year-uncertainty"), { path: `${SHOTS}/year-uncertainty-shared-${width}.png` });
    }
    expect(app.pageErrors).toEqual([]);
  });
});
