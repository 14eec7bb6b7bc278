// an earlier round in a real browser, at 1440 and 390 px: «Данные АГК» of a mine whose January hour was accepted and
// then changed by a second push (20 more minutes restored) says «Данные АГК изменились после принятия:
// +33,33 %» wholly in sight (the note was cut at 1440 px) and offers «Принять заново», which asks why and
// replaces the month's calculation (the row turns «Принят», no longer changed); February, 94,62 %
// complete (a 36-hour gap of the methane meter), reads «94» in the heat map, never «95»; a facility with
// projects of other years only says «создайте проект площадки на <год> год» in the dialog and offers none
// of them. Needs web/dist.
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { instantOfWallTime } from "@core/company-clock";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const YEAR = new Date().getFullYear() - 1;
const ZONE = "Asia/Novokuznetsk";
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const MINUTE = 60_000;

describe("web app: a corrected month accepted again, the heat map at the 95 % rule, a year without a project", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";
  let bare = "";

  beforeAll(async () => {
    const api = file.call;
    const mine = async (name: string) => {
      const id = (await api<{ id: string }>("POST", "v1/facilities/", { name, kind: "underground_mine" })).id;
      const point = (
        await api<{ id: string }>("POST", `v1/facilities/${id}/points/`, { name: "Вентиляционный ствол № 1", kind: "ventilation_shaft" })
      ).id;
      await api("POST", `v1/facilities/${id}/sensors/`, { code: "Q-1", kind: "flow", point, role: "recording" });
      await api("POST", `v1/facilities/${id}/sensors/`, { code: "М-12", kind: "methane", point, role: "cut_off", warning: 1, alarm: 1.5 });
      return { id, point };
    };
    const main = await mine("Шахта «Поправка»");
    facility = main.id;
    bare = (await mine("Шахта «Без проекта»")).id;
    const project = await api<{ id: string }>("POST", "v1/projects/create_project/", {
      name: `Замеры ${YEAR}`,
      start_date: `${YEAR}-01-01`,
      end_date: `${YEAR}-12-31`,
      facility,
    });
    await api("POST", "v1/projects/create_project/", {
      name: `Прошлый год ${YEAR - 1}`,
      start_date: `${YEAR - 1}-01-01`,
      end_date: `${YEAR - 1}-12-31`,
      facility: bare,
    });
    const push = async (id: string, readings: { sensor: string; t: number; value: number }[]) => {
      for (let i = 0; i < readings.length; i += 10_000) {
        const part = readings.slice(i, i + 10_000).map((r) => ({ ...r, t: new Date(r.t).toISOString() }));
        await api("POST", "v1/telemetry/readings/", { facility: id, readings: part });
      }
      await monitoringIdle(file.server.deps);
    };
    const minutes = (from: number, count: number, methane = true) =>
      Array.from({ length: count }, (_, m) => [
        { sensor: "Q-1", t: from + m * MINUTE, value: 12000 },
        ...(methane ? [{ sensor: "М-12", t: from + m * MINUTE, value: 0.45 }] : []),
      ]).flat();
    // January: an hour on the 15th, accepted; then 20 more minutes restored.
    const january = instantOfWallTime(YEAR, 1, 15, 10, 0, ZONE);
    await push(facility, minutes(january, 60));
    await push(bare, minutes(january, 60));
    await api("POST", "v1/telemetry/offers/accept/", {
      facility,
      point: main.point,
      months: [`${YEAR}-01`],
      project: project.id,
      reason: "Пробный замер",
    });
    await push(facility, minutes(january + 60 * MINUTE, 20));
    // February: every minute, but the methane meter silent for 2 169 minutes (> 24 h, not substituted).
    const february = instantOfWallTime(YEAR, 2, 1, 0, 0, ZONE);
    const gapFrom = 10 * 1440;
    await push(facility, [
      ...minutes(february, gapFrom),
      ...minutes(february + gapFrom * MINUTE, 2169, false),
      ...minutes(february + (gapFrom + 2169) * MINUTE, 28 * 1440 - gapFrom - 2169),
    ]);
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  const open = async (id: string) => {
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${id}/agk-data`);
    // The page opens on this year; the months shown are of the last one.
    await page.getByLabel("Год").fill(String(YEAR));
    await page.getByLabel("Год").press("Enter");
  };

  it("shows the changed month's note whole and «Принять заново» at 1440 and 390 px, and replaces the calculation", async () => {
    await page.setViewportSize(WIDE);
    await open(facility);
    const row = page.getByRole("row", { name: new RegExp(`01\\.${YEAR}`) });
    const note = row.getByText("Данные АГК изменились после принятия: +33,33 %");
    await note.waitFor();
    expect(await wholly(note)).toBe(true);
    expect(await wholly(row.getByRole("button", { name: "Принять заново" }))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-accept-again-1440.png`, fullPage: true });

    await page.setViewportSize(PHONE);
    const block = page.getByTestId("stacked-rows").locator(":scope > div", { hasText: `01.${YEAR}` });
    await block.getByText("Данные АГК изменились после принятия: +33,33 %").waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await wholly(block.getByText("Данные АГК изменились после принятия: +33,33 %"))).toBe(true);
    expect(await wholly(block.getByRole("button", { name: "Принять заново" }))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-accept-again-390.png`, fullPage: true });

    await block.getByRole("button", { name: "Принять заново" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Расчет месяца получит новую версию", { exact: false }).waitFor();
    await dialog.getByLabel("Почему месяц принимается заново").fill("Второй файл восстановил 20 минут");
    await screenshot(page, { path: `${SHOTS}/web-monitoring-accept-again-dialog-390.png`, fullPage: true });
    await dialog.getByRole("button", { name: "Принять заново" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.setViewportSize(WIDE);
    await row.getByText("Принят", { exact: true }).waitFor();
    await row.getByText("Данные АГК изменились после принятия", { exact: false }).waitFor({ state: "hidden" });
    expect(await row.getByRole("button", { name: "Принять заново" }).count()).toBe(0);
  });

  it("reads 94,62 % as «94» in the heat map at 1440 and 390 px, never «95»", async () => {
    for (const size of [WIDE, PHONE]) {
      await page.setViewportSize(size);
      await open(facility);
      const map = page.getByTestId("offers-heat-map");
      const february = map.locator("td").nth(1);
      await february.getByText("94", { exact: true }).waitFor();
      expect(await map.locator("td").allTextContents()).not.toContain("95");
      await screenshot(page, { path: `${SHOTS}/web-monitoring-heat-map-${size.width}.png`, fullPage: true });
    }
    await page.setViewportSize(WIDE);
  });

  it("says to create a project of the month's year where the facility has none, at 1440 and 390 px", async () => {
    for (const size of [WIDE, PHONE]) {
      await page.setViewportSize(size);
      await open(bare);
      const button = page.getByRole("button", { name: "Принять", exact: true }).first();
      await button.waitFor();
      await button.click();
      const dialog = page.getByRole("dialog");
      const said = dialog.getByText(`Нет проекта этой площадки на ${YEAR} год: создайте проект площадки на ${YEAR} год`);
      await said.waitFor();
      expect(await wholly(said)).toBe(true);
      expect(await dialog.getByText(`Прошлый год ${YEAR - 1}`).count()).toBe(0);
      expect(await pageOverflow(page)).toBe(0);
      await screenshot(page, { path: `${SHOTS}/web-monitoring-no-project-${size.width}.png`, fullPage: true });
      await dialog.getByRole("button", { name: "Отмена" }).click();
      await dialog.waitFor({ state: "hidden" });
    }
  });
});
