// Phones and wide screens in a real browser: the landing page, projects, calculations, a calculation's
// dialog, the inventory, the reference dictionary and the infographics at 390 px (a phone) and
// 1440 px. No horizontal page scroll (the document's scrollWidth within the window); on a phone the
// projects, the calculations and the inventory show their rows as blocks and nothing on them or in
// the dialog scrolls sideways even inside its place (the dictionary's table still scrolls inside
// its); headings wrap between words, chart legends stay inside their chart, and on a phone the side
// menu becomes a drawer opened from the header. Screenshots go to SCREENSHOT_DIR/web-responsive
// (default /tmp/web-responsive).
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords } from "../support/layout";

const SHOTS = `${process.env.SCREENSHOT_DIR ?? "/tmp"}/web-responsive`;
const PROJECT = "Шахта «Распадская-Коксовая» Северо-Восточное крыло";
const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };
/** The methane-flow Sankey's node labels that overlap another or stand outside the chart. */
function sankeyLabelProblems(page: Page) {
  return page.evaluate(() => {
    const chart = document.querySelector('[data-testid="methane-sankey"] .js-plotly-plot')!.getBoundingClientRect();
    const labels = [...document.querySelectorAll<SVGGraphicsElement>('[data-testid="methane-sankey"] .node-label')]
      .map((el) => ({ text: el.textContent ?? "", box: el.getBoundingClientRect() }))
      .filter((l) => l.box.width > 0);
    const problems: string[] = [];
    for (const [i, a] of labels.entries()) {
      if (a.box.left < chart.left - 1 || a.box.right > chart.right + 1) problems.push(`${a.text}: outside`);
      for (const b of labels.slice(i + 1)) {
        const overlap = a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom;
        if (overlap) problems.push(`${a.text} × ${b.text}`);
      }
    }
    return problems;
  });
}

/** The main menu's labels cut short, its items without an icon, and how many columns its icons stand in. */
function menuProblems(page: Page) {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Главное меню"] a, nav[aria-label="Главное меню"] button')];
    const label = (item: HTMLElement) => item.querySelector<HTMLElement>(".shell-nav-label")!;
    return {
      cut: items.filter((item) => label(item).scrollWidth > label(item).clientWidth + 1).map((item) => item.textContent),
      withoutIcon: items.filter((item) => !item.querySelector(".shell-nav-icon svg")).map((item) => item.textContent),
      iconColumns: new Set(items.map((item) => Math.round(item.querySelector(".shell-nav-icon")!.getBoundingClientRect().left))).size,
    };
  });
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Screen {
  name: string;
  /** Has a table that, on a phone, scrolls sideways inside its place. */
  table?: boolean;
  /** On a phone its rows are blocks of their fields: nothing on it scrolls sideways, not even inside its place. */
  stacked?: boolean;
  path: (projectId: string) => string;
  /** Waits until the screen shows what it is about: what it alone shows, as the app keeps the screen
   *  before on view until the next one has rendered. */
  ready(page: Page): Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: "landing",
    path: () => "/",
    ready: (page) => page.getByRole("button", { name: "Начать работу" }).waitFor(),
  },
  {
    name: "projects",
    stacked: true,
    path: () => "/projects",
    ready: async (page) => {
      await page.getByRole("heading", { name: "Проекты", level: 2 }).waitFor();
      await page
        .getByText(/Распадская/)
        .first()
        .waitFor();
    },
  },
  {
    name: "calculations",
    stacked: true,
    path: (id) => `/projects/${id}/calculations?type=underground`,
    ready: (page) => page.getByText("Вентиляционный ствол", { exact: true }).first().waitFor(),
  },
  {
    name: "inventory",
    stacked: true,
    path: () => "/inventory?year=2024",
    ready: async (page) => {
      await page.getByTestId("inventory-lines").getByText("CH4", { exact: true }).first().waitFor();
      await page.getByTestId("methane-balance").waitFor();
    },
  },
  {
    name: "dictionary",
    table: true,
    path: () => "/dictionary",
    ready: async (page) => {
      await page.getByRole("heading", { name: "Справочники", level: 2 }).waitFor();
      await page.locator(".ant-table-row", { hasText: "сжигания топлива" }).first().waitFor();
    },
  },
  {
    name: "infographics",
    path: (id) => `/projects/${id}/graphs`,
    ready: async (page) => {
      await page.getByRole("heading", { name: `Инфографика — ${PROJECT}`, level: 2 }).waitFor();
      // Its underground and open-pit CO2 charts: a project draws the charts of what it holds.
      await expect.poll(() => page.locator(".js-plotly-plot").count(), { timeout: 30_000 }).toBe(2);
      await page.locator(".js-plotly-plot .legendtext", { hasText: "Выбросы CO2 (Дизель)" }).waitFor();
    },
  },
  {
    // Last: the dialog stays open for the screenshot.
    name: "calculation-dialog",
    stacked: true,
    path: (id) => `/projects/${id}/calculations?type=underground`,
    ready: async (page) => {
      await page.getByText("Вентиляционный ствол", { exact: true }).first().waitFor();
      // Opened unless a try before left it open.
      if ((await page.locator("#calc-name").count()) === 0) await page.getByRole("button", { name: "Добавить расчет" }).click();
      await page.getByRole("dialog").locator("#calc-name").waitFor();
    },
  },
];

/** How wide the page is against the window: a horizontal page scroll shows as scrollWidth > innerWidth. */
const pageWidths = (page: Page) =>
  page.evaluate(() => ({
    inner: window.innerWidth,
    html: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }));

/** Legends that reach outside their chart's drawing (the plotly SVG). */
const legendsOutside = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".js-plotly-plot")].flatMap((plot) => {
      const svg = plot.querySelector(".main-svg")!.getBoundingClientRect();
      return [...plot.querySelectorAll(".legend .legendtext, .legend .legendtoggle, .legend .bg")]
        .map((item) => ({ text: item.textContent || item.getAttribute("class"), box: item.getBoundingClientRect() }))
        .filter(({ box }) => box.left < svg.left - 1 || box.right > svg.right + 1 || box.top < svg.top - 1 || box.bottom > svg.bottom + 1)
        .map(({ text }) => text);
    }),
  );

describe("web app on a phone and on a wide screen", () => {
  const file = browserFile();
  let projectId: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${file.server.url}/api/${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${file.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    projectId = (await call("v1/projects/create_project/", { name: PROJECT, start_date: "2024-01-01", end_date: "2024-12-31" })).id;
    await call("v1/projects/create_project/", { name: "Разрез Восточный", start_date: "2023-01-01", end_date: "2023-12-31" });
    await call("v1/underground/", { name: "Вентиляционный ствол", project: projectId, volume: 1000, ...UNDERGROUND });
    await call("v1/underground/", { name: "Дегазационная установка северного крыла", project: projectId, volume: 600, ...UNDERGROUND });
    await call("v1/open_mining_co2/", { name: "Самосвалы", project: projectId, volume: 120, ef: 3.149 });
    await call("v1/open_mining_co2/", { name: "Легковой транспорт", project: projectId, volume: 40, ef: 3.026 });
  });

  describe.each([
    ["phone", PHONE],
    ["wide screen", DESKTOP],
  ] as const)("%s", (label, viewport) => {
    let app: WebApp;
    let page: Page;

    beforeAll(async () => {
      // Opened signed out: the first screen puts the session in place on its own load, the others
      // are reached inside the app.
      app = await openWebApp(file.server, { viewport, timeout: 20_000 });
      page = app.page;
    });

    const show = (path: string) => showSignedIn(page, file.server.url, file.server.demo, path);

    afterAll(async () => {
      await app?.close();
    });

    it.each(SCREENS)(
      "$name: no page scroll sideways, headings wrap between words, legends inside their charts",
      async (screen) => {
        await show(screen.path(projectId));
        await screen.ready(page);
        // The layout follows the width once antd's and plotly's resize handlers have run: each check
        // waits for the state it needs, then the screenshot shows it.
        const overflow = async () => {
          const widths = await pageWidths(page);
          return { html: Math.max(0, widths.html - widths.inner), body: Math.max(0, widths.body - widths.inner) };
        };
        await expect
          .poll(overflow, { message: `${label} ${screen.name}: page wider than the window`, timeout: 10_000 })
          .toEqual({ html: 0, body: 0 });
        if (screen.stacked && viewport === PHONE) {
          // Nothing scrolls sideways, the page or any place in it (a table's box, a dialog's body).
          const scrollers = () =>
            page.evaluate(() =>
              [...document.querySelectorAll("body *")]
                .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
                .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)}`),
            );
          await expect.poll(scrollers, { timeout: 10_000 }).toEqual([]);
        }
        if (screen.table && viewport === PHONE) {
          // The table's own box (antd's scroll) or its wrapper (any table on a phone) scrolls, within the window.
          const scrollers = () =>
            page
              .locator(".ant-table-wrapper")
              .first()
              .evaluate((wrapper) =>
                [wrapper, ...wrapper.querySelectorAll(".ant-table-content")]
                  .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth)
                  .map((el) => el.clientWidth),
              );
          await expect.poll(async () => (await scrollers()).map((width) => width <= viewport.width), { timeout: 10_000 }).toEqual([true]);
        }
        if (screen.name === "inventory") {
          // the methane-flow Sankey's labels neither run into each other nor out of the chart.
          await page.locator('[data-testid="methane-sankey"] .node-label').first().waitFor();
          await expect.poll(() => sankeyLabelProblems(page), { timeout: 10_000 }).toEqual([]);
        }
        await expect.poll(() => brokenWords(page), { timeout: 10_000 }).toEqual([]);
        await expect.poll(() => legendsOutside(page), { timeout: 10_000 }).toEqual([]);
        await screenshot(page, { path: `${SHOTS}/${screen.name}-${viewport.width}.png`, fullPage: true });
        expect(app.pageErrors).toEqual([]);
      },
      60_000,
    );

    if (viewport === PHONE) {
      it("hides the menu in a drawer that the header's button opens; choosing a screen closes it", async () => {
        await show("/projects");
        await page.getByRole("heading", { name: "Проекты" }).waitFor();
        expect(await page.locator(".ant-layout-sider").count()).toBe(0);
        const menu = page.getByRole("navigation", { name: "Главное меню" });
        expect(await menu.isVisible()).toBe(false);
        await page.getByRole("button", { name: "Меню" }).click();
        await menu.getByText("Справочники", { exact: true }).waitFor();
        // Slid in (the drawer's animation) and within the window.
        await expect.poll(async () => (await menu.boundingBox())?.x, { timeout: 10_000 }).toBe(0);
        expect((await menu.boundingBox())!.width).toBeLessThanOrEqual(viewport.width);
        // The later wings' icons come in a chunk of their own: the menu as it stands once they have.
        await expect.poll(() => menuProblems(page), { timeout: 10_000 }).toEqual({ cut: [], withoutIcon: [], iconColumns: 1 });
        await screenshot(page, { path: `${SHOTS}/menu-${viewport.width}.png` });
        await menu.getByText("Справочники", { exact: true }).click();
        await page.waitForURL(`${file.server.url}/dictionary`);
        await menu.waitFor({ state: "hidden" });
      });

      it("slides the drawer in and spins the loading spinner only for a user who has not asked the system for reduced motion", async () => {
        /** The drawer's transitions and animations that started while it opened, and how often the
         *  parts of a loading spinner (antd's Spin, as the app's stylesheets style it) repeat theirs. */
        const motions = async (reducedMotion: "reduce" | "no-preference") => {
          // The page as the app starts with the setting: the file's own (reduce) reached inside the
          // app, the other loaded anew.
          if (reducedMotion === "reduce") await show("/projects");
          else {
            await page.emulateMedia({ reducedMotion });
            await page.goto(`${file.server.url}/projects`);
          }
          await page.getByRole("heading", { name: "Проекты" }).waitFor();
          await page.evaluate(() => {
            const started: string[] = [];
            (window as unknown as { started: string[] }).started = started;
            for (const type of ["transitionstart", "animationstart"]) {
              document.addEventListener(type, (event) => {
                if (event.target instanceof Element && event.target.closest(".ant-drawer")) started.push(type);
              });
            }
          });
          // The drawer starts closed, whatever an earlier test left open.
          const menu = page.getByRole("navigation", { name: "Главное меню" });
          await menu.waitFor({ state: "hidden" });
          await page.getByRole("button", { name: "Меню" }).click();
          await expect.poll(async () => (await menu.boundingBox())?.x, { timeout: 10_000 }).toBe(0);
          const drawer = await page.evaluate(() => (window as unknown as { started: string[] }).started);
          const spinner = await page.evaluate(() => {
            const spin = document.createElement("div");
            spin.className = "ant-spin ant-spin-spinning";
            spin.innerHTML = '<span class="ant-spin-dot ant-spin-dot-spin"><i class="ant-spin-dot-item"></i></span>';
            document.body.append(spin);
            const parts = [".ant-spin-dot-spin", ".ant-spin-dot-item"].map((part) => getComputedStyle(spin.querySelector(part)!));
            const repeats = parts.map((style) => `${style.animationName} ${style.animationIterationCount}`);
            spin.remove();
            return repeats;
          });
          return { drawer, spinner };
        };
        try {
          expect(await motions("reduce")).toEqual({ drawer: [], spinner: ["antRotate 1", "antSpinMove 1"] });
          const others = await motions("no-preference");
          expect(others.drawer.length).toBeGreaterThan(0);
          expect(others.spinner).toEqual(["antRotate infinite", "antSpinMove infinite"]);
        } finally {
          await page.emulateMedia({ reducedMotion: "reduce" });
        }
      });
    } else {
      it("shows the side menu open, with its labels", async () => {
        await show("/projects");
        await page.getByRole("heading", { name: "Проекты", level: 2 }).waitFor();
        const sider = page.locator(".ant-layout-sider");
        await sider.waitFor();
        expect(await sider.evaluate((el) => el.getBoundingClientRect().width)).toBe(240);
        expect(await page.getByRole("button", { name: "Меню" }).count()).toBe(0);
        await page.getByRole("navigation", { name: "Главное меню" }).getByText("Справочники", { exact: true }).waitFor();
        // every item with its icon in one column, no label cut («Нормативные докум…»).
        // The later wings' icons come in a chunk of their own: the menu as it stands once they have.
        await expect.poll(() => menuProblems(page), { timeout: 10_000 }).toEqual({ cut: [], withoutIcon: [], iconColumns: 1 });
        await screenshot(page, { path: `${SHOTS}/menu-${viewport.width}.png` });
      });

      it("keeps the page as it is when the window narrows to a phone's width and back", async () => {
        const infographics = SCREENS.find((s) => s.name === "infographics")!;
        await show(infographics.path(projectId));
        await infographics.ready(page);
        const graphRequests: string[] = [];
        // The chart data's API path (the typed client writes it without a trailing slash).
        const count = (request: { url(): string }) =>
          void (new URL(request.url()).pathname === `/api/v1/projects/${projectId}/graphs` && graphRequests.push(request.url()));
        page.on("request", count);
        try {
          await page.setViewportSize(PHONE);
          await page.getByRole("button", { name: "Меню" }).waitFor();
          expect(await page.locator(".js-plotly-plot").count()).toBe(2);
          await page.setViewportSize(DESKTOP);
          await page.locator(".ant-layout-sider").waitFor();
          expect(await page.locator(".js-plotly-plot").count()).toBe(2);
          // The page was not mounted again: its chart data were not dropped and fetched anew.
          expect(graphRequests).toEqual([]);
        } finally {
          page.off("request", count);
        }
      });
    }
  });
});
