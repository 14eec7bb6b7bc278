// The production calendar kept on /admin, in a real browser against the real local server: a year's
// report is returned with a notice of 20 December 2026, so its rework deadline reaches 2027, which
// the seeded calendar (2024–2026) lacks: the inventory warns «производственный календарь на 2027 год
// не загружен». The operator adds 2027 key by key (a day of another year refused at the field
// first), the change log shows it, and the warning is gone from the inventory, the deadline counted
// over the January holidays.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, navigateInApp, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
// The server lives in February 2027, so a notice of December 2026 is not in its future.
const SHIFT_MS = Date.parse("2027-02-01T09:00:00Z") - Date.now();

describe("web app: the production calendar on /admin", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  const REVIEWER = { email: "olga.reviewer@example.com", password: "reviewer-password" };
  const at = (path: string) => `${server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });

  async function signOut() {
    await menu().getByText("Выход").click();
    await page.waitForURL(at("/login"));
  }

  beforeAll(async () => {
    server = await startTestServer({ admin: true, clock: { now: () => new Date(Date.now() + SHIFT_MS) } });
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    // The year's report returned, by the API as a script would: the review steps are not what this tests.
    const operator = await accessToken(server.url, server.admin!);
    const asAdmin = apiCaller(
      () => server.url,
      () => operator,
    );
    const companies = await asAdmin<{ results: Array<{ id: string; name: string }> }>("GET", "v1/admin/companies/");
    const demo = companies.results.find((c) => c.name === "Демо-компания")!;
    await asAdmin("POST", `v1/admin/companies/${demo.id}/users/`, {
      ...REVIEWER,
      first_name: "Ольга",
      last_name: "Проверяющая",
      role: "reviewer",
    });
    const staffToken = await accessToken(server.url, server.demo);
    const reviewerToken = await accessToken(server.url, REVIEWER);
    const review = (token: string) =>
      apiCaller(
        () => server.url,
        () => token,
      );
    let state = await review(staffToken)<{ version: number }>("POST", "v1/inventory/2025/review/", {
      action: "send_to_review",
      version: 0,
    });
    for (const step of [
      { action: "approve" },
      { action: "submit", date: "2026-03-20" },
      { action: "refuse", reason: "Замечания к отчету", notice_date: "2026-12-20" },
    ]) {
      state = await review(reviewerToken)<{ version: number }>("POST", "v1/inventory/2025/review/", { ...step, version: state.version });
    }
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("warns on the inventory that 2027 has no calendar: the deadline counted Monday to Friday", async () => {
    await signIn(page, server.url, server.demo, "/inventory?year=2025");
    await page.getByText("Срок доработки — 18.01.2027").waitFor();
    await page.getByText(/Внимание: производственный календарь на 2027 год не загружен/).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-calendar-warning.png` });
    await signOut();
  });

  const calendarTable = () => page.locator(".ant-table");
  const row2027 = () => calendarTable().locator('tr[data-row-key="2027"]');

  it("lets the operator add 2027 key by key, refusing a day of another year at its field", async ({ task }) => {
    await signIn(page, server.url, server.admin!, "/admin?tab=calendar");
    const table = calendarTable();
    // A row by its year's key: every seeded row shows the day it was loaded, 01.02.2027 on this clock.
    await table.locator('tr[data-row-key="2026"]').waitFor();
    const rows = await table.locator(".ant-table-row").count();
    // A retry whose failed try saved 2027 finds it there, as that try left it.
    if (task.result?.retryCount && rows === 4) {
      await row2027().getByText("№ 1234 от 15.09.2026").waitFor();
      await row2027().getByText("Нерабочие дни: 8").waitFor();
      return;
    }
    expect(rows).toBe(3);
    await screenshot(page, { path: `${SHOTS}/web-calendar-admin.png` });

    await page.getByRole("button", { name: "Добавить год" }).click();
    const dialog = page.getByRole("dialog", { name: "Новый год производственного календаря" });
    await dialog.getByLabel("Год", { exact: true }).pressSequentially("2027");
    await dialog
      .getByLabel("Постановление о переносе выходных дней")
      .pressSequentially("Постановление Правительства РФ «О переносе выходных дней в 2027 году»");
    await dialog.getByLabel("Номер").pressSequentially("1234");
    await dialog.getByLabel("Дата постановления").click();
    await dialog.getByLabel("Дата постановления").pressSequentially("15.09.2026");
    await dialog.getByLabel("Дата постановления").press("Tab");
    const daysOff = dialog.getByLabel("Нерабочие дни");
    await daysOff.pressSequentially("01.01.2027, 04.01.2027, 05.01.2027, 06.01.2027, 07.01.2027, 08.01.2028");
    await dialog.getByText("08.01.2028 не относится к 2027 году").waitFor();
    await daysOff.press("Backspace");
    await daysOff.pressSequentially("7, 23.02.2027, 08.03.2027");
    await dialog.getByText("08.01.2028 не относится к 2027 году").waitFor({ state: "detached" });
    await dialog.getByLabel("Рабочие выходные дни").pressSequentially("03.11.2027");
    await dialog.getByText("03.11.2027 — среда: будний день и так рабочий").waitFor();
    await dialog.getByLabel("Рабочие выходные дни").fill("");
    await dialog.getByText("03.11.2027 — среда: будний день и так рабочий").waitFor({ state: "detached" });
    await screenshot(page, { path: `${SHOTS}/web-calendar-dialog.png` });
    await dialog.getByRole("button", { name: "Добавить" }).click();
    await page.locator(".ant-message-notice", { hasText: "Производственный календарь на 2027 год сохранен" }).waitFor();
    await row2027().getByText("№ 1234 от 15.09.2026").waitFor();
    await row2027().getByText("Нерабочие дни: 8").waitFor();
  }, 120_000);

  it("holds the calendar tab at 390 px and logs the year's upload", async ({ task }) => {
    // A retry starts signed in as the operator: its failed try may have signed out. Else the operator
    // is there from the test before, and the tab is reached inside the app.
    if (task.result?.retryCount) await signIn(page, server.url, server.admin!, "/admin?tab=calendar");
    else await navigateInApp(page, "/admin?tab=calendar");
    await row2027().waitFor();
    // At 390 px the tab holds: nothing wider than the phone, once the columns have followed the width.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await row2027().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, { path: `${SHOTS}/web-calendar-admin-phone.png` });
    } finally {
      await page.setViewportSize({ width: 1366, height: 860 });
    }

    await page.getByRole("tab", { name: "Журнал" }).click();
    await page
      .locator(".ant-table-row", { hasText: "Производственный календарь загружен" })
      .getByText("Производственный календарь на 2027 год")
      .waitFor();
    await signOut();
  });

  it("counts the deadline by the 2027 calendar on the inventory, with no warning", async () => {
    await signIn(page, server.url, server.demo, "/inventory?year=2025");
    await page.getByText("Срок доработки — 26.01.2027").waitFor();
    expect(await page.getByText(/календарь на 2027 год не загружен/).count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-calendar-deadline.png` });
    expect(pageErrors).toEqual([]);
  });
});
