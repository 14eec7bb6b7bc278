// in a real browser against the real local server: a methane meter without A
// and a carbon-monoxide meter (A 17 ppm) of one working, their last 20 minutes pushed by the API. The
// sensor register, the live tile on «Мониторинг» and the operator's journal of today name the act, point
// and edition of the limit each meter is read against («… п. 122, приложение № 3 (текст акта не
// прочитан)», «уставка A датчика по реестру»), and the carbon-monoxide meter shows in ppm. Screenshots at
// 1440 and 390 px. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { openWebApp, showSignedIn, type WebApp, browserFile, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const ACT = "Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020), п. 122, приложение № 3";
/** The act's text not read: said once a page, beside the act. */
const NOT_READ = "Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020) — текст акта не прочитан";

describe("web app: each limit named by its act, point and edition; the carbon-monoxide channel in ppm", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const demo = file.call;
    const mine = await newMine(demo, "Шахта «Акты»", "Вентиляционный ствол");
    facility = mine.facility;
    const point = mine.point;
    await demo("POST", `v1/facilities/${facility}/sensors/`, { code: "М-1", kind: "methane", point, working: "Лава 1" });
    await demo("POST", `v1/facilities/${facility}/sensors/`, {
      code: "CO-1",
      kind: "carbon_monoxide",
      point,
      working: "Лава 1",
      alarm: 17,
    });
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
    const minutes = Array.from({ length: 20 }, (_, m) => new Date(start + m * 60_000 + 10_000).toISOString());
    const readings = minutes.flatMap((t) => [
      { sensor: "М-1", t, value: 0.42 },
      { sensor: "CO-1", t, value: 12 },
    ]);
    await demo("POST", "v1/telemetry/readings/", { facility, readings });
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("names the act on the register, the live tile and the journal at 1440 and 390 px", { timeout: 180_000 }, async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/sensors`);
      await page.getByText(`Норма 0,75\u00a0% в исходящей струе крыла, шахты — ${ACT}`).first().waitFor();
      await page.getByText("— / 17 ppm").first().waitFor();
      expect(await page.getByText(NOT_READ).count()).toBe(1);
      if (width === 390) expect(await pageOverflow(page)).toBe(0);
      await screenshot(page, { path: `${SHOTS}/web-limit-acts-sensors-${width}.png`, fullPage: true });

      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/monitoring`);
      const tile = page.getByTestId("live-tile").first();
      await tile.getByText(`Норма 0,75\u00a0% в исходящей струе крыла, шахты — ${ACT}`).waitFor();
      expect(await page.getByText(NOT_READ).count()).toBe(1);
      if (width === 390) expect(await pageOverflow(page)).toBe(0);
      await screenshot(page, { path: `${SHOTS}/web-limit-acts-tile-${width}.png` });

      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/journal`);
      await page.getByText(ACT).first().waitFor();
      await screenshot(page, { path: `${SHOTS}/web-limit-acts-journal-${width}.png`, fullPage: true });
      await page.getByText("17,00 ppm").first().waitFor();
      await page.getByText("уставка A датчика по реестру").first().waitFor();
      if (width === 390) expect(await pageOverflow(page)).toBe(0);
      await screenshot(page, { path: `${SHOTS}/web-limit-acts-journal-${width}.png`, fullPage: true });
    }
  });
});
