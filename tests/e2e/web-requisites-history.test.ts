// Профиль, «История изменений реквизитов»: the company's staff change КПП key by key; a reviewer of
// the company signs in and sees who changed it, from what to what and when (a Russian date); staff
// themselves see no history. Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const REVIEWER = { email: "reviewer.requisites@example.com", password: "reviewer-password-1" };

describe("web app: the requisites' history for the company's reviewers", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ admin: true });
    const demoToken = await accessToken(server.url, server.demo);
    const adminToken = await accessToken(server.url, server.admin!);
    const demo = apiCaller(
      () => server.url,
      () => demoToken,
    );
    const admin = apiCaller(
      () => server.url,
      () => adminToken,
    );
    const me = await demo<{ company: { id: string } }>("GET", "v1/users/get_me/");
    await admin("POST", `v1/admin/companies/${me.company.id}/users/`, {
      ...REVIEWER,
      role: "reviewer",
      first_name: "Ольга",
      last_name: "Проверяющая",
    });
    // The company keeps a КПП already: the change is from one to another.
    await demo("PATCH", "v1/users/company/", { inn: "7707083893", kpp: "773601001" });
    app = await openWebApp(server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("staff change КПП and see no history; the reviewer sees the change with who, when, was → now", async () => {
    await signIn(page, server.url, server.demo, "/profile");
    await page.getByRole("button", { name: "Изменить реквизиты" }).click();
    const dialog = page.getByRole("dialog", { name: "Реквизиты компании" });
    const kpp = dialog.getByLabel("КПП", { exact: true });
    await kpp.fill("");
    await kpp.pressSequentially("420501001");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Реквизиты сохранены").waitFor();
    await page.locator(".ant-descriptions").getByText("420501001").waitFor();
    // Staff keep the requisites but do not read their history.
    await page.getByText("Пользователь", { exact: true }).waitFor();
    expect(await page.getByText("История изменений реквизитов").count()).toBe(0);

    await signIn(page, server.url, REVIEWER, "/profile");
    const history = page.locator(".ant-card").filter({ has: page.getByText("История изменений реквизитов", { exact: true }) });
    const row = history.locator(".ant-table-row").filter({ hasText: "773601001 → 420501001" });
    await row.waitFor();
    const text = (await row.innerText()).replace(/\s+/g, " ");
    expect(text).toContain(server.demo.email);
    expect(text).toContain("Реквизиты компании");
    expect(text).toContain("КПП");
    // A Russian date and time: ДД.ММ.ГГГГ ЧЧ:ММ.
    expect(text).toMatch(/\b\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}\b/);
    await screenshot(page, { path: `${SHOTS}/web-requisites-history.png`, fullPage: true });
    // Newest first: this change, then the earlier one that set ИНН and КПП.
    const rows = (await history.locator(".ant-table-row").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
    expect(rows[0]).toContain("773601001 → 420501001");
    expect(rows[1]).toContain("Отсутствует → 7707083893");
  });
});
