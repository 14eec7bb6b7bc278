// The uncertainty screens in a real browser against the real local server (methodology-
// uncertainty.md): a project's total ± interval by Approach 1 and Monte Carlo side by side and its
// key categories, computed in the page by the wasm uncertainty core (Monte Carlo in a worker);
// a calculation's results view with its 95 % interval and a Monte Carlo run on request; the user's
// own uncertainty typed in the calculation dialog. The projects are made through the API; each test
// reaches its screen inside the app when the app is open with no dialog, else (and on a retry) in one
// load, and the test that edits a calculation edits one of its own: any one runs alone, in any order.
// Needs web/dist (`npm run build:web`) and Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openWebApp, showSignedIn, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта «Северная»";
const NBSP = "\u00a0";

describe("web app: uncertainty and key categories", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let projectId: string;
  /** How many projects the dialog test has made, for names apart from each other's. */
  let edited = 0;

  const at = (path: string) => `${file.server.url}${path}`;

  /** `path` signed in: inside the app when it is open with no dialog, else (and on a retry) in one load. */
  async function show(path: string, retry: boolean) {
    if (!retry && (await page.getByRole("dialog").count()) === 0) await showSignedIn(page, file.server.url, file.server.demo, path);
    else await signIn(page, file.server.url, file.server.demo, path);
  }

  /** V1 of the methodology: 2 000 000 t (±2 %), EF 18 m³/t (±40 %) → 603 000 t CO2-eq ± 40,05 %. */
  const addMining = (project: string) =>
    call("POST", "v1/underground_emission_ch4/", {
      name: "Добыча лавы 12",
      project,
      volume: 2_000_000,
      dictionary_items: { get_underground_emission_ch4: 1 },
      uncertainty: { ef: { lower_pct: 40, upper_pct: 40, distribution: "normal", source: "Замеры шахты" } },
    });

  const { call } = file;

  beforeAll(async () => {
    projectId = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", { name: PROJECT, start_date: "2025-01-01", end_date: "2025-12-31" })
    ).id;
    await addMining(projectId);
    await call("POST", "v1/handling_underground_ch4/", {
      name: "Обработка угля",
      project: projectId,
      volume: 2_000_000,
      dictionary_items: { get_handling_underground_ch4: 1 },
    });
    await call("POST", "v1/open_mining_co2/", {
      name: "Самосвалы",
      project: projectId,
      volume: 120,
      dictionary_items: { get_open_mining_co2: 1 },
    });
    const form = new FormData();
    form.append("name", "Чувствительность шахты");
    form.append("project", projectId);
    form.append("file_data", new File(["year;volume;methane\n2023;1800000;17\n2024;2000000;18\n"], "data.csv", { type: "text/csv" }));
    const sensitivity = await fetch(at("/api/v1/sensitivity/"), {
      method: "POST",
      headers: { Authorization: `Bearer ${file.token}` },
      body: form,
    });
    if (sensitivity.status !== 201) throw new Error(`sensitivity: ${sensitivity.status} ${await sensitivity.text()}`);
    app = await openWebApp(file.server, { timeout: 20_000 });
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("opens a project's uncertainty from the projects table: total ± interval by both approaches and the key categories", async ({
    task,
  }) => {
    await show("/projects", !!task.result?.retryCount);
    await page.locator(".ant-table-row", { hasText: PROJECT }).getByRole("button", { name: "Неопределенность" }).click();
    await page.waitForURL(at(`/projects/${projectId}/uncertainty`));
    await page.getByRole("heading", { name: `Неопределенность — ${PROJECT}` }).waitFor();

    // 603 000 + 2 000 000 × 2,5 × 0,67 / 1000 × 25 = 83 750 + 120 × 3,149 = 377,88 → 687 127,88.
    const total = page.getByTestId("total-interval");
    await total.waitFor();
    const text = (await total.textContent())!;
    expect(text).toMatch(new RegExp(`^687${NBSP}127,88 ± \\d+,\\d % т CO2-экв\\.$`));
    // Eq. 3.2 of 603 000 (U √(2² + 40²)) and 83 750 (U √(2² + 64²)): the fuel is exact.
    const u = Math.sqrt((603_000 * Math.sqrt(4 + 1600)) ** 2 + (83_750 * Math.sqrt(4 + 64 ** 2)) ** 2) / 687_127.88;
    expect(text).toContain(`± ${u.toFixed(1).replace(".", ",")} %`);

    const monteCarlo = page.getByTestId("monte-carlo-interval");
    await monteCarlo.waitFor();
    expect(await monteCarlo.textContent()).toMatch(/^от [\d\u00a0]+,\d\d до [\d\u00a0]+,\d\d т CO2-экв\.$/);

    const rows = page.getByTestId("key-categories").locator(".ant-table-row");
    await expect.poll(() => rows.count()).toBe(3);
    const first = await rows.nth(0).textContent();
    expect(first).toContain("Выбросы CH4 при добыче угля подземным способом");
    expect(first).toContain("ключевая");
    expect(await rows.nth(2).textContent()).toContain("Выбросы CO2 от сжигания топлива техникой при открытой добыче");
    expect(await page.getByTestId("key-categories").textContent()).toContain("не ключевая");
    // No internal names on screen.
    expect(await page.locator("main, body").first().textContent()).not.toMatch(/underground_emission_ch4|get_[a-z_]+|lognormal/);
    await screenshot(page, { path: `${SHOTS}/uncertainty-project.png`, fullPage: true });
  });

  it("shows a calculation's 95 % interval in its results and runs Monte Carlo on request", async ({ task }) => {
    await show(`/projects/${projectId}/calculations?type=underground_emission_ch4`, !!task.result?.retryCount);
    await page.getByRole("heading", { name: `Расчеты — ${PROJECT}` }).waitFor();
    await page.locator(".ant-table-row", { hasText: "Добыча лавы 12" }).getByText("Добыча лавы 12").click();
    const dialog = page.getByTestId("results-dialog");
    await dialog.waitFor();
    const interval = dialog.getByTestId("interval-approach1");
    await interval.waitFor();
    expect(await interval.textContent()).toBe(`603${NBSP}000,00 ± 40,0 % (от 361${NBSP}498,69 до 844${NBSP}501,31 т CO2-экв.)`);
    expect(await dialog.textContent()).toContain("±40,0 %, нормальное");
    await dialog.getByRole("button", { name: "Рассчитать методом Монте-Карло" }).click();
    const mc = dialog.getByTestId("interval-monte-carlo");
    await mc.waitFor();
    expect(await mc.textContent()).toMatch(/^от [\d\u00a0]+,\d\d до [\d\u00a0]+,\d\d т CO2-экв\./);
    await screenshot(page, { path: `${SHOTS}/uncertainty-results.png`, fullPage: true });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(app.pageErrors).toEqual([]);
  });

  it("draws the tornado chart of a sensitivity result: which input moves the total most", async ({ task }) => {
    await show(`/projects/${projectId}/calculations?type=sensitivity`, !!task.result?.retryCount);
    await page.locator(".ant-table-row", { hasText: "Чувствительность шахты" }).getByText("Чувствительность шахты").click();
    const chart = page.locator("[data-testid^=tornado-chart-]");
    await chart.locator(".js-plotly-plot").waitFor();
    const ticks = await chart.locator(".ytick text").allTextContents();
    // Widest on top (plotly lists bottom-up): methane abundance, then production.
    expect(ticks).toEqual(["Добыча угля (±2,0 %)", "Относительная метанообильность (−44,0 % / +39,0 %)"]);
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/uncertainty-tornado.png` });
    await page.keyboard.press("Escape");
  });

  it("lets the user set an input's own uncertainty in the calculation dialog", async ({ task }) => {
    // A project of its own: the edit changes the uncertainty the other tests read.
    const name = `Шахта «Южная» ${++edited}`;
    const own = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", { name, start_date: "2025-01-01", end_date: "2025-12-31" })
    ).id;
    await addMining(own);
    await show(`/projects/${own}/calculations?type=underground_emission_ch4`, !!task.result?.retryCount);
    await page.getByRole("heading", { name: `Расчеты — ${name}` }).waitFor();
    await page.locator(".ant-table-row", { hasText: "Добыча лавы 12" }).getByRole("button", { name: "Редактировать" }).click();
    const form = page.locator(".ant-modal", { hasText: "Редактирование расчета" });
    await form.getByText("Неопределенность исходных данных (необязательно)").waitFor();
    // Stored as the user's own: the section is open with the values.
    const ef = form.getByTestId("uncertainty-ef");
    expect(await ef.getByRole("checkbox").isChecked()).toBe(true);
    expect(await form.locator("#uncertainty-ef-lower").inputValue()).toBe("40");
    await form.locator("#uncertainty-ef-upper").fill("55,5");
    // The volume keeps its default (production ±2 %), shown in words.
    expect(await form.getByTestId("uncertainty-volume").textContent()).toContain("Сейчас: ±2,0 %, нормальное");
    await screenshot(page, { path: `${SHOTS}/uncertainty-dialog.png`, fullPage: true });
    await form.getByRole("button", { name: "Сохранить" }).click();
    await form.waitFor({ state: "hidden" });
    const stored = await call<
      | { coefficients: Record<string, { uncertainty?: Record<string, unknown> }> }[]
      | { results: Array<{ name: string; coefficients: Record<string, { uncertainty?: Record<string, unknown> }> }> }
    >("GET", `v1/underground_emission_ch4/?project=${own}`);
    const calc = (
      stored as { results: Array<{ name: string; coefficients: Record<string, { uncertainty?: Record<string, unknown> }> }> }
    ).results.find((c) => c.name === "Добыча лавы 12")!;
    expect(calc.coefficients.ef.uncertainty).toMatchObject({ lower_pct: 40, upper_pct: 55.5, distribution: "normal", origin: "user" });
    expect(app.pageErrors).toEqual([]);
  });
});
