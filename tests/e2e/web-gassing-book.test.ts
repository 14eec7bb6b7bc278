// «Книга учета загазирований» in a real browser against the real local server: the day of
// tests/support/journal-day.ts pushed by the API; the book of 01.03–03.03.2026 lists its general and
// local gassings; the local one's entry filled in its dialog (the type, the cause, the losses, who
// cleared the gas and who investigated, the measures) and closed; the general one closed by the API is
// confirmed on the page by the demo user, whom the administrator gave the chief engineer's duty; people
// by surname and initials, never by e-mail; the book saved as xlsx and PDF. Screenshots at 1440 and
// 390 px. Needs web/dist.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow } from "../support/layout";
import { journalDayMine } from "../support/journal-day-browser";
import { createUser } from "@server/domain/company/users";
import { registerGassing } from "@server/domain/monitoring/derive/gassing-book";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const ALL = { chief_engineer: true, head_ab: true, head_section: true, rostekhnadzor: true };

describe("web app: the gassing book, an entry filled and closed, another confirmed by the chief engineer", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, "Шахта «Книжная»");
    const demo = file.call;
    const { results } = await demo<{ results: { id: string; kind: string }[] }>(
      "GET",
      `v1/telemetry/gassings/?facility=${facility}&from=2026-03-02&to=2026-03-02`,
    );
    const general = results.find((g) => g.kind === "общее")!.id;
    // D89, four eyes: the dispatcher who closes the entry is not the chief engineer who confirms it.
    const user = (await file.server.deps.repos.users.findByEmail(file.server.demo.email))!;
    const dispatcher = await createUser(file.server.deps, {
      companyId: user.company,
      email: "dispatcher@kuz-glub.ru",
      password: "dispatcher-shift-2026",
      first_name: "Олег",
      last_name: "Диспетчеров",
    });
    await registerGassing(file.server.deps, { id: dispatcher.id, company: user.company, email: dispatcher.email, role: "staff" }, general, {
      notified: ALL,
      type: "accident",
      cause: "Внезапный выброс метана из пласта",
      measures: "Люди выведены, электроэнергия снята, выработка проветрена",
      losses: { development_m: 4, coal_t: 1250 },
      close: true,
    });
    void demo;
    // The administrator gives the demo user the chief engineer's duty (npm run admin -- set-duty).
    await file.server.deps.repos.users.update(user.company, user.id, { duty: "chief_engineer" });
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("lists the period's entries, takes the local one's in its dialog, confirms the general one, saves the book", {
    timeout: 180_000,
  }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.server.demo, `/facilities/${facility}/gassing-book`);
    await page.getByRole("heading", { name: "Книга учета загазирований: Шахта «Книжная»" }).waitFor();
    for (const [label, value] of [
      ["С", "01.03.2026"],
      ["По", "03.03.2026"],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill("");
      await field.pressSequentially(value);
    }
    const general = page.getByRole("row", { name: /общее/ });
    // D88: the heading's spike at 14:00 is a local entry of its own; this is the 10:00 one.
    const local = page.getByRole("row", { name: /местное/ }).filter({ hasText: "10:00" });
    await general.getByText("Внезапный выброс метана из пласта").waitFor();
    expect((await general.textContent()) ?? "").toContain("аварийное");
    expect((await general.textContent()) ?? "").toContain("Закрыл Диспетчеров О.");
    expect((await general.textContent()) ?? "").toContain("20 мин");

    // The local one's entry in its dialog: closing asks the cause, the type and the measures.
    await local.getByRole("button", { name: "Зарегистрировать" }).click();
    const dialog = page.getByRole("dialog");
    // when and by whom each was notified (the gassing began at 10:00).
    await dialog.getByLabel("Главный инженер: когда оповещен").pressSequentially("02.03.2026 10:04");
    await dialog.getByLabel("Главный инженер: кем оповещен").pressSequentially("Иванов И. И.");
    for (const label of ["Начальник участка АБ", "Начальник участка, где загазирование", "Территориальный орган Ростехнадзора"])
      await dialog.getByRole("button", { name: `${label}: оповещен сейчас` }).click();
    await dialog.getByRole("button", { name: "Закрыть загазирование" }).click();
    // Each empty field of the book says so under it.
    await dialog.getByRole("alert").getByText("Нельзя закрыть: заполните отмеченные поля").waitFor();
    for (const said of [
      "Нельзя закрыть: не указана причина загазирования",
      "Нельзя закрыть: не указан вид загазирования (технологическое или аварийное)",
      "Нельзя закрыть: не указаны принятые меры",
    ])
      await dialog.getByText(said).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-gassing-book-refused.png` });
    await dialog.getByLabel("Технологическое").check();
    await dialog.getByLabel("Причина").pressSequentially("Остановка вентилятора местного проветривания");
    await dialog.getByLabel("Потери добычи, т").pressSequentially("35,5");
    await dialog.getByLabel("Разгазирование провел").pressSequentially("Горный мастер Сидоров А. В.");
    await dialog.getByLabel("Расследовал").pressSequentially("Начальник участка АБ Орлов В. Н.");
    await dialog.getByLabel("Принятые меры").pressSequentially("ВМП запущен, забой проветрен");
    await dialog.getByRole("button", { name: "Закрыть загазирование" }).click();
    await local.getByText(/^Закрыл Петров И\./).waitFor();
    const localText = (await local.textContent()) ?? "";
    for (const words of [
      "технологическое",
      "проходка —, добыча 35,5 т",
      "Горный мастер Сидоров А. В.",
      "ВМП запущен, забой проветрен",
      // each addressee with when and by whom.
      "Главный инженер 02.03.2026 10:04 (Иванов И. И.)",
    ])
      expect(localText).toContain(words);

    // The demo user, the chief engineer, confirms the general entry.
    await general.getByRole("button", { name: "Подтвердить как главный инженер" }).click();
    await general.getByText(/^Главный инженер: Петров И\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/).waitFor();
    const body = (await page.locator("body").textContent()) ?? "";
    expect(body).not.toContain(file.server.demo.email);
    expect(body).not.toContain(facility);
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-gassing-book-1440.png`, fullPage: true });

    const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Книга (xlsx)" }).click()]);
    expect(xlsx.suggestedFilename()).toBe("Книга учета загазирований Шахта «Книжная» 01.03.2026 03.03.2026.xlsx");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await xlsx.path()) as never);
    const sheet = book.getWorksheet("Книга загазирований")!;
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    const first = (sheet.getRow(3).values as unknown[]).slice(1);
    expect(first[header.indexOf("Причина")]).toBe("Внезапный выброс метана из пласта");
    expect(first[header.indexOf("Главный инженер")]).toMatch(/^Петров И\., /);
    const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Книга (PDF)" }).click()]);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // On a phone the entries are blocks of «label: value» lines.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("[data-testid=stacked-rows]").first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-gassing-book-390.png`, fullPage: true });
  });
});
