// D98 and D99 in a real browser against the real local server. A wing return's meter at 0,80 % with W 0,7 % and
// A 1,0 % (norm 0,75 %) reads on its tile «загазирование: 0,80 % при норме 0,75 %» in red, its W state beside it —
// not amber «≥ W»; the journal of a mine working 4 × 6 h from 08:00 shows «Смена 4 (02:00–08:00)» with its six
// hour columns 02–03 … 07–08 and the night's means (the day of tests/support/journal-day.ts). At 1440 and 390 px,
// nothing past the page's edge. Screenshots with SCREENSHOTS=1. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, pickOption, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";
import { local, meanOver, validMinutes } from "../support/journal-day";
import { journalDayMine } from "../support/journal-day-browser";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const ru = (v: number) => v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe("web app: the tile in a gassing (D98) and the 4-shift journal (D99)", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, "Шахта «Четырехсменная»");
    const kept = await file.call<{ version: number }>("GET", `v1/facilities/${facility}/`);
    await file.call("PATCH", `v1/facilities/${facility}/`, {
      version: kept.version,
      shift_calendar: [{ valid_from: "2026-03-01", shifts: 4, first_start: "08:00" }],
    });
    await file.call("POST", `v1/facilities/${facility}/sensors/`, {
      code: "М-КР",
      kind: "methane",
      working: "Крыло Северное",
      place: "wing_return",
      warning: 0.7,
      alarm: 1,
    });
    // The last 40 minutes: 0,50 %, then 0,80 % for the last 15.
    const now = Date.now();
    const readings = Array.from({ length: 40 }, (_, k) => ({
      sensor: "М-КР",
      t: new Date(now - (40 - k) * 60_000).toISOString(),
      value: k >= 25 ? 0.8 : 0.5,
    }));
    await file.call("POST", "v1/telemetry/readings/", { facility, readings });
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows the wing return's tile in a gassing, red, its W beside it", { timeout: 120_000 }, async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/monitoring`);
      const tile = page.getByTestId("live-tile").filter({ hasText: "Крыло Северное" });
      await tile.getByText("загазирование: 0,80 % при норме 0,75 %").waitFor({ timeout: 60_000 });
      expect(await tile.getAttribute("aria-label")).toBe("Выработка Крыло Северное: загазирование");
      await tile.getByText("≥ W (0,7 %): предупредительный").waitFor();
      expect(await pageOverflow(page)).toBe(0);
      await screenshot(tile, { path: `${SHOTS}/web-tile-gassing-${width}.png` });
    }
  });

  it("shows the night shift of the shift day with its six hours and means", { timeout: 120_000 }, async () => {
    const valid = validMinutes("М-7");
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/journal`);
      await page.getByRole("heading", { name: "Журнал оператора АГК: Шахта «Четырехсменная»" }).waitFor();
      const date = page.getByLabel("Дата");
      await date.fill("");
      await date.pressSequentially("01.03.2026");
      await pickOption(page, page.getByLabel("Смена", { exact: true }), "Смена 4 (02:00–08:00)");
      if (width === 1440) {
        for (const hour of ["02–03", "03–04", "04–05", "05–06", "06–07", "07–08"])
          await page.getByRole("columnheader", { name: hour }).waitFor();
        const m7 = (await page.getByRole("row", { name: /^М-7/ }).textContent()) ?? "";
        expect(m7).toContain(ru(meanOver(valid, local(3), local(4))!));
        expect(m7).toContain(ru(meanOver(valid, local(-16), local(8))!));
      } else {
        await page.getByText("03–04").first().waitFor();
        expect(await pageOverflow(page)).toBe(0);
      }
      await screenshot(page, { path: `${SHOTS}/web-journal-4-shifts-${width}.png`, fullPage: true });
    }
  });
});
