// D97 in a real browser against the real local server: the day of tests/support/journal-day.ts pushed by
// the API, then a push of corrected readings putting the first minute of М-9's local gassing (10:00,
// 1,1 %) at 0,6 %, below the face's 1 % — the readings now give it 10:01–10:05. The book («Книга учета
// загазирований») keeps one row as found, 10:00–10:05, and lists the correction under it: when, who sent
// it, «было с 10:00 до 10:05, макс. 1,30 %, стало: с 10:01 до 10:05, макс. 1,30 %»; no second row
// 10:01. At 1440 and 390 px, screenshots. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";
import { journalDayMine } from "../support/journal-day-browser";
import { iso, local } from "../support/journal-day";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINE = "Шахта «Исправленная»";
const CORRECTION = "стало: с 02.03.2026 10:01 до 02.03.2026 10:05, макс. 1,30 %";

describe("web app: the gassing book's corrected entry, one row (D97)", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, MINE);
    // The first minute of the 10:00 gassing corrected below the norm, as a gateway's push would.
    const readings = [10_000, 40_000].map((s) => ({ sensor: "М-9", t: iso(local(10, 0) + s), value: 0.6 }));
    await file.call("POST", "v1/telemetry/readings/", { facility, readings });
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  const bookOf = async () => {
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/gassing-book`);
    await page.getByRole("heading", { name: `Книга учета загазирований: ${MINE}` }).waitFor();
    for (const [label, value] of [
      ["С", "02.03.2026"],
      ["По", "02.03.2026"],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill("");
      await field.pressSequentially(value);
    }
  };

  it("keeps the entry as found and lists the correction under it, at 1440 and 390 px", { timeout: 180_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await bookOf();
    const corrected = page.getByRole("row").filter({ hasText: "показания исправлены после обнаружения" });
    await corrected.getByText(CORRECTION, { exact: false }).waitFor();
    expect(await corrected.count()).toBe(1);
    await corrected.getByText("02.03.2026 10:00", { exact: false }).first().waitFor();
    // One row of М-9 begun at 10:00 or 10:01, not two.
    expect(
      await page
        .getByRole("row")
        .filter({ hasText: "М-9" })
        .filter({ hasText: /10:0[01]/ })
        .count(),
    ).toBe(1);
    await corrected.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-gassing-corrections-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await bookOf();
    const block = page.locator("[data-testid=stacked-rows] > *").filter({ hasText: "показания исправлены после обнаружения" });
    await block.getByText(CORRECTION, { exact: false }).waitFor();
    expect(await block.count()).toBe(1);
    expect(await pageOverflow(page)).toBe(0);
    await block.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-gassing-corrections-390.png` });
  });
});
