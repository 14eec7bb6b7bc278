// A mine's monitoring in a real browser (methodology section 12): «Датчики» lists the register the API
// made, with the advisory note; «Данные АГК» shows the completeness map and the month's offer from
// readings pushed by the gateway (section 12's ventilation hour: 720,00 thousand m³, 2,172 t CH4), and
// «Принять» with a reason (the month is far below 95 %) turns it «Принят»; «Загрузить выгрузку АГК»
// sends a dispatch export in Windows-1251 (tests/fixtures/monitoring) through the direct upload and
// shows its batch once consumed, the «обрыв» on line 3 refused. At 1440 px no word of the register is
// broken inside and no cell is cut (its rare actions behind «…»), «Принять» wholly in sight; at 390 px
// the page does not scroll sideways, each sensor and offer is a block whose code, kind and «Принять» are
// in sight, and the heat map scrolls inside its card. Needs web/dist.
import { fileURLToPath } from "node:url";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { instantOfWallTime } from "@core/company-clock";
import { openWebApp, pickOption, showSignedIn, type WebApp, browserFile, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const YEAR = new Date().getFullYear();
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DISPATCH_FILE = fileURLToPath(new URL("../fixtures/monitoring/dispatch-export-cp1251.csv", import.meta.url));

describe("web app: a mine's sensors and its readings' offers", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const demo = file.call;
    const mine = await newMine(demo, "Шахта «Телеметрия»", "Вентиляционный ствол № 1");
    facility = mine.facility;
    const point = mine.point;
    await demo("POST", `v1/facilities/${facility}/sensors/`, { code: "Q-1", kind: "flow", point, role: "recording" });
    await demo("POST", `v1/facilities/${facility}/sensors/`, {
      code: "М-12",
      kind: "methane",
      point,
      role: "cut_off",
      warning: 1,
      alarm: 1.5,
      working: "Лава 24-58",
    });
    await demo("POST", "v1/projects/create_project/", {
      name: `Замеры ${YEAR}`,
      start_date: `${YEAR}-01-01`,
      end_date: `${YEAR}-12-31`,
      facility,
    });
    // Section 12's ventilation hour on the 15th of January, 10:00 in Kemerovo.
    const hour = instantOfWallTime(YEAR, 1, 15, 10, 0, "Asia/Novokuznetsk");
    const readings = [];
    for (let m = 0; m < 60; m++) {
      const t = new Date(hour + m * 60_000).toISOString();
      readings.push({ sensor: "Q-1", t, value: 12000 });
      if (m < 20 || m >= 30) readings.push({ sensor: "М-12", t, value: m < 20 ? 0.44 : 0.46 });
    }
    await demo("POST", "v1/telemetry/readings/", { facility, readings });
    // Applied off the request thread after its 202 (local/readings-consumer.ts): the pages read it once in.
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("«Датчики» lists the register with the advisory note, whole at 1440 px and as blocks at 390 px", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/sensors`);
    await page.getByRole("cell", { name: "М-12", exact: true }).waitFor();
    await page.getByText(ADVISORY_NOTE).waitFor();
    const row = page.getByRole("row", { name: /М-12/ });
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("отключающий");
    expect(text).toContain("1 / 1,5");
    // Every cell in sight, «Вентиляционный» and «регистрирующий» whole (three buttons took the width).
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    for (const cell of await row.getByRole("cell").all()) expect(await wholly(cell)).toBe(true);
    await row.getByRole("button", { name: "Другие действия с датчиком М-12" }).click();
    await page.getByRole("menuitem", { name: "Вывести из эксплуатации" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-sensors-1440.png`, fullPage: true });
    // A click beside it closes the menu.
    await page.getByRole("heading", { name: /^Датчики/ }).click();
    await page.getByRole("menuitem", { name: "Вывести из эксплуатации" }).waitFor({ state: "hidden" });

    await page.setViewportSize(PHONE);
    // The register's block of М-12 (the keys' list has its own).
    const block = page.getByTestId("stacked-rows").first().locator(":scope > div", { hasText: "М-12" });
    await block.getByText("М-12", { exact: true }).waitFor();
    expect(await pageOverflow(page)).toBe(0);
    for (const shown of ["М-12", "Метан (0–4 % об.)", "Вентиляционный ствол № 1", "отключающий"]) {
      expect(await wholly(block.getByText(shown, { exact: true }))).toBe(true);
    }
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-sensors-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);
  });

  it("«Данные АГК» offers January's figures and accepts them with a reason", async () => {
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/agk-data`);
    const row = page.getByRole("row", { name: new RegExp(`01\\.${YEAR}`) });
    await row.waitFor();
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("720,00");
    expect(text).toContain("2,172");
    // «Принять» whole at 1440 px (a fixed layout cut it to «Пр»).
    expect(await wholly(row.getByRole("button", { name: "Принять" }))).toBe(true);
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-offers-1440.png`, fullPage: true });
    // At 390 px the heat map scrolls inside its card, not the page (it took the page to 740 px), and each
    // offer is a block with «Принять» in sight.
    await page.setViewportSize(PHONE);
    const block = page.getByTestId("stacked-rows").filter({ hasText: `01.${YEAR}` });
    await block.waitFor();
    expect(await pageOverflow(page)).toBe(0);
    const map = page.getByTestId("offers-heat-map");
    expect(await map.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.getByText(/Таблица прокручивается вбок/).waitFor();
    expect(await wholly(block.getByRole("button", { name: "Принять" }))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-offers-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);
    await row.getByRole("button", { name: "Принять" }).click();
    const dialog = page.getByRole("dialog");
    await pickOption(page, dialog.getByLabel("Проект"), `Замеры ${YEAR}`);
    await dialog.getByLabel("Причина").fill("Пробный замер");
    await dialog.getByRole("button", { name: "Принять" }).click();
    await row.getByText("Принят", { exact: true }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-accepted.png`, fullPage: true });
  });

  it("«Загрузить выгрузку АГК» sends a cp1251 export and lists its refused line", async () => {
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/sensors`);
    await page.getByRole("button", { name: "Загрузить выгрузку АГК" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator('input[type="file"]').setInputFiles(DISPATCH_FILE);
    await dialog.getByTestId("chosen-dispatch-file").waitFor();
    await dialog.getByRole("button", { name: "Загрузить" }).click();
    // Line 3's «обрыв» is one value refused, its flow kept (values and lines counted apart).
    await dialog.getByText("Обработано; отклонено значений: 1").waitFor();
    const refused = dialog.getByRole("row", { name: /обрыв/ });
    expect((await refused.getByRole("cell").first().textContent())?.trim()).toBe("3");
    expect(await dialog.textContent()).toContain("Принято");
    await screenshot(page, { path: `${SHOTS}/web-monitoring-dispatch-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, { path: `${SHOTS}/web-monitoring-dispatch-390.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
