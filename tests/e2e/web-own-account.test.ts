// One's own account in a real browser (docs/user-guide.md, Профиль): the header names who is signed
// in and the company; a user changes their name and position and then their password on /profile;
// the header, the review trail on «Инвентаризация» and the passport name them by the new name; the
// old password and the user's other session stop working while this browser goes on.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, tokenPair, type TestServer } from "../support/server";
import { apiCaller, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: one's own account", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server, { viewport: { width: 1280, height: 800 } });
    ({ page, pageErrors } = app);
  });

  afterEach(() => expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("changes one's name and password: the header, the trail and the passport name the new name, the old password and other sessions end", async () => {
    // A company of its own, whose user sent the year for review under their first name.
    const user = await server.newUser();
    const session = await tokenPair(server.url, user);
    const other = await tokenPair(server.url, user);
    const call = apiCaller(
      () => server.url,
      () => session.access,
    );
    const pit = await call<{ id: string }>("POST", "v1/facilities/", { name: "Разрез «Свой»", kind: "open_pit" });
    const project = await call<{ id: string }>("POST", "v1/projects/create_project/", {
      name: "Разрез 2025",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
      facility: pit.id,
    });
    await call("POST", "v1/open_mining_ch4/", {
      name: "Метан",
      project: project.id,
      volume: 3_100_000,
      dictionary_items: { get_open_mining_ch4: 1 },
    });
    const { review } = await call<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    await call("POST", "v1/inventory/2025/review/", { action: "send_to_review", version: review.version });

    await signIn(page, server.url, session, "/profile");
    const header = page.getByTestId("signed-in-as");
    await header.filter({ hasText: "Иван Петров" }).waitFor();
    expect(await header.innerText()).toContain("Демо-компания (отдельная)");

    const card = page.locator(".ant-card", { hasText: "Пользователь" });
    await card.getByRole("button", { name: "Изменить" }).click();
    const dialog = page.getByRole("dialog", { name: "Данные пользователя" });
    await dialog.getByLabel("Имя").fill("Ольга");
    await dialog.getByLabel("Фамилия").fill("Кузнецова");
    await dialog.getByLabel("Должность").fill("Главный эколог");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await header.filter({ hasText: "Ольга Кузнецова" }).waitFor();
    await card.getByText("Главный эколог").waitFor();

    await card.getByRole("button", { name: "Сменить пароль" }).click();
    const change = page.getByRole("dialog", { name: "Смена пароля" });
    await change.getByLabel("Текущий пароль").fill("не-тот-пароль");
    await change.getByLabel("Новый пароль", { exact: true }).fill("новый-пароль-1");
    await change.getByLabel("Новый пароль еще раз").fill("новый-пароль-1");
    await change.getByRole("button", { name: "Сменить пароль" }).click();
    await change.getByText("текущий пароль указан неверно").waitFor();
    await change.getByLabel("Текущий пароль").fill(user.password);
    await screenshot(page, { path: `${SHOTS}/web-own-password.png` });
    await change.getByRole("button", { name: "Сменить пароль" }).click();
    await change.waitFor({ state: "hidden" });
    await page.locator(".ant-message-notice", { hasText: "Пароль изменен" }).waitFor();

    // This browser goes on in its new session: the trail names the person by the new name.
    await page.goto(`${server.url}/inventory?year=2025`);
    await page
      .getByText(/направлено на проверку/)
      .first()
      .waitFor();
    await page.getByText("Ольга Кузнецова").first().waitFor();
    await screenshot(page, { path: `${SHOTS}/web-own-trail.png`, fullPage: true });
    const access = (await page.evaluate(() => localStorage.getItem("token")))!;

    // The other session, this browser's old tokens and the old password are refused.
    const status = async (token: string) =>
      (await fetch(`${server.url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${token}` } })).status;
    expect(await status(other.access)).toBe(401);
    expect(await status(session.access)).toBe(401);
    expect(await status(access)).toBe(200);
    const signInWith = (password: string) =>
      fetch(`${server.url}/api/token/`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: user.email, password, guardant_code: "" }),
      });
    expect((await signInWith(user.password)).status).toBe(401);
    expect((await signInWith("новый-пароль-1")).status).toBe(200);

    // The passport names the person who sent the year by the new name.
    const passport = await fetch(`${server.url}/api/v1/inventory/2025/report/?format=xlsx`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(passport.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await passport.arrayBuffer()) as ArrayBuffer);
    const lines: string[] = [];
    workbook.getWorksheet("Паспорт")!.eachRow((row) => lines.push(String(row.getCell(2).value)));
    expect(lines).toContainEqual(expect.stringMatching(/: направлено на проверку \(Ольга Кузнецова\)$/));
  });
});
