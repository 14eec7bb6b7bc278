// The calculations screen in a real browser against the real local server (docs/user-guide.md;
// methodology D8, D9): one calculation of every formula type through the registry-driven dialog,
// each live preview (the wasm core in the page) equal to the stored result the results dialog
// shows and to the API's number, edit, archive, restore, the type in the URL and paging.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { REGISTRY, type FormulaType } from "@core/registry";
import { formatAmount } from "@web/shared/format";
import { startTestServer, type TestServer } from "../support/server";
import { callApi as callPageApi, createProjectsAs, openWebApp, pickOption, signIn, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта Расчетная";

/** What to do in the dialog for one type, and the preview it must show (methodology-vectors.json). */
interface Case {
  type: FormulaType;
  name: string;
  fill: Record<string, string>;
  /** Dictionary selector label → option to choose. */
  choose?: Record<string, string>;
  /** Free inputs that appear after choosing (custom mode). */
  fillAfter?: Record<string, string>;
  expected: Record<string, string | RegExp>;
}

const nbsp = (text: string) => text.replace(/ /g, "\u00a0");

const CASES: Case[] = [
  {
    type: "recycle_technology",
    name: "Утилизация: 60 % при 40 м³/мин",
    fill: { "Концентрация метана": "60", "Абсолютное метановыделение (дебит чистого метана)": "40" },
    expected: { technology: /^Мини-ТЭС на шахтном метане/ },
  },
  {
    type: "handling_underground_ch4",
    name: "Обработка угля",
    fill: { "Объём добычи угля подземным способом": "1000000" },
    expected: { res_ch4: "1 675,00", res_ch4_to_co2: "41 875,00" },
  },
  {
    type: "open_mining_ch4",
    name: "Разрез: фактическое значение",
    fill: { "Объём добычи угля открытым способом": "1000000" },
    choose: { "Коэффициент выбросов CH4 при открытой добыче": "Фактическое значение" },
    fillAfter: { "Коэффициент выбросов CH4": "1,7" },
    expected: { res_ch4: "1 139,00", res_ch4_to_co2: "28 475,00" },
  },
  {
    type: "open_mining_co2",
    name: "Карьерная техника: бензин",
    fill: { "Расход топлива": "100" },
    choose: { "Коэффициент выбросов CO2 и плотность топлива (транспорт, открытые работы)": "Бензин АИ-92" },
    expected: { res_co2: "302,60" },
  },
  {
    type: "underground",
    name: "Дегазация, 20 °C",
    fill: { "Объём газовой смеси, выброшенной без сжигания": "10000" },
    expected: { res_co2: "1 949,66", res_ch4: "5 076,80", res_ch4_to_co2: "126 920,00", sum_co2: "128 869,66" },
  },
  {
    type: "underground_emission_ch4",
    name: "Подземная добыча, 18 м³/т",
    fill: { "Объём добычи угля подземным способом": "1000000" },
    expected: { res_ch4: "12 060,00", res_ch4_to_co2: "301 500,00" },
  },
  {
    type: "disposal_co2_torch",
    name: "Факел: CO2",
    fill: { "Объём метана, направленного на факельную установку": "1000" },
    expected: { res_co2: "1 805,65" },
  },
  {
    type: "disposal_co2_stat_sources",
    name: "Котельная на природном газе",
    fill: { "Расход топлива": "1000" },
    expected: { res_co2: "1 795,11" },
  },
  {
    type: "torch_ch4",
    name: "Факел: несгоревший метан, ПГП AR5",
    fill: { "Объём метана, направленного на факельную установку": "1000" },
    choose: { "Потенциал глобального потепления CH4, т CO2-экв./т CH4": "МГЭИК AR5: 28" },
    expected: { res_ch4: "13,40", res_ch4_to_co2: "375,20" },
  },
];

describe("web app: calculations", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let projectId = "";
  let pageErrors: string[];
  const previews = new Map<FormulaType, Record<string, string>>();

  const at = (path: string) => `${server.url}${path}`;
  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });
  const dialog = (name: string) => page.getByRole("dialog", { name });

  const callApi = <T>(method: string, path: string, body?: unknown) => callPageApi<T>(page, method, path, body);

  const list = async (type: FormulaType, deleted = false) =>
    (
      await callApi<{ results: CalculationView[]; count: number }>(
        "GET",
        `/api/v1/${type}/?project=${projectId}&is_active=true&is_deleted=${deleted}&limit=10&offset=0`,
      )
    ).json;

  const pick = (select: Locator, option: string) => pickOption(page, select, option);

  async function chooseType(type: FormulaType) {
    await pick(page.getByLabel("Тип расчета"), REGISTRY[type].title);
    await page.waitForURL((url) => url.searchParams.get("type") === type);
  }

  async function previewTexts(scope: Locator, prefix: string, type: FormulaType): Promise<Record<string, string>> {
    const texts: Record<string, string> = {};
    // A table result (underground's measurement periods) is not shown when the volume is typed.
    for (const field of REGISTRY[type].results.filter((f) => f.type !== "table")) {
      texts[field.name] = await scope.getByTestId(`${prefix}-${field.name}`).innerText();
    }
    return texts;
  }

  beforeAll(async () => {
    server = await startTestServer();
    // The project is made through the API; the page then opens once, signed in on the projects.
    [projectId] = await createProjectsAs(server.url, server.demo, [PROJECT]);
    app = await openWebApp(server);
    ({ page, pageErrors } = app);
    await signIn(page, server.url, server.demo, "/projects");
  });

  // Each test's own uncaught errors in the page, checked after it: none.
  afterEach(() => expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("opens a project's calculations from its row, with no type chosen: no list, no add button", async ({ task }) => {
    if (task.result?.retryCount || new URL(page.url()).pathname !== "/projects") await page.goto(at("/projects"));
    await row(PROJECT).click();
    await page.waitForURL(at(`/projects/${projectId}/calculations`));
    await page.getByRole("heading", { name: `Расчеты — ${PROJECT}` }).waitFor();
    await page.getByText("Выберите тип расчета, чтобы увидеть список и добавить расчет").waitFor();
    expect(await page.getByRole("button", { name: "Добавить расчет" }).count()).toBe(0);
  });

  for (const c of CASES) {
    it(`creates ${c.type} through the dialog; the preview is the stored result`, async () => {
      await chooseType(c.type);
      await page.getByRole("button", { name: "Добавить расчет" }).click();
      const form = dialog("Новый расчет");
      await form.getByText(REGISTRY[c.type].title, { exact: true }).waitFor();
      await form.getByLabel("Название расчета").fill(c.name);
      for (const [label, value] of Object.entries(c.fill)) await form.getByLabel(label, { exact: true }).fill(value);
      for (const [label, option] of Object.entries(c.choose ?? {})) await pick(form.getByLabel(label, { exact: true }), option);
      for (const [label, value] of Object.entries(c.fillAfter ?? {})) await form.getByLabel(label, { exact: true }).fill(value);

      const preview = form.getByTestId("preview");
      for (const [name, expected] of Object.entries(c.expected)) {
        const text = preview.getByTestId(`preview-${name}`);
        if (typeof expected === "string") await text.filter({ hasText: nbsp(expected) }).waitFor();
        else expect(await text.innerText()).toMatch(expected);
      }
      const shown = await previewTexts(preview, "preview", c.type);
      previews.set(c.type, shown);
      // D17: mining methane states its basis; post-mining's is always all of it and is not asked. D37:
      // a measured release asks what its meter saw.
      const basisField = await form.getByLabel(c.type === "underground" ? "Что измерено" : "Основа выброса метана").count();
      expect(basisField, c.type).toBe(["underground", "underground_emission_ch4"].includes(c.type) ? 1 : 0);
      if (c.type === "underground") await screenshot(page, { path: `${SHOTS}/web-calculation-dialog.png` });
      if (c.type === "open_mining_ch4") await screenshot(form, { path: `${SHOTS}/web-calculation-dialog-custom.png` });

      await form.getByRole("button", { name: "Создать" }).click();
      await form.waitFor({ state: "hidden" });
      await row(c.name.slice(0, 20)).waitFor();

      // The API stored exactly what the preview showed.
      const { results } = await list(c.type);
      expect(results).toHaveLength(1);
      const stored = results[0];
      expect(stored.name).toBe(c.name);
      for (const field of REGISTRY[c.type].results.filter((f) => f.type !== "table")) {
        const value = stored[field.name];
        expect(shown[field.name]).toBe(typeof value === "number" ? formatAmount(value, 2) : value);
      }

      // And the results dialog shows the same.
      await row(c.name.slice(0, 20)).click();
      const results_ = dialog(c.name);
      await results_.getByTestId("results-dialog").waitFor();
      expect(await previewTexts(results_, "stored", c.type)).toEqual(shown);
      await results_.getByText("Исходные данные и коэффициенты").waitFor();
      await results_.getByText("2026.3").waitFor();
      if (c.type === "underground") {
        expect(await results_.getByText("Газ дегазации угольных пластов, версия 1", { exact: true }).count()).toBe(2);
        await results_.getByText("Введено пользователем", { exact: true }).waitFor();
        await screenshot(page, { path: `${SHOTS}/web-calculation-results.png` });
        await results_.getByText("Версия методики").scrollIntoViewIfNeeded();
        await screenshot(page, { path: `${SHOTS}/web-calculation-results-audit.png` });
      }
      if (c.type === "open_mining_ch4") {
        await results_.getByText("Фактическое значение", { exact: true }).waitFor();
        await results_.getByText("Фиксированное значение", { exact: true }).waitFor();
      }
      await results_.getByRole("button", { name: "Закрыть" }).first().click();
      await results_.waitFor({ state: "hidden" });
    });
  }

  it("keeps the type across a reload (it is in the URL)", async () => {
    await chooseType("underground");
    await page.reload();
    await row("Дегазация").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-calculations.png` });
  });

  it("stores the quarter chosen in the dialog as the calculation's period and shows it in the results (D19)", async () => {
    await chooseType("handling_underground_ch4");
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = dialog("Новый расчет");
    await form.getByLabel("Название расчета").fill("Обработка, 2 квартал");
    await form.getByLabel("Объём добычи угля подземным способом", { exact: true }).fill("250000");
    await form.getByText("Квартал", { exact: true }).click();
    await pickOption(page, form.getByLabel("Квартал расчета"), "2 квартал 2024");
    await form.getByText("01.04.2024–30.06.2024", { exact: false }).waitFor();
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
    const stored = (await list("handling_underground_ch4")).results.find((c) => c.name === "Обработка, 2 квартал")!;
    expect(stored.period).toEqual({ from: "2024-04-01", to: "2024-06-30" });

    await row("Обработка, 2 квартал").click();
    const results_ = dialog("Обработка, 2 квартал");
    await results_.getByTestId("results-dialog").waitFor();
    await results_.getByText("01.04.2024–30.06.2024", { exact: true }).waitFor();
    await results_.getByRole("button", { name: "Закрыть" }).first().click();
    await results_.waitFor({ state: "hidden" });
  });

  it("edits a calculation: stored entries come back, a new volume gives a new stored result", async () => {
    await chooseType("underground_emission_ch4");
    await row("Подземная добыча").getByRole("button", { name: "Редактировать" }).click();
    const form = dialog("Редактирование расчета");
    const volume = form.getByLabel("Объём добычи угля подземным способом", { exact: true });
    await volume.waitFor();
    expect(await volume.inputValue()).toBe("1 000 000");
    expect(await form.getByLabel("Название расчета").inputValue()).toBe("Подземная добыча, 18 м³/т");
    await form.getByText("Подземная добыча, среднее значение МГЭИК").waitFor();
    await volume.fill("2000000");
    await form
      .getByTestId("preview-res_ch4")
      .filter({ hasText: nbsp("24 120,00") })
      .waitFor();
    await form.getByRole("button", { name: "Сохранить" }).click();
    await form.waitFor({ state: "hidden" });
    await row("603 000,00").waitFor();
    const [stored] = (await list("underground_emission_ch4")).results;
    expect(stored).toMatchObject({ volume: 2_000_000, res_ch4: 24120, version: 2 });
  });

  it("refuses to save over a newer version and offers to load it again", async () => {
    await row("Подземная добыча").getByRole("button", { name: "Редактировать" }).click();
    const form = dialog("Редактирование расчета");
    await form.getByLabel("Название расчета").waitFor();
    const [current] = (await list("underground_emission_ch4")).results;
    const other = await callApi("PATCH", `/api/v1/underground_emission_ch4/${current.id}/`, {
      name: "Изменено коллегой",
      version: current.version,
    });
    expect(other.status).toBe(200);
    await form.getByLabel("Объём добычи угля подземным способом", { exact: true }).fill("3000000");
    await form.getByRole("button", { name: "Сохранить" }).click();
    await form.getByRole("alert").filter({ hasText: "изменен другим пользователем" }).waitFor();
    await form.getByRole("button", { name: "Загрузить заново" }).click();
    await form.getByLabel("Название расчета").and(page.locator('[value="Изменено коллегой"]')).waitFor();
    expect(await form.getByLabel("Объём добычи угля подземным способом", { exact: true }).inputValue()).toBe("2 000 000");
    await form.getByRole("button", { name: "Отмена" }).click();
    await form.waitFor({ state: "hidden" });
  });

  it("archives a calculation after confirmation, lists it in the archive and restores it", async () => {
    await row("Изменено коллегой").getByRole("button", { name: "В архив" }).click();
    await page.getByText("Переместить расчет в архив?").waitFor();
    await page.getByRole("button", { name: "Переместить" }).click();
    await page.getByText("Список расчетов пуст").waitFor();
    await page.getByText("Архив", { exact: true }).click();
    await row("Изменено коллегой").getByRole("button", { name: "Восстановить" }).click();
    await page.getByText("В архиве нет расчетов").waitFor();
    await page.getByText("Активные", { exact: true }).click();
    await row("Изменено коллегой").waitFor();
    // Archived for good: the type shows the empty list again.
    await row("Изменено коллегой").getByRole("button", { name: "В архив" }).click();
    await page.getByRole("button", { name: "Переместить" }).click();
    await page.getByText("Список расчетов пуст").waitFor();
    expect((await list("underground_emission_ch4", true)).count).toBe(1);
  });

  it("pages 10 a page and goes back to page 1 when the type changes", async () => {
    for (let n = 1; n <= 10; n++) {
      const created = await callApi("POST", "/api/v1/open_mining_co2/", {
        name: `Самосвал ${String(n).padStart(2, "0")}`,
        project: projectId,
        volume: n,
        ef: 3.149,
      });
      expect(created.status).toBe(201);
    }
    await chooseType("open_mining_co2");
    await row("Самосвал 10").waitFor();
    expect(await page.locator(".ant-table-row").count()).toBe(10);
    await page.locator(".ant-pagination-item-2").click();
    await row("Карьерная техника").waitFor();
    expect(await page.locator(".ant-table-row").count()).toBe(1);
    await chooseType("torch_ch4");
    await row("Факел").waitFor();
    await chooseType("open_mining_co2");
    await row("Самосвал 10").waitFor();
    expect(await page.locator(".ant-pagination-item-active").innerText()).toBe("1");
  });
});
