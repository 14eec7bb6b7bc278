// «Проверки датчиков» in a real browser against the real local server (D94): the
// mine of tests/support/journal-day.ts with the mine's interval (methane every 7 days); the АГК operator
// records a failed check of М-7 on 03.03.2026 by the API and the deputy head of ВТБ for АГК signs it. On
// the page the demo user — the АГК electrician — sees М-7 «датчик не прошел проверку 03.03.2026» and
// overdue, records a check of М-8 in the form (a mixture past its date is refused under «Годен до»), signs
// the failed check in the third column, and opens М-7's own record. People by surname and initials, never
// by e-mail; no id on the screen. Screenshots at 1440 and 390 px of the facility's checks and of the
// sensor's record. Its verification is recorded with the certificate's scan, shown as a link that downloads
// the same bytes (item 3). Needs web/dist.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createUser } from "@server/domain/company/users";
import { accessToken, apiCaller, browserFile, openWebApp, pickOption, showSignedIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow } from "../support/layout";
import { journalDayMine } from "../support/journal-day-browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
/** The verification's certificate scan: a PDF's first bytes and a kilobyte. */
const SCAN_NAME = "Свидетельство С-ГШ-417.pdf";
const SCAN_HEAD = Buffer.from("%PDF-1.7\n% certificate\n");
const SCAN = Buffer.concat([SCAN_HEAD, Buffer.alloc(1024 - SCAN_HEAD.byteLength, 0x20)]);

describe("web app: a mine's sensor checks, recorded, refused, signed and read per sensor", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";
  let m7 = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, "Шахта «Поверочная»");
    const repos = file.server.deps.repos;
    const me = (await repos.users.findByEmail(file.user.email))!;
    // The administrator gives the duties (npm run admin -- set-duty): the file's user is the electrician.
    await repos.users.update(me.company, me.id, { duty: "agk_electrician" });
    const callAs = async (email: string, first_name: string, last_name: string, duty: "agk_operator" | "deputy_head_agk") => {
      await createUser(file.server.deps, { companyId: me.company, email, password: "correct-horse-7", first_name, last_name, duty });
      const token = await accessToken(file.server.url, { email, password: "correct-horse-7" });
      return apiCaller(
        () => file.server.url,
        () => token,
      );
    };
    const operator = await callAs("operator.checks@example.com", "Ольга", "Кузнецова", "agk_operator");
    const deputy = await callAs("deputy.checks@example.com", "Виктор", "Орлов", "deputy_head_agk");
    const sensors = await file.call<{ id: string; code: string }[]>("GET", `v1/facilities/${facility}/sensors/`);
    m7 = sensors.find((s) => s.code === "М-7")!.id;
    await file.call("PUT", `v1/facilities/${facility}/check-intervals/`, {
      rules: [{ kind: "methane", per: "days", days: 7 }],
      source: "Проект АГК шахты «Поверочная», раздел 7",
      version: 0,
    });
    const failed = await operator<{ id: string }>("POST", `v1/facilities/${facility}/sensors/${m7}/checks/`, {
      at: "2026-03-03T10:00:00+07:00",
      kind: "planned",
      reading_pct: 0.61,
      reference_pct: 0.4,
      reference_instrument: "ШИ-11 № 4512",
      button_test_ok: true,
      test_gas_pct: 1.5,
      test_gas_cylinder: { number: "Б-117", valid_to: "2026-12-31" },
      alarm_ok: false,
      cutoff_ok: true,
      result: "failed",
      fault: "Не срабатывает сигнализация от ПГС 1,5 %",
      measures: "Датчик снят в ремонт, установлен резервный",
      planned_work: "Замена термокаталитического элемента",
    });
    await deputy("POST", `v1/facilities/${facility}/sensors/${m7}/checks/${failed.id}/sign/`, { duty: "deputy_head_agk" });
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows what is due, refuses an expired mixture, records and signs, and reads one sensor's record", { timeout: 240_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensor-checks`);
    await page.getByRole("heading", { name: "Проверки датчиков: Шахта «Поверочная»" }).waitFor();
    const due = page.locator(".ant-card", { hasText: "Что требуется сейчас" });
    const m7Row = due.getByRole("row", { name: /М-7/ });
    await m7Row.getByText("датчик не прошел проверку 03.03.2026").waitFor();
    await m7Row.getByText(/^проверка просрочена на \d+ дн\.$/).waitFor();
    expect((await m7Row.textContent()) ?? "").toContain("раз в 7 дн.");
    await page.getByText("Документ шахты: Проект АГК шахты «Поверочная», раздел 7").waitFor();

    for (const [label, value] of [
      ["С", "01.03.2026"],
      ["По", "05.03.2026"],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill("");
      await field.pressSequentially(value);
    }
    const journal = page.locator(".ant-card", { hasText: "Журнал проверок" });
    const failedRow = journal.getByRole("row", { name: /М-7/ });
    await failedRow.getByText("датчик не прошел проверку", { exact: true }).waitFor();
    const failedText = (await failedRow.textContent()) ?? "";
    for (const words of [
      "0,61 % против 0,40 % (ШИ-11 № 4512), разница +0,21 %",
      "ПГС 1,50 %, баллон Б-117 до 31.12.2026",
      "Сигнализация: не сработала",
      "Неисправность: Не срабатывает сигнализация от ПГС 1,5 %",
      "Оператор АГК: Кузнецова О.",
      "Электрослесарь АГК: не подписано",
    ])
      expect(failedText).toContain(words);

    // The demo user records a check of М-8: a mixture past its date is refused under «Годен до».
    await page.getByRole("button", { name: "Записать проверку" }).click();
    const dialog = page.getByRole("dialog");
    await pickOption(page, dialog.getByLabel("Датчик", { exact: true }), "М-8");
    const at = dialog.getByLabel("Дата и время", { exact: true });
    await at.fill("");
    await at.pressSequentially("04.03.2026 10:00");
    await dialog.getByLabel("Плановая проверка", { exact: true }).check();
    await dialog.getByLabel("Показание датчика, % об.", { exact: true }).pressSequentially("0,40");
    await dialog.getByLabel("Показание контрольного прибора, % об.", { exact: true }).pressSequentially("0,41");
    await dialog.getByLabel("Контрольный прибор", { exact: true }).pressSequentially("ШИ-11 № 4512");
    await pickOption(page, dialog.getByLabel("Сигнализация от ПГС", { exact: true }), "сработала");
    await pickOption(page, dialog.getByLabel("Отключение от ПГС", { exact: true }), "сработала");
    await dialog.getByLabel("ПГС, % об.", { exact: true }).pressSequentially("1,5");
    await dialog.getByLabel("Баллон ПГС №", { exact: true }).pressSequentially("Б-9");
    await dialog.getByLabel("Годен до", { exact: true }).pressSequentially("01.03.2026");
    await dialog.getByRole("button", { name: "Записать и подписать" }).click();
    await dialog.getByText("Срок годности контрольной смеси истек 01.03.2026: проверка ею недействительна").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-sensor-checks-refused.png` });
    const until = dialog.getByLabel("Годен до", { exact: true });
    await until.fill("");
    await until.pressSequentially("31.12.2026");
    await dialog.getByRole("button", { name: "Записать и подписать" }).click();
    await dialog.waitFor({ state: "detached" });
    const m8Row = journal.getByRole("row", { name: /М-8/ });
    await m8Row.getByText(/^Электрослесарь АГК: Петров И\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/).waitFor();
    expect((await m8Row.textContent()) ?? "").toContain("датчик прошел проверку");

    // The electrician signs the failed check in the third column.
    await failedRow.getByRole("button", { name: "Подписать как электрослесарь АГК" }).click();
    await failedRow.getByText(/^Электрослесарь АГК: Петров И\., /).waitFor();
    // Item 6: the «Метан» journal of the period as a file, the readings as numbers, the signatures by name.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Журнал «Метан» (xlsx)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      "Журнал эксплуатации и обслуживания датчиков метана Шахта «Поверочная» 01.03.2026 05.03.2026.xlsx",
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await download.path()) as never);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[1];
    const failedInFile = rows.find((r) => r[header.indexOf("Результат")] === "датчик не прошел проверку")!;
    expect(failedInFile[header.indexOf("Показание датчика, % об.")]).toBe(0.61);
    expect(failedInFile[header.indexOf("Подпись: Электрослесарь АГК")]).toMatch(/^Петров И\., /);
    const body = (await page.locator("body").textContent()) ?? "";
    for (const hidden of [file.user.email, "operator.checks@example.com", facility, m7]) expect(body).not.toContain(hidden);
    expect(await brokenWords(page, ".ant-table-cell")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-sensor-checks-1440.png`, fullPage: true });

    // One sensor's record: its state and its checks.
    await m7Row.getByRole("link", { name: "М-7" }).click();
    await page.getByRole("heading", { name: "Проверки датчика М-7" }).waitFor();
    const now = page.locator(".ant-card", { hasText: "Сейчас" });
    await now.getByText("датчик не прошел проверку 03.03.2026").waitFor();
    expect((await now.textContent()) ?? "").toContain("Последняя проверка03.03.2026 10:00, датчик не прошел проверку");
    // Its verification recorded, past its date: the sensor is named out of verification.
    await page.getByRole("button", { name: "Записать поверку" }).click();
    const verification = page.getByRole("dialog");
    for (const [label, value] of [
      ["Тип средства измерений", "ДМС 03"],
      ["Номер в Госреестре СИ", "12345-06"],
      ["Заводской номер", "0417"],
      ["Дата поверки", "10.03.2025"],
      ["Действительна до", "09.03.2026"],
      ["Номер свидетельства (записи) о поверке", "С-ГШ/417"],
    ])
      await verification.getByLabel(label, { exact: true }).pressSequentially(value);
    // Item 3: the certificate's scan chosen in the form, attached once the verification is recorded.
    await verification.locator("input[type=file]").setInputFiles({ name: SCAN_NAME, mimeType: "application/pdf", buffer: SCAN });
    await verification.getByTestId("certificate-chosen").waitFor();
    await verification.getByRole("button", { name: "Записать поверку" }).click();
    await verification.waitFor({ state: "detached" });
    const metrology = page.locator(".ant-card", { hasText: "Поверка средства измерений" });
    await metrology.getByText("вне поверки с 10.03.2026").waitFor();
    expect((await metrology.textContent()) ?? "").toContain(
      "ДМС 03, № в Госреестре СИ 12345-06, заводской № 0417: поверен 10.03.2025, действительна до 09.03.2026, свидетельство С-ГШ/417",
    );
    await now.getByText("вне поверки с 10.03.2026").first().waitFor();
    // The scan is a link under the verification, with its size, who attached it and when; it downloads as attached.
    const scanLink = metrology.getByRole("button", { name: SCAN_NAME });
    await scanLink.waitFor();
    expect(((await metrology.textContent()) ?? "").replace(/[\u00a0\u202f]/g, " ")).toMatch(
      /Скан свидетельства: Свидетельство С-ГШ-417\.pdf \(1 КБ; приложил Петров И\., \d\d\.\d\d\.\d{4} \d\d:\d\d\)/,
    );
    const [scanDownload] = await Promise.all([page.waitForEvent("download"), scanLink.click()]);
    expect(scanDownload.suggestedFilename()).toBe(SCAN_NAME);
    expect(Buffer.compare(readFileSync(await scanDownload.path()), SCAN)).toBe(0);
    // A correction of the serial typed wrong: «Исправить» opens the form filled with the verification, and
    // the corrected one stays listed, greyed and marked, with no button; the correction names it.
    await metrology.getByRole("button", { name: "Исправить" }).click();
    const correction = page.getByRole("dialog");
    await correction.getByText("Исправление поверки датчика М-7 от 10.03.2025").waitFor();
    expect(await correction.getByLabel("Действительна до", { exact: true }).inputValue()).toBe("09.03.2026");
    const serial = correction.getByLabel("Заводской номер", { exact: true });
    expect(await serial.inputValue()).toBe("0417");
    await serial.fill("");
    await serial.pressSequentially("0471");
    await correction.getByRole("button", { name: "Записать исправление" }).click();
    await correction.waitFor({ state: "detached" });
    const records = metrology.getByTestId(/^verification-/);
    await expect.poll(() => records.count(), { timeout: 20_000 }).toBe(2);
    const [corrector, corrected] = [records.nth(0), records.nth(1)];
    expect((await corrector.textContent()) ?? "").toContain("заводской № 0471");
    await corrector.getByText(/^исправляет запись от \d\d\.\d\d\.\d{4}$/).waitFor();
    expect((await corrected.textContent()) ?? "").toContain("заводской № 0417");
    await corrected.getByText(/^исправлена \(запись от \d\d\.\d\d\.\d{4}\), не учитывается$/).waitFor();
    expect(await corrected.getByRole("button", { name: "Исправить" }).count()).toBe(0);
    expect(await corrector.getByRole("button", { name: "Исправить" }).count()).toBe(1);
    await metrology.getByText("вне поверки с 10.03.2026").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-sensor-record-1440.png`, fullPage: true });

    // On a phone the rows are blocks of «label: value» lines, nothing read sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("[data-testid=stacked-rows]").first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-sensor-record-390.png`, fullPage: true });
    // Item 6: «Датчики» gives the register with the metrology just recorded and the sensor out of verification.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole("link", { name: "Датчики", exact: true }).first().click();
    const [register] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Реестр и поверка (xlsx)" }).click(),
    ]);
    expect(register.suggestedFilename()).toBe("Реестр датчиков и поверка Шахта «Поверочная».xlsx");
    const registerBook = new ExcelJS.Workbook();
    await registerBook.xlsx.load(readFileSync(await register.path()) as never);
    const registerRows: unknown[][] = [];
    registerBook.worksheets[0].eachRow((row) => registerRows.push((row.values as unknown[]).slice(1)));
    const registerHeader = registerRows[1];
    const m7InRegister = registerRows.find((r) => r[0] === "М-7")!;
    expect(m7InRegister[registerHeader.indexOf("Свидетельство о поверке")]).toBe("С-ГШ/417");
    expect(m7InRegister[registerHeader.indexOf("Состояние поверки")]).toBe("вне поверки с 10.03.2026");
    expect(typeof m7InRegister[registerHeader.indexOf("Просрочено, дн.")]).toBe("number");
    await page.goBack();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goBack();
    await page.getByRole("heading", { name: "Проверки датчиков: Шахта «Поверочная»" }).waitFor();
    await page.locator("[data-testid=stacked-rows]").first().waitFor();
    expect(await pageOverflow(page)).toBe(0);
    expect(await brokenWords(page, "[data-testid=stacked-rows]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-sensor-checks-390.png`, fullPage: true });
  });
});
