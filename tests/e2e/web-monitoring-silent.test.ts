// «Мониторинг» in a real browser: the anemometer feeding the bound model's air-flow
// column has sent nothing for the last 10 minutes while the methane meter goes on; the tile's note
// names it as silent and the forecast's figure says it is made without it, at 1440 and 390 px
// (screenshots with SCREENSHOTS=1), nothing wider than the phone and the forecasts' table whole in the
// tile. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { browserFile, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINUTE = 60_000;
/** Minutes the anemometer has been silent by the methane meter's latest minute (8 make it silent). */
const SILENT = 10;

describe("web app: a tile names a silent sensor of its model", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const { call } = file;
    const mine = await newMine(call, "Шахта «Тихий датчик»");
    facility = mine.facility;
    const point = mine.point;
    for (const [code, kind, extra] of [
      ["М-7", "methane", { warning: 1, alarm: 1.5, role: "cut_off" }],
      ["V-7", "air_velocity", { area_m2: 10 }],
    ] as const) {
      await call("POST", `v1/facilities/${facility}/sensors/`, { code, kind, point, working: "Лава 7", ...extra });
    }
    await call("POST", "v1/telemetry/live/models/", { facility, working: "Лава 7", horizon: 60, model: "xgboost-h60" });
    // Three hours up to the minute before the clock's: the meter every minute, the anemometer until
    // SILENT minutes before the meter's last.
    const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const readings = [];
    for (let m = 180; m >= 0; m--) {
      const t = new Date(end - m * MINUTE).toISOString();
      readings.push({ sensor: "М-7", t, value: 0.5 });
      if (m >= SILENT) readings.push({ sensor: "V-7", t, value: 2 });
    }
    await call("POST", "v1/telemetry/readings/", { facility, readings });
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("says the anemometer is silent and the forecast is made without it, at 1440 and 390 px", { timeout: 120_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/monitoring`);
    await page.getByText(ADVISORY_NOTE).waitFor();
    const tile = page.getByTestId("live-tile");
    // The readings are applied off the request thread: the note is waited for, as the user waits for it.
    const note = tile
      .getByTestId("live-forecast-about")
      .getByText(
        new RegExp(`Датчики модели молчат — V-7 \\(x1, «[^»]+»\\): нет показаний ${SILENT} мин: прогноз сделан без их показаний\\.`),
      );
    await note.waitFor({ timeout: 60_000 });
    const row = tile.getByTestId("live-forecast").first();
    expect(await row.textContent()).toContain("без V-7");
    // The methane meter itself is fresh: its reading is shown, not «нет данных».
    expect(await tile.textContent()).toContain("0,50 % об.");
    // The tile's head names the silent anemometer, not «норма» over it.
    await page.locator('[data-testid="live-tile"][aria-label*=": нет данных"][aria-label*="V-7)"]').waitFor();
    expect(await brokenWords(page, "[data-testid=live-tile]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-silent-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // The phone's layout is drawn once its menu button is: only then is the page's width the phone's.
    await page.getByRole("button", { name: "Меню" }).waitFor();
    await note.waitFor();
    await expect.poll(() => pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=live-tile]")).toEqual([]);
    // The forecasts' table fits the tile, P's column in sight beside the «без V-7» mark.
    expect(await wholly(tile.getByTestId("live-forecasts"))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-silent-390.png`, fullPage: true });
  });
});
