// «Отключения и ручные замеры» in a real browser against the real local server (D104–D105): a mine whose
// face meter М-1 (A 1,3 %) read 1,4 % for 10 minutes while the shearer's run channel РК-1 read 1, pushed
// as readings, so the detector found the record «отключение не подтверждено»; «Мониторинг» lists it and
// links to the page, where the cause is given; the hand measurement's form, at a phone's width too,
// shows the server's refusal at its field (a value out of the instrument's range) and then records 1,30 %
// beside a meter reading 0,60 %: «расходится с датчиком». Screenshots at 1440 and 390 px. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, pickOption, showSignedIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow } from "../support/layout";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINUTE = 60_000;
const RECORD = "отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин";

describe("web app: the cut-offs not confirmed and the hand measurements", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = (await file.call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Аудит»", kind: "underground_mine" })).id;
    await file.call("POST", `v1/facilities/${facility}/sensors/`, {
      code: "М-1",
      kind: "methane",
      working: "Лава 12-1",
      place: "face",
      warning: 1,
      alarm: 1.3,
    });
    await file.call("POST", `v1/facilities/${facility}/sensors/`, { code: "РК-1", kind: "run_status", working: "Лава 12-1" });
    // The last 40 minutes: 0,6 %, then 1,4 % for 10 minutes from the 10th, then 0,6 %; the shearer running throughout.
    const start = Math.floor(Date.now() / MINUTE) * MINUTE - 40 * MINUTE;
    const readings = Array.from({ length: 40 }, (_, m) => [
      { sensor: "М-1", t: new Date(start + m * MINUTE + 20_000).toISOString(), value: m >= 10 && m < 20 ? 1.4 : 0.6 },
      { sensor: "РК-1", t: new Date(start + m * MINUTE + 20_000).toISOString(), value: 1 },
    ]).flat();
    await file.call("POST", "v1/telemetry/readings/", { facility, readings });
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("lists the record on «Мониторинг», takes its cause, and records a hand measurement", { timeout: 240_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/monitoring`);
    const alert = page.getByTestId("cutoffs-alert");
    await alert.getByText("Отключение не подтверждено: 1").waitFor({ timeout: 30_000 });
    expect((await alert.textContent()) ?? "").toContain(RECORD);
    await alert.getByRole("link", { name: /Разобрать/ }).click();
    await page.getByRole("heading", { name: "Отключения и ручные замеры: Шахта «Аудит»" }).waitFor();

    const record = page.getByTestId("cutoff").first();
    await record.getByText(RECORD, { exact: false }).waitFor();
    await record.getByText("причина не указана").waitFor();
    await pickOption(page, record.getByLabel("Причина"), "Защита не сработала");
    await record.getByLabel("Пояснение").pressSequentially("АГК была в ручном режиме");
    await record.getByRole("button", { name: "Указать причину" }).click();
    await record.getByText("ждет подтверждения").waitFor();
    await record.getByText(/^Причина: защита не сработала \(АГК была в ручном режиме\) — .+, \d\d\.\d\d\.\d{4} \d\d:\d\d$/).waitFor();

    // The hand measurement: refused at its field first, then recorded beside the meter's 0,60 %.
    const form = page.getByTestId("hand-form");
    await pickOption(page, form.getByLabel("Ближайший датчик"), "М-1 — Лава 12-1");
    await form.getByLabel("Заводской номер").pressSequentially("4512");
    await form.getByLabel("Место замера").pressSequentially("Лава 12-1, у датчика М-1");
    await form.getByLabel("Метан, % об.").pressSequentially("7");
    expect(await form.getByLabel("Время замера").inputValue()).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    await form.getByRole("button", { name: "Записать замер" }).click();
    await form.getByText("Вне диапазона прибора ШИ-11: 0–6 %").waitFor();
    await form.getByText("Замер не записан: исправьте отмеченные поля").waitFor();
    await form.getByLabel("Метан, % об.").fill("1,3");
    await form.getByRole("button", { name: "Записать замер" }).click();
    await form.getByText(/^Записан: 1,30 %, расходится с датчиком М-1 \(0,60 %\) на 0,70 % при допуске ±0,20 %/).waitFor();
    const journal = page.getByTestId("hand-measurement").first();
    await journal.getByText("расходится с датчиком").first().waitFor();
    const body = (await page.locator("body").textContent()) ?? "";
    for (const hidden of [file.user.email, facility]) expect(body).not.toContain(hidden);
    expect(await brokenWords(page)).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-readings-audit-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Меню" }).waitFor();
    await page.getByTestId("hand-form").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-readings-audit-390.png`, fullPage: true });
    expect(await pageOverflow(page)).toBe(0);
  });
});
