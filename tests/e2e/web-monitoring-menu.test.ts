// the mine's monitoring wing in the side menu, in a real browser. A company with two
// underground mines finds «Мониторинг», «Журнал оператора АГК», «Книга учета загазирований», «События», «Датчики», «Данные АГК» and «Полнота данных датчиков»
// under each mine's name (an open pit has none); at 1440 px in the side menu, at 390 px in the drawer
// the header's «Меню» opens, each label whole on its line; a click leads to that mine's page and marks
// its item. Screenshots at 1440 and 390 px (SCREENSHOTS=1). Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, showSignedIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const WING = [
  "Мониторинг",
  "Журнал оператора АГК",
  "Книга учета загазирований",
  "События",
  "Датчики",
  "Данные АГК",
  "Полнота данных датчиков",
  "Проверки датчиков",
];

describe("web app: the monitoring wing in the side menu", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  const mines: { id: string; name: string }[] = [];

  beforeAll(async () => {
    const { call } = file;
    for (const name of ["Шахта «Северная»", "Шахта «Южная»"]) {
      mines.push({ id: (await call<{ id: string }>("POST", "v1/facilities/", { name, kind: "underground_mine" })).id, name });
    }
    await call("POST", "v1/facilities/", { name: "Разрез «Восточный»", kind: "open_pit" });
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await page?.setViewportSize({ width: 1366, height: 860 });
    await app?.close();
  });

  /** The menu's links under a mine's name: label and address, in order. */
  const wingOf = (id: string) =>
    page
      .getByRole("navigation", { name: "Главное меню" })
      .locator(`a[href^="/facilities/${id}/"]`)
      .evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute("href")]));

  it("lists each mine's monitoring pages under its name at 1440 px and leads to them", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, "/");
    const nav = page.getByRole("navigation", { name: "Главное меню" });
    for (const mine of mines) await nav.getByText(mine.name, { exact: true }).waitFor();
    expect(await nav.getByText("Разрез «Восточный»").count()).toBe(0);
    for (const mine of mines) {
      expect(await wingOf(mine.id)).toEqual(
        WING.map((label, i) => [
          label,
          `/facilities/${mine.id}/${["monitoring", "journal", "gassing-book", "events", "sensors", "agk-data", "completeness", "sensor-checks"][i]}`,
        ]),
      );
    }
    await nav.locator(`a[href="/facilities/${mines[1].id}/events"]`).click();
    await page.waitForURL((url) => url.pathname === `/facilities/${mines[1].id}/events`);
    await page
      .getByRole("heading", { name: /События/ })
      .first()
      .waitFor();
    expect(await nav.locator('a[aria-current="page"]').evaluateAll((a) => a.map((l) => l.getAttribute("href")))).toEqual([
      `/facilities/${mines[1].id}/events`,
    ]);
    expect(await brokenWords(page, ".shell-nav")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-menu-1440.png` });
  });

  it("lists them in the phone's drawer at 390 px, each label whole", async () => {
    await page.setViewportSize(PHONE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${mines[0].id}/monitoring`);
    // The page drawn first, as a user sees it before reaching for the menu: a drawer opened while the
    // page still loaded was found closed again at load on the shared machine (4 runs of 4).
    await page.getByRole("heading", { name: `Мониторинг: ${mines[0].name}` }).waitFor();
    await page.getByRole("button", { name: "Меню" }).click();
    const nav = page.getByRole("navigation", { name: "Главное меню" });
    await nav.getByText(mines[1].name, { exact: true }).waitFor();
    expect((await wingOf(mines[0].id)).map(([label]) => label)).toEqual(WING);
    expect(await brokenWords(page, ".shell-nav")).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-menu-390.png` });
    await nav.locator(`a[href="/facilities/${mines[0].id}/completeness"]`).click();
    await page.waitForURL((url) => url.pathname === `/facilities/${mines[0].id}/completeness`);
  });
});
