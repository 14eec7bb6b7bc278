// «Передача смены» in a real browser against the real local server (D95): the mine of
// tests/support/journal-day.ts with 02.03's local gassing registered and not closed. The operator hands
// over by the API; the file's user takes over with «Принять смену» (the second signature: then it never
// changes), then hands over the next shift in the form with a bypassed protection of М-7 and a remark —
// the gassing is listed open in both. People by surname and initials, never by e-mail. Screenshots at
// 1440 and 390 px. Needs web/dist.
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createUser } from "@server/domain/company/users";
import { accessToken, apiCaller, browserFile, openWebApp, pickOption, showSignedIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, pageOverflow } from "../support/layout";
import { journalDayMine } from "../support/journal-day-browser";
import { zoneOf } from "@core/company-clock";
import { handoverShiftFirst, handoverShifts, shiftTitle } from "@core/shift-calendar";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const OPEN_GASSING = "М-9 (Штрек 5): запись книги с 02.03.2026 10:00 не закрыта";

describe("web app: the shift handover, taken over and handed over", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";
  let zone = "";
  let operatorShift = "";

  beforeAll(async () => {
    facility = await journalDayMine(file, "Шахта «Сменная»");
    const { results } = await file.call<{ results: { id: string; kind: string }[] }>(
      "GET",
      `v1/telemetry/gassings/?facility=${facility}&from=2026-03-02&to=2026-03-02`,
    );
    const local = results.find((g) => g.kind === "местное")!.id;
    await file.call("POST", `v1/telemetry/gassings/${local}/register/`, { notified: { rostekhnadzor: true } });
    const me = (await file.server.deps.repos.users.findByEmail(file.user.email))!;
    // The administrator gives the file's user the АГК operator's duty: they sign a shift's journal.
    await file.server.deps.repos.users.update(me.company, me.id, { duty: "agk_operator" });
    await createUser(file.server.deps, {
      companyId: me.company,
      email: "operator.shift@example.com",
      password: "correct-horse-7",
      first_name: "Ольга",
      last_name: "Кузнецова",
    });
    const token = await accessToken(file.server.url, { email: "operator.shift@example.com", password: "correct-horse-7" });
    const operator = apiCaller(
      () => file.server.url,
      () => token,
    );
    zone = zoneOf(await file.server.deps.repos.companies.get(me.company));
    operatorShift = (await operator<{ shift_from: string }>("POST", `v1/facilities/${facility}/handovers/`, { remarks: "ВМП-2 в резерве" }))
      .shift_from;
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("takes over the operator's handover, then hands over with a bypassed protection", { timeout: 240_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/handovers`);
    await page.getByRole("heading", { name: "Передача смены: Шахта «Сменная»" }).waitFor();
    const first = page.getByTestId("handover").first();
    await first.getByText(OPEN_GASSING).waitFor();
    expect((await first.textContent()) ?? "").toContain("Смену сдал: Кузнецова О.");
    await first.getByText("ждет подписи принимающего").waitFor();
    await first.getByRole("button", { name: "Принять смену" }).click();
    await first.getByText("подписана обоими").waitFor();
    await first.getByText(/^Смену принял: Петров И\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/).waitFor();
    expect(await first.getByRole("button", { name: "Принять смену" }).count()).toBe(0);
    // The handovers of the period as a file, both signatures with names and times.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Передачи смены (xlsx)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Передача смены Шахта «Сменная» \d\d\.\d\d\.\d{4} \d\d\.\d\d\.\d{4}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await download.path()) as never);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[1];
    const taken = rows.find((r) => r[header.indexOf("Замечания")] === "ВМП-2 в резерве")!;
    expect(taken[header.indexOf("Смену сдал (ФИО, время)")]).toMatch(/^Кузнецова О\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(taken[header.indexOf("Смену принял (ФИО, время)")]).toMatch(/^Петров И\., \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(String(taken[header.indexOf("Загазирования открытые")])).toContain(OPEN_GASSING);

    // The shift handed over: the one now or the one that has just ended, named by the facility's calendar
    // (D90's default here) with its day; the ended one offered first while its handover is not written and
    // the shift now is in its first half (the operator's handover is of the shift now). Key by key.
    const { now: current, ended } = handoverShifts(undefined, Date.now(), zone);
    const choice = page.getByRole("radiogroup", { name: "Передаваемая смена" });
    const endedRadio = choice.getByRole("radio", { name: `${shiftTitle(ended)} — закончилась` });
    const currentRadio = choice.getByRole("radio", { name: `${shiftTitle(current)} — идет` });
    expect(await choice.getByRole("radio").count()).toBe(2);
    const offered = handoverShiftFirst(undefined, Date.now(), zone, [operatorShift]).key === ended.key ? endedRadio : currentRadio;
    const other = offered === endedRadio ? currentRadio : endedRadio;
    await expect.poll(() => offered.isChecked()).toBe(true);
    await offered.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => other.isChecked()).toBe(true);
    expect(await offered.isChecked()).toBe(false);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => offered.isChecked()).toBe(true);
    if (offered !== endedRadio) await page.keyboard.press("ArrowDown");
    await expect.poll(() => endedRadio.isChecked()).toBe(true);

    // The next handover in the form, of the shift just ended: a bypassed protection of М-7 and a remark.
    await page.getByRole("button", { name: "Добавить защиту" }).click();
    await pickOption(page, page.getByLabel("Датчик защиты 1"), "М-7");
    await page.getByLabel("Пояснение 1").pressSequentially("Защита М-7 зашунтирована на время ремонта");
    await page.getByLabel("Замечания").pressSequentially("Лава 12-1 остановлена");
    await page.getByRole("button", { name: "Передать смену" }).click();
    await expect.poll(() => page.getByTestId("handover").count(), { timeout: 20_000 }).toBe(2);
    const mine = page.getByTestId("handover").first();
    await mine.getByText("М-7: Защита М-7 зашунтирована на время ремонта").waitFor();
    await mine.getByRole("heading", { name: `${shiftTitle(ended)} → ${shiftTitle(current)}` }).waitFor();
    const text = (await mine.textContent()) ?? "";
    // Silent since the journal day's readings, months ago (counted from the latest kept),
    // in days and hours as the tile says it («271 сут 9 ч», not «390 826 мин»).
    expect(text).toMatch(/М-7 \(Лава 12-1\): нет показаний \d{1,3}(\u00a0\d{3})* сут( \d{1,2} ч)?(?! мин)/);
    for (const words of [OPEN_GASSING, "Замечания: Лава 12-1 остановлена", "Смену сдал: Петров И.", "Смену принял: не подписано"])
      expect(text).toContain(words);
    // The one who handed over is not offered to take it over? The server refuses it: 409 said on the card.
    await mine.getByRole("button", { name: "Принять смену" }).click();
    await mine.getByRole("alert").getByText("Смену принимает другой человек, не тот, кто ее передал").waitFor();
    const body = (await page.locator("body").textContent()) ?? "";
    for (const hidden of [file.user.email, "operator.shift@example.com", facility]) expect(body).not.toContain(hidden);
    expect(await brokenWords(page)).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-handover-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // The phone's layout is drawn once the shell shows its menu button (the page measured before that is the desk's).
    await page.getByRole("button", { name: "Меню" }).waitFor();
    await page.getByTestId("handover").first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-handover-390.png`, fullPage: true });
    expect(await pageOverflow(page)).toBe(0);

    // The shift now running has not ended: its journal's signature is refused (D100), and says why.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole("link", { name: "Журнал оператора АГК" }).first().click();
    const signature = page.getByTestId("journal-signature");
    await signature.getByText("Подпись оператора АГК за смену: не подписано").waitFor();
    await signature.getByRole("button", { name: "Подписать журнал смены" }).click();
    await signature
      .getByRole("alert")
      .getByText(
        /смена «Смена \d \(\d\d:\d\d–\d\d:\d\d\), \d\d\.\d\d\.\d{4}» еще не закончилась: журнал смены подписывают после ее конца, .+$/,
      )
      .waitFor();
    await screenshot(page, { path: `${SHOTS}/web-journal-signature-refused.png` });
  });
});
