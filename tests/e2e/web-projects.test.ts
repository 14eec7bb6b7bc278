// The foundation screens in a real browser against the real local server (SPEC 2, 4): sign-in,
// landing, projects (add, validate, edit, archive, restore), profile, settings, exit and the guard.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { chromiumAvailable, launchBrowser } from "../support/browser";
import { startTestServer, type TestServer } from "../support/server";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WEB_BUILD = new URL("../../web/dist/index.html", import.meta.url);

describe.skipIf(!chromiumAvailable())("web app: sign-in, shell and projects", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  const at = (path: string) => `${server.url}${path}`;
  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });
  const localStorageSize = () => page.evaluate(() => localStorage.length);

  async function signIn() {
    await page.goto(at("/login"));
    await page.getByLabel("Логин").fill(server.demo.email);
    await page.getByLabel("Пароль").fill(server.demo.password);
    await page.getByRole("button", { name: "Вход" }).click();
    await page.waitForURL(at("/"));
  }

  beforeAll(async () => {
    if (!existsSync(WEB_BUILD)) throw new Error('web/dist is missing: run "npm run build:web" first');
    server = await startTestServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: "ru-RU", viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  it("sends a visitor of a protected page to /login", async () => {
    await page.goto(at("/projects"));
    await page.waitForURL(at("/login"));
    await page.getByText("Цифровая платформа расчета неорганизованных выбросов").waitFor();
  });

  it("shows a Russian message under the form for a wrong password", async () => {
    await page.getByLabel("Логин").fill(server.demo.email);
    await page.getByLabel("Пароль").fill("wrong-password");
    await page.getByRole("button", { name: "Вход" }).click();
    await page.getByRole("alert").filter({ hasText: "Неверный логин или пароль" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/web-login.png` });
    expect(page.url()).toBe(at("/login"));
  });

  it("signs in and lands on the landing page", async () => {
    await page.getByLabel("Пароль").fill(server.demo.password);
    await page.getByRole("button", { name: "Вход" }).click();
    await page.waitForURL(at("/"));
    await page.getByRole("button", { name: "Начать работу" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/web-landing.png` });
    expect(await page.evaluate(() => [localStorage.getItem("token") !== null, localStorage.getItem("refreshToken") !== null])).toEqual([true, true]);
  });

  it("shows only the built screens in the menu", async () => {
    const menu = page.getByRole("navigation", { name: "Главное меню" });
    for (const label of ["Профиль", "Проекты", "Настройки", "Выход"]) {
      await menu.getByText(label, { exact: true }).waitFor();
    }
    for (const label of ["Справочники", "Нормативные документы", "Экспорт", "Виджеты"]) {
      expect(await menu.getByText(label, { exact: true }).count()).toBe(0);
    }
  });

  it("redirects /login to the landing page while signed in", async () => {
    await page.goto(at("/login"));
    await page.waitForURL(at("/"));
  });

  it("shows the 404 page inside the shell for an unknown path", async () => {
    await page.goto(at("/no-such-page"));
    await page.getByText("Страница не найдена").waitFor();
    await page.getByRole("navigation", { name: "Главное меню" }).waitFor();
  });

  it("opens the empty project list from the landing page", async () => {
    await page.goto(at("/"));
    await page.getByRole("button", { name: "Начать работу" }).click();
    await page.waitForURL(at("/projects"));
    await page.getByText("Проектов пока нет").waitFor();
  });

  it("validates the add dialog before sending anything", async () => {
    await page.getByRole("button", { name: "Добавить проект" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.getByText("Введите название проекта").waitFor();
    await dialog.getByText("Укажите дату начала").waitFor();
    await dialog.getByText("Укажите дату окончания").waitFor();
    await page.screenshot({ path: `${SHOTS}/web-project-dialog.png` });
  });

  it("rejects an end date before the start date", async () => {
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Название").fill("Шахта Северная");
    await fillDate(dialog.getByLabel("Дата начала"), "2024-03-01");
    await fillDate(dialog.getByLabel("Дата окончания"), "2024-02-01");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.getByText("Дата окончания раньше даты начала").waitFor();
  });

  it("creates a project", async () => {
    const dialog = page.getByRole("dialog");
    await fillDate(dialog.getByLabel("Дата окончания"), "2024-12-31");
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.waitFor({ state: "hidden" });
    const created = row("Шахта Северная");
    await created.waitFor();
    const cells = await created.locator("td").allInnerTexts();
    expect(cells.slice(0, 3)).toEqual(["Шахта Северная", "2024-03-01", "2024-12-31"]);
    expect(cells[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("edits a project and cuts a long name to 25 characters", async () => {
    await row("Шахта Северная").getByRole("button", { name: "Редактировать" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Редактирование проекта").waitFor();
    expect(await dialog.getByLabel("Название").inputValue()).toBe("Шахта Северная");
    await dialog.getByLabel("Название").fill("Разрез Восточный, участок номер 2");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row("Разрез Восточный, участок…").waitFor();
    await page.screenshot({ path: `${SHOTS}/web-projects.png` });
  });

  it("archives a project after confirmation", async () => {
    await row("Разрез Восточный").getByRole("button", { name: "В архив" }).click();
    await page.getByText("Переместить проект в архив?").waitFor();
    await page.getByRole("button", { name: "Переместить" }).click();
    await page.getByText("Проектов пока нет").waitFor();
  });

  it("lists the archived project and restores it", async () => {
    await page.getByText("Архив", { exact: true }).click();
    await row("Разрез Восточный").waitFor();
    await page.screenshot({ path: `${SHOTS}/web-projects-archive.png` });
    await row("Разрез Восточный").getByRole("button", { name: "Восстановить" }).click();
    await page.getByText("В архиве нет проектов").waitFor();
    await page.getByText("Активные", { exact: true }).click();
    await row("Разрез Восточный").waitFor();
  });

  it("shows the profile with the demo company", async () => {
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Профиль").click();
    await page.waitForURL(at("/profile"));
    await page.getByText("Демо-компания").first().waitFor();
    await page.getByText("Статистика").waitFor();
    await page.getByText("Активные проекты").waitFor();
    await page.screenshot({ path: `${SHOTS}/web-profile.png`, fullPage: true });
  });

  it("saves the number of decimal places", async () => {
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Настройки").click();
    const input = page.getByLabel("Количество знаков после запятой");
    expect(await input.inputValue()).toBe("4");
    await input.fill("2");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Настройки сохранены").waitFor();
    await page.screenshot({ path: `${SHOTS}/web-settings.png` });
    expect(await page.evaluate(() => localStorage.getItem("comma"))).toBe("2");
  });

  it("signs out with «Выход» and clears local storage", async () => {
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Выход").click();
    await page.waitForURL(at("/login"));
    expect(await localStorageSize()).toBe(0);
  });

  it("keeps a signed-out visitor out of /projects", async () => {
    await page.goto(at("/projects"));
    await page.waitForURL(at("/login"));
    await page.getByRole("button", { name: "Вход" }).waitFor();
  });

  it("refreshes an expired access token silently at start", async () => {
    await signIn();
    // Same token, but with an expiry in the past: the app must renew it before showing the page.
    await page.evaluate(() => {
      const [header, , signature] = (localStorage.getItem("token") ?? "").split(".");
      const payload = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 })).replace(/=+$/, "");
      localStorage.setItem("token", `${header}.${payload}.${signature}`);
    });
    const expired = await page.evaluate(() => localStorage.getItem("token"));
    await page.goto(at("/profile"));
    await page.getByText("Демо-компания").first().waitFor();
    expect(page.url()).toBe(at("/profile"));
    expect(await page.evaluate(() => localStorage.getItem("token"))).not.toBe(expired);
  });

  it("shows a reload button instead of a blank page when a page chunk fails to load", async () => {
    await page.route("**/assets/SettingsPage-*.js", (route) => route.abort());
    await page.goto(at("/"));
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Настройки").click();
    await page.getByText("Не удалось загрузить часть приложения").waitFor();
    await page.getByRole("button", { name: "Перезагрузить страницу" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/web-chunk-error.png` });
    await page.unroute("**/assets/SettingsPage-*.js");
    await page.getByRole("button", { name: "Перезагрузить страницу" }).click();
    await page.getByLabel("Количество знаков после запятой").waitFor();
  });

  it("sends the user to /login when the server answers 401", async () => {
    // A token that still looks valid to the browser but that the server refuses.
    await page.evaluate(() => {
      const [header, payload] = (localStorage.getItem("token") ?? "").split(".");
      localStorage.setItem("token", `${header}.${payload}.forged-signature`);
    });
    await page.goto(at("/profile"));
    await page.waitForURL(at("/login"));
    expect(await localStorageSize()).toBe(0);
  });

  it("raised no uncaught errors in the page", () => {
    // The aborted chunk above is reported by the browser as an uncaught import failure, on purpose.
    expect(pageErrors.filter((message) => !/dynamically imported module/.test(message))).toEqual([]);
  });
});

/** Types a date into antd's DatePicker; leaving the field commits it (Enter would submit the form). */
async function fillDate(input: ReturnType<Page["getByLabel"]>, value: string) {
  await input.click();
  await input.fill(value);
  await input.press("Tab");
}
