// The company's staff keep its requisites on /profile (issue: the report as the form asks): ИНН and
// КПП typed key by key in «Изменить реквизиты», a wrong check digit refused by the server and shown
// at the field, the saved values on the profile, and the change in the administrator's journal
// with its before and after.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: the company's requisites kept by its staff", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ admin: true });
    app = await openWebApp(server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("staff type ИНН and КПП key by key; a wrong check digit is named at the field; the saved values show on the profile", async () => {
    await signIn(page, server.url, server.demo);
    await page.goto(`${server.url}/profile`);
    await page.getByRole("button", { name: "Изменить реквизиты" }).click();
    const dialog = page.getByRole("dialog", { name: "Реквизиты компании" });
    const inn = dialog.getByLabel("ИНН");
    await inn.fill("");
    await inn.pressSequentially("7707083894");
    await dialog.getByLabel("КПП").fill("");
    await dialog.getByLabel("КПП").pressSequentially("773601001");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    // The server's check digit rule, shown under the field; the dialog stays open with the input.
    await dialog.locator(".ant-form-item-explain-error").filter({ hasText: /ИНН/ }).waitFor();
    expect(await inn.inputValue()).toBe("7707083894");
    await screenshot(page, { path: `${SHOTS}/web-company-details-error.png` });

    await inn.fill("");
    await inn.pressSequentially("7707083893");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Реквизиты сохранены").waitFor();
    await dialog.waitFor({ state: "hidden" });
    const details = page.locator(".ant-descriptions");
    await details.getByText("7707083893").waitFor();
    await details.getByText("773601001").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-company-details-saved.png`, fullPage: true });
  });

  it("the administrator's journal shows the change with its before and after", async () => {
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(page, server.url, server.admin!);
    await page.goto(`${server.url}/admin`);
    await page.getByRole("tab", { name: "Журнал" }).click();
    const row = page.locator(".ant-table-row", { hasText: "Реквизиты компании изменены" }).first();
    await row.waitFor();
    await row.locator(".ant-table-row-expand-icon").click();
    await page.getByText('"inn": "7707083893"').first().waitFor();
    await page.getByText('"kpp": "773601001"').first().waitFor();
  });
});
