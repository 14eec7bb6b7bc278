// The inventory in a real browser: a facility added on the profile, a project assigned to it in
// the project dialog, calculations made through the API (one marked alternative in the dialog),
// then «Инвентаризация»: the year's total with the threshold verdict, the category table with a
// line's calculations paged when it opens, the checks with links and the left-out calculations,
// the facilities and the chart by year; review and sign-off, the report passport downloaded
// as xlsx and PDF, and a version's verification pack, whose verify.py agrees offline.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { accessToken, apiCaller, navigateInApp, openWebApp, pickOption, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: the year's inventory", () => {
  const file = browserFile({ admin: true });
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: ReturnType<typeof apiCaller>;
  let reviewer: ReturnType<typeof apiCaller>;
  let projectId = "";
  const REVIEWER = { email: "reviewer.inventory@example.com", password: "reviewer-password-1" };

  const at = (path: string) => `${file.server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });
  /** A retried step loads its page: its failed try may have left the page in any state. */
  let retried = false;

  /** In the app with no dialog open, on a step's first try: the journey then goes on as a user
   *  does, through the menu, instead of loading the page again. */
  async function inApp(): Promise<boolean> {
    if (retried || new URL(page.url()).origin !== file.server.url || (await page.getByRole("dialog").count()) > 0) return false;
    return (await menu().count()) > 0;
  }
  /** The menu's screen `label` at `path`, opened as a user does. */
  async function openScreen(label: string, path: string) {
    if (!(await inApp())) return void (await page.goto(at(path)));
    await menu().getByText(label, { exact: true }).click();
    await page.waitForURL((url) => url.pathname === path);
  }
  /** «Инвентаризация» of 2025 (the latest year with data, which the page opens on) from the menu,
   *  fetched afresh: from another screen when the page is already on it, as a user opens it again.
   *  The year's figures and review are read on each visit (what the API changed shows), and its
   *  versions with a review that changed; its comments may be cached for 30 s, so the reviewer's
   *  comment is made before the page first opens. */
  async function openInventory() {
    if (!(await inApp())) return void (await page.goto(at("/inventory?year=2025")));
    if (new URL(page.url()).pathname === "/inventory") await openScreen("Профиль", "/profile");
    await openScreen("Инвентаризация", "/inventory");
    const year = page.getByRole("combobox", { name: "Отчетный год" });
    await page.locator(".ant-select", { has: year }).filter({ hasText: "2025" }).waitFor();
  }
  /** The project's list of calculations of `type` as a link of the app opens it (its rows are read
   *  afresh on each visit; a list seen before shows meanwhile), or loaded on a retried step. */
  async function openCalculations(type: string) {
    const path = `/projects/${projectId}/calculations?type=${type}`;
    if (await inApp()) await navigateInApp(page, path);
    else await page.goto(at(path));
    await page.waitForURL((url) => url.searchParams.get("type") === type);
  }

  beforeEach(({ task }) => {
    retried = (task.result?.retryCount ?? 0) > 0;
  });

  beforeAll(async () => {
    demo = file.call;
    // A reviewer of the demo company, made by the platform's admin.
    const adminToken = await accessToken(file.server.url, file.server.admin!);
    const admin = apiCaller(
      () => file.server.url,
      () => adminToken,
    );
    const me = await demo<{ company: { id: string } }>("GET", "v1/users/get_me/");
    await admin("POST", `v1/admin/companies/${me.company.id}/users/`, {
      ...REVIEWER,
      role: "reviewer",
      first_name: "Ольга",
      last_name: "Проверяющая",
    });
    const reviewerToken = await accessToken(file.server.url, REVIEWER);
    reviewer = apiCaller(
      () => file.server.url,
      () => reviewerToken,
    );
    projectId = (
      await demo<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Северная 2025",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      })
    ).id;
    const earlier = (
      await demo<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Северная 2024",
        start_date: "2024-01-01",
        end_date: "2024-12-31",
      })
    ).id;
    await demo("POST", "v1/underground_emission_ch4/", {
      name: "Добыча 2024",
      project: earlier,
      volume: 2_000_000,
      ef: 18,
      koef_transform: 0.67,
    });
    await demo("POST", "v1/underground/", {
      name: "Измерения 2025",
      project: projectId,
      volume: 40_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1,
      ef_ch4: 60,
    });
    await demo("POST", "v1/underground_emission_ch4/", {
      name: "Оценка по коэффициенту",
      project: projectId,
      volume: 2_000_000,
      ef: 18,
      koef_transform: 0.67,
    });
    // The reviewer's comment, which staff read on the approved year (made before the page opens: the
    // page may show the year's comments it read in the last 30 s).
    await reviewer("POST", "v1/inventory/2025/comments/", { text: "Сверить объем дегазации" });
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    // The journey starts signed in on the profile, the first step's screen.
    await signIn(page, file.server.url, file.server.demo, "/profile");
  });

  afterAll(async () => {
    await app?.close();
  });

  it("adds a facility on the profile and assigns the projects to it", async () => {
    if (retried || new URL(page.url()).pathname !== "/profile") await page.goto(at("/profile"));
    await page.getByRole("button", { name: "Добавить площадку" }).click();
    const dialog = page.getByRole("dialog", { name: "Новая площадка" });
    await dialog.getByLabel("Название").fill("Шахта «Северная»");
    await dialog.getByRole("button", { name: "Добавить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.locator(".ant-table-row", { hasText: "Шахта «Северная»" }).waitFor();
    expect(await page.locator(".ant-table-row", { hasText: "Шахта «Северная»" }).innerText()).toContain("Шахта (подземная добыча)");

    await openScreen("Проекты", "/projects");
    const row = page.locator(".ant-table-row", { hasText: "Северная 2025" });
    await row.waitFor();
    await row.getByRole("button", { name: "Редактировать" }).click();
    const projectDialog = page.getByRole("dialog");
    await pickOption(page, projectDialog.getByLabel("Площадка"), "Шахта «Северная»");
    await projectDialog.getByRole("button", { name: "Сохранить" }).click();
    await projectDialog.waitFor({ state: "hidden" });
    const project = await demo<{ facility: string | null }>("GET", `v1/projects/${projectId}/`);
    expect(project.facility).toBeTruthy();
  });

  it("shows the year's total, the threshold, the categories with their calculations, the checks and the chart", async () => {
    await openInventory();
    await page.getByRole("heading", { name: "Инвентаризация" }).waitFor();
    const threshold = page.getByTestId("threshold");
    await threshold.waitFor();
    // 2 000 000 t × 18 m³/t × 0,67 kg/m³ = 24 120 t CH4 → 603 000 t CO2-eq, plus the measured release: regulated.
    expect(await threshold.innerText()).toMatch(/организация — регулируемая, отчет о выбросах обязателен/);
    // D21: the company's verdict and the law it rests on.
    expect(await threshold.innerText()).toContain("постановление Правительства РФ от 14.10.2025 № 1580");
    expect(await threshold.innerText()).toContain("порога 50\u00a0000 т CO2-экв.");
    const checks = page.getByTestId("checks");
    // D19: the same source twice over the same year is an error naming both calculations.
    expect(await checks.innerText()).toMatch(/источник учтен дважды/);
    await checks.getByRole("link", { name: "Открыть «Оценка по коэффициенту»" }).waitFor();
    const category = page.getByTestId("inventory-lines").locator(".ant-table-row", { hasText: "1.B.1.a.i.1" }).filter({ hasText: "CH4" });
    // The line's calculations are read when it opens, a page at a time, with their total.
    await category.getByRole("button", { name: /Развернуть|Expand/i }).click();
    const expanded = page.locator(".ant-table-expanded-row");
    await expanded.getByRole("link", { name: "Измерения 2025", exact: true }).waitFor();
    expect(await expanded.innerText()).toMatch(/Периодические измерения/);
    // D43: while the duplicate stands the line counts the measurement alone; the check says what the
    // estimate left out would add.
    expect(await expanded.innerText()).not.toContain("Оценка по коэффициенту");
    expect(await checks.innerText()).toMatch(/в итог входит «Измерения 2025», не учтен: «Оценка по коэффициенту»/);
    const lines = await demo<{ categories: Array<{ ipcc_code: string; gas: string; count: number }> }>("GET", "v1/inventory/?year=2025");
    const mining = lines.categories.find((r) => r.ipcc_code === "1.B.1.a.i.1" && r.gas === "CH4")!;
    expect(mining.count).toBe(1);
    expect(await expanded.innerText()).toContain("Всего расчетов: 1");
    await screenshot(expanded, { path: `${SHOTS}/inventory-line-expanded.png` });
    await page.getByTestId("inventory-chart").and(page.locator("[data-ready=true]")).waitFor();
    expect(await page.getByTestId("year-change").innerText()).toMatch(/^2024: /);
    await screenshot(page, { path: `${SHOTS}/inventory-2025.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("opens a calculation from its check, and refuses to send the year to review while a check is an error", async () => {
    await openInventory();
    const checks = page.getByTestId("checks");
    // A check's link opens the calculation itself: its results, not only its project's list.
    await checks.getByRole("link", { name: "Открыть «Оценка по коэффициенту»" }).click();
    const results = page.getByTestId("results-dialog");
    await results.waitFor();
    await page.getByRole("dialog", { name: "Оценка по коэффициенту" }).waitFor();
    expect(await results.innerText()).toContain("весь период проекта");
    await page.getByRole("dialog").getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
    // D19: with an error check the year cannot be sent to review; the answer names the check.
    await openInventory();
    await page.getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Отправить на проверку" }).click();
    await page
      .getByRole("alert")
      .getByText(/нельзя отправить на проверку, пока в ней есть ошибки: .*источник учтен дважды/)
      .waitFor();
    expect(await page.getByTestId("review-status").innerText()).not.toMatch(/На проверке/);
    const refused = page.getByRole("dialog");
    await refused.getByRole("button", { name: "Отмена" }).click();
    await refused.waitFor({ state: "hidden" });
    expect(pageErrors).toEqual([]);
  });

  it("shows the methane balance of the mine as a table and a Sankey diagram (D17)", async () => {
    // The mine's flare: 2 000 thousand m³ of 60 % CH4 at 20 °C, smokeless.
    await demo("POST", "v1/torch_composition/", {
      name: "Факел 2025",
      project: projectId,
      volume: 2000,
      w_ch4: 60,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    });
    await openInventory();
    const balance = page.getByTestId("methane-balance");
    await balance.locator(".ant-table-row", { hasText: "Шахта «Северная»" }).waitFor({ timeout: 60_000 });
    // 2 000 × 60 × 0,668 / 100 = 801,6 t CH4 sent to the flare (a retry adds a second flare).
    const answer = await demo<{ balance: Array<{ flared_t: number }> }>("GET", "v1/inventory/?year=2025");
    expect(answer.balance[0].flared_t / 801.6).toBeCloseTo(Math.round(answer.balance[0].flared_t / 801.6), 9);
    // The balance the page read before the flare shows until the year is read again.
    await expect
      .poll(() => balance.innerText(), { timeout: 15_000 })
      .toContain(
        answer.balance[0].flared_t.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace(/\s/g, "\u00a0"),
      );
    // D17: the mining line is netted of the flared methane (destroyed and the slip the flaring line reports).
    const lines = await demo<{ categories: Array<{ ipcc_code: string; gas: string; t: number }> }>("GET", "v1/inventory/?year=2025");
    const mining = lines.categories.find((r) => r.ipcc_code === "1.B.1.a.i.1" && r.gas === "CH4")!;
    // D43: while the Tier 1 estimate duplicates it, «Измерения 2025» counts alone, and it is net:
    // nothing comes off it.
    const measured = 40_000 * 0.6 * 0.668;
    expect(mining.t).toBeCloseTo(measured, 2);
    const miningRow = page.getByTestId("inventory-lines").locator(".ant-table-row", { hasText: "1.B.1.a.i.1" }).filter({ hasText: "CH4" });
    expect(await miningRow.innerText()).toContain(
      mining.t.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace(/\s/g, "\u00a0"),
    );
    // D16: the flaring line is 1.B.1.a.i.4.
    await page.getByTestId("inventory-lines").locator(".ant-table-row", { hasText: "1.B.1.a.i.4" }).first().waitFor();
    await page.getByTestId("methane-sankey").and(page.locator("[data-ready=true]")).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("methane-sankey").locator(".sankey").count()).toBeGreaterThan(0);
    await balance.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/inventory-methane-balance.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("counts a calculation made alternative in its dialog no more", async () => {
    await openCalculations("underground_emission_ch4");
    const row = page.locator(".ant-table-row", { hasText: "Оценка по коэффициенту" });
    await row.getByRole("button", { name: "Редактировать" }).click();
    const dialog = page.getByRole("dialog");
    await pickOption(page, dialog.locator("#inventory-role"), /Альтернативный/);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await openInventory();
    const checks = page.getByTestId("checks");
    // D18: the check counts them; «Показать расчеты» below names them.
    await checks.getByText(/Не учтен: 1 альтернативный расчет/).waitFor();
    expect(await checks.innerText()).not.toMatch(/источник оценен разными методами/);
    const leftOut = await demo<{ results: Array<{ name: string; counted: boolean }>; count: number }>(
      "GET",
      "v1/inventory/calculations?year=2025&counted=false",
    );
    expect(leftOut.results.map((c) => [c.name, c.counted])).toEqual([["Оценка по коэффициенту", false]]);
    const inventory = await demo<{ total_t_co2e: number }>("GET", "v1/inventory/?year=2025");
    expect(await page.locator(".ant-statistic-content").innerText()).toContain(
      inventory.total_t_co2e.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace(/\s/g, "\u00a0"),
    );
    // D18: the check lists the left-out calculation on request; the line counts it no more.
    await checks.getByRole("button", { name: "Показать расчеты" }).click();
    const listed = page.getByTestId("left-out-calculations");
    await listed.getByRole("link", { name: "Оценка по коэффициенту", exact: true }).waitFor();
    expect(await listed.innerText()).toContain("альтернативный");
    expect(await listed.innerText()).toContain("Всего расчетов: 1");
    await screenshot(checks, { path: `${SHOTS}/inventory-left-out.png` });
    const category = page.getByTestId("inventory-lines").locator(".ant-table-row", { hasText: "1.B.1.a.i.1" }).filter({ hasText: "CH4" });
    await category.getByRole("button", { name: /Развернуть|Expand/i }).click();
    const expanded = page.locator(".ant-table-expanded-row");
    // The line's list read before shows until it is read again: one calculation now.
    await expanded.getByRole("link", { name: "Измерения 2025", exact: true }).waitFor();
    await expect.poll(() => expanded.innerText(), { timeout: 15_000 }).toContain("Всего расчетов: 1");
    expect(await expanded.innerText()).not.toContain("Оценка по коэффициенту");
    expect(pageErrors).toEqual([]);
  });

  it("takes the coal a facility processed, typed as a Russian engineer types it (8.1)", async () => {
    await openInventory();
    const card = page.getByTestId("coal-processed");
    const row = card.locator(".ant-table-row", { hasText: "Шахта «Северная»" });
    await row.getByText("не указано").waitFor();
    await row.getByRole("button", { name: "Изменить переработку угля: Шахта «Северная»" }).click();
    const dialog = page.getByRole("dialog", { name: "Переработка угля: Шахта «Северная»" });
    await dialog.getByLabel("Переработано угля за 2025 год").pressSequentially("2 450 000,5");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row.getByText("2\u00a0450\u00a0000,5", { exact: true }).waitFor();
    const { review } = await demo<{ review: { coal_processed: Array<{ t: number }> } }>("GET", "v1/inventory/?year=2025");
    expect(review.coal_processed.map((r) => r.t)).toEqual([2_450_000.5]);
    await screenshot(card, { path: `${SHOTS}/inventory-coal-processed.png` });
    expect(pageErrors).toEqual([]);
  });

  it("sends the year to review; once the reviewer approves, the version is listed and its calculations are locked in the list", async () => {
    await openInventory();
    await page.getByRole("button", { name: "Отправить на проверку" }).click();
    // Every step asks for confirmation and takes an optional comment.
    const confirm = page.getByRole("dialog");
    await confirm.getByText("«Отправить на проверку» для инвентаризации 2025 года?").waitFor();
    await confirm.getByLabel("Комментарий к действию").fill("Все расчеты внесены");
    await confirm.getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByTestId("review-status").getByText("На проверке").waitFor();
    // Approving is the reviewer's: staff see no such button.
    expect(await page.getByRole("button", { name: "Утвердить" }).count()).toBe(0);
    const { review } = await reviewer<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    await reviewer("POST", "v1/inventory/2025/review/", { action: "approve", version: review.version });
    // Opened again, the year reads the reviewer's approval and the version it made.
    await openInventory();
    await page.getByTestId("review-status").getByText("Утверждена").waitFor();
    // The history reads like a register: past tense, the person's name and role.
    const history = await page.locator(".ant-timeline").innerText();
    expect(history).toMatch(/направлено на проверку: .+ \(«Все расчеты внесены»\)/);
    expect(history).toMatch(/утверждено: Ольга Проверяющая, проверяющий/);
    expect(history).not.toMatch(/reviewer@example\.com|Утвердить/);
    // D32: the year shows its approved version's figures.
    await page.getByTestId("approved-figures").getByText("Утвержденная версия 1").waitFor();
    // D20: version 1 with its SHA-256.
    const versions = page.getByTestId("inventory-versions");
    await versions.getByText(/Версия 1: /).waitFor();
    expect(await versions.innerText()).toMatch(/SHA-256: ?\n?[0-9a-f]{64}/);
    // The version names its approver as the register does, never by e-mail.
    expect(await versions.innerText()).toMatch(/утверждена .+, Ольга Проверяющая/);
    expect(await versions.innerText()).not.toContain("reviewer.inventory@example.com");
    await screenshot(page, { path: `${SHOTS}/inventory-approved.png`, fullPage: true });

    // The year's calculations are locked in the list: no error after «Сохранить», the buttons say why.
    await openCalculations("underground");
    const row = page.locator(".ant-table-row", { hasText: "Измерения 2025" });
    await row.getByTestId("calculation-lock").waitFor();
    expect(await row.getByRole("button", { name: "Редактировать" }).isDisabled()).toBe(true);
    expect(await row.getByRole("button", { name: "В архив" }).isDisabled()).toBe(true);
    await row.getByTestId("calculation-lock").hover();
    await page
      .getByRole("tooltip")
      .getByText(/Инвентаризация 2025 года утверждена/)
      .waitFor();
    await screenshot(page, { path: `${SHOTS}/calculations-locked.png` });
    // The list of every type locks them the same way.
    await pickOption(page, page.getByLabel("Тип расчета"), "Все типы");
    await page.waitForURL((url) => url.searchParams.get("type") === "all");
    const anyType = page.locator(".ant-table-row", { hasText: "Измерения 2025" });
    await anyType.getByTestId("calculation-lock").waitFor();
    expect(await anyType.getByRole("button", { name: "Редактировать" }).isDisabled()).toBe(true);
    expect(await anyType.getByRole("button", { name: "В архив" }).isDisabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("shows staff no sign-off buttons, lists the comments and lets staff delete only their own", async () => {
    await openInventory();
    await page.getByTestId("review-status").getByText("Утверждена").waitFor();
    for (const name of ["Открыть для изменений", "Отчет направлен"]) expect(await page.getByRole("button", { name }).count()).toBe(0);
    const theirs = page.locator(".ant-list-item", { hasText: "Сверить объем дегазации" });
    await theirs.waitFor();
    expect(await theirs.getByRole("button", { name: "Удалить" }).count()).toBe(0);
    await page.getByLabel("Комментарий").fill("Объем сверен с журналом");
    await page.getByRole("button", { name: "Добавить" }).click();
    const mine = page.locator(".ant-list-item", { hasText: "Объем сверен с журналом" });
    await mine.waitFor();
    await mine.getByRole("button", { name: "Удалить" }).click();
    await mine.waitFor({ state: "detached" });
    await theirs.waitFor();
    const { results } = await reviewer<{ results: Array<{ text: string }> }>("GET", "v1/inventory/2025/comments/");
    expect(results.map((c) => c.text)).toEqual(["Сверить объем дегазации"]);
    expect(pageErrors).toEqual([]);
  });

  it("downloads the year's report passport as xlsx and PDF, and its calculations as xlsx", async () => {
    await openInventory();
    const save = async (name: string) => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name }).click()]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const xlsx = await save("Скачать паспорт отчета (xlsx)");
    expect(xlsx.name).toBe("Паспорт отчета 2025.xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const lines: unknown[][] = [];
    workbook.getWorksheet("Паспорт")!.eachRow((row) => lines.push([row.getCell(1).value, row.getCell(2).value]));
    expect(lines).toContainEqual(["Статус", "Утверждена"]);
    expect(lines).toContainEqual(["Версия", 1]);
    // The approved version prints the coal processed entered before the approval.
    const activity: unknown[][] = [];
    workbook.getWorksheet("Данные о деятельности")!.eachRow((row) => activity.push((row.values as unknown[]).slice(1)));
    expect(activity).toContainEqual(["Шахта «Северная»", "Переработка угля", 2_450_000.5, "т"]);
    const pdf = await save("Скачать паспорт отчета (PDF)");
    expect(pdf.name).toBe("Паспорт отчета 2025.pdf");
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // Beside it, the year's counted calculations in one workbook, ending with the year's total.
    const calculations = await save("Скачать расчеты года (xlsx)");
    expect(calculations.name).toBe("Расчеты 2025.xlsx");
    const year = new ExcelJS.Workbook();
    await year.xlsx.load(calculations.bytes as unknown as ArrayBuffer);
    const rows = year
      .getWorksheet("Расчеты 2025")!
      .getSheetValues()
      .slice(3)
      .map((row) => (row as unknown[]).slice(1));
    expect(rows.some((row) => row[0] === "Шахта «Северная»")).toBe(true);
    expect(rows.at(-1)?.[0]).toBe("Итого");
    expect(pageErrors).toEqual([]);
  });

  it("reopened, changed and approved again, the year is version 2, whose passport lists the change (D20)", async () => {
    const { review } = await reviewer<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    await reviewer("POST", "v1/inventory/2025/review/", { action: "reopen", version: review.version, reason: "Уточнить замер" });
    // Open again: the list no longer locks the year's calculations (the locked rows it showed before
    // stay on view until it has read them again).
    await openCalculations("underground");
    const row = page.locator(".ant-table-row", { hasText: "Измерения 2025" });
    await row.getByRole("button", { name: "Редактировать", disabled: false }).waitFor();
    expect(await row.getByTestId("calculation-lock").count()).toBe(0);
    expect(await row.getByRole("button", { name: "Редактировать" }).isDisabled()).toBe(false);
    const [measured] = (
      await demo<{ results: Array<{ id: string; version: number }> }>("GET", `v1/underground/?project=${projectId}&is_deleted=false`)
    ).results;
    await demo("PATCH", `v1/underground/${measured.id}/`, { volume: 50_000, version: measured.version });

    await openInventory();
    await page.getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByTestId("review-status").getByText("На проверке").waitFor();
    const sent = await reviewer<{ review: { version: number } }>("GET", "v1/inventory/?year=2025");
    await reviewer("POST", "v1/inventory/2025/review/", { action: "approve", version: sent.review.version });
    await openInventory();
    await page.getByTestId("review-status").getByText("Утверждена").waitFor();
    await page
      .getByTestId("inventory-versions")
      .getByText(/Версия 2: /)
      .waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Скачать паспорт отчета (xlsx)" }).click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    const lines: string[] = [];
    // What changed against version 1 heads the passport's «Проверки» sheet.
    workbook.getWorksheet("Проверки")!.eachRow((r) => lines.push(String(r.getCell(1).value ?? "")));
    expect(lines).toContain("Изменения относительно версии 1");
    expect(lines.some((text) => text.startsWith("Изменен расчет «Измерения 2025»"))).toBe(true);

    // D32: the versions list offers each version's own passport; version 1's prints version 1.
    const [first] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("inventory-versions").getByRole("button", { name: "Паспорт версии 1 (xlsx)" }).click(),
    ]);
    expect(first.suggestedFilename()).toBe("Паспорт отчета 2025 версия 1.xlsx");
    const firstBook = new ExcelJS.Workbook();
    await firstBook.xlsx.load(readFileSync(await first.path()) as unknown as ArrayBuffer);
    const passportRows: unknown[][] = [];
    firstBook.getWorksheet("Паспорт")!.eachRow((row) => passportRows.push([row.getCell(1).value, row.getCell(2).value]));
    expect(passportRows).toContainEqual(["Версия", 1]);
    await page.getByTestId("inventory-versions").getByRole("button", { name: "Паспорт версии 2 (PDF)" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("offers each version's verification pack: the zip downloads and its verify.py agrees with the version offline (D34)", async () => {
    await openInventory();
    await page
      .getByTestId("inventory-versions")
      .getByText(/Версия 2: /)
      .waitFor();
    const [pack] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByTestId("inventory-versions")
        .locator(".ant-list-item", { hasText: "Версия 1:" })
        .getByRole("button", { name: "Пакет для верификатора" })
        .click(),
    ]);
    expect(pack.suggestedFilename()).toBe("Пакет верификации 2025 версия 1.zip");
    const dir = mkdtempSync(join(tmpdir(), "pack-"));
    const unzipped = spawnSync("python3", ["-m", "zipfile", "-e", await pack.path(), dir], { encoding: "utf8" });
    expect(unzipped.status, unzipped.stderr).toBe(0);
    // The platform's public key, served without a token: the outside anchor.
    const keys = (await (await fetch(at("/api/v1/signing-keys/"))).json()) as { keys: Array<{ pem: string }> };
    // Beside the pack, not in it: verify.py refuses a file its signed manifest does not list (the security review's R9).
    const keyFile = join(mkdtempSync(join(tmpdir(), "platform-key-")), "platform.pem");
    writeFileSync(keyFile, keys.keys.at(-1)!.pem);
    const verified = spawnSync("python3", ["verify.py", "--public-key", keyFile], { cwd: dir, encoding: "utf8" });
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Все \d+ проверок сходятся: версия 1/);
    await screenshot(page, { path: `${SHOTS}/inventory-versions.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("names a few calculations of a long check and pages the rest on request (9.1)", async () => {
    // One source of 2023 entered seven times over the same year: one check with the count.
    const project = await demo<{ id: string }>("POST", "v1/projects/create_project/", {
      name: "Повторы 2023",
      start_date: "2023-01-01",
      end_date: "2023-12-31",
    });
    for (let i = 1; i <= 7; i++) {
      await demo("POST", "v1/underground_emission_ch4/", {
        name: `Повтор ${i}`,
        project: project.id,
        volume: 1000,
        ef: 18,
        koef_transform: 0.67,
      });
    }
    // Another year, as a link of the app opens it: read when first shown.
    if (await inApp()) await navigateInApp(page, "/inventory?year=2023");
    else await page.goto(at("/inventory?year=2023"));
    const checks = page.getByTestId("checks");
    await checks.getByText(/источник учтен дважды — 7 расчетов с пересекающимися периодами: .* и еще 2;/).waitFor();
    expect(await checks.getByRole("link", { name: /^Открыть «Повтор \d»$/ }).count()).toBe(5);
    await checks.getByRole("button", { name: "Показать все расчеты (7)" }).click();
    const listed = page.getByTestId("check-calculations");
    await listed.getByRole("link", { name: "Повтор 7", exact: true }).waitFor();
    expect(await listed.innerText()).toContain("Всего расчетов: 7");
    await screenshot(checks, { path: `${SHOTS}/inventory-long-check.png` });
    expect(pageErrors).toEqual([]);
  });
});
