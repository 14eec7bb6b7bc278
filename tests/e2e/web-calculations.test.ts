// The calculations screen in a real browser against the real local server (docs/user-guide.md;
// methodology D8, D9): one calculation of every formula type through the registry-driven dialog,
// each live preview (the wasm core in the page) equal to the stored result the results dialog
// shows and to the API's number, and the type in the URL across a reload. Opening from the project's
// row, the quarter, edit, the refused save over a newer version, archive, restore and paging are
// checked in web/src/features/calculations/CalculationsPage.test.tsx.
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

/** What to do in the dialog for one type, and the preview it must show (the type's worked examples, `vectors` of its module). */
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
    fill: { "Объём газовой смеси (вентиляция, дегазация), измеренный": "10000" },
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

  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });
  const dialog = (name: string) => page.getByRole("dialog", { name });

  const callApi = <T>(method: string, path: string, body?: unknown) => callPageApi<T>(page, method, path, body);

  const list = async (type: FormulaType) =>
    (
      await callApi<{ results: CalculationView[]; count: number }>(
        "GET",
        `/api/v1/${type}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
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
    // The project is made through the API; the page then opens once, signed in on its calculations.
    [projectId] = await createProjectsAs(server.url, server.demo, [PROJECT]);
    app = await openWebApp(server);
    ({ page, pageErrors } = app);
    await signIn(page, server.url, server.demo, `/projects/${projectId}/calculations`);
  });

  // Each test's own uncaught errors in the page, checked after it: none.
  afterEach(() => expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
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
      await results_.getByText("2026.7").waitFor();
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
});
