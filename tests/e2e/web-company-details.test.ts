// A change of the company's requisites by its staff reaches the administrator's journal with its
// before and after (docs/user-guide.md): the whole way from the API to /admin's «Журнал». What the
// staff's «Изменить реквизиты» dialog does — fields typed key by key, each wrong value named at its
// field, nothing blanked, the saved values on the profile — is tested as a component
// (web/src/features/profile/CompanyDetailsDialog.test.tsx).
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, signIn, type WebApp } from "../support/web-page";

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

  it("the administrator's journal shows the staff's change with its before and after", async () => {
    const token = await accessToken(server.url, server.demo);
    const changed = await fetch(`${server.url}/api/v1/users/company/`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "ООО «Шахта Новая»", inn: "7707083893", kpp: "773601007" }),
    });
    expect(changed.status).toBe(200);
    await signIn(page, server.url, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Журнал" }).click();
    const row = page.locator(".ant-table-row", { hasText: "Реквизиты компании изменены" }).first();
    await row.waitFor();
    await row.locator(".ant-table-row-expand-icon").click();
    await page.getByText('"inn": "7707083893"').first().waitFor();
    await page.getByText('"kpp": "773601007"').first().waitFor();
    await page.getByText('"name": "ООО «Шахта Новая»"').first().waitFor();
  });
});
