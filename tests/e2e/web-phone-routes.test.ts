// Every screen (with data in it where it shows any) at 390×844 (a phone) in a real browser: no text breaks one character per
// line (a squeezed value column) and the page never scrolls sideways. Screenshots go to
// SCREENSHOT_DIR/web-phone-routes (default /tmp/web-phone-routes).
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, showSignedIn, type Credentials, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = `${process.env.SCREENSHOT_DIR ?? "/tmp"}/web-phone-routes`;
const PHONE = { width: 390, height: 844 };
const PROJECT = "Шахта «Распадская-Коксовая» Северо-Восточное крыло 2024";
const CALCULATION = "Дегазационная установка северного крыла";
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

interface Screen {
  name: string;
  path: (projectId: string) => string;
  /** Waits until the screen shows its data: what it alone shows, as the app keeps the screen before
   *  on view until the next one has rendered. */
  ready(page: Page): Promise<void>;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { name, level: 2 }).first().waitFor();

/** The signed-in user's address, which the profile shows. */
let demoEmail = "";

const SCREENS: Screen[] = [
  {
    name: "projects",
    path: () => "/projects",
    ready: async (page) => {
      await heading(page, "Проекты");
      // On a phone a project is a block of its fields, not a table row.
      await page
        .getByTestId("stacked-rows")
        .getByText(/Распадская/)
        .first()
        .waitFor();
    },
  },
  {
    name: "calculations",
    path: (id) => `/projects/${id}/calculations?type=underground`,
    ready: (page) => page.getByTestId("stacked-rows").getByText(CALCULATION).first().waitFor(),
  },
  {
    name: "results",
    path: (id) => `/projects/${id}/calculations?type=underground`,
    ready: async (page) => {
      await page.getByTestId("stacked-rows").getByText(CALCULATION).first().click();
      await page.locator(".ant-modal-title", { hasText: CALCULATION }).waitFor();
      await page.getByTestId("interval-approach1").waitFor();
    },
  },
  {
    name: "infographics",
    path: (id) => `/projects/${id}/graphs`,
    ready: async (page) => {
      await heading(page, `Инфографика — ${PROJECT}`);
      // Its underground and open-pit CO2 charts: a project draws the charts of what it holds.
      await expect.poll(() => page.locator(".js-plotly-plot").count(), { timeout: 30_000 }).toBe(2);
    },
  },
  {
    name: "uncertainty",
    path: (id) => `/projects/${id}/uncertainty`,
    ready: (page) => page.getByTestId("monte-carlo-interval").waitFor({ timeout: 60_000 }),
  },
  {
    name: "inventory",
    path: () => "/inventory",
    ready: (page) => page.locator('[data-testid="inventory-chart"][data-ready="true"]').waitFor(),
  },
  {
    name: "models",
    path: () => "/forecast-models",
    ready: async (page) => {
      await heading(page, "Модели прогноза");
      await page.getByText("XGBoost").first().waitFor();
    },
  },
  {
    name: "dictionary",
    path: () => "/dictionary",
    ready: async (page) => {
      await heading(page, "Справочники");
      await page.locator(".ant-table-row", { hasText: "сжигания топлива" }).first().waitFor();
    },
  },
  { name: "documents", path: () => "/documents", ready: (page) => heading(page, "Нормативные документы") },
  { name: "export", path: () => "/export", ready: (page) => heading(page, "Экспорт") },
  { name: "widgets", path: () => "/widgets", ready: (page) => heading(page, "Виджеты") },
  { name: "settings", path: () => "/settings", ready: (page) => heading(page, "Настройки") },
  {
    name: "profile",
    path: () => "/profile",
    ready: async (page) => {
      await heading(page, "Профиль");
      await page.getByText(demoEmail).first().waitFor();
    },
  },
  { name: "not-found", path: () => "/no-such-page", ready: (page) => page.getByText("Страница не найдена").waitFor() },
];

/**
 * Text that the browser broke about one character per line: a run of at least 4 letters whose lines
 * (its range's boxes) are at least 3 and hold under 2.5 characters each on average.
 */
const perCharacterText = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").trim();
      if (text.replace(/\s/g, "").length < 4) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => Math.round(r.top)));
      if (lines.size >= 3 && text.replace(/\s/g, "").length / lines.size < 2.5) found.push(text);
    }
    return found;
  });

const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth - 1));

/** Opens `screen` as `user` (inside the app when it is open, so each screen costs no page load), or signed
 *  out when no user is given, and checks it. */
async function check(page: Page, origin: string, user: Credentials | undefined, projectId: string, screen: Screen, errors: string[]) {
  if (user) await showSignedIn(page, origin, user, screen.path(projectId));
  else await page.goto(`${origin}${screen.path(projectId)}`);
  await screen.ready(page);
  await screenshot(page, { path: `${SHOTS}/${screen.name}.png`, fullPage: true });
  expect({ screen: screen.name, perCharacter: await perCharacterText(page), overflow: await overflow(page), errors }).toEqual({
    screen: screen.name,
    perCharacter: [],
    overflow: 0,
    errors: [],
  });
}

describe("every screen on a 390 px phone", () => {
  let server: TestServer;
  let projectId: string;
  let app: WebApp;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ admin: true });
    demoEmail = server.demo.email;
    const token = await accessToken(server.url, server.demo);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    projectId = (await call("v1/projects/create_project/", { name: PROJECT, start_date: "2024-01-01", end_date: "2024-12-31" })).id;
    await call("v1/underground/", { name: "Вентиляционный ствол", project: projectId, volume: 1000, ...UNDERGROUND });
    await call("v1/underground/", { name: CALCULATION, project: projectId, volume: 600, ...UNDERGROUND });
    await call("v1/open_mining_co2/", { name: "Самосвалы", project: projectId, volume: 120, ef: 3.149 });
    // Opened signed out: the first screen puts the session in place on its own load.
    app = await openWebApp(server, { viewport: PHONE, timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it.each(SCREENS)(
    "$name: no text one character per line, no sideways scroll",
    (screen) => check(app.page, server.url, server.demo, projectId, screen, app.pageErrors),
    90_000,
  );

  it("login: no text one character per line, no sideways scroll", async () => {
    const signedOut = await openWebApp(server, { viewport: PHONE, timeout: 30_000 });
    try {
      const screen = { name: "login", path: () => "/login", ready: (page: Page) => page.getByRole("button", { name: "Вход" }).waitFor() };
      await check(signedOut.page, server.url, undefined, projectId, screen, signedOut.pageErrors);
    } finally {
      await signedOut.close();
    }
  }, 90_000);

  it("admin: no text one character per line, no sideways scroll", async () => {
    const admin = await openWebApp(server, { viewport: PHONE, timeout: 30_000 });
    try {
      const screen = { name: "admin", path: () => "/admin", ready: (page: Page) => heading(page, "Администрирование") };
      await check(admin.page, server.url, server.admin, projectId, screen, admin.pageErrors);
    } finally {
      await admin.close();
    }
  }, 90_000);
});
