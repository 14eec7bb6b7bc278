// «События» and «Вебхуки» in a real browser against the real local server (D64, D65): an hour
// pushed by the API crossing 0,9·W, W and A over the 00:00 shift change in Kemerovo; the first shift of
// 02.03.2026 chosen on the screen lists its events with the level in words; the alarm acknowledged with
// a comment typed into the dialog; the shift's report saved as xlsx lists it with who acknowledged it
// and the comment; the shift's other events then acknowledged at once with one comment;
// on «Настройки» a webhook added shows its secret once. Screenshots at 1440 and 390 px.
// Needs web/dist.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { openWebApp, pickOption, showSignedIn, type WebApp, browserFile, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const AT = Date.UTC(2026, 2, 1, 16, 50); // 01.03.2026 23:50 in Kemerovo

describe("web app: a shift's events, acknowledged, in its report; a webhook", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const demo = file.call;
    const mine = await newMine(demo, "Шахта «Сменная»");
    facility = mine.facility;
    const point = mine.point;
    await demo("POST", `v1/facilities/${facility}/sensors/`, {
      code: "М-7",
      kind: "methane",
      point,
      role: "cut_off",
      working: "Лава 12-1",
      warning: 1,
      alarm: 2,
    });
    const readings = [];
    for (let m = 0; m < 50; m++) {
      if (m >= 30 && m < 40) continue;
      const value = m < 5 ? 0.5 : m < 10 ? 0.95 : m < 15 ? 1.5 : m < 17 ? 2.2 : m < 20 ? 1.5 : 0.5;
      readings.push({ sensor: "М-7", t: new Date(AT + m * MINUTE_MS + 15_000).toISOString(), value });
    }
    await demo("POST", "v1/telemetry/readings/", { facility, readings });
    // The batch is applied off the request thread after its 202 (local/readings-consumer.ts): the
    // page's events are read once it is in.
    await monitoringIdle(file.server.deps);
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("lists the first shift's events, acknowledges the alarm and saves the shift's report with it", { timeout: 120_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/events`);
    await page.getByText(ADVISORY_NOTE).first().waitFor();
    const date = page.getByLabel("Дата");
    await date.fill("");
    await date.pressSequentially("02.03.2026");
    await pickOption(page, page.getByLabel("Смена", { exact: true }), "Смена 1 (00:00–08:00)");
    const alarm = page.getByRole("row", { name: /Аварийный \(A\)/ });
    await alarm.waitFor();
    const text = (await alarm.textContent()) ?? "";
    expect(text).toContain("02.03.2026 00:05");
    expect(text).toContain("2,20");
    await page.getByRole("row", { name: /Предупредительный \(W\)/ }).waitFor();
    await page.getByRole("row", { name: /нет данных 10/ }).waitFor();
    // Every cell of the row in sight, no word broken inside.
    for (const cell of await alarm.getByRole("cell").all()) expect(await wholly(cell)).toBe(true);
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-events-1440.png`, fullPage: true });

    await alarm.getByRole("button", { name: "Квитировать" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Комментарий").pressSequentially("Проветривание усилено");
    await dialog.getByRole("button", { name: "Квитировать" }).click();
    await alarm.getByText("«Проветривание усилено»").waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Отчет смены (xlsx)" }).click()]);
    expect(download.suggestedFilename()).toBe("Отчет смены Шахта «Сменная» 02.03.2026 смена 1.xlsx");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await download.path()) as never);
    const events = book.getWorksheet("События")!;
    const rows = events
      .getSheetValues()
      .filter((row) => Array.isArray(row))
      .map((row) => (row as unknown[]).slice(1).map((cell) => String(cell ?? "")));
    const listed = rows.find((row) => row.includes("Аварийный (A)"));
    expect(listed).toBeDefined();
    expect(listed).toContain("Проветривание усилено");
    // Who acknowledged it by surname and initials, never the e-mail.
    expect(listed).toContain("Петров И.");
    expect(listed?.some((cell) => cell.includes("@"))).toBe(false);
    expect(String(book.getWorksheet("Выработки")!.getCell("A1").value)).toContain(ADVISORY_NOTE);

    // On a phone the rows are blocks of «label: value» lines (ResponsiveTable).
    await page.setViewportSize({ width: 390, height: 844 });
    // The phone's blocks, not the wide table still shown until their chunk is fetched.
    await page.locator("[data-testid=stacked-rows]").getByText("«Проветривание усилено»").first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-events-390.png`, fullPage: true });
  });

  // the rest of the shift's events acknowledged at once with one comment, as a
  // dispatcher does; one acknowledged while it goes on stays listed and says so.
  it("acknowledges the shift's other events at once with one comment", { timeout: 120_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const all = page.getByRole("button", { name: /^Выбрать все неквитированные \(\d+\)$/ });
    await all.waitFor();
    const open = Number(/\((\d+)\)/.exec((await all.textContent()) ?? "")?.[1]);
    expect(open).toBeGreaterThan(1);
    await all.click();
    await page.getByRole("button", { name: `Квитировать выбранные (${open})` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(`Квитировать события: ${open}`).waitFor();
    await dialog.getByLabel("Комментарий").pressSequentially("Смена предупреждена");
    await dialog.locator("button.ant-btn-primary").click();
    await dialog.waitFor({ state: "hidden" });
    // Each of them now says who acknowledged it and the comment; none is left to tick.
    await expect.poll(() => page.getByText("«Смена предупреждена»").count()).toBe(open);
    expect(await page.getByRole("checkbox").count()).toBe(0);
    await page.getByText("квитировано, продолжается").first().waitFor();
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-events-several-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // The phone's blocks, not the wide table still shown until their chunk is fetched.
    await page.locator("[data-testid=stacked-rows]").getByText("«Смена предупреждена»").first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-events-several-390.png`, fullPage: true });
  });

  it("adds a webhook on «Настройки», its secret shown once", { timeout: 60_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, "/settings");
    await page.getByLabel("Адрес приемника").pressSequentially("http://127.0.0.1:9/agk");
    await page.getByLabel("Название вебхука").pressSequentially("Диспетчерская");
    await page.getByRole("button", { name: "Добавить вебхук" }).click();
    const dialog = page.getByRole("dialog");
    const secret = ((await dialog.locator("code").textContent()) ?? "").trim();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, { path: `${SHOTS}/web-webhooks-secret.png` });
    await dialog.getByRole("button", { name: "Я сохранил секрет" }).click();
    const row = page.getByRole("row", { name: /Диспетчерская/ });
    await row.waitFor();
    expect((await page.locator("body").textContent()) ?? "").not.toContain(secret);
    await row.getByRole("button", { name: "Журнал" }).click();
    await page.getByText("Журнал доставок: Диспетчерская").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-webhooks-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText("http://127.0.0.1:9/agk").first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-webhooks-390.png`, fullPage: true });
  });
});
