// The foundation screens in a real browser against the real local server (docs/user-guide.md): sign-in,
// landing, the profile's statistics, the token's renewal and the guard. The sign-in form's messages
// and the guard's redirect to /login are checked in web/src/features/auth/LoginPage.test.tsx; the
// project dialog's checks, creating, editing (and the 409), archiving, paging and «Loading ...» in
// web/src/features/projects/ProjectsPage.test.tsx; the menu, «Выход», the 404 page and /login while
// signed in in web/src/features/shell/Shell.test.tsx; the decimals setting in
// web/src/features/settings/SettingsForm.test.tsx.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, tokenPair, type TestServer } from "../support/server";
import {
  appOpenAt,
  createProjectsAs,
  navigateInApp,
  openWebApp,
  showSignedIn,
  signIn,
  type Session,
  type WebApp,
} from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: sign-in, shell and projects", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let bufferScript: { dispose(): Promise<void> } | undefined;

  const at = (path: string) => `${server.url}${path}`;
  const localStorageSize = () => page.evaluate(() => localStorage.length);
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });

  // Each test starts from the state it names (signed out, signed in, a company of its own with the
  // projects it needs), never from what an earlier test left: any one of them runs alone, in any
  // order, and a retried one starts again from that state. It gets there inside the app when the
  // page has it open, with a page load only when it has not (docs/testing.md, «Browser tier»).
  const appOpen = () => appOpenAt(page, server.url);
  /** The app is open with nothing over its screen (a dialog a failed try left open). */
  const appFree = async () => appOpen() && (await page.getByRole("dialog").count()) === 0;
  const hasSession = () => page.evaluate(() => localStorage.getItem("token") !== null);
  /** A session is open (the file's user's, unless a test opened another one), on `path` when given. */
  async function signedIn(path?: string) {
    if (!(await appFree())) await signIn(page, server.url, server.demo, path);
    else if (path !== undefined) await showSignedIn(page, server.url, server.demo, path);
    else if (!(await hasSession())) await signIn(page, server.url, server.demo);
  }
  /** `path` loaded afresh with a session open: the load is what the test checks. */
  async function loadSignedIn(path: string) {
    if (appOpen() && (await hasSession())) await page.goto(at(path));
    else await signIn(page, server.url, server.demo, path);
  }
  /** No session: a visitor who never signed in, or signed out. In the app, it signs out as «Выход»
   *  does; off the app (a new page), the browser forgets the app's storage without loading it. */
  async function signedOut() {
    if (!appOpen()) {
      const browser = await app.context.newCDPSession(page);
      await browser.send("Storage.clearDataForOrigin", { origin: server.url, storageTypes: "local_storage" });
      return void (await browser.detach());
    }
    if (!(await hasSession())) return;
    const exit = menu().getByText("Выход");
    if ((await appFree()) && (await exit.isVisible())) {
      await exit.click();
      await page.waitForURL(at("/login"));
    } else {
      // A page a failed try left with a dialog over its menu: loaded again, signed out.
      await page.evaluate(() => localStorage.clear());
      await page.goto(at("/login"));
    }
  }
  /** Shows `path` as a visitor does: inside the app when the page has it open, else with one load. */
  async function visit(path: string) {
    if (appOpen()) await navigateInApp(page, path);
    else await page.goto(at(path));
  }
  /** Signed in on `path` as the user of a new company whose projects are `names` (the last the
   *  newest), made through the API before the page opens; `before` runs between the two. One sign-in
   *  through the API opens the session all three use. */
  async function companyWith(path: string, names: string[] = [], before?: (projectIds: string[], session: Session) => Promise<unknown>) {
    const session = await tokenPair(server.url, await server.newUser());
    const ids = await createProjectsAs(server.url, session, names);
    await before?.(ids, session);
    await signIn(page, server.url, session, path);
  }

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server, { viewport: { width: 1280, height: 800 } });
    ({ page, pageErrors } = app);
    // Every file a page fetched stays in its resource timing (its default buffer keeps 250).
    // (On this file's page alone: the worker's tab goes on to the next file without it.)
    bufferScript = await page.addInitScript(() => performance.setResourceTimingBufferSize(100_000));
  });

  afterEach(() => {
    // The aborted chunk of its test is reported by the browser as an uncaught import failure, on purpose.
    expect(
      pageErrors.splice(0).filter((message) => !/dynamically imported module/.test(message)),
      "uncaught errors in the page",
    ).toEqual([]);
  });

  afterAll(async () => {
    await bufferScript?.dispose();
    await app?.close();
    await server?.close();
  });

  it("signs in and lands on the page that sent the visitor to /login", async () => {
    await signedOut();
    await visit("/projects");
    await page.waitForURL(at("/login"));
    await page.getByLabel("Логин").fill(server.demo.email);
    await page.getByLabel("Пароль").fill(server.demo.password);
    await page.getByRole("button", { name: "Вход" }).click();
    await page.waitForURL(at("/projects"));
    await page.getByRole("heading", { name: "Проекты" }).waitFor();
    await navigateInApp(page, "/");
    await page.getByRole("button", { name: "Начать работу" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-landing.png` });
    expect(await page.evaluate(() => [localStorage.getItem("token") !== null, localStorage.getItem("refreshToken") !== null])).toEqual([
      true,
      true,
    ]);
  });

  /** «Разрез Восточный» and «Участок 01» … «Участок 11», the last the newest. */
  const TWELVE = ["Разрез Восточный", ...Array.from({ length: 11 }, (_, n) => `Участок ${String(n + 1).padStart(2, "0")}`)];

  it("shows the profile with the company's statistics", async () => {
    await companyWith("/profile", TWELVE, () => server.settled());
    await page.getByText("Демо-компания").first().waitFor();
    await page.getByText("Статистика").waitFor();
    await page.getByText("Активные проекты").waitFor();
    const active = page.locator(".ant-descriptions-row", { hasText: "Активные проекты" }).locator("td");
    expect(await active.innerText()).toBe("12");
    // The snapshot the stream handler keeps says when it was taken, on the company's clock.
    const taken = page.locator(".ant-descriptions-row", { hasText: "Данные на" }).locator("td");
    expect(await taken.innerText()).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    await screenshot(page, { path: `${SHOTS}/web-profile.png`, fullPage: true });
  });

  it("refreshes an expired access token silently at start", async () => {
    // The session the form leaves, but its access token with an expiry in the past: the app must
    // renew it before showing the page. It is in storage before the page's first script runs.
    const session = await tokenPair(server.url, server.demo);
    const [header, , signature] = session.access.split(".");
    const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 }))
      .toString("base64")
      .replace(/=+$/, "");
    const expired = `${header}.${payload}.${signature}`;
    const script = await page.addInitScript(
      ({ origin, access, refresh }) => {
        if (window !== window.top || location.origin !== origin) return;
        localStorage.clear();
        localStorage.setItem("token", access);
        localStorage.setItem("refreshToken", refresh);
      },
      { origin: server.url, access: expired, refresh: session.refresh },
    );
    try {
      await page.goto(at("/profile"));
    } finally {
      await script.dispose();
    }
    await page.getByText("Демо-компания").first().waitFor();
    expect(page.url()).toBe(at("/profile"));
    expect(await page.evaluate(() => localStorage.getItem("token"))).not.toBe(expired);
  });

  it("shows a reload button instead of a blank page when a page chunk fails to load", async () => {
    await page.route("**/assets/SettingsPage-*.js", (route) => route.abort());
    try {
      // The app open on the page, unless it has loaded the settings screen already: then a new load.
      const settingsLoaded = () =>
        page.evaluate(() => performance.getEntriesByType("resource").some((entry) => /\/assets\/SettingsPage-/.test(entry.name)));
      if (!(await appFree()) || !(await hasSession()) || (await settingsLoaded())) await loadSignedIn("/");
      await menu().getByText("Настройки").click();
      await page.getByText("Не удалось загрузить часть приложения").waitFor();
      await page.getByRole("button", { name: "Перезагрузить страницу" }).waitFor();
      await screenshot(page, { path: `${SHOTS}/web-chunk-error.png` });
    } finally {
      await page.unroute("**/assets/SettingsPage-*.js");
    }
    await page.getByRole("button", { name: "Перезагрузить страницу" }).click();
    await page.getByLabel("Количество знаков после запятой").waitFor();
  });

  it("sends the user to /login when the server answers 401", async () => {
    await signedIn();
    // A token that still looks valid to the browser but that the server refuses.
    await page.evaluate(() => {
      const [header, payload] = (localStorage.getItem("token") ?? "").split(".");
      localStorage.setItem("token", `${header}.${payload}.forged-signature`);
    });
    await page.goto(at("/profile"));
    await page.waitForURL(at("/login"));
    expect(await localStorageSize()).toBe(0);
  });
});
