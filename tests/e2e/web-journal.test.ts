// «Журнал оператора АГК» in a real browser against the real local server: the day of
// tests/support/journal-day.ts pushed by the API; the journal of 02.03.2026 shows the first shift's
// hourly means the Russian way with the place and set-point, the day's general and local gassings;
// the general one registered in its dialog, its closing refused while «Территориальный орган
// Ростехнадзора» is not notified, then while the book's cause, type and measures are empty, and then closed; the journal saved as xlsx holds the same figures; «События»
// of that day lists the gassings too. Screenshots at 1440 and 390 px. Needs web/dist.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { openWebApp, pickOption, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow, wholly } from "../support/layout";
import { local, meanOver, validMinutes } from "../support/journal-day";
import { journalDayMine } from "../support/journal-day-browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const ru = (v: number) => v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe("web app: the АГК operator's journal, its gassings registered and closed", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, "Шахта «Журнальная»");
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows the day's hourly means and gassings, registers and closes the general one, saves the journal", {
    timeout: 180_000,
  }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/journal`);
    await page.getByRole("heading", { name: "Журнал оператора АГК: Шахта «Журнальная»" }).waitFor();
    await page.getByText(ADVISORY_NOTE).first().waitFor();
    const date = page.getByLabel("Дата");
    await date.fill("");
    await date.pressSequentially("02.03.2026");
    await pickOption(page, page.getByLabel("Смена", { exact: true }), "Смена 1 (00:00–08:00)");
    const m7 = page.getByRole("row", { name: /^М-7/ });
    await m7.waitFor();
    const valid = validMinutes("М-7");
    const row = (await m7.textContent()) ?? "";
    expect(row).toContain("В 10–20 м от забоя");
    expect(row).toContain(ru(meanOver(valid, local(3), local(4))!));
    expect(row).toContain(ru(meanOver(valid, local(0), local(8))!));
    // each meter's limit named by act, point and edition; D87: the norm of where it
    // hangs, М-7's and М-8's A of 2 % an alarm only.
    const m9 = (await page.getByRole("row", { name: /^М-9/ }).textContent()) ?? "";
    expect(m9).toContain("1,00 % об.");
    expect(row).toContain("1,00 % об.");
    const sources = page.getByTestId("journal-limit-sources");
    await sources
      .getByText(
        "М-7, М-8, М-9: норма в выработке и ее исходящей струе — Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020), п. 122, приложение № 3",
      )
      .waitFor();
    // The whole shift's row in sight at 1440 px: the day's mean and completeness with it.
    expect(await wholly(m7.getByRole("cell").last())).toBe(true);
    const general = page.getByRole("row", { name: /общее/ });
    await general.waitFor();
    expect((await general.textContent()) ?? "").toContain("02.03.2026 03:10");
    expect((await general.textContent()) ?? "").toContain("Не зарегистрировано");
    await page
      .getByRole("row", { name: /местное/ })
      .first()
      .waitFor();
    expect((await page.locator("body").textContent()) ?? "").not.toContain(facility);
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-journal-1440.png`, fullPage: true });

    await general.getByRole("button", { name: "Зарегистрировать" }).click();
    const dialog = page.getByRole("dialog");
    // each addressee notified «now», by the signed-in user (the time and who kept).
    for (const label of ["Главный инженер", "Начальник участка АБ", "Начальник участка, где загазирование"]) {
      await dialog.getByRole("button", { name: `${label}: оповещен сейчас` }).click();
    }
    await dialog.getByLabel("Комментарий").pressSequentially("Лава остановлена");
    await dialog.getByRole("button", { name: "Закрыть загазирование" }).click();
    await dialog
      .getByRole("alert")
      .getByText(/Территориальный орган Ростехнадзора|территориальный орган Ростехнадзора/)
      .waitFor();
    await screenshot(page, { path: `${SHOTS}/web-journal-refused.png` });
    await dialog.getByRole("button", { name: "Территориальный орган Ростехнадзора: оповещен сейчас" }).click();
    // The book's fields (web-gassing-book.test.ts): closing asks the cause, the type and the measures.
    await dialog.getByRole("button", { name: "Закрыть загазирование" }).click();
    await dialog.getByText("Нельзя закрыть: не указана причина загазирования").waitFor();
    await dialog.getByLabel("Причина").pressSequentially("Остановка ВМП");
    await dialog.getByLabel("Технологическое").check();
    await dialog.getByLabel("Принятые меры").pressSequentially("ВМП запущен");
    await dialog.getByRole("button", { name: "Закрыть загазирование" }).click();
    await general.getByText(/^Закрыл /).waitFor();
    await general.getByText("«Лава остановлена»").waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Журнал (xlsx)" }).click()]);
    expect(download.suggestedFilename()).toBe("Журнал оператора АГК Шахта «Журнальная» 02.03.2026.xlsx");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await download.path()) as never);
    const first = book.getWorksheet("Смена 1")!;
    expect(first.getRow(3).getCell(1).value).toBe("М-7");
    expect(first.getRow(3).getCell(8).value as number).toBeCloseTo(meanOver(valid, local(3), local(4))!, 9);

    // On a phone the rows are blocks of «label: value» lines.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText("«Лава остановлена»").first().waitFor();
    await page.locator("[data-testid=stacked-rows]").nth(1).waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-journal-390.png`, fullPage: true });
    await screenshot(page, { path: `${SHOTS}/web-journal-390-top.png` });
    await screenshot(page.locator(".ant-card").last(), { path: `${SHOTS}/web-journal-390-gassings.png` });

    // «События» of the day lists the gassings with their registration.
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/events`);
    await page.getByRole("heading", { name: "События: Шахта «Журнальная»" }).waitFor();
    const eventsDate = page.getByLabel("Дата");
    await eventsDate.fill("");
    await eventsDate.pressSequentially("02.03.2026");
    await page.getByText("Загазирования за 02.03.2026").waitFor();
    await page.getByRole("row", { name: /общее.*Закрыл/ }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-journal-events-1440.png`, fullPage: true });
  });
});
