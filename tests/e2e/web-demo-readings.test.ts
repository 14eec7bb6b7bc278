// The demo mine's simulated АГК in a real browser (functions/src/demo-readings.ts): the demo company's
// «Данные АГК» and «Полнота данных датчиков» say «демонстрационные данные» above what they show, the
// offers tag each point, and the shaft's month shows the minutes the simulator's gap and stuck stretch
// made substituted; «Мониторинг» shows the longwall's five calibrated default models as one table, each
// horizon with its interval (P «—» until judged), the model and alert rule said once, wholly in sight at
// 1440 and 390 px. Screenshots with SCREENSHOTS=1. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const NOTE = "Показаны демонстрационные данные: показания датчиков сделаны симулятором АГК, а не получены от шахты";

describe("web app: the demo mine's readings", () => {
  const file = browserFile({ demoYear: true, own: true });
  let app: WebApp;
  let page: Page;
  let mine = "";

  beforeAll(async () => {
    // A server of its own: the demo year seeds the demo company's requisites, which another file
    // of the same worker (web-chart-modebar) seeds too on the shared server (its ИНН is then taken).
    const call = file.call;
    const facilities = await call<Array<{ id: string; kind: string }>>("GET", "v1/facilities/");
    mine = facilities.find((f) => f.kind === "underground_mine")!.id;
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("labels «Данные АГК» and «Полнота данных датчиков» «демонстрационные данные»", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${mine}/agk-data`);
    // The note comes with the year's offers, each month computed from its minutes (a heavy read): the
    // user waits for them, so this waits as long as a loaded server takes to answer (12 s seen at load 20).
    await page.getByText(NOTE).waitFor({ timeout: 60_000 });
    const rows = page.getByRole("row", { name: /Вентиляционный ствол № 2\s*демонстрационные данные/ });
    const shaft = rows.last();
    await shaft.waitFor();
    // The month still running is shown with its minutes so far, not offered; the month before it is.
    expect(await shaft.textContent()).toMatch(/месяц идет: [\d\s]+ из [\d\s]+ минут/);
    if ((await rows.count()) > 1) expect(await rows.first().textContent()).toMatch(/Принять/);
    await screenshot(page, { path: `${SHOTS}/web-demo-readings-offers.png`, fullPage: true });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${mine}/completeness`);
    // The sensors' heat map, not a bare «ВС2-CH4» nor the note: «Данные АГК» shows both too (its points'
    // channels), and it stays in sight while the completeness page loads.
    await page.getByTestId("sensor-heat-map").getByText("ВС2-CH4").first().waitFor({ timeout: 60_000 });
    await page.getByText(NOTE).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-demo-readings-completeness.png`, fullPage: true });
    expect(await page.getByText(NOTE).count()).toBe(1);
  });

  it("shows the longwall's forecasts on «Мониторинг» as one table with their intervals, the rule said once", async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${mine}/monitoring`);
      const tile = page.getByTestId("live-tile").filter({ hasText: "Лава 24-15" });
      const rows = tile.getByTestId("live-forecast");
      await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(5);
      const cells = await rows.evaluateAll((list) => list.map((r) => [...r.children].map((c) => c.textContent ?? "")));
      expect(cells.map((c) => c[0])).toEqual(["10 мин", "30 мин", "1 ч", "2 ч", "6 ч"]);
      // Calibrated for the demo: every horizon has its interval. P only once judged better than the base
      // rate on the rows after the model's period: the demo's longwall never reaches its
      // limit, so it is too early to judge and P is «—», with the reason said.
      for (const c of cells) {
        expect(c[3]).toMatch(/^\d+(,\d+)?–\d+(,\d+)?$/);
        expect(c[4]).toBe("—");
      }
      const text = (await tile.textContent()) ?? "";
      expect(text).not.toContain("Модель не откалибрована");
      expect(text).toContain("Вероятность превышения не показывается: судить рано");
      expect(text.split("Модель: XGBoost")).toHaveLength(2);
      expect(text.split(/Оповещение по (?:прогнозу|текущему значению) \(/)).toHaveLength(2);
      await screenshot(page, { path: `${SHOTS}/web-demo-monitoring-${width}.png`, fullPage: true });
      expect(await wholly(tile.getByTestId("live-forecasts"))).toBe(true);
      expect(await brokenWords(page, "[data-testid=live-tile]")).toEqual([]);
    }
  });
});
