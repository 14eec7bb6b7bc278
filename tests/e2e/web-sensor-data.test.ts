// What a mine's readings give per sensor, in a real browser (methodology D58–D62): section 12's
// ventilation hour pushed in January, «Датчики» › «Полнота данных датчиков» shows the heat map with the
// month's percent and «! < 95 %» in words; a cell opens «Пропуски и замещения» with the 10-minute gap
// substituted by «(0,44 + 0,46) / 2 = 0,45»; «Сутки» opens the hour's day with its chart and its runs
// in words. At 1440 and 390 px, nothing wider than the phone but the heat map's own scroll (its sensors
// in sight, its latest month shown, the scroll said in words), the gaps as blocks whose rule and cause
// are in sight; screenshots with SCREENSHOTS=1. Needs web/dist.
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { instantOfWallTime } from "@core/company-clock";
import { browserFile, navigateInApp, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const YEAR = new Date().getFullYear();
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe("web app: a sensor's completeness, gaps and day", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";
  let methane = "";

  beforeAll(async () => {
    const { call } = file;
    const mine = await newMine(call, "Шахта «Полнота»", "Вентиляционный ствол № 1");
    facility = mine.facility;
    const point = mine.point;
    await call("POST", `v1/facilities/${facility}/sensors/`, { code: "Q-1", kind: "flow", point });
    methane = (
      await call<{ id: string }>("POST", `v1/facilities/${facility}/sensors/`, {
        code: "М-12",
        kind: "methane",
        point,
        warning: 1,
        alarm: 1.5,
        // a meter registered today, with no date put in service and no reading before
        // the 15th, served no January before its first reading; put in service from 01.01, as its register
        // says, its January is the whole month (0,13 % = 60 of 44 640 minutes).
        in_service_from: `${YEAR}-01-01`,
      })
    ).id;
    // Section 12's ventilation hour on the 15th of January, 10:00 in Kemerovo.
    const hour = instantOfWallTime(YEAR, 1, 15, 10, 0, "Asia/Novokuznetsk");
    const readings = [];
    for (let m = 0; m < 60; m++) {
      const t = new Date(hour + m * 60_000).toISOString();
      readings.push({ sensor: "Q-1", t, value: 12000 });
      if (m < 20 || m >= 30) readings.push({ sensor: "М-12", t, value: m < 20 ? 0.44 : 0.46 });
    }
    await call("POST", "v1/telemetry/readings/", { facility, readings });
    // Applied off the request thread after its 202 (local/readings-consumer.ts): the pages read it once in.
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await page?.setViewportSize({ width: 1366, height: 860 });
    await app?.close();
  });

  const fitsPhone = () => page.evaluate(() => document.documentElement.scrollWidth);

  it("goes from «Датчики» to the heat map, the month's gaps and the hour's day, at 1440 and 390 px", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensors`);
    await page.getByRole("cell", { name: "М-12", exact: true }).waitFor();
    await page.getByRole("link", { name: "Полнота данных датчиков", exact: true }).click();

    const january = page.getByRole("link", { name: new RegExp(`^М-12, 01\\.${YEAR}: полнота 0,13 %, ниже 95 %`) });
    await january.waitFor();
    expect(await january.textContent()).toBe("0,13 %! < 95 %");
    await screenshot(page, { path: `${SHOTS}/web-sensor-completeness-1440.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expect.poll(fitsPhone).toBeLessThanOrEqual(PHONE.width);
    // The months scroll inside the card, the sensor's name kept in sight, and it says so in words.
    await page.getByText(/Таблица прокручивается вбок/).waitFor();
    expect(await wholly(january)).toBe(true);
    expect(await wholly(page.getByTestId("sensor-heat-map").getByText("М-12", { exact: true }))).toBe(true);
    expect(await brokenWords(page, "[data-testid=sensor-heat-map]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-sensor-completeness-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);

    await january.click();
    const gap = page.getByRole("row", { name: /\(0,44 \+ 0,46\) \/ 2 = 0,45/ });
    await gap.waitFor();
    const text = (await gap.textContent()) ?? "";
    expect(text).toContain(`15.01.${YEAR} 10:20`);
    expect(text).toContain(`15.01.${YEAR} 10:30`);
    expect(text).toContain("Замещено");
    expect(text).toContain("нет показаний: 10 мин");
    await page.getByText("не замещается: пропуск длиннее 24 ч").first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-sensor-gaps-1440.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expect.poll(fitsPhone).toBeLessThanOrEqual(PHONE.width);
    // Each gap a block of lines: its rule, cause and day in sight (the table showed its start and end only).
    const block = page.getByTestId("stacked-rows").locator(":scope > div", { hasText: "(0,44 + 0,46) / 2 = 0,45" });
    await block.waitFor();
    expect(await wholly(block.getByText("(0,44 + 0,46) / 2 = 0,45", { exact: false }))).toBe(true);
    expect(await wholly(block.getByText("нет показаний: 10 мин"))).toBe(true);
    expect(await wholly(block.getByRole("link", { name: "Сутки" }))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-sensor-gaps-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);

    await gap.getByRole("link", { name: "Сутки" }).click();
    await page.getByRole("heading", { name: `Сутки датчика М-12: 15.01.${YEAR}` }).waitFor();
    const runs = page.getByRole("row", { name: /10:20–10:29 \(10 мин\)\s*нет показаний — замещено: 0,45/ });
    await runs.waitFor();
    await page.locator("[data-testid=sensor-day-chart][data-ready=true]").waitFor();
    expect((await page.locator("body").textContent())?.replace(/\u00a0/g, " ")).toContain("Достоверных50Замещенных10Нет данных1 380");
    // The day's readings are never split mid-figure in their narrow columns («0,4» over «4»).
    expect(await brokenWords(page, ".ant-descriptions-item-content")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-sensor-day-1440.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expect.poll(fitsPhone).toBeLessThanOrEqual(PHONE.width);
    await page.locator("[data-testid=sensor-day-chart][data-ready=true]").waitFor();
    // The mean beside its long name stays on the screen, not pushed past the card's edge.
    expect(await wholly(page.getByText("0,451667", { exact: true }))).toBe(true);
    expect(await brokenWords(page, ".ant-descriptions-item-content")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-sensor-day-390.png`, fullPage: true });
  });

  it("opens a sensor's gaps from its row on «Датчики»", async () => {
    await page.setViewportSize(WIDE);
    await navigateInApp(page, `/facilities/${facility}/sensors`);
    // «Пропуски» exactly: a name is otherwise matched in part and in any case, and the heat map's cells
    // («М-12, 01.2026: …; пропуски и замещения»), still on the screen when the page before stopped there,
    // matched too.
    await page.getByRole("row", { name: /М-12/ }).getByRole("link", { name: "Пропуски", exact: true }).click();
    await page.getByRole("heading", { name: "Пропуски и замещения: М-12" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/facilities/${facility}/sensors/${methane}/gaps`);
  });
});
