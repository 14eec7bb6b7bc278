// in a real browser: with the server's clock at 02.01.2027 (Order 507's Appendix 3
// ended on 01.01.2027 and no administrator has confirmed the edition in force) every monitoring screen that draws a
// permissible limit — «Мониторинг», «Журнал оператора АГК», «События» — says «редакция правил не
// подтверждена» which act its limits are still drawn from, and Decree 315's norms without an end date. Screenshots at 1440 and 390 px. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
// The clock runs on from 02.01.2027 03:00 UTC (10:00 in Kemerovo).
const SHIFT = Date.parse("2027-01-02T03:00:00Z") - Date.now();

describe("web app: the limits' edition not confirmed after 01.01.2027", () => {
  const file = browserFile({ own: true, clock: { now: () => new Date(Date.now() + SHIFT) } });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = (await file.call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Новая редакция»", kind: "underground_mine" })).id;
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("says so on «Мониторинг», «Журнал оператора АГК» and «События» at 1440 and 390 px", { timeout: 120_000 }, async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      for (const [path, heading] of [
        ["monitoring", "Мониторинг"],
        ["journal", "Журнал оператора АГК"],
        ["events", "События"],
      ]) {
        await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/${path}`);
        await page.getByRole("heading", { name: `${heading}: Шахта «Новая редакция»` }).waitFor();
        const notice = page.getByRole("alert").filter({ hasText: "редакция правил не подтверждена" });
        await notice.waitFor();
        expect(await notice.textContent()).toContain(
          "Срок действия «Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020)» истек 01.01.2027",
        );
        expect(await notice.textContent()).toContain(
          "в газоотсасывающем трубопроводе — Постановление № 315 от 25.04.2011 (п. 1, п. 3), без срока окончания",
        );
        if (width === 390) expect(await pageOverflow(page)).toBe(0);
        await screenshot(page, { path: `${SHOTS}/web-limit-edition-${path}-${width}.png` });
      }
    }
  });
});
