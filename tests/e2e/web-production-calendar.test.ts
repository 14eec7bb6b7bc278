// The production calendar kept on /admin, in a real browser against the real local server: a year's
// report is returned with a notice of 20 December 2026, so its rework deadline reaches 2027, which
// the seeded calendar (2024–2026) lacks: the inventory warns «производственный календарь на 2027 год
// не загружен». The operator's 2027 (typed key by key in web/src/features/admin/CalendarTab.test.tsx)
// loaded, the change log shows it, and the warning is gone from the inventory, the deadline counted
// over the January holidays.
// The calendar is the platform's, so the file has a server of its own; each test puts the calendar
// in the state it starts from before its page opens (2027 removed from the server's storage, or
// loaded through the API as the operator loads it), so any one runs alone, in any order, and a
// retry starts from that state again.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { calendarYear } from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE, openSharedStorage, type OpenStorage } from "@server/local/storage";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, navigateInApp, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
// The server lives in February 2027, so a notice of December 2026 is not in its future.
const SHIFT_MS = Date.parse("2027-02-01T09:00:00Z") - Date.now();
// 2027 as the operator enters it on the dialog: the January holidays, 23 February and 8 March off.
const YEAR_2027 = {
  year: 2027,
  decree: { title: "Постановление Правительства РФ «О переносе выходных дней в 2027 году»", number: "1234", date: "2026-09-15" },
  days_off: ["2027-01-01", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-02-23", "2027-03-08"],
  working_days: [],
};

describe("web app: the production calendar on /admin", () => {
  let server: TestServer;
  let storage: OpenStorage;
  let asOperator: ReturnType<typeof apiCaller>;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  const REVIEWER = { email: "olga.reviewer@example.com", password: "reviewer-password" };

  beforeAll(async () => {
    server = await startTestServer({ admin: true, clock: { now: () => new Date(Date.now() + SHIFT_MS) } });
    // The server's own table, as a command beside it reaches it: a test removes 2027 from it.
    storage = await openSharedStorage(server.dataDir);
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    // The year's report returned, by the API as a script would: the review steps are not what this tests.
    const operator = await accessToken(server.url, server.admin!);
    asOperator = apiCaller(
      () => server.url,
      () => operator,
    );
    const companies = await asOperator<{ results: Array<{ id: string; name: string }> }>("GET", "v1/admin/companies/");
    const demo = companies.results.find((c) => c.name === "Демо-компания")!;
    await asOperator("POST", `v1/admin/companies/${demo.id}/users/`, {
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

  // Every test's page errors, its own: none.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await server?.close();
  });

  /** The calendar without 2027, as seeded: the year taken out of the server's table (no route
   *  deletes a year). */
  async function without2027() {
    await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: calendarYear(2027) }));
  }

  /** The calendar with 2027 loaded, through the API as the operator loads it; true if it was not yet. */
  async function with2027(): Promise<boolean> {
    const years = await asOperator<{ results: Array<{ year: number }> }>("GET", "v1/admin/calendar/");
    if (years.results.some((y) => y.year === 2027)) return false;
    await asOperator("POST", "v1/admin/calendar/", YEAR_2027);
    return true;
  }

  const calendarTable = () => page.locator(".ant-table");
  const row2027 = () => calendarTable().locator('tr[data-row-key="2027"]');

  it("warns on the inventory that 2027 has no calendar: the deadline counted Monday to Friday", async () => {
    await without2027();
    // The seeded calendar: 2024–2026 (the dialog that adds a year is web/src/features/admin/CalendarTab.test.tsx's).
    const years = await asOperator<{ results: Array<{ year: number }> }>("GET", "v1/admin/calendar/");
    expect(years.results.map((y) => y.year)).toEqual([2024, 2025, 2026]);
    await signIn(page, server.url, server.demo, "/inventory?year=2025");
    await page.getByText("Срок доработки — 18.01.2027").waitFor();
    await page.getByText(/Внимание: производственный календарь на 2027 год не загружен/).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-calendar-warning.png` });
  });

  it("holds the calendar tab at 390 px and logs the year's upload", async () => {
    const loaded = await with2027();
    // Inside the app when the page is on /admin as the operator (its tabs on view) and shows the
    // calendar as it is, else in one load signed in as the operator.
    const onAdmin = !loaded && new URL(page.url()).pathname === "/admin" && (await page.getByRole("tab", { name: "Журнал" }).count()) > 0;
    if (onAdmin) await navigateInApp(page, "/admin?tab=calendar");
    else await signIn(page, server.url, server.admin!, "/admin?tab=calendar");
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

    // The log, newest first, opens on the year's upload.
    await page.getByRole("tab", { name: "Журнал" }).click();
    await page
      .locator(".ant-table-row", { hasText: "Производственный календарь загружен" })
      .first()
      .getByText("Производственный календарь на 2027 год")
      .waitFor();
  });

  it("counts the deadline by the 2027 calendar on the inventory, with no warning", async () => {
    await with2027();
    await signIn(page, server.url, server.demo, "/inventory?year=2025");
    await page.getByText("Срок доработки — 26.01.2027").waitFor();
    expect(await page.getByText(/календарь на 2027 год не загружен/).count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-calendar-deadline.png` });
  });
});
