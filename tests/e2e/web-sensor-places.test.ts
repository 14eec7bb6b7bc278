// an earlier round in a real browser: «Добавить датчик» takes a sensor's section and place; a face meter is
// offered no point to measure (the dialog says only a shaft's or a drainage line's own channel measures
// one), a shaft's channel is offered the shaft; «Данные АГК» names each point's own channels and says what
// a point without them lacks. At 1440 px and 390 px, the dialog and the page in sight without sideways
// scrolling. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, pickOption, showSignedIn, type WebApp, browserFile, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe("web app: sensors at their places, and a point's own channels", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const demo = file.call;
    const mine = await newMine(demo, "Шахта «Места»", "Вентиляционный ствол № 2");
    facility = mine.facility;
    const shaft = mine.point;
    await demo("POST", `v1/facilities/${facility}/points/`, { name: "Вентиляционный ствол № 3", kind: "ventilation_shaft" });
    await demo("POST", `v1/facilities/${facility}/sensors/`, {
      code: "ВС2-V",
      kind: "air_velocity",
      area_m2: 12,
      point: shaft,
      place: "shaft",
    });
    await demo("POST", `v1/facilities/${facility}/sensors/`, { code: "ВС2-CH4", kind: "methane", point: shaft, place: "shaft" });
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("adds a longwall's face meter at its place in its section, measuring no point (1440 and 390 px)", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/sensors`);
    await page.getByRole("cell", { name: "ВС2-CH4", exact: true }).waitFor();
    await page.getByRole("button", { name: "Добавить датчик" }).click();
    const dialog = page.getByRole("dialog");
    // Typed key by key as the engineer types them: Cyrillic, a Russian decimal comma.
    await dialog.getByLabel("Код датчика в АГК").pressSequentially("М-З");
    await dialog.getByLabel("Участок").pressSequentially("Выемочный участок 12-3");
    await dialog.getByLabel("Выработка").pressSequentially("Лава 12-3");
    await pickOption(page, dialog.getByLabel("Место датчика"), "У забоя (призабойное пространство)");
    // A face meter measures the longwall's air: no point is offered, and the dialog says which do.
    await dialog.getByText("Датчик этого места не измеряет источник выбросов").waitFor();
    await dialog.getByLabel("Предупредительный уровень W").pressSequentially("1,3");
    await dialog.getByLabel("Аварийный уровень A").pressSequentially("2");
    await screenshot(page, { path: `${SHOTS}/web-sensor-places-dialog-1440.png` });
    for (const label of ["Участок", "Место датчика", "Измеряет источник выбросов"]) {
      expect(await wholly(dialog.getByText(label, { exact: true }))).toBe(true);
    }
    await dialog.getByRole("button", { name: "Добавить" }).click();
    // The dialog closed (its fading layer would take the next click) and the register lists the sensor.
    await dialog.waitFor({ state: "hidden" });
    const row = page.getByRole("row", { name: /М-З/ });
    await row.waitFor();
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("Выемочный участок 12-3, Лава 12-3");
    expect(text).toContain("У забоя (призабойное пространство)");
    expect(text).toContain("1,3 / 2 % об.");
    expect(text).not.toContain("Вентиляционный ствол");

    // At 390 px the dialog fits the phone: a shaft's channel is offered the shaft to measure.
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Добавить датчик" }).click();
    await pickOption(page, dialog.getByLabel("Место датчика"), "Ствол (канал вентилятора)");
    await pickOption(page, dialog.getByLabel("Измеряет источник выбросов"), "Вентиляционный ствол № 2");
    expect(await pageOverflow(page)).toBe(0);
    expect(await wholly(dialog.getByLabel("Место датчика"))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-sensor-places-dialog-390.png` });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.setViewportSize(WIDE);
  });

  it("«Данные АГК» names each point's own channels and what a point without them lacks (1440 and 390 px)", async () => {
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/agk-data`);
    const points = page.getByTestId("point-channels");
    await points.first().waitFor();
    expect(await points.allTextContents()).toEqual([
      "Вентиляционный ствол №\u00a02Каналы: ВС2-CH4 (Метан (0–4 % об.); Ствол (канал вентилятора)), ВС2-V (Скорость воздуха, м/с; Ствол (канал вентилятора))",
      "Вентиляционный ствол №\u00a03Своих каналов нетМесяц не считается: нет канала расхода газовой смеси или скорости воздуха (анемометра), метана",
    ]);
    // The offers read too: the page as the user sees it once loaded.
    await page.getByText("Нет месяцев с показаниями расхода и метана").waitFor();
    await page.locator(".ant-table-wrapper .ant-spin-spinning").waitFor({ state: "detached" });
    await screenshot(page, { path: `${SHOTS}/web-sensor-places-offers-1440.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await points.first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await wholly(points.nth(1).getByText(/Месяц не считается/))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-sensor-places-offers-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);
  });
});
