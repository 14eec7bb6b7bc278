// Not losing one's place: the page of a list is in the address, so reload and
// the back button keep it; projects are searched by name on «Проекты» and «Экспорт». A deep link
// opened signed out that leads, after signing in, to the page asked for (never to another origin)
// is web/src/features/auth/LoginPage.test.tsx's.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, createProjectsAs, navigateInApp, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: not losing one's place", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let projectId: string;

  const at = (path: string) => `${server.url}${path}`;
  const rows = () => page.locator(".ant-table-row");
  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });
  const activePage = () => page.locator(".ant-pagination-item-active").innerText();
  const search = () => page.getByLabel("Поиск проекта по названию");

  // Each test starts from the state it names (signed in on a page it opens), never
  // from where an earlier test left the browser: any one runs alone, and a retry starts again.
  /** The file's user signed in on `path`, the page titled `heading` on view: loaded with the session
   *  unless one is open, else reached inside the app (the app moves in a transition: the heading says
   *  the page asked for shows, not the one before). */
  async function signedIn(path: string, heading: string) {
    const open = await page.evaluate(() => localStorage.getItem("token") !== null).catch(() => false);
    if (!open) await signIn(page, server.url, server.demo, path);
    else await navigateInApp(page, path);
    await page.getByRole("heading", { name: heading, level: 2 }).waitFor();
  }

  beforeAll(async () => {
    server = await startTestServer();
    // 12 projects: «Участок 01» … «Участок 11» and one mine, newest first in the list; made through
    // the API before the page first opens.
    const names = ["Шахта «Ёлочная»", ...Array.from({ length: 11 }, (_, i) => `Участок ${String(i + 1).padStart(2, "0")}`)];
    [projectId] = await createProjectsAs(server.url, server.demo, names);
    const token = await accessToken(server.url, server.demo);
    for (let n = 1; n <= 11; n++) {
      const made = await fetch(`${server.url}/api/v1/torch_ch4/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Факел ${String(n).padStart(2, "0")}`, project: projectId, volume: n, koef_transform: 0.67 }),
      });
      expect(made.status).toBe(201);
    }
    app = await openWebApp(server, { viewport: { width: 1440, height: 900 } });
    ({ page, pageErrors } = app);
  });

  afterEach(() => {
    expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("keeps page 2 of the projects on reload, and back returns to page 1", async () => {
    await signedIn("/projects", "Проекты");
    await row("Участок 11").waitFor();
    expect(await rows().count()).toBe(10);
    await page.locator(".ant-pagination-item-2").click();
    await page.waitForURL(at("/projects?page=2"));
    await row("Шахта «Ёлочная»").waitFor();
    await page.reload();
    await row("Шахта «Ёлочная»").waitFor();
    expect(await activePage()).toBe("2");
    await screenshot(page, { path: `${SHOTS}/web-place-projects-page2.png`, fullPage: true });
    await page.goBack();
    await page.waitForURL(at("/projects"));
    await row("Участок 11").waitFor();
    expect(await activePage()).toBe("1");
    await page.goForward();
    await row("Шахта «Ёлочная»").waitFor();
  });

  it("comes back to the same page of projects from a project's calculations", async () => {
    await signedIn("/projects?page=2", "Проекты");
    await row("Шахта «Ёлочная»").click();
    await page.waitForURL(at(`/projects/${projectId}/calculations`));
    await page.goBack();
    await page.waitForURL(at("/projects?page=2"));
    await row("Шахта «Ёлочная»").waitFor();
  });

  it("keeps a project's calculations page on reload and back", async () => {
    await signedIn(`/projects/${projectId}/calculations?type=torch_ch4`, "Расчеты — Шахта «Ёлочная»");
    await row("Факел 11").waitFor();
    await page.locator(".ant-pagination-item-2").click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2" && url.searchParams.get("type") === "torch_ch4");
    await row("Факел 01").waitFor();
    await page.reload();
    await row("Факел 01").waitFor();
    expect(await activePage()).toBe("2");
    await page.goBack();
    await row("Факел 11").waitFor();
    expect(await activePage()).toBe("1");
  });

  it("searches projects by name on «Проекты», in any case, and keeps the search on reload", async () => {
    await signedIn("/projects?page=2", "Проекты");
    await row("Шахта «Ёлочная»").waitFor();
    await search().fill("участок 0");
    await page.waitForURL((url) => url.searchParams.get("search") === "участок 0");
    // A new search starts from page 1: nine matches, one page.
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
    await expect.poll(() => rows().count()).toBe(9);
    expect(await row("Шахта").count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-place-projects-search.png`, fullPage: true });
    await page.reload();
    await expect.poll(() => rows().count()).toBe(9);
    expect(await search().inputValue()).toBe("участок 0");
    await search().fill("ЕЛОЧН");
    await search().press("Enter");
    await row("Шахта «Ёлочная»").waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    await search().fill("нет такого");
    await search().press("Enter");
    await page.getByText("Нет проектов с таким названием").waitFor();
  });

  it("searches projects by name on «Экспорт», with the page in the address", async () => {
    await signedIn("/export?format=xlsx", "Экспорт");
    const projects = page.locator(".ant-card", { hasText: "2. Проект" });
    await projects.locator(".ant-table-row", { hasText: "Участок 11" }).waitFor();
    await projects.locator(".ant-pagination-item-2").click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2");
    await row("Шахта «Ёлочная»").waitFor();
    await page.reload();
    await row("Шахта «Ёлочная»").waitFor();
    await search().fill("шахта");
    await search().press("Enter");
    await page.waitForURL((url) => url.searchParams.get("search") === "шахта" && url.searchParams.get("format") === "xlsx");
    await expect.poll(() => projects.locator(".ant-table-row").count()).toBe(1);
    await row("Шахта «Ёлочная»").click();
    await page.getByText("Проект «Шахта «Ёлочная»», формат xlsx").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-place-export-search.png`, fullPage: true });
  });

  it("keeps the reference page and the chosen category on reload", async () => {
    await signedIn("/dictionary", "Справочники");
    const categories = page.getByTestId("categories");
    await categories.locator(".ant-pagination-item-2").click();
    await page.waitForURL(at("/dictionary?page=2"));
    await categories.locator(".ant-table-row", { hasText: "на факельной установке" }).first().locator("td").first().click();
    await page.getByTestId("coefficients").waitFor();
    await page.reload();
    await page.getByTestId("coefficients").getByText("Коэффициенты: ").waitFor();
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    expect(await categories.locator(".ant-pagination-item-active").innerText()).toBe("2");
  });
});
