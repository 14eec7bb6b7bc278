// No chart sends the company's figures anywhere: in a real browser, every plotly chart of the app —
// the infographics, the inventory's chart by year and methane Sankey, gap filling, sensitivity and
// its tornado — has a mode bar whose buttons are all titled in Russian, with the PNG download and
// nothing that shares the chart, uploads it to a cloud or opens Chart Studio. The page's
// connect-src names no other host, so nothing the page could fetch reaches plotly's servers either.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { openWebApp, showSignedIn, type WebApp, browserFile } from "../support/web-page";

const CLOUD = /share|cloud|studio|plotly|поделиться|облак/i;
const CYRILLIC = /[а-яё]/i;

describe("web app: the charts' mode bar", () => {
  const file = browserFile({ demoYear: true });
  let app: WebApp;
  let page: Page;
  let seriesProject = "";
  const year = new Date().getUTCFullYear() - 1;

  const at = (path: string) => `${file.server.url}${path}`;
  /** The app on `path`: loaded once, signed in, by the first test that runs; the others move inside it. */
  const show = (path: string) => showSignedIn(page, file.server.url, file.server.demo, path);
  const { call } = file;

  async function upload(type: string, fields: Record<string, string>, name: string, text: string) {
    const form = new FormData();
    for (const [key, value] of Object.entries({ ...fields, project: seriesProject })) form.append(key, value);
    form.append("file_data", new File([text], name, { type: "text/csv" }));
    const res = await fetch(at(`/api/v1/${type}/`), { method: "POST", headers: { Authorization: `Bearer ${file.token}` }, body: form });
    if (res.status !== 201) throw new Error(`${type}: ${res.status} ${await res.text()}`);
  }

  /** Waits for `count` drawn charts in `scope` (every chart it shows, at least one, when not given)
   *  and returns each one's mode bar titles. */
  async function modeBars(scope: Locator, count?: number): Promise<string[][]> {
    const charts = scope.locator('[role="figure"][data-ready="true"]');
    if (count === undefined) {
      await expect.poll(() => charts.count(), { timeout: 60_000 }).toBeGreaterThan(0);
      await expect.poll(() => scope.locator('[role="figure"]:not([data-ready="true"])').count(), { timeout: 60_000 }).toBe(0);
    } else await expect.poll(() => charts.count(), { timeout: 60_000 }).toBe(count);
    return charts.evaluateAll((figures) =>
      figures.map((figure) =>
        [...figure.querySelectorAll(".modebar-btn")].map(
          (button) => button.getAttribute("data-title") ?? button.getAttribute("title") ?? "",
        ),
      ),
    );
  }

  function expectInside(bars: string[][]) {
    for (const titles of bars) {
      expect(titles).toContain("Скачать как PNG");
      for (const title of titles) {
        expect(title).not.toMatch(CLOUD);
        expect(title).toMatch(CYRILLIC);
      }
    }
  }

  beforeAll(async () => {
    seriesProject = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Ряды",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
      })
    ).id;
    await upload(
      "filling_blanks",
      { name: "Пропуски", name_value: "CH4" },
      "ряд.csv",
      "year,CH4\n2018,50\n2019,\n2020,30\n2021,\n2022,10\n",
    );
    await upload("sensitivity", { name: "Чувствительность" }, "добыча.csv", "year;volume;methane\n2023;1800000;17\n2024;2000000;18\n");
    app = await openWebApp(file.server, { timeout: 20_000 });
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("keeps the page's connections to its own origin", async () => {
    const answer = await fetch(at("/"));
    const csp = answer.headers.get("content-security-policy") ?? "";
    expect(csp.split("; ").find((d) => d.startsWith("connect-src"))).toBe("connect-src 'self'");
    // Plotly's share button opened a window and posted the figure to it; this cuts such a window off.
    expect(answer.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });

  it("gives the infographics of every demo project only Russian buttons, none of them a cloud", async () => {
    const { results } = await call<{ results: Array<{ id: string; name: string }> }>(
      "GET",
      "v1/projects/?is_active=true&is_deleted=false&limit=50&offset=0",
    );
    const demo = results.filter((p) => p.id !== seriesProject);
    expect(demo.length).toBeGreaterThan(0);
    for (const project of demo) {
      await show(`/projects/${project.id}/graphs`);
      // This project's page on view, not the last one's charts (the app moves in a transition).
      await page.getByRole("heading", { name: `Инфографика — ${project.name}`, exact: true, level: 2 }).waitFor();
      // The charts of what the project holds: a mine's or an open pit's.
      expectInside(await modeBars(page.locator("body")));
    }
  });

  it("does the same for the inventory's chart by year and its methane Sankey", async () => {
    await show(`/inventory?year=${year}`);
    await page.getByTestId("methane-sankey").and(page.locator('[data-ready="true"]')).waitFor({ timeout: 60_000 });
    const bars = await modeBars(page.locator("body"), 2);
    expectInside(bars);
    // A Sankey diagram has no axes: the picture is its only button.
    expect(bars).toContainEqual(["Скачать как PNG"]);
  });

  it("does the same for gap filling, sensitivity and the tornado", async () => {
    await show(`/projects/${seriesProject}/calculations?type=filling_blanks`);
    await page.locator(".ant-table-row", { hasText: "Пропуски" }).getByText("Пропуски").click();
    expectInside(await modeBars(page.getByRole("dialog", { name: "Пропуски" }), 1));
    await page.keyboard.press("Escape");

    await show(`/projects/${seriesProject}/calculations?type=sensitivity`);
    await page.locator(".ant-table-row", { hasText: "Чувствительность" }).getByText("Чувствительность").click();
    expectInside(await modeBars(page.getByRole("dialog", { name: "Чувствительность" }), 3));
    expect(app.pageErrors).toEqual([]);
  });
});
