// «Проверить расчет» on a climate project's screen in a real browser against the
// real local server, at 1440 and 390 px: section 13.5 (a)'s open flare with its six hours of minutes
// stored, the day typed «01.06.2026» key by key, and the day's hours computed in the browser by the
// core's code from the stored minutes — the flame lost in hour 02 and the flow missing in hour 04 as
// the server words them, the hours after 06:00 without data, and the day's methane ER 15,588375 t, the
// figure the server computes for the period over those hours; no page scrolls sideways.
// Screenshots (SCREENSHOTS=1) go to SCREENSHOT_DIR (default /tmp). Needs web/dist (`npm run build:web`)
// and Chromium.
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import { beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../support/browser";
import { caseAMetersPushed } from "../support/climate-case-a";
import { browserFile, openWebApp } from "../support/web-page";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: «Проверить расчет», a day's hours computed in the browser", () => {
  const file = browserFile();
  const { call } = file;
  const projects: Record<number, string> = {};

  beforeAll(async () => {
    const me = await call<{ company: { time_zone?: string } }>("GET", "v1/users/get_me/");
    const start = instantOfWallTime(2026, 6, 1, 0, 0, zoneOf(me.company));
    const facility = await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Проверка дня»", kind: "underground_mine" });
    const point = await call<{ id: string }>("POST", `v1/facilities/${facility.id}/points/`, {
      name: "Факельная установка (проверка дня)",
      kind: "drainage_station",
      instrument: "АГК",
    });
    const codes = { q: "Q-Д", c: "C-Д", flame: "FL-Д" };
    await caseAMetersPushed(call, facility.id, point.id, start, codes);
    for (const width of [1440, 390]) {
      const project = await call<{ id: string }>("POST", "v1/climate-projects/", {
        name: `Проверка дня, ${width} px`,
        facility: facility.id,
        start: "2026-06-01",
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [{ name: "Ф-1", point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: codes }],
      });
      projects[width] = project.id;
    }
  }, 180_000);

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`shows the day's hours as the server computes them at ${viewport.width} px`, { timeout: 180_000 }, async () => {
      const app = await openWebApp(file.server, { user: file.server.demo, viewport, timeout: 30_000 });
      try {
        const { page } = app;
        await page.goto(`${file.server.url}/climate-projects`);
        await page.getByRole("heading", { name: "Климатические проекты", level: 2 }).waitFor();
        await page.getByRole("button", { name: `Проверка дня, ${viewport.width} px` }).click();
        const card = page.getByTestId("climate-day-check");
        await card.waitFor();
        const day = card.getByLabel("День");
        await day.click();
        await day.pressSequentially("01.06.2026");
        await day.press("Tab");
        await card.getByRole("button", { name: "Проверить расчет" }).click();
        const result = page.getByTestId("climate-day-check-result");
        await result.waitFor({ timeout: 60_000 });
        const shown = (await result.innerText()).replace(/[\u00a0\u202f]/g, " ");
        expect(shown).toContain("01.06.2026: метан, направленный на устройства");
        expect(shown).toContain("ER метана 15,588375 т CO2-экв.");
        expect(shown).not.toContain("..");
        for (const words of [
          "01.06.2026 00:00",
          "01.06.2026 02:00",
          "нет пламени",
          "уничтожение не подтверждено",
          "нет данных",
          "01.06.2026 06:00 – 23:00",
          "значение по умолчанию",
        ]) {
          expect(shown, `${words} in ${shown}`).toContain(words);
        }
        expect(await page.locator(".ant-alert-error").count()).toBe(0);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        await screenshot(page, { path: `${SHOTS}/climate-day-check-page-${viewport.width}.png`, fullPage: true });
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, { path: `${SHOTS}/climate-day-check-${viewport.width}.png` });
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    });
  }
});
