// The company's staff keep its requisites on /profile: its name, ИНН and КПП typed key by key in «Изменить
// реквизиты», a wrong value named at its field in Russian before anything is sent and the message
// gone once it is fixed, ИНН, КПП and ОГРН kept from being blanked, the saved values and the person
// responsible on the profile, and the change in the administrator's journal with its before and after.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, signIn, type WebApp } from "../support/web-page";
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
    // The check digit rule (the server's own), shown under the field; the dialog stays open with the input.
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

  it("three wrong values typed key by key: each named at its field in Russian, each message gone as it is fixed", async () => {
    // The company keeps an ИНН and a КПП already (as the test before leaves it).
    const token = await accessToken(server.url, server.demo);
    const kept = await fetch(`${server.url}/api/v1/users/company/`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ inn: "7707083893", kpp: "773601001" }),
    });
    expect(kept.status).toBe(200);
    await signIn(page, server.url, server.demo);
    await page.goto(`${server.url}/profile`);
    await page.getByRole("button", { name: "Изменить реквизиты" }).click();
    const dialog = page.getByRole("dialog", { name: "Реквизиты компании" });
    const field = (label: string) => dialog.getByLabel(label, { exact: true });
    const errorOf = (label: string) =>
      dialog
        .locator(".ant-form-item")
        .filter({ has: page.getByLabel(label, { exact: true }) })
        .locator(".ant-form-item-explain-error");
    const retype = async (label: string, value: string) => {
      await field(label).fill("");
      await field(label).pressSequentially(value);
      await field(label).press("Tab");
    };

    await retype("ИНН", "7707083894");
    await retype("КПП", "000000000");
    await retype("ОГРН / ОГРНИП", "1027700132194");
    await expect.poll(() => errorOf("ИНН").textContent()).toBe("ИНН — 10 цифр (организация) или 12 цифр, с верными контрольными цифрами");
    await expect.poll(() => errorOf("КПП").textContent()).toBe("КПП с кодом налогового органа 0000 не выдается");
    await expect.poll(() => errorOf("ОГРН / ОГРНИП").textContent()).toBe("ОГРН — 13 цифр, ОГРНИП — 15 цифр, с верной контрольной цифрой");
    // Saving sends nothing while a field is wrong.
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    expect(await dialog.isVisible()).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-company-details-three-errors.png` });

    // Each fixed key by key: its message goes at once, the others stay.
    await field("ИНН").press("End");
    await field("ИНН").press("Backspace");
    await field("ИНН").pressSequentially("3");
    expect(await field("ИНН").inputValue()).toBe("7707083893");
    await expect.poll(() => errorOf("ИНН").count()).toBe(0);
    expect(await errorOf("КПП").count()).toBe(1);
    await field("КПП").fill("");
    await field("КПП").pressSequentially("773601001");
    await expect.poll(() => errorOf("КПП").count()).toBe(0);
    expect(await errorOf("ОГРН / ОГРНИП").count()).toBe(1);
    await field("ОГРН / ОГРНИП").press("End");
    await field("ОГРН / ОГРНИП").press("Backspace");
    await field("ОГРН / ОГРНИП").pressSequentially("5");
    await expect.poll(() => errorOf("ОГРН / ОГРНИП").count()).toBe(0);

    // What the company keeps is corrected, never blanked.
    await retype("ИНН", "");
    await expect.poll(() => errorOf("ИНН").textContent()).toBe("ИНН уже указан — его можно исправить, но не стереть");
    await field("ИНН").pressSequentially("7707083893");
    await expect.poll(() => errorOf("ИНН").count()).toBe(0);

    await field("Ответственный за отчет: ФИО").fill("Иванова Анна Петровна");
    await field("Должность").fill("Главный эколог");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Реквизиты сохранены").waitFor();
    await dialog.waitFor({ state: "hidden" });
    const details = page.locator(".ant-descriptions");
    await details.getByText("1027700132195").waitFor();
    // The profile shows the person responsible for the report.
    await details.getByText("Иванова Анна Петровна, Главный эколог").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-company-details-responsible.png`, fullPage: true });
  }, 90_000);

  it("staff rename their company key by key (never to blank); the profile shows the new name", async () => {
    await signIn(page, server.url, server.demo);
    await page.goto(`${server.url}/profile`);
    await page.getByRole("button", { name: "Изменить реквизиты" }).click();
    const dialog = page.getByRole("dialog", { name: "Реквизиты компании" });
    const name = dialog.getByLabel("Название", { exact: true });
    const nameError = dialog
      .locator(".ant-form-item")
      .filter({ has: page.getByLabel("Название", { exact: true }) })
      .locator(".ant-form-item-explain-error");
    await name.fill("");
    await name.press("Tab");
    await expect.poll(() => nameError.textContent()).toBe("Укажите название компании");
    await name.pressSequentially("ООО «Шахта Новая»");
    await expect.poll(() => nameError.count()).toBe(0);
    const email = dialog.getByLabel("E-mail", { exact: true });
    await email.fill("");
    await email.pressSequentially("office@novaya.example");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Реквизиты сохранены").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await page.locator(".ant-descriptions").getByText("ООО «Шахта Новая»").waitFor();
  }, 90_000);

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
    await page.getByText('"name": "ООО «Шахта Новая»"').first().waitFor();
  });
});
